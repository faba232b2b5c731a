package rest

import (
	"context"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/opentoolgen/opentoolgen/internal/redirect"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// How long the REST client waits for an answer to start, and what it does
// when a server redirects a request (see runtime.RedirectPolicy).

// DefaultResponseHeaderTimeout is how long a [Client] waits for the
// headers of each answer unless its ResponseHeaderTimeout says otherwise: two
// minutes, longer than the proxies in front of most APIs wait before they
// answer 504 themselves (60 s for a cloud load balancer, 100 s for a CDN), so
// that a slow API still answers, while an upstream that never answers frees
// the call.
const DefaultResponseHeaderTimeout = 2 * time.Minute

func (c *Client) responseHeaderTimeout() time.Duration {
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
func (c *Client) sendOnce(hc *http.Client, req *http.Request) (*http.Response, error) {
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

// redirectGuard returns the guard of a request sent under policy p: a
// redirect to another origin is refused with a *runtime.RedirectError, or
// followed without the request's credentials.
func redirectGuard(p runtime.RedirectPolicy) *redirect.Guard {
	g := &redirect.Guard{}
	if p == runtime.RedirectRefuse {
		g.Refuse = func(status int, from, to string) error {
			return &runtime.RedirectError{StatusCode: status, From: from, To: to}
		}
	}
	return g
}
