package otelbridge

import (
	"net/url"
	"strconv"
	"testing"
)

// TestHostPort checks that the host and port of a REST call's span
// (server.address, server.port) are those net/url finds, the scheme's port
// when the URL has none.
func TestHostPort(t *testing.T) {
	for _, raw := range []string{
		"http://127.0.0.1:8080/v1/pets", "https://api.example.com/v1", "http://api.example.com",
		"HTTPS://Example.COM:8443", "http://[::1]:9000/x", "https://[2001:db8::1]/pets/{petId}",
		"http://[::1]/", "http://host:/p", "http://user@host:81/p", "http://host#frag", "http://host?x=1",
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		want, wantPort := u.Hostname(), 80
		if u.Port() != "" {
			wantPort, _ = strconv.Atoi(u.Port())
		} else if u.Scheme == "https" {
			wantPort = 443
		}
		if host, port := hostPort(raw); host != want || port != wantPort {
			t.Errorf("hostPort(%q) = %q, %d; net/url: %q, %d", raw, host, port, want, wantPort)
		}
	}
	for _, raw := range []string{"/relative/path", "http:///nohost", "http://host:99999/", "http://host:x/"} {
		if host, port := hostPort(raw); port != -1 {
			t.Errorf("hostPort(%q) = %q, %d, want no host", raw, host, port)
		}
	}
}
