package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/civil"
)

type point struct {
	X int `json:"x"`
	Y int `json:"y"`
}

type color string

// The examples of the OpenAPI specification's style table.
func TestSerializePath(t *testing.T) {
	obj := map[string]int{"R": 100} // one member: map order does not matter
	for _, tc := range []struct {
		style Style
		v     any
		want  string
	}{
		{Simple, "blue", "blue"},
		{Simple, []string{"blue", "black", "brown"}, "blue,black,brown"},
		{Simple, point{1, 2}, "x,1,y,2"},
		{Simple | Explode, point{1, 2}, "x=1,y=2"},
		{Simple, obj, "R,100"},
		{Label, "blue", ".blue"},
		{Label, []string{"blue", "black"}, ".blue,black"},
		{Label | Explode, []string{"blue", "black"}, ".blue.black"},
		{Label | Explode, point{1, 2}, ".x=1.y=2"},
		{Matrix, "blue", ";color=blue"},
		{Matrix, []string{"blue", "black"}, ";color=blue,black"},
		{Matrix | Explode, []string{"blue", "black"}, ";color=blue;color=black"},
		{Matrix, point{1, 2}, ";color=x,1,y,2"},
		{Matrix | Explode, point{1, 2}, ";x=1;y=2"},
		{Simple, "a/b c?d#e%f", "a%2Fb%20c%3Fd%23e%25f"},
		{Simple, color("red"), "red"},
		{Simple, int32(-3), "-3"},
		{Simple, 1.5, "1.5"},
		{Simple, true, "true"},
		{Simple, time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), "2024-01-02T03%3A04%3A05Z"},
	} {
		pv, err := paramValueOf(tc.v)
		if err != nil {
			t.Fatal(err)
		}
		ser, err := pathPlace.serializationOf("color", []Style{tc.style})
		if err != nil {
			t.Fatal(err)
		}
		if got := serializePath("color", pv, ser); got != tc.want {
			t.Errorf("%v %v: got %q, want %q", tc.style, tc.v, got, tc.want)
		}
	}
}

func TestQueryStyles(t *testing.T) {
	for _, tc := range []struct {
		styles []Style
		v      any
		want   string
	}{
		{nil, "blue", "color=blue"},
		{nil, []string{"blue", "black"}, "color=blue&color=black"},
		{[]Style{NoExplode}, []string{"blue", "black"}, "color=blue,black"},
		{nil, point{1, 2}, "x=1&y=2"},
		{[]Style{NoExplode}, point{1, 2}, "color=x,1,y,2"},
		{[]Style{SpaceDelimited}, []string{"blue", "black"}, "color=blue%20black"},
		{[]Style{PipeDelimited}, []string{"blue", "black"}, "color=blue|black"},
		{[]Style{DeepObject}, point{1, 2}, "color%5Bx%5D=1&color%5By%5D=2"},
		{nil, "a b&c=d+e", "color=a%20b%26c%3Dd%2Be"},
		{[]Style{AllowReserved}, "/a/b?c=d", "color=/a/b?c%3Dd"},
		{nil, []string{}, ""},
		{nil, (*string)(nil), ""},
		{nil, json.RawMessage(`["a",1,null,{"b":2}]`), `color=a&color=1&color=%7B%22b%22%3A2%7D`},
		{[]Style{Form | NoExplode}, []string{"a", "b"}, "color=a,b"},
		{[]Style{Form, NoExplode}, []string{"a", "b"}, "color=a,b"},
		{[]Style{PipeDelimited}, point{1, 2}, "color=x|1|y|2"},
		{[]Style{SpaceDelimited, Explode}, []string{"a", "b"}, "color=a&color=b"},
		{[]Style{DeepObject, Explode}, []string{"a", "b"}, "color=a,b"},
	} {
		var q Query
		if err := q.Add("color", tc.v, tc.styles...); err != nil {
			t.Fatal(err)
		}
		if got := q.Encode(); got != tc.want {
			t.Errorf("%v %v: got %q, want %q", tc.styles, tc.v, got, tc.want)
		}
	}
}

// Each place's default serialisation, the explicit ones, and the clear
// error of a style a place does not have.
func TestRequestStyles(t *testing.T) {
	c := NewClient("http://x")
	r := c.NewRequest("GET", "/{a}/{b}/{c}")
	r.Path("a", []string{"x", "y"})
	r.Path("b", point{1, 2}, Label, Explode)
	r.Path("c", point{1, 2}, Matrix|Explode)
	r.Query("q", []int{1, 2})
	r.Query("n", []int{1, 2}, NoExplode)
	r.Header("X-P", point{1, 2})
	r.Header("X-E", point{1, 2}, Explode)
	r.Cookie("c", []int{1, 2})
	r.Cookie("d", []int{1, 2}, NoExplode)
	if u, err := r.URL(); err != nil || u != "http://x/x,y/.x=1.y=2/;x=1;y=2?q=1&q=2&n=1,2" {
		t.Errorf("URL: %q, %v", u, err)
	}
	if got := r.header.Get("X-P") + " " + r.header.Get("X-E"); got != "x,1,y,2 x=1,y=2" {
		t.Errorf("headers: %q", got)
	}
	if got := strings.Join(r.cookies, "; "); got != "c=1; c=2; d=1,2" {
		t.Errorf("cookies: %q", got)
	}
	for _, tc := range []struct {
		set  func(r *Request)
		want string
	}{
		{func(r *Request) { r.Query("q", 1, Label) }, `query parameter "q": Label does not apply to a query parameter`},
		{func(r *Request) { r.Path("p", 1, Simple, Matrix) }, `path parameter "p": more than one style: Simple|Matrix`},
		{func(r *Request) { r.Path("p", 1, AllowReserved) }, `path parameter "p": AllowReserved does not apply to a path parameter`},
		{func(r *Request) { r.Header("h", 1, Form) }, `header "h": Form does not apply to a header`},
		{func(r *Request) { r.Cookie("c", 1, Explode, NoExplode) }, `cookie "c": both Explode and NoExplode`},
		{func(r *Request) { r.FormField("f", 1, Matrix|Style(1<<12)) }, `query parameter "f": Matrix|Style(0x1000) does not apply to a query parameter`},
	} {
		r := c.NewRequest("GET", "/")
		tc.set(r)
		if _, err := r.URL(); err == nil || err.Error() != tc.want {
			t.Errorf("got %v, want %s", err, tc.want)
		}
	}
}

func TestRequestHeadersAndCookies(t *testing.T) {
	c := NewClient("http://x/base/")
	c.SetCredential("key", APIKeyCredential("query", "api key", "s&cret"))
	r := c.NewRequest("GET", "/a/{id}")
	r.Path("id", "x y")
	r.Query("q", "1")
	r.Security("key")
	u, err := r.URL()
	if err != nil || u != "http://x/base/a/x%20y?q=1&api%20key=s%26cret" {
		t.Errorf("URL: %q, %v", u, err)
	}
	r = c.NewRequest("GET", "/a/{id}")
	if _, err := r.URL(); err == nil || !strings.Contains(err.Error(), `"id" has no value`) {
		t.Errorf("missing path parameter: %v", err)
	}
	r.Header("X-H", "a\r\nInjected: yes")
	if _, err := r.URL(); err == nil || !strings.Contains(err.Error(), "line break") {
		t.Errorf("header injection: %v", err)
	}
	r = c.NewRequest("GET", "/")
	r.Cookie("c", []string{"a b", "c;d"})
	r.Cookie("d", []string{"x", "y"}, NoExplode)
	if got := strings.Join(r.cookies, "; "); got != "c=a%20b; c=c%3Bd; d=x,y" {
		t.Errorf("cookies: %q", got)
	}
}

func TestCredentialHidesSecret(t *testing.T) {
	for _, c := range []Credential{APIKeyCredential("header", "X-Key", "s3cr3t"), BearerCredential("s3cr3t"), BasicCredential("me", "s3cr3t")} {
		for _, s := range []string{c.String(), fmt.Sprint(c), fmt.Sprintf("%v %+v %#v", c, c, c)} {
			if strings.Contains(s, "s3cr3t") {
				t.Errorf("credential shows its secret: %s", s)
			}
		}
	}
}

func TestResponseIs(t *testing.T) {
	r := &Response{StatusCode: 404}
	for status, want := range map[string]bool{"404": true, "4XX": true, "4xx": true, "5XX": false, "400": false, "default": true} {
		if got := r.Is(status); got != want {
			t.Errorf("404 Is %q: got %v", status, got)
		}
	}
}

func TestToolError(t *testing.T) {
	r := &Response{StatusCode: 404, Body: []byte(`{"message":"no pet"}`), method: "GET", path: "/pets/{id}"}
	err := runtime.ToolError(NewAPIError[map[string]string](r))
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != 404 || string(e.Data) != `{"message":"no pet"}` || e.Message != "HTTP 404 Not Found" {
		t.Errorf("got %#v", err)
	}
	err = runtime.ToolError((&Response{StatusCode: 502, Body: []byte("bad gateway")}).Unexpected())
	if !errors.As(err, &e) || e.Code != 502 || string(e.Data) != `"bad gateway"` {
		t.Errorf("got %#v", err)
	}
	plain := errors.New("x")
	if runtime.ToolError(plain) != plain {
		t.Error("a plain error changed")
	}
	var apiErr *APIError[map[string]string]
	if err := NewAPIError[map[string]string](r); !errors.As(err, &apiErr) || apiErr.Body["message"] != "no pet" || !strings.Contains(err.Error(), "GET /pets/{id}: HTTP 404 Not Found") {
		t.Errorf("APIError: %v", err)
	}
}

func TestRequestSend(t *testing.T) {
	var got *http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		w.WriteHeader(204)
	}))
	defer srv.Close()
	c := NewClient(srv.URL)
	c.SetCredential("cookie", APIKeyCredential("cookie", "sid", "s 1"))
	c.SetCredential("header", APIKeyCredential("header", "X-Key", "k"))
	r := c.NewRequest("GET", "/x")
	r.Cookie("pref", "a")
	r.Security("missing")          // the client has no credential for it
	r.Security("cookie", "header") // both: sent together
	resp, err := r.Send(context.Background())
	if err != nil || resp.StatusCode != 204 {
		t.Fatal(resp, err)
	}
	if c := got.Header.Get("Cookie"); c != "pref=a; sid=s%201" {
		t.Errorf("Cookie: %q", c)
	}
	if k := got.Header.Get("X-Key"); k != "k" {
		t.Errorf("X-Key: %q", k)
	}

	// A failing editor aborts the call; a transport error hides the query.
	c.Editors = append(c.Editors, func(context.Context, *http.Request) error { return errors.New("no") })
	if _, err := c.NewRequest("GET", "/x").Send(context.Background()); err == nil || err.Error() != "no" {
		t.Errorf("editor error: %v", err)
	}
	c = NewClient("http://127.0.0.1:1")
	c.SetCredential("q", APIKeyCredential("query", "key", "s3cr3t"))
	r = c.NewRequest("GET", "/x")
	r.Security("q")
	if _, err := r.Send(context.Background()); err == nil || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("transport error shows the key: %v", err)
	}
}

// TestPathFragment checks that a path template's fragment (AWS's documents
// converted to OpenAPI: "/#Action=X", the action also a query parameter) is
// not sent and the query goes before it, not into it.
func TestPathFragment(t *testing.T) {
	var got *http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		w.WriteHeader(204)
	}))
	defer srv.Close()
	for _, path := range []string{"/#Action=DescribeTags", "/{region}/#Action=DescribeTags"} {
		r := NewClient(srv.URL+"/").NewRequest("POST", path)
		r.Path("region", "eu#1")
		r.Query("Action", "DescribeTags")
		r.Query("Version", "2016-11-15")
		if _, err := r.Send(context.Background()); err != nil {
			t.Fatal(path, err)
		}
		want := "/"
		if strings.HasPrefix(path, "/{") {
			want = "/eu%231/"
		}
		if got.URL.EscapedPath() != want || got.URL.RawQuery != "Action=DescribeTags&Version=2016-11-15" {
			t.Errorf("%s: sent %s ? %s, want %s ? Action=DescribeTags&Version=2016-11-15", path, got.URL.EscapedPath(), got.URL.RawQuery, want)
		}
	}
}

func TestResponseHeaderValue(t *testing.T) {
	r := &Response{StatusCode: 200, Header: http.Header{"X-N": {"7"}, "X-F": {"2.5"}, "X-B": {"true"}, "X-S": {" a b "}, "X-Bad": {"x"}}, method: "GET", path: "/p"}
	var n int64
	var f *float64
	var b *bool
	var s string
	var absent *int64
	for _, c := range []struct {
		name string
		dst  any
	}{{"x-n", &n}, {"X-F", &f}, {"X-B", &b}, {"X-S", &s}, {"X-None", &absent}} {
		if err := r.HeaderValue(c.name, c.dst); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if n != 7 || f == nil || *f != 2.5 || b == nil || !*b || s != "a b" || absent != nil {
		t.Errorf("got %v %v %v %q %v", n, f, b, s, absent)
	}
	var bad *bool
	err := r.HeaderValue("X-Bad", &bad)
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != http.StatusBadGateway || !strings.Contains(e.Message, `header X-Bad is "x", not a boolean`) || bad != nil {
		t.Errorf("a bad boolean: %v, %v", err, bad)
	}
}

func TestServerVariables(t *testing.T) {
	c := NewClient("")
	c.SetServer("https://{region}.example.com/{v}", "region", "eu", "v", "v1")
	c.SetServerVariable("v", "v2")
	u, err := c.NewRequest("GET", "/a").URL()
	if err != nil || u != "https://eu.example.com/v2/a" {
		t.Errorf("client server: %q, %v", u, err)
	}
	r := c.NewRequest("GET", "/b")
	r.Server("http://{region}.up.example.com/{v}/{x}", "region", "us", "v", "v0", "x", "y")
	if u, err := r.URL(); err != nil || u != "http://us.up.example.com/v2/y/b" {
		t.Errorf("operation server: %q, %v", u, err)
	}
	c.SetServerVariable("region", "mars", "eu", "us")
	if _, err := c.NewRequest("GET", "/a").URL(); err == nil || err.Error() != `rest: server variable "region": got "mars", want one of "eu", "us"` {
		t.Errorf("outside the enum: %v", err)
	}
	given := NewClient("http://h/base")
	r = given.NewRequest("GET", "/c")
	r.Server("http://other/")
	if u, err := r.URL(); err != nil || u != "http://h/base/c" {
		t.Errorf("a base URL given: %q, %v", u, err)
	}
}

// TestRelativeServers: a relative server resolves against the base URL
// given (RFC 3986), an operation's relative server against the client's
// absolute one; with nothing to resolve against, and with neither a base
// URL nor a server, the URL is an error that says to give the base URL.
func TestRelativeServers(t *testing.T) {
	for _, c := range []struct {
		base, server, opServer, want string
	}{
		{"http://h", "/api/{v}", "", "http://h/api/v3/a"},
		{"http://h/", "/api/{v}", "", "http://h/api/v3/a"},
		{"http://h/api/v3", "/api/{v}", "", "http://h/api/v3/a"},
		{"http://h/x/", "v1", "", "http://h/x/v1/a"},
		{"http://h", "https://abs.example.com", "/up", "http://h/up/a"},
		{"", "https://abs.example.com/v1", "/up/{v}", "https://abs.example.com/up/v3/a"},
		{"", "https://abs.example.com/v1", "", "https://abs.example.com/v1/a"},
		{"http://h", "https://abs.example.com/v1", "", "http://h/a"},
	} {
		cl := NewClient(c.base)
		cl.SetServer(c.server, "v", "v3")
		r := cl.NewRequest("GET", "/a")
		if c.opServer != "" {
			r.Server(c.opServer, "v", "v3")
		}
		if u, err := r.URL(); err != nil || u != c.want {
			t.Errorf("base %q, server %q, operation's %q: %q, %v; want %q", c.base, c.server, c.opServer, u, err, c.want)
		}
	}
	cl := NewClient("")
	cl.SetServer("/api/{v}", "v", "v3")
	_, err := cl.NewRequest("GET", "/a").URL()
	var rel *RelativeServerError
	if !errors.As(err, &rel) || rel.Server != "/api/v3" ||
		err.Error() != `rest: the document's server "/api/v3" is a relative URL and the client has no base URL to resolve it against: give the API's base URL (base URL "https://host" calls "https://host/api/v3")` {
		t.Errorf("a relative server, no base URL: %v", err)
	}
	if _, err := NewClient("").NewRequest("GET", "/a").URL(); err == nil || !strings.Contains(err.Error(), "no base URL") {
		t.Errorf("no base URL, no server: %v", err)
	}
}

// TestCheck: what keeps a client from calling is reported by Check, once
// configured (a generated NewClient returns it), each error naming what is
// wrong and never the base URL's credentials; a client that can call has
// none.
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name, base, server, want string
		vars                     []string // name, value, enum…
	}{
		{name: "a base URL", base: "http://h/v1"},
		{name: "an absolute server", server: "https://{r}.example.com"},
		{name: "a relative server and a base URL", base: "http://h", server: "/api/{v}"},
		{name: "a variable in its enum", server: "https://{r}.example.com", vars: []string{"r", "eu", "eu", "us"}},
		{name: "a relative server", server: "/api/{v}",
			want: `rest: the document's server "/api/v3" is a relative URL and the client has no base URL to resolve it against: give the API's base URL (base URL "https://host" calls "https://host/api/v3")`},
		{name: "neither", want: ErrNoBaseURL.Error()},
		{name: "a variable outside its enum", server: "https://{r}.example.com", vars: []string{"r", "mars", "eu", "us"},
			want: `rest: server variable "r": got "mars", want one of "eu", "us"`},
		{name: "a variable that breaks the URL", server: "https://{r}.example.com", vars: []string{"r", "a b"},
			want: `rest: server "https://{r}.example.com", its variables substituted ("https://a b.example.com"): invalid character " " in host name`},
		{name: "a base URL without scheme", base: "localhost:8080",
			want: `rest: base URL "localhost:8080": got no scheme and host, want an absolute URL such as "https://api.example.com/v1"`},
		{name: "a base URL with credentials", base: "https://user:secret@h:bad/?key=secret2",
			want: `rest: base URL "https://h:bad/": invalid port ":bad" after host`},
		{name: "a relative base URL", base: "/v1?key=secret",
			want: `rest: base URL "/v1": got no scheme and host, want an absolute URL such as "https://api.example.com/v1"`},
	} {
		cl := NewClient(c.base)
		if c.server != "" {
			cl.SetServer(c.server, "v", "v3", "r", "us")
		}
		if len(c.vars) > 0 {
			cl.SetServerVariable(c.vars[0], c.vars[1], c.vars[2:]...)
		}
		err := cl.Check()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("%s: got %v, want %s", c.name, err, c.want)
		case err != nil && strings.Contains(err.Error(), "secret"):
			t.Errorf("%s: the error shows a credential: %v", c.name, err)
		}
	}
	var rel *RelativeServerError
	cl := NewClient("")
	cl.SetServer("/api")
	if err := cl.Check(); !errors.As(err, &rel) || rel.Server != "/api" {
		t.Errorf("a relative server: %v, want a *RelativeServerError", err)
	}
	if err := NewClient("").Check(); !errors.Is(err, ErrNoBaseURL) {
		t.Errorf("neither: %v, want ErrNoBaseURL", err)
	}
}

func TestJSONContentParameter(t *testing.T) {
	c := NewClient("http://h")
	r := c.NewRequest("GET", "/p/{id}")
	r.Path("id", JSONContent(map[string]int{"a": 1}))
	r.Query("q", JSONContent([]string{"x y"}))
	var none *string
	r.Query("n", JSONContent(none))
	if u, err := r.URL(); err != nil || u != "http://h/p/%7B%22a%22%3A1%7D?q=%5B%22x%20y%22%5D&n=null" {
		t.Errorf("got %q, %v", u, err)
	}
}

// nullList is a slice type that marshals a nil value as a list of its own.
type nullList []string

func (l nullList) MarshalJSON() ([]byte, error) {
	if l == nil {
		return []byte(`["none"]`), nil
	}
	return json.Marshal([]string(l))
}

// TestRequestNilParameters: generated code passes an optional query, header
// or cookie argument as it is, without testing it first, so a nil pointer,
// slice or map (in the interface) must send nothing and fail nothing,
// while an empty slice and a slice type's own JSON for nil still count.
func TestRequestNilParameters(t *testing.T) {
	var got *http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		w.WriteHeader(204)
	}))
	defer srv.Close()
	c := NewClient(srv.URL)
	r := c.NewRequest("GET", "/x")
	var (
		n    *int64
		s    *string
		list []string
		m    map[string]string
		nl   nullList
		a    any
	)
	for _, v := range []any{n, s, list, m, a} {
		r.Query("q", v)
		r.Query("q", v, NoExplode)
		r.Query("d", v, DeepObject)
		r.Header("X-H", v)
		r.Cookie("c", v)
	}
	r.Query("empty", []string{}, NoExplode)
	r.Query("nl", nl, NoExplode)
	r.Header("X-Nl", nl)
	resp, err := r.Send(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 204 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if q := got.URL.RawQuery; q != "empty=&nl=none" {
		t.Errorf("query %q, want %q", q, "empty=&nl=none")
	}
	if h := got.Header.Get("X-H"); h != "" {
		t.Errorf("header X-H %q, want none", h)
	}
	if h := got.Header.Get("X-Nl"); h != "none" {
		t.Errorf("header X-Nl %q, want none (the type's own JSON)", h)
	}
	if ck := got.Header.Get("Cookie"); ck != "" {
		t.Errorf("cookies %q, want none", ck)
	}
}

// TestErrorFor: a response of one of the statuses is the typed API error
// with its body, any other the unexpected status.
func TestErrorFor(t *testing.T) {
	type apiErr struct {
		Message string `json:"message"`
	}
	for _, tc := range []struct {
		status int
		typed  bool
	}{{404, true}, {400, true}, {503, true}, {302, false}, {200, false}} {
		r := &Response{StatusCode: tc.status, Body: []byte(`{"message":"m"}`), method: "GET", path: "/x"}
		err := ErrorFor[apiErr](r, "404", "4XX", "5xx")
		var ae *APIError[apiErr]
		var se *StatusError
		switch {
		case tc.typed && (!errors.As(err, &ae) || ae.StatusCode != tc.status || ae.Body.Message != "m" || ae.Operation != "GET /x"):
			t.Errorf("%d: %v, want an *APIError with the body", tc.status, err)
		case !tc.typed && (!errors.As(err, &se) || se.StatusCode != tc.status):
			t.Errorf("%d: %v, want a *StatusError", tc.status, err)
		}
	}
	if err := ErrorFor[apiErr](&Response{StatusCode: 404}); !errors.As(err, new(*StatusError)) {
		t.Errorf("no statuses: %v, want a *StatusError", err)
	}
}

// TestDateParameters: a civil.Date travels as YYYY-MM-DD in every place,
// alone, through a pointer and in a list; a nil one is absent; one that is
// not a valid date fails the request naming the parameter.
func TestDateParameters(t *testing.T) {
	c := NewClient("http://x")
	day := civil.Date{Year: 2026, Month: time.March, Day: 9}
	var none *civil.Date
	r := c.NewRequest("GET", "/{a}/{b}/{c}")
	r.Path("a", day)
	r.Path("b", &day, Label)
	r.Path("c", []civil.Date{day, day.AddDays(1)}, Matrix)
	r.Query("since", &day)
	r.Query("until", none)
	r.Query("days", []civil.Date{day, day.AddDays(1)}, NoExplode)
	r.Header("X-Day", day)
	r.Cookie("day", &day)
	if u, err := r.URL(); err != nil || u != "http://x/2026-03-09/.2026-03-09/;c=2026-03-09,2026-03-10?since=2026-03-09&days=2026-03-09,2026-03-10" {
		t.Errorf("URL: %q, %v", u, err)
	}
	if got := r.header.Get("X-Day"); got != "2026-03-09" {
		t.Errorf("header: %q", got)
	}
	if got := strings.Join(r.cookies, "; "); got != "day=2026-03-09" {
		t.Errorf("cookies: %q", got)
	}
	r = c.NewRequest("GET", "/")
	r.Query("since", civil.Date{Year: 2026, Month: time.February, Day: 30})
	if _, err := r.URL(); err == nil || err.Error() != `query parameter "since": civil.Date: 2026-02-30 is not a valid date` {
		t.Errorf("invalid date: %v", err)
	}
}
