package rest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
)

// Sending a request: its retries, its interceptors, reading its response.

// Send sends the request and reads the response, again as the client's
// RetryPolicy says, within the client's Timeout.
func (r *Request) Send(ctx context.Context) (*Response, error) {
	if r.c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.c.Timeout)
		defer cancel()
	}
	resp, err := r.roundTrip(ctx, "application/json")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out, err := r.readResponse(resp)
	if out != nil {
		out.strict = r.c.StrictResponses || toolopt.StrictResponses(ctx)
	}
	if err == nil {
		notePage(ctx, out)
	}
	return out, err
}

// readResponse reads the whole body of resp, within the client's
// MaxResponseBytes.
func (r *Request) readResponse(resp *http.Response) (*Response, error) {
	limit := r.c.maxResponseBytes()
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s %s: reading the response: %w", r.method, r.path, redactURLError(err))
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s %s: response larger than %d bytes", r.method, r.path, limit)
	}
	return &Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: data, method: r.method, path: r.path, secrets: r.secrets}, nil
}

func (c *Client) maxResponseBytes() int64 {
	if c.MaxResponseBytes <= 0 {
		return runtime.DefaultMaxResponseBytes
	}
	return c.MaxResponseBytes
}

// roundTrip sends the request (again as the client's RetryPolicy says) and
// returns the response with its body unread. accept is the Accept header
// sent unless the request sets one.
func (r *Request) roundTrip(ctx context.Context, accept string) (*http.Response, error) {
	creds, schemes := r.credentials(ctx)
	u, err := r.url(creds)
	if err == nil {
		u, err = pageURL(ctx, u, creds)
	}
	if err != nil {
		return nil, err
	}
	ctx = r.withIdempotency(ctx)
	body := func() io.Reader {
		if r.body == nil {
			return nil
		}
		return bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u, body())
	if err != nil {
		return nil, redactURLError(err)
	}
	for k, v := range r.header {
		req.Header[k] = v
	}
	r.setIdempotencyKey(req)
	switch {
	case r.body != nil && r.contentType != "":
		req.Header.Set("Content-Type", r.contentType)
	case r.bodyType != "":
		req.Header.Set("Content-Type", r.bodyType)
	}
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", accept)
	}
	cookies := r.cookies
	r.secrets = nil // a new slice: a Response of an earlier round trip keeps its own
	for i, cr := range creds {
		switch {
		case cr.kind == "bearer":
			req.Header.Set("Authorization", "Bearer "+cr.value)
			r.secrets = append(r.secrets, cr.value)
		case cr.kind == "token":
			tok, err := cr.token(ctx)
			if err != nil {
				return nil, fmt.Errorf("%s %s: the token of security scheme %s: %w", r.method, r.path, strconv.Quote(schemes[i]), err)
			}
			req.Header.Set("Authorization", "Bearer "+tok)
			r.secrets = append(r.secrets, tok)
		case cr.kind == "basic":
			req.SetBasicAuth(cr.name, cr.value)
			r.secrets = append(r.secrets, cr.value, strings.TrimPrefix(req.Header.Get("Authorization"), "Basic "))
		case cr.in == "header":
			req.Header.Set(cr.name, cr.value)
			r.secrets = append(r.secrets, cr.value)
		case cr.in == "cookie":
			cookies = append(cookies, escapeCookie(cr.name)+"="+escapeCookie(cr.value))
			r.secrets = append(r.secrets, cr.value)
		default: // the query (url)
			r.secrets = append(r.secrets, cr.value)
		}
	}
	if len(cookies) > 0 {
		req.Header.Set("Cookie", strings.Join(cookies, "; "))
	}
	// What a redirect to another origin must not carry: the headers of API
	// keys, the query values of API keys, and what the editors set.
	guard := redirectGuard(r.c.CrossOriginRedirect)
	for _, cr := range creds {
		switch {
		case cr.kind == "apiKey" && cr.in == "header":
			guard.Headers = append(guard.Headers, textproto.CanonicalMIMEHeaderKey(cr.name))
		case cr.kind == "apiKey" && cr.in == "query":
			guard.QueryValues = append(guard.QueryValues, cr.value)
		}
	}
	if len(r.c.Editors) > 0 {
		before := req.Header.Clone()
		for _, ed := range r.c.Editors {
			if err := ed(ctx, req); err != nil {
				return nil, err
			}
		}
		for k, v := range req.Header {
			if !slices.Equal(before[k], v) {
				guard.Headers = append(guard.Headers, k)
			}
		}
	}
	hc := r.c.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	hc = guard.Client(hc)
	send := func(ctx context.Context, req *http.Request) (*http.Response, error) {
		intercept.InjectMetadata(ctx, intercept.HeaderMetadata(req.Header))
		resp, err := r.c.Retry.do(ctx, func(req *http.Request) (*http.Response, error) { return r.c.sendOnce(hc, req) }, req, body)
		if err != nil {
			return nil, redactURLError(err)
		}
		return resp, nil
	}
	ics := r.c.Interceptors
	if len(ics) == 0 {
		ics = intercept.CallInterceptors(ctx) // those of the call a server serves, if any
	}
	if len(ics) == 0 {
		return send(ctx, req)
	}
	return r.intercepted(ctx, req, ics, send)
}

// intercepted sends req through the interceptors ics.
func (r *Request) intercepted(ctx context.Context, req *http.Request, ics []intercept.Func, send func(context.Context, *http.Request) (*http.Response, error)) (*http.Response, error) {
	u := *req.URL
	u.RawQuery, u.User = "", nil
	hc := &intercept.HTTPCall{Method: r.method, Template: r.path, URL: u.String()}
	call := &intercept.Call{Function: operationName(r.method, r.path), Args: r.body, Front: intercept.FrontREST,
		Meta: intercept.HeaderMetadata(req.Header), HTTP: hc}
	var resp *http.Response
	err := intercept.Run(ctx, ics, call, func(ctx context.Context) error {
		var err error
		resp, err = send(ctx, req.WithContext(ctx))
		if resp != nil {
			hc.StatusCode = resp.StatusCode
		}
		return err
	})
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		return nil, err
	}
	return resp, nil
}

// operations holds the names of operations ("GET /pets/{petId}") made for
// interceptors, up to maxOperations: a traced call does not build its
// span's name again.
var (
	operations  sync.Map // [2]string{method, path} → string
	nOperations atomic.Int64
)

const maxOperations = 4096

// operationName returns method + " " + path, made once for the first
// maxOperations operations.
func operationName(method, path string) string {
	k := [2]string{method, path}
	if v, ok := operations.Load(k); ok {
		return v.(string)
	}
	name := method + " " + path
	if nOperations.Load() < maxOperations {
		if _, loaded := operations.LoadOrStore(k, name); !loaded {
			nOperations.Add(1)
		}
	}
	return name
}

// redactURLError removes the query (which may carry API keys) from the URL of
// a *url.Error.
func redactURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if i := strings.IndexAny(ue.URL, "?#"); i >= 0 {
			ue.URL = ue.URL[:i]
		}
	}
	return err
}
