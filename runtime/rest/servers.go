package rest

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// The server a client calls: the document's, its variables, a relative
// server resolved against the base URL given.

// SetServer makes the client call the document's server: its URL template
// ("https://{region}.example.com/v1") with the variables' defaults given as
// name, value pairs, changed by SetServerVariable. It is used while BaseURL
// is "" (a generated NewClient calls it when it is given no base URL).
func (c *Client) SetServer(template string, defaults ...string) {
	c.server, c.serverDefaults = template, defaults
}

// SetServerVariable sets the variable name of the server's URL template to
// value. When enum is not empty, value must be one of it: otherwise it sets
// the client's error (SetError), which [Client.Check] returns (a generated
// NewClient does) and so does every call. Operations with servers of their
// own that have a variable of that name use the value too.
func (c *Client) SetServerVariable(name, value string, enum ...string) {
	if len(enum) > 0 && !slices.Contains(enum, value) {
		q := make([]string, len(enum))
		for i, e := range enum {
			q[i] = strconv.Quote(e)
		}
		c.SetError(fmt.Errorf("rest: server variable %s: got %s, want one of %s", strconv.Quote(name), strconv.Quote(value), strings.Join(q, ", ")))
		return
	}
	if c.serverVars == nil {
		c.serverVars = map[string]string{}
	}
	c.serverVars[name] = value
}

// SetError records err as the client's error (the first error set is
// kept): an option given a value it cannot use says so this way, since it
// cannot return an error. [Client.Check] returns it, and so does every call.
func (c *Client) SetError(err error) {
	if c.err == nil {
		c.err = err
	}
}

// Check reports what keeps the client from calling the API, once it is
// configured: a generated NewClient returns its error. It is, in this order,
// the first error an option set (SetError; SetServerVariable given a value
// its enum does not allow), a BaseURL that is not an absolute URL
// ("https://host/path"), [ErrNoBaseURL] when there is neither a BaseURL nor
// a server, a server URL that does not parse once its variables are
// substituted, and a [*RelativeServerError] for a relative server with no
// BaseURL to resolve it against. No message holds the base URL's user
// information or query, which may be credentials.
func (c *Client) Check() error {
	if c.err != nil {
		return c.err
	}
	if c.BaseURL != "" {
		u, err := url.Parse(c.BaseURL)
		if err != nil {
			return fmt.Errorf("rest: base URL %s: %w", strconv.Quote(redactURL(c.BaseURL)), urlErr(err))
		}
		if u.Scheme == "" || u.Host == "" || u.Opaque != "" {
			return fmt.Errorf("rest: base URL %s: got no scheme and host, want an absolute URL such as \"https://api.example.com/v1\"", strconv.Quote(redactURL(c.BaseURL)))
		}
		return nil
	}
	if c.server == "" {
		return ErrNoBaseURL
	}
	u := c.expandServer(c.server, c.serverDefaults)
	if _, err := url.Parse(u); err != nil {
		return fmt.Errorf("rest: server %s, its variables substituted (%s): %w", strconv.Quote(c.server), strconv.Quote(u), urlErr(err))
	}
	if !absoluteURL(u) {
		return &RelativeServerError{Server: u}
	}
	return nil
}

// urlErr is the cause of a *url.Error, whose text would repeat the URL.
func urlErr(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// redactURL is u without its query, fragment and user information.
func redactURL(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	if at := strings.LastIndexByte(u, '@'); at >= 0 {
		if i := strings.Index(u, "://"); i >= 0 && i < at {
			u = u[:i+3] + u[at+1:]
		} else if i < 0 {
			u = u[at+1:]
		}
	}
	return u
}

// expandServer substitutes the variables of a server URL template: the
// values the client set, else the defaults given as name, value pairs.
func (c *Client) expandServer(template string, defaults []string) string {
	var pairs []string
	for k, v := range c.serverVars {
		pairs = append(pairs, "{"+k+"}", v)
	}
	for i := 0; i+1 < len(defaults); i += 2 {
		if _, ok := c.serverVars[defaults[i]]; !ok {
			pairs = append(pairs, "{"+defaults[i]+"}", defaults[i+1])
		}
	}
	return strings.NewReplacer(pairs...).Replace(template)
}

// baseURL is what the request's path is appended to: BaseURL when set, else
// the operation's own server, else the client's (SetServer). A server whose
// URL is relative (no scheme: "/api/v3", Swagger 2.0's basePath without a
// host) is resolved as a URL reference against BaseURL ("http://host" and
// "/api/v3" make "http://host/api/v3"), or an operation's against the
// client's server when that is absolute; with nothing to resolve it
// against, the call fails with an error that says to give the base URL, as
// it does when there is neither a base URL nor a server.
func (r *Request) baseURL() (string, error) {
	c := r.c
	if c.err != nil {
		return "", c.err
	}
	server, defaults := c.server, c.serverDefaults
	if r.server != "" {
		server, defaults = r.server, r.serverDefaults
	}
	if server == "" {
		if c.BaseURL == "" {
			return "", ErrNoBaseURL
		}
		return c.BaseURL, nil
	}
	u := c.expandServer(server, defaults)
	switch {
	case absoluteURL(u) && c.BaseURL != "":
		return c.BaseURL, nil // a base URL given replaces the document's servers
	case absoluteURL(u):
		return u, nil
	case c.BaseURL != "":
		return resolveURL(c.BaseURL, u)
	case r.server != "" && c.server != "":
		if cu := c.expandServer(c.server, c.serverDefaults); absoluteURL(cu) {
			return resolveURL(cu, u)
		}
	}
	return "", &RelativeServerError{Server: u}
}

// ErrNoBaseURL is the error of a client that has neither a base URL nor a
// server ([Client.Check], and every call of such a client).
var ErrNoBaseURL = errors.New("rest: the client has no base URL and the document no server: give the API's base URL (\"https://host/path\")")

// RelativeServerError is the error of a client whose server is a relative
// URL and that was given no base URL to resolve it against
// ([Client.Check], and every call of such a client).
type RelativeServerError struct {
	Server string // the server's URL, its variables substituted
}

func (e *RelativeServerError) Error() string {
	return fmt.Sprintf("rest: the document's server %s is a relative URL and the client has no base URL to resolve it against: give the API's base URL (base URL \"https://host\" calls %s)",
		strconv.Quote(e.Server), strconv.Quote(mustResolve("https://host", e.Server)))
}

// absoluteURL reports whether u has a scheme ("https://…"), not a
// reference relative to another URL.
func absoluteURL(u string) bool {
	i := strings.Index(u, "://")
	return i > 0 && !strings.ContainsAny(u[:i], "/?#")
}

// resolveURL resolves the reference ref against base (RFC 3986).
func resolveURL(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("rest: base URL %s: %w", strconv.Quote(redactURL(base)), urlErr(err))
	}
	rr, err := url.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("rest: server %s: %w", strconv.Quote(ref), urlErr(err))
	}
	return b.ResolveReference(rr).String(), nil
}

// mustResolve is resolveURL, or ref when it does not parse.
func mustResolve(base, ref string) string {
	if u, err := resolveURL(base, ref); err == nil {
		return u
	}
	return ref
}
