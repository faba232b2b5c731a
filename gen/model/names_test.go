package model

import (
	"go/token"
	"strings"
	"testing"
	"testing/quick"
	"unicode/utf8"
)

func TestGoName(t *testing.T) {
	long := strings.Repeat("a_", 31) + "bc" // 64 characters
	for _, tc := range []struct{ in, want string }{
		{"user_id", "UserID"},
		{"userId", "UserID"},
		{"UserID", "UserID"},
		{"user-id", "UserID"},
		{"user.id", "UserID"},
		{"user id", "UserID"},
		{"get_n_day_weather_forecast", "GetNDayWeatherForecast"},
		{"get_current_weather", "GetCurrentWeather"},
		{"HTTPServer", "HTTPServer"},
		{"httpServer", "HTTPServer"},
		{"http_server", "HTTPServer"},
		{"urls", "URLs"},
		{"ids", "IDs"},
		{"api_key", "APIKey"},
		{"json", "JSON"},
		{"os", "OS"},   // an initialism, not the plural of "o"
		{"is", "Is"},   // "i" is no initialism
		{"bus", "Bus"}, // nor is "bu"
		{"2fa", "X2fa"},
		{"2FA", "X2FA"},
		{"_2fa", "X2fa"},
		{"名前", "X名前"},
		{"名前_id", "X名前ID"},
		{"über_cool", "ÜberCool"},
		{"çava", "Çava"},
		{"straße", "Straße"},
		{"Δelta", "Δelta"},
		{"δelta", "Δelta"},
		{"", ""},
		{"---", ""},
		{"_", ""},
		{"  ", ""},
		{"🙂", ""},
		{"a🙂b", "AB"},
		{"type", "Type"},
		{"func", "Func"},
		{"map", "Map"},
		{"string", "String"},
		{"x", "X"},
		{"X", "X"},
		{"a1b2", "A1b2"},
		{"v2_api", "V2API"},
		{"oauth", "OAuth"},
		{"oauth2", "OAuth2"},
		{"oauth_token", "OAuthToken"},
		{"oauths", "OAuths"},
		{"ip4", "IP4"},
		{"http2_server", "HTTP2Server"},
		{"utf8", "UTF8"},
		{"md5", "Md5"}, // no initialism
		{long, strings.Repeat("A", 31) + "Bc"},
		{strings.Repeat("x", 64), "X" + strings.Repeat("x", 63)},
		{"a\u0301b", "AB"}, // a combining mark is neither letter nor digit
	} {
		if got := GoName(tc.in); got != tc.want {
			t.Errorf("GoName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// validName reports whether s is "" or an exported Go identifier.
func validName(s string) bool {
	return s == "" || token.IsIdentifier(s) && token.IsExported(s)
}

func TestGoNameProperty(t *testing.T) {
	f := func(s string) bool { return validName(GoName(s)) }
	if err := quick.Check(f, &quick.Config{MaxCount: 5000}); err != nil {
		t.Error(err)
	}
	// quick's strings are mostly exotic runes; also mix in ASCII separators.
	g := func(parts []string, seps []byte) bool {
		var b strings.Builder
		for i, p := range parts {
			b.WriteString(p)
			if len(seps) > 0 {
				b.WriteByte("_-. 0/$"[int(seps[i%len(seps)])%7])
			}
		}
		return validName(GoName(b.String()))
	}
	if err := quick.Check(g, &quick.Config{MaxCount: 2000}); err != nil {
		t.Error(err)
	}
}

func FuzzGoName(f *testing.F) {
	for _, s := range []string{"user_id", "HTTPServer", "2fa", "名前", "---", "", "ǅemal", "ᾈ", "𝔘nicode", "Ⅸ_roman", "a\u0301"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name := GoName(s)
		if !validName(name) {
			t.Fatalf("GoName(%q) = %q: not an exported identifier", s, name)
		}
		if name != GoName(s) {
			t.Fatalf("GoName(%q) is not deterministic", s)
		}
		if utf8.ValidString(s) && name == "" && strings.IndexFunc(s, IsLetterOrDigit) >= 0 {
			t.Fatalf("GoName(%q) = \"\" for a name with letters or digits", s)
		}
		if c := Camel(s); c != "" && !token.IsIdentifier("X"+c) {
			t.Fatalf("camel(%q) = %q: not an identifier suffix", s, c)
		}
	})
}

func TestScopeTake(t *testing.T) {
	s := NewScope("Service", "Client")
	for _, tc := range []struct{ base, want string }{
		{"UserID", "UserID"},
		{"UserID", "UserID2"}, // user_id and userId
		{"UserID", "UserID3"},
		{"UserID2", "UserID22"}, // taken by the second UserID
		{"Client", "Client2"},   // reserved
		{"Service", "Service2"},
		{"Client", "Client3"},
		{"Other", "Other"},
	} {
		if got := s.Take(tc.base); got != tc.want {
			t.Errorf("take(%q) = %q, want %q", tc.base, got, tc.want)
		}
	}
	for _, name := range []string{"UserID", "UserID2", "UserID3", "UserID22", "Client", "Client2", "Client3", "Service", "Service2", "Other"} {
		if !s.Has(name) {
			t.Errorf("has(%q) = false after it was taken", name)
		}
	}
	if s.Has("Nope") {
		t.Error(`has("Nope") = true`)
	}

	// Same inputs, same names: the result depends on the order of takes only.
	a, b := NewScope(), NewScope()
	for _, base := range []string{"A", "A", "A2", "A", "B"} {
		if x, y := a.Take(base), b.Take(base); x != y {
			t.Errorf("take(%q): %q and %q from two scopes", base, x, y)
		}
	}
}

// TestScopeSub: a sub-scope takes around its parent's names and its own,
// and leaves the parent and its siblings alone.
func TestScopeSub(t *testing.T) {
	base := NewScope("err", "ctx", "x")
	a, b := base.Sub(), base.Sub()
	for _, tc := range []struct {
		s          *Scope
		base, want string
	}{
		{a, "err", "err2"}, // the parent's
		{a, "err", "err3"},
		{a, "n", "n"},
		{a, "n", "n2"}, // its own
		{b, "n", "n"},  // a sibling's is free
		{b, "err", "err2"},
		{b, "x", "x2"},
	} {
		if got := tc.s.Take(tc.base); got != tc.want {
			t.Errorf("Take(%q) = %q, want %q", tc.base, got, tc.want)
		}
	}
	if base.Has("n") || base.Has("err2") {
		t.Error("a sub-scope's names reached its parent")
	}
	if !a.Has("ctx") || !a.Has("n2") {
		t.Error("Has misses the parent's or its own names")
	}
}

// TestSchemeWord: a security scheme's option drops the minor version its
// name ends with (WithOAuth2, not WithOAuth20).
func TestSchemeWord(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"oauth_2_0", "OAuth2"},
		{"OAuth2.0", "OAuth2"},
		{"oauth2", "OAuth2"},
		{"api_key", "APIKey"},
		{"v1_0_0", "V1"},
		{"0", "X0"},
		{"key_10", "Key10"},
	} {
		if got := GoName(schemeWord(tc.in)); got != tc.want {
			t.Errorf("GoName(schemeWord(%q)) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestNestedName: a nested name within the bound is the parent's and the
// member's; beyond, the member's with the fewest of the parent's last words
// that say something and are free, never a name starting with a digit.
func TestNestedName(t *testing.T) {
	s := NewScope()
	parent := "AccountSettingsAuthenticationVariant1AuthenticationOptionsItem"
	if got := NestedName(s, "Pet", "Owner"); got != "PetOwner" {
		t.Errorf("NestedName(Pet, Owner) = %q", got)
	}
	first := NestedName(s, parent, "Type")
	if first != "AuthenticationOptionsItemType" {
		t.Errorf("NestedName(%s, Type) = %q", parent, first)
	}
	s.Take(first)
	if got := NestedName(s, parent, "Type"); got != "Variant1AuthenticationOptionsItemType" {
		t.Errorf("NestedName(%s, Type) once %s is taken = %q", parent, first, got)
	}
	long := strings.Repeat("Abc", 30)
	if got := NestedName(s, long, "Type"); got != "AbcAbcType" {
		t.Errorf("NestedName(%s, Type) = %q", long, got)
	}
}
