package runtime

import (
	"fmt"
	"strconv"

	"github.com/opentoolgen/opentoolgen/internal/redirect"
)

// Credentials stay with their origin: what the OpenTool client and the REST
// client of runtime/rest do when a server redirects a request.

// RedirectPolicy says what a client does when a server answers a request with
// a redirect to another origin: another scheme, host or port than the request
// was sent to (https://api.example.com and https://api.example.com:443 are one
// origin; http://api.example.com and https://api.example.com:8443 are others).
// A redirect within the origin is followed with the request's credentials, as
// the http.Client's CheckRedirect allows (at most 10 redirects when it has
// none).
type RedirectPolicy int

const (
	// RedirectWithoutCredentials, the default, follows a redirect to another
	// origin without the request's credentials: the Authorization,
	// Proxy-Authorization, Cookie and Referer headers, the headers of API
	// keys (whatever their names), the headers the request editors set (for
	// the REST client) or WithHeader set (for the OpenTool client), and any
	// query parameter whose value is an API key sent in the query (a server
	// that redirects keeping the query string would pass it on). Once a
	// chain of redirects has left the origin, no later hop carries them, even
	// one that comes back.
	RedirectWithoutCredentials RedirectPolicy = iota
	// RedirectRefuse fails the call with a [*RedirectError] when the server
	// redirects it to another origin; nothing is sent there.
	RedirectRefuse
)

// RedirectError is the error of a call that a server redirected to another
// origin, from a client whose RedirectPolicy is RedirectRefuse. It names the
// two origins, never the path or query the redirect pointed to. The call's
// error wraps it (errors.As).
type RedirectError struct {
	// StatusCode is the redirect's status (301, 302, 303, 307 or 308).
	StatusCode int
	// From is the origin the request was sent to ("https://api.example.com"),
	// To the one the server redirected it to.
	From, To string
}

func (e *RedirectError) Error() string {
	return "redirected (HTTP " + strconv.Itoa(e.StatusCode) + ") from " + e.From + " to another origin, " + e.To + ", which the client refuses (RedirectRefuse)"
}

// WithCrossOriginRedirect sets what the client does when the server redirects
// a request to another origin (scheme, host, port): by default
// ([RedirectWithoutCredentials]) it follows it without the API key
// (Authorization), cookies and the headers WithHeader set; [RedirectRefuse]
// fails the call with a [*RedirectError]. The HTTP client given to
// WithHTTPClient is not changed: the client sends with a copy of it whose
// CheckRedirect applies this policy and then calls the given client's own.
func WithCrossOriginRedirect(p RedirectPolicy) ClientOption {
	return func(c *Client) { c.redirect = p }
}

func (p RedirectPolicy) String() string {
	switch p {
	case RedirectWithoutCredentials:
		return "RedirectWithoutCredentials"
	case RedirectRefuse:
		return "RedirectRefuse"
	}
	return fmt.Sprintf("RedirectPolicy(%d)", int(p))
}

// Guard returns the redirect guard of a client with this policy, which drops
// headers (canonical names) beside the standard credentials on a redirect to
// another origin.
func (p RedirectPolicy) guard(headers []string) *redirect.Guard {
	g := &redirect.Guard{Headers: headers}
	if p == RedirectRefuse {
		g.Refuse = func(status int, from, to string) error {
			return &RedirectError{StatusCode: status, From: from, To: to}
		}
	}
	return g
}
