package emit

import (
	"slices"
	"testing"
)

// TestSanitizeLine: printable ASCII is kept as it is (trailing blanks cut);
// tabs, control and format characters become spaces and invalid UTF-8 the
// replacement character, whichever path a line takes.
func TestSanitizeLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"plain text ~!", "plain text ~!"},
		{"trailing   ", "trailing"},
		{"tab\there", "tab here"},
		{"del\x7fx", "del x"},
		{"nul\x00x\x1f", "nul x"},
		{"é ok", "é ok"},
		{"bad \xff", "bad \uFFFD"},
		{"bom\uFEFF\u2028x \u0085", "bom  x"},
	} {
		if got := sanitizeLine(c.in); got != c.want {
			t.Errorf("sanitizeLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestDocLines: every kind of line break splits lines, blank lines at either
// end are dropped, blank lines in a row are one, HTML is text.
func TestDocLines(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"one\ntwo", []string{"one", "two"}},
		{"\n\n a\r\nb\rc\u2028d\u2029e \n\n", []string{" a", "b", "c", "d", "e"}},
		{"a\n\nb", []string{"a", "", "b"}},
		{" \n\t\n", nil},
		{"a\n\n\n \n\nb\n\n", []string{"a", "", "b"}},
		{"<p>a</p>\n\n<p>b &amp; c</p>", []string{"a", "", "b & c"}},
	} {
		if got := docLines(c.in); !slices.Equal(got, c.want) {
			t.Errorf("docLines(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
