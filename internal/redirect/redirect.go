// Package redirect keeps credentials with their origin when a server
// redirects a request: the CheckRedirect that runtime's OpenTool client, the
// REST client of runtime/rest and oauth2cred's token requests share.
package redirect

import (
	"errors"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
)

// Origin is u's scheme, host and port, the port made explicit:
// "https://api.example.com:443".
func Origin(u *url.URL) string {
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

// ShownOrigin is the origin of u as a user writes it, without a default port.
func ShownOrigin(u *url.URL) string {
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}

// Guard is the CheckRedirect of one request's client (or of an OpenTool
// client): it keeps the request's credentials from every origin but the
// first, then asks the client's own CheckRedirect, if any.
type Guard struct {
	// Refuse, when set, is the error of a redirect to another origin, which
	// is then not followed: status is the redirect's, from and to the two
	// origins as ShownOrigin writes them. nil follows such a redirect
	// without the credentials.
	Refuse func(status int, from, to string) error
	// Headers are the canonical names of the headers to drop, beside
	// Authorization, Proxy-Authorization, Cookie, Cookie2 and Referer.
	Headers []string
	// QueryValues are values of query parameters to drop (API keys).
	QueryValues []string

	next func(req *http.Request, via []*http.Request) error
}

// sensitiveHeaders are dropped on every redirect to another origin.
var sensitiveHeaders = [...]string{"Authorization", "Proxy-Authorization", "Cookie", "Cookie2", "Referer"}

// Client returns a copy of hc whose CheckRedirect is g's, which calls hc's
// own: hc itself is not changed.
func (g *Guard) Client(hc *http.Client) *http.Client {
	cp := *hc
	g.next = hc.CheckRedirect
	cp.CheckRedirect = g.check
	return &cp
}

func (g *Guard) check(req *http.Request, via []*http.Request) error {
	from := Origin(via[0].URL)
	cross := Origin(req.URL) != from
	for _, v := range via[1:] {
		cross = cross || Origin(v.URL) != from
	}
	if cross {
		if g.Refuse != nil {
			status := 0
			if req.Response != nil {
				status = req.Response.StatusCode
			}
			return g.Refuse(status, ShownOrigin(via[0].URL), ShownOrigin(req.URL))
		}
		for _, h := range sensitiveHeaders {
			delete(req.Header, h)
		}
		for _, h := range g.Headers {
			delete(req.Header, h)
		}
		if len(g.QueryValues) > 0 && req.URL.RawQuery != "" {
			req.URL.RawQuery = dropQueryValues(req.URL.RawQuery, g.QueryValues)
		}
	}
	if g.next != nil {
		return g.next(req, via)
	}
	return Limit(via)
}

// Limit is what http.Client does without a CheckRedirect: at most 10
// redirects.
func Limit(via []*http.Request) error {
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

// CanonicalHeaders returns the canonical forms of names.
func CanonicalHeaders(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = textproto.CanonicalMIMEHeaderKey(n)
	}
	return out
}
