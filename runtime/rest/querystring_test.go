package rest

import (
	"strings"
	"testing"
)

// TestQueryString: the whole query string from one value, as a form (an
// object's members, null ones left out, arrays exploded, reserved
// characters escaped) or as JSON text; query parameters follow it; a form of
// a value that is not an object is an error of the call.
func TestQueryString(t *testing.T) {
	type filter struct {
		Color string   `json:"color"`
		Sizes []int    `json:"sizes"`
		Name  *string  `json:"name"`
		Note  string   `json:"note,omitempty"`
		Tags  []string `json:"tags,omitempty"`
	}
	name := "a&b=c d"
	cases := []struct {
		name  string
		set   func(r *Request)
		want  string
		error string
	}{
		{"form", func(r *Request) { r.QueryString(filter{Color: "red", Sizes: []int{1, 2}, Name: &name}) },
			"http://x/p?color=red&sizes=1&sizes=2&name=a%26b%3Dc%20d", ""},
		{"form, null left out", func(r *Request) { r.QueryString(&filter{Color: "é"}) }, "http://x/p?color=%C3%A9", ""},
		{"nil", func(r *Request) { r.QueryString(nil); r.QueryString((*filter)(nil)) }, "http://x/p", ""},
		{"json", func(r *Request) { r.QueryString(JSONContent(map[string]any{"a": []int{1}, "b": "x y"})) },
			"http://x/p?%7B%22a%22%3A%5B1%5D%2C%22b%22%3A%22x%20y%22%7D", ""},
		{"then query parameters", func(r *Request) { r.QueryString(map[string]int{"a": 1}); r.Query("b", "2") }, "http://x/p?a=1&b=2", ""},
		{"not an object", func(r *Request) { r.QueryString([]string{"a"}) }, "", "query string: a form is the members of an object, got an array"},
	}
	for _, c := range cases {
		r := NewClient("http://x").NewRequest("GET", "/p")
		c.set(r)
		u, err := r.URL()
		switch {
		case c.error != "":
			if err == nil || !strings.Contains(err.Error(), c.error) {
				t.Errorf("%s: got %q, %v; want the error %q", c.name, u, err, c.error)
			}
		case err != nil || u != c.want:
			t.Errorf("%s: got %q, %v; want %q", c.name, u, err, c.want)
		}
	}
}
