package runtime

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Credentials stay with their origin: what the REST client and the OpenTool
// client do when a server redirects a request, and how long the REST client
// waits for an answer to start.

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

// origin is u's scheme, host and port, the port made explicit:
// "https://api.example.com:443".
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// shownOrigin is the origin of u as a user writes it, without a default port.
func shownOrigin(u *url.URL) string {
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}

// redirectGuard is the CheckRedirect of one request's client (or of an
// OpenTool client): it keeps the request's credentials from every origin but
// the first, then asks the user's CheckRedirect (next), if any.
type redirectGuard struct {
	policy RedirectPolicy
	// headers are the canonical names of the headers to drop, beside
	// Authorization, Proxy-Authorization, Cookie, Cookie2 and Referer.
	headers []string
	// queryKeys are values of query parameters to drop (API keys).
	queryKeys []string
	next      func(req *http.Request, via []*http.Request) error
}

// sensitiveHeaders are dropped on every redirect to another origin.
var sensitiveHeaders = [...]string{"Authorization", "Proxy-Authorization", "Cookie", "Cookie2", "Referer"}

func (g *redirectGuard) check(req *http.Request, via []*http.Request) error {
	from := origin(via[0].URL)
	cross := origin(req.URL) != from
	for _, v := range via[1:] {
		cross = cross || origin(v.URL) != from
	}
	if cross {
		if g.policy == RedirectRefuse {
			status := 0
			if req.Response != nil {
				status = req.Response.StatusCode
			}
			return &RedirectError{StatusCode: status, From: shownOrigin(via[0].URL), To: shownOrigin(req.URL)}
		}
		for _, h := range sensitiveHeaders {
			delete(req.Header, h)
		}
		for _, h := range g.headers {
			delete(req.Header, h)
		}
		if len(g.queryKeys) > 0 && req.URL.RawQuery != "" {
			req.URL.RawQuery = dropQueryValues(req.URL.RawQuery, g.queryKeys)
		}
	}
	if g.next != nil {
		return g.next(req, via)
	}
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	return nil
}

// dropQueryValues removes from the raw query q every parameter whose value
// is one of values; the others are kept as written.
func dropQueryValues(q string, values []string) string {
	var kept []string
	changed := false
	for part := range strings.SplitSeq(q, "&") {
		_, v, _ := strings.Cut(part, "=")
		if uv, err := url.QueryUnescape(v); err == nil {
			v = uv
		}
		drop := false
		for _, s := range values {
			if s != "" && v == s {
				drop = true
				break
			}
		}
		if drop {
			changed = true
			continue
		}
		kept = append(kept, part)
	}
	if !changed {
		return q
	}
	return strings.Join(kept, "&")
}

// guarded returns a copy of hc whose CheckRedirect is g's, which calls hc's
// own: hc itself is not changed.
func guarded(hc *http.Client, g *redirectGuard) *http.Client {
	cp := *hc
	g.next = hc.CheckRedirect
	cp.CheckRedirect = g.check
	return &cp
}

// DefaultResponseHeaderTimeout is how long a [RESTClient] waits for the
// headers of each answer unless its ResponseHeaderTimeout says otherwise: two
// minutes, longer than the proxies in front of most APIs wait before they
// answer 504 themselves (60 s for a cloud load balancer, 100 s for a CDN), so
// that a slow API still answers, while an upstream that never answers frees
// the call.
const DefaultResponseHeaderTimeout = 2 * time.Minute

func (c *RESTClient) responseHeaderTimeout() time.Duration {
	switch {
	case c.ResponseHeaderTimeout == 0:
		return DefaultResponseHeaderTimeout
	case c.ResponseHeaderTimeout < 0:
		return 0
	}
	return c.ResponseHeaderTimeout
}

// errNoHeaders is the cause of an attempt that had no answer within the
// client's ResponseHeaderTimeout.
type errNoHeaders struct{ d time.Duration }

func (e *errNoHeaders) Error() string {
	return "no response within " + e.d.String() + " (ResponseHeaderTimeout)"
}
func (e *errNoHeaders) Timeout() bool { return true }
func (e *errNoHeaders) Unwrap() error { return context.DeadlineExceeded }

// sendOnce sends req with hc, once: the response's headers must arrive within
// the client's ResponseHeaderTimeout; reading the body is then bounded by the
// request's context alone.
func (c *RESTClient) sendOnce(hc *http.Client, req *http.Request) (*http.Response, error) {
	d := c.responseHeaderTimeout()
	if d <= 0 {
		return hc.Do(req)
	}
	ctx, cancel := context.WithCancel(req.Context())
	var fired atomic.Bool
	t := time.AfterFunc(d, func() { fired.Store(true); cancel() })
	resp, err := hc.Do(req.WithContext(ctx))
	t.Stop()
	if fired.Load() && req.Context().Err() == nil {
		if err == nil {
			resp.Body.Close()
		}
		cancel()
		return nil, &url.Error{Op: req.Method, URL: req.URL.String(), Err: &errNoHeaders{d}}
	}
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelBody{resp.Body, cancel}
	return resp, nil
}

// canonicalHeaders returns the canonical forms of names.
func canonicalHeaders(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = textproto.CanonicalMIMEHeaderKey(n)
	}
	return out
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
