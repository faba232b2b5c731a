package redirect

import (
	"net/url"
	"testing"
)

// TestOrigin: default ports are the same origin; scheme, host and port are
// each another.
func TestOrigin(t *testing.T) {
	same := [][2]string{
		{"https://api.example.com/a", "https://API.example.com:443/b?x=1"},
		{"http://api.example.com", "http://api.example.com:80/"},
	}
	other := [][2]string{
		{"https://api.example.com", "http://api.example.com"},
		{"https://api.example.com", "https://api.example.com:8443"},
		{"https://api.example.com", "https://evil.api.example.com"},
		{"http://127.0.0.1:80", "http://localhost:80"},
	}
	for _, p := range same {
		a, _ := url.Parse(p[0])
		b, _ := url.Parse(p[1])
		if Origin(a) != Origin(b) {
			t.Errorf("%s and %s: other origins, want the same", p[0], p[1])
		}
	}
	for _, p := range other {
		a, _ := url.Parse(p[0])
		b, _ := url.Parse(p[1])
		if Origin(a) == Origin(b) {
			t.Errorf("%s and %s: the same origin, want others", p[0], p[1])
		}
	}
	if got := dropQueryValues("a=1&api_key=s%2Fk&b=s/k2&c=s%2Fk", []string{"s/k"}); got != "a=1&b=s/k2" {
		t.Errorf("dropQueryValues: %q", got)
	}
}
