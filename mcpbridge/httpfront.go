package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/internal/inflight"
)

// What a streamable HTTP handler bounds by default (see [NewHTTPHandler]).
const (
	// DefaultMaxSessions is the most MCP sessions a handler keeps at once.
	DefaultMaxSessions = 1000
	// DefaultSessionTimeout is how long a session may go without a POST
	// before it is closed.
	DefaultSessionTimeout = 30 * time.Minute
	// DefaultMaxBatch is the most messages one JSON-RPC batch may hold.
	DefaultMaxBatch = 16
	// DefaultReadTimeout bounds the time a client has to send a request body.
	DefaultReadTimeout = 30 * time.Second
	// DefaultWriteTimeout bounds each write of an answer or a stream event.
	DefaultWriteTimeout = 30 * time.Second
)

// WithMaxSessions bounds the sessions a stateful [NewHTTPHandler] keeps at
// once (default DefaultMaxSessions; 0 or less: no bound). A request that would
// open one more is answered HTTP 503 with a Retry-After header and a
// JSON-RPC error body. A stateless handler opens a session for each POST, for
// as long as it runs: there the bound is on the POSTs under way, and one
// more is answered the same way.
func WithMaxSessions(n int) Option { return func(c *config) { c.maxSessions = n } }

// WithSessionTimeout closes a session of a stateful [NewHTTPHandler] that has
// had no POST for d (default DefaultSessionTimeout; 0 or less: never). Its
// standalone GET stream ends with it. It replaces the SessionTimeout of
// [WithHTTPOptions].
func WithSessionTimeout(d time.Duration) Option {
	return func(c *config) { c.sessionTimeout, c.sessionTimeoutSet = d, true }
}

// WithMaxBatch bounds the messages of one JSON-RPC batch, which protocol
// versions before 2025-06-18 allow (default DefaultMaxBatch; 0 or less: no
// bound). A larger batch is answered HTTP 400 with a JSON-RPC error -32600
// and none of its messages is handled.
func WithMaxBatch(n int) Option { return func(c *config) { c.maxBatch = n } }

// WithReadTimeout bounds the time a client of [NewHTTPHandler] has to send a
// request's body, from the moment the handler starts (default
// DefaultReadTimeout; 0 or less: no bound). A body still arriving then is
// answered HTTP 408 and its connection closed.
func WithReadTimeout(d time.Duration) Option { return func(c *config) { c.readTimeout = d } }

// WithWriteTimeout bounds each write of [NewHTTPHandler]'s answers: a
// response, each event of a stream (default DefaultWriteTimeout; 0 or less:
// no bound). A client that stops reading for this long is cut off, and a
// call streaming to it is cancelled.
func WithWriteTimeout(d time.Duration) Option { return func(c *config) { c.writeTimeout = d } }

// WithAllowedOrigins adds origins ("https://app.example.com", scheme, host
// and port as a browser sends them in the Origin header; "*" for any) from
// which browsers may call [NewHTTPHandler]. Requests without an Origin header
// (what clients other than browsers send), from the server's own origin
// (the Origin's host is the request's Host) or from a loopback origin
// (localhost, 127.0.0.0/8, [::1]) are always allowed; others are answered
// HTTP 403, as the MCP specification requires against DNS rebinding.
func WithAllowedOrigins(origins ...string) Option {
	return func(c *config) {
		for _, o := range origins {
			if o = strings.TrimRight(strings.TrimSpace(o), "/"); o != "" {
				c.origins = append(c.origins, strings.ToLower(o))
			}
		}
	}
}

// HTTPHandler is what [NewHTTPHandler] returns: the SDK's streamable HTTP
// handler behind the bounds of this package (origins, deadlines, batches,
// sessions).
type HTTPHandler struct {
	sdk       http.Handler
	server    *mcp.Server
	bridge    *bridge
	cfg       *config
	stateless bool
	maxBody   int64 // < 0: none

	mu       sync.Mutex
	creating int // requests that may open a session, under way

	requests inflight.Counter // requests under way other than GET streams
}

func (f *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	if f.cfg.writeTimeout > 0 {
		_ = rc.SetWriteDeadline(time.Now().Add(f.cfg.readTimeout + f.cfg.writeTimeout))
	}
	if f.bridge.stopped.Err() != nil {
		// Closed: a new session would outlive the handler.
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusServiceUnavailable, nil, -32000, "the MCP server is closed")
		return
	}
	if r.Method != http.MethodGet {
		f.requests.Add(1)
		defer f.requests.Add(-1)
	}
	if !originAllowed(r, f.cfg.origins) {
		writeError(w, http.StatusForbidden, nil, -32600, "origin "+strconv.Quote(r.Header.Get("Origin"))+" is not allowed")
		return
	}
	if r.Method == http.MethodPost && r.Body != nil && r.Body != http.NoBody {
		body, ok := f.readBody(w, r, rc)
		if !ok {
			return
		}
		if !f.checkBatch(w, body) {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
	}
	// Stateless, every POST is a session of its own while it runs: the
	// bound is on the POSTs under way.
	if f.cfg.maxSessions > 0 && r.Method == http.MethodPost && (f.stateless || r.Header.Get("Mcp-Session-Id") == "") {
		if !f.reserve() {
			what := "sessions open"
			if f.stateless {
				what = "MCP requests under way"
			}
			w.Header().Set("Retry-After", "5")
			writeError(w, http.StatusServiceUnavailable, nil, -32000,
				fmt.Sprintf("the server has %d %s, its most: try again later", f.cfg.maxSessions, what))
			return
		}
		defer f.release()
	}
	r.Header.Del(requestHeader)
	if f.stateless && r.Method == http.MethodPost {
		id := strconv.FormatUint(f.bridge.nextRequest.Add(1), 10)
		f.bridge.requests.Store(id, r.Context())
		defer f.bridge.requests.Delete(id)
		r.Header.Set(requestHeader, id)
	}
	if f.cfg.writeTimeout > 0 {
		w = &deadlineWriter{ResponseWriter: w, rc: rc, timeout: f.cfg.writeTimeout}
		// What the server writes once the handler has returned (the end of
		// a chunked body) gets its time too.
		defer rc.SetWriteDeadline(time.Now().Add(f.cfg.writeTimeout))
	}
	f.sdk.ServeHTTP(w, r)
}

// readBody reads r's body within the read timeout, then lifts the read
// deadline (a deadline passing while a call runs would cancel it). On
// failure it has answered.
func (f *HTTPHandler) readBody(w http.ResponseWriter, r *http.Request, rc *http.ResponseController) ([]byte, bool) {
	if f.maxBody >= 0 && r.ContentLength > f.maxBody {
		writeError(w, http.StatusRequestEntityTooLarge, nil, -32600, fmt.Sprintf("request body larger than %d bytes", f.maxBody))
		return nil, false
	}
	timed := f.cfg.readTimeout > 0 && rc.SetReadDeadline(time.Now().Add(f.cfg.readTimeout)) == nil
	var src io.Reader = r.Body
	if f.maxBody >= 0 {
		src = io.LimitReader(r.Body, f.maxBody+1)
	}
	body, err := io.ReadAll(src)
	if timed && err == nil {
		// Lifted once the body is in; after a failure it stays, so that the
		// server's own reads of what is left fail too, and the connection
		// closes.
		_ = rc.SetReadDeadline(time.Time{})
	}
	switch {
	case err == nil && f.maxBody >= 0 && int64(len(body)) > f.maxBody:
		writeError(w, http.StatusRequestEntityTooLarge, nil, -32600, fmt.Sprintf("request body larger than %d bytes", f.maxBody))
		return nil, false
	case err == nil:
		return body, true
	case errors.Is(err, os.ErrDeadlineExceeded):
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusRequestTimeout, nil, -32600, "the request body did not arrive within "+f.cfg.readTimeout.String())
	default:
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusBadRequest, nil, -32700, "reading the request body: "+err.Error())
	}
	return nil, false
}

// checkBatch refuses a batch of more than maxBatch messages; on failure it
// has answered.
func (f *HTTPHandler) checkBatch(w http.ResponseWriter, body []byte) bool {
	if f.cfg.maxBatch <= 0 {
		return true
	}
	t := bytes.TrimLeft(body, " \t\r\n")
	if len(t) == 0 || t[0] != '[' {
		return true
	}
	d := json.NewDecoder(bytes.NewReader(t))
	if _, err := d.Token(); err != nil {
		return true // the SDK answers what is not JSON
	}
	n := 0
	for d.More() {
		var skip json.RawMessage
		if d.Decode(&skip) != nil {
			return true
		}
		if n++; n > f.cfg.maxBatch {
			writeError(w, http.StatusBadRequest, nil, -32600,
				fmt.Sprintf("a batch of more than %d messages: send at most %d at once", f.cfg.maxBatch, f.cfg.maxBatch))
			return false
		}
	}
	return true
}

// reserve takes a place for a session that the request may open, and
// reports whether there was one: the sessions of the server and the requests
// that may open one are fewer than maxSessions.
func (f *HTTPHandler) reserve() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.creating
	if !f.stateless { // stateless, the sessions are those of the requests counted
		for range f.server.Sessions() {
			n++
		}
	}
	if n >= f.cfg.maxSessions {
		return false
	}
	f.creating++
	return true
}

// Close stops the handler: the context of every call under way, on every
// session, is cancelled (its cause is ErrServerStopped) and such a call is
// answered with an error result (code 503) if its client is still there;
// then every session is closed and its streams end. Close returns once the
// calls have returned and the sessions are closed, or 2 seconds after it
// cancelled the calls, whichever comes first: then, with an error saying
// how many calls ignored their cancellation (their goroutines are left to
// them). Requests that come after Close are answered HTTP 503. Call it once
// the HTTP server has shut down (its grace period given to the calls), so
// that no call or session outlives the server.
func (f *HTTPHandler) Close() error {
	f.bridge.stop(ErrServerStopped)
	ctx, cancel := context.WithTimeout(context.Background(), closeWait)
	defer cancel()
	// The calls' answers go out on their requests before the sessions
	// close (the SDK could end a request's stream before its answer).
	returned := f.bridge.calls.Wait(ctx) && f.requests.Wait(ctx)
	// A session closes once the requests it handles have returned: each
	// its own goroutine, so that one stuck does not keep the others open.
	var wg sync.WaitGroup
	for ss := range f.server.Sessions() {
		wg.Go(func() { ss.Close() })
	}
	closed := make(chan struct{})
	go func() {
		wg.Wait()
		close(closed)
	}()
	if returned {
		select {
		case <-closed:
			return nil
		case <-ctx.Done():
		}
	}
	if n := f.bridge.calls.Count(); n > 0 {
		return fmt.Errorf("mcpbridge: closing the MCP handler: %d calls did not return within %v of their cancellation", n, closeWait)
	}
	return fmt.Errorf("mcpbridge: closing the MCP handler: requests and sessions did not end within %v", closeWait)
}

func (f *HTTPHandler) release() {
	f.mu.Lock()
	f.creating--
	f.mu.Unlock()
}

// writeError answers a request the handler refuses with a JSON-RPC error
// response (id null when it is not known).
func writeError(w http.ResponseWriter, status int, id json.RawMessage, code int, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

// originAllowed reports whether r may be served as the MCP specification
// wants against DNS rebinding: no Origin, the request's own host, a loopback
// host, or one of allowed (lower case, "*" for any).
func originAllowed(r *http.Request, allowed []string) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return allowedOrigin(strings.ToLower(o), allowed)
	}
	if strings.EqualFold(u.Host, r.Host) || isLoopback(u.Hostname()) {
		return true
	}
	return allowedOrigin(strings.ToLower(u.Scheme+"://"+u.Host), allowed)
}

func allowedOrigin(o string, allowed []string) bool {
	for _, a := range allowed {
		if a == "*" || a == o {
			return true
		}
	}
	return false
}

// isLoopback reports whether host (without port) names this machine.
func isLoopback(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// deadlineWriter gives each write of an answer the write timeout.
type deadlineWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func (d *deadlineWriter) extend() { _ = d.rc.SetWriteDeadline(time.Now().Add(d.timeout)) }

func (d *deadlineWriter) WriteHeader(code int) {
	d.extend()
	d.ResponseWriter.WriteHeader(code)
}

func (d *deadlineWriter) Write(p []byte) (int, error) {
	d.extend()
	return d.ResponseWriter.Write(p)
}

// FlushError flushes what was written (http.ResponseController).
func (d *deadlineWriter) FlushError() error {
	d.extend()
	return d.rc.Flush()
}

// Unwrap returns the ResponseWriter it wraps (http.ResponseController).
func (d *deadlineWriter) Unwrap() http.ResponseWriter { return d.ResponseWriter }
