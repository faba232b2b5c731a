package otelbridge

import "testing"

// templatedURL writes the segments of path parameters as the template has
// them: their values are arguments.
func TestTemplatedURL(t *testing.T) {
	for _, c := range []struct{ url, template, want string }{
		{"http://127.0.0.1:8080/v1/pets/42", "/pets/{petId}", "http://127.0.0.1:8080/v1/pets/{petId}"},
		{"https://api.example.com/keys/sk-live-MARKER/versions/3", "/keys/{key}/versions/{v}", "https://api.example.com/keys/{key}/versions/{v}"},
		{"https://api.example.com/v1/files/a.json", "/files/{name}.json", "https://api.example.com/v1/files/{name}.json"},
		{"https://api.example.com/v1/pets", "/pets", "https://api.example.com/v1/pets"},
		{"https://api.example.com", "/pets/{id}", "https://api.example.com/pets/{id}"},
		{"https://api.example.com/x", "/a/b/{id}", "https://api.example.com/a/b/{id}"},
		{"no-scheme/pets/1", "/pets/{id}", "/pets/{id}"},
	} {
		if got := templatedURL(c.url, c.template); got != c.want {
			t.Errorf("templatedURL(%q, %q) = %q, want %q", c.url, c.template, got, c.want)
		}
	}
}
