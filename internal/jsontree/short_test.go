package jsontree

import (
	"strings"
	"testing"
)

func TestShortPointer(t *testing.T) {
	deep := "/functions/0/parameters/0/schema" + strings.Repeat("/properties/a", 4995) + "/type"
	long := strings.Repeat("é", 200)
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"/a/b", "/a/b"},
		{deep, "/functions/0/parameters/0/…(9,988 more)…/a/properties/a/type"},
		{"/" + long + "/x", "/" + strings.Repeat("é", 12) + "…/x"},
		{"/" + strings.Repeat("x", 300), "/" + strings.Repeat("x", 24) + "…"},
	} {
		got := ShortPointer(c.in)
		if got != c.want {
			t.Errorf("ShortPointer(%.60q…) = %q, want %q", c.in, got, c.want)
		}
		if len(got) > 300 {
			t.Errorf("ShortPointer(%.60q…) has %d bytes", c.in, len(got))
		}
	}
	// the worst case: long tokens at both ends
	worst := strings.Repeat("/"+strings.Repeat("k", 1000), 20)
	if got := ShortPointer(worst); len(got) > 300 || !strings.Contains(got, "…(12 more)…") {
		t.Errorf("ShortPointer(20 long tokens) = %q (%d bytes)", got, len(got))
	}
}
