package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A new session for a Tool of HTTPTool.
//
// A streamable HTTP server may end a session at any time (an idle timeout,
// a restart); it then answers HTTP 404 to requests carrying the session's
// id, and the MCP specification (2025-06-18, Session Management) has the
// client start a new session with a new initialize request. The SDK's
// client turns such a 404 into mcp.ErrSessionMissing and fails its
// connection for good, but the calls that meet the failed connection see it
// only as mcp.ErrConnectionClosed, the cause lost in text. So the Tool
// watches the responses itself, in its HTTP client (sessionTransport): a
// 404 to a request with an Mcp-Session-Id marks that session gone (not one
// whose body is a JSON-RPC "method not found", what a server of the
// stateless 2026-07-28 protocol answers an unknown method with), and
// notes, for the call whose context the request carries, that the server
// refused its POST.
//
// withSession then runs a request on the Tool's session and, when that
// session is gone, opens a new one (renew) and runs it again, once.

// renewTimeout bounds the opening of a new session (initialize and
// tools/list), which runs apart from the calls that wait for it.
const renewTimeout = 30 * time.Second

// sessionWatch is what a Tool's HTTP client has learnt of its sessions.
type sessionWatch struct {
	mu   sync.Mutex
	gone map[string]bool // the ids of sessions the server answered 404 to
}

func (w *sessionWatch) markGone(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.gone == nil {
		w.gone = map[string]bool{}
	}
	w.gone[id] = true
}

// isGone reports whether the server has answered 404 to session s.
func (w *sessionWatch) isGone(s *mcp.ClientSession) bool {
	id := s.ID()
	if id == "" {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.gone[id]
}

// keepOnly forgets the sessions other than id: those of the Tool before it,
// and those that failed to open.
func (w *sessionWatch) keepOnly(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for k := range w.gone {
		if k != id {
			delete(w.gone, k)
		}
	}
}

// attempt is what the HTTP client saw of one request of withSession, which
// its context carries.
type attempt struct {
	posted  atomic.Bool // a POST carried it to the server
	refused atomic.Bool // the server answered that POST 404: it did not run it
}

type attemptKey struct{}

// sessionTransport is the RoundTripper of HTTPTool's client: it tells
// watch, and the attempt of the request's context, of the 404s of
// sessions.
type sessionTransport struct {
	http.RoundTripper
	watch *sessionWatch
}

// maxPeek is the most of a 404's body read to tell a "method not found"
// from an unknown session.
const maxPeek = 4 << 10

func (t sessionTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	id := r.Header.Get("Mcp-Session-Id")
	a, _ := r.Context().Value(attemptKey{}).(*attempt)
	if r.Method != http.MethodPost {
		a = nil // a GET resuming the call's stream: the call was accepted
	}
	if a != nil {
		a.posted.Store(true)
	}
	resp, err := t.RoundTripper.RoundTrip(r)
	if err != nil && r.Context().Err() == nil {
		// The server may have gone (restarted, crashed): the connections
		// kept for it are dead too. Without them the next request dials
		// afresh and learns the fate of its session from the server that
		// answers now (a 404), instead of failing on a stale connection.
		if ci, ok := t.RoundTripper.(interface{ CloseIdleConnections() }); ok {
			ci.CloseIdleConnections()
		}
	}
	if err != nil || id == "" || resp.StatusCode != http.StatusNotFound {
		return resp, err
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		peek, _ := io.ReadAll(io.LimitReader(resp.Body, maxPeek))
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(peek), resp.Body), resp.Body}
		if methodNotFound(peek) {
			return resp, nil
		}
	}
	t.watch.markGone(id)
	if a != nil {
		a.refused.Store(true)
	}
	return resp, nil
}

// methodNotFound reports whether body is a JSON-RPC error -32601.
func methodNotFound(body []byte) bool {
	var m struct {
		Error *struct{ Code int64 } `json:"error"`
	}
	return json.Unmarshal(body, &m) == nil && m.Error != nil && m.Error.Code == jsonrpc.CodeMethodNotFound
}

// redial is how a Tool of HTTPTool opens a new session.
type redial struct {
	connect func(context.Context) (*mcp.ClientSession, error)
	watch   *sessionWatch
	base    context.Context // HTTPTool's context without its cancellation: the values of the sessions
	stop    context.CancelFunc
	wg      sync.WaitGroup // renewals under way

	mu      sync.Mutex
	closed  bool
	pending *renewal // the renewal under way
}

// renewal is the opening of a session in place of from, shared by the
// requests that met from's end.
type renewal struct {
	from    *mcp.ClientSession
	done    chan struct{} // closed when session or err is set
	session *mcp.ClientSession
	err     error
}

func newRedial(ctx context.Context, watch *sessionWatch, connect func(context.Context) (*mcp.ClientSession, error)) *redial {
	base, stop := context.WithCancel(context.WithoutCancel(ctx))
	return &redial{connect: connect, watch: watch, base: base, stop: stop}
}

// close cancels a renewal under way and waits for it to end.
func (r *redial) close() {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	r.stop()
	r.wg.Wait()
}

// errSessionGone is the cause named when the server has ended a session.
var errSessionGone = errors.New("the server has ended the MCP session (HTTP 404 Not Found to its id)")

// withSession runs op (a request, what) on the Tool's session. With a
// redial (HTTPTool), when the server has ended that session it opens a new
// one and runs op there: before op when the end is known, or after op when
// the server refused op's own request with 404, or op met the end before
// its request was sent; never after the request reached the server and was
// accepted (it may have run: the error says so). A request opens at most
// one session and runs at most twice; the errors of session handling are
// 502 *runtime.Errors naming the cause.
func (t *Tool) withSession(ctx context.Context, what string, op func(context.Context, *mcp.ClientSession) error) error {
	s := t.session.Load()
	r := t.redial
	if r == nil {
		return op(ctx, s)
	}
	renewed := false
	if t.ended(s) {
		ns, err := t.renew(ctx, s)
		if err != nil {
			return t.upstream(ctx, what, fmt.Errorf("%w, and a new session failed: %w", errSessionGone, err))
		}
		s, renewed = ns, true
	}
	a := &attempt{}
	err := op(context.WithValue(ctx, attemptKey{}, a), s)
	if err == nil || ctx.Err() != nil || !t.ended(s) {
		return err
	}
	id := strconv.Quote(s.ID())
	switch {
	case a.posted.Load() && !a.refused.Load():
		return t.upstream(ctx, what, fmt.Errorf("%w: the server ended the session %s while the request was under way: it may have run, so it is not sent again; the next request opens a new session (%v)", errSessionGone, id, err))
	case renewed:
		return t.upstream(ctx, what, fmt.Errorf("%w: the new session %s was ended at once too; not tried again (%v)", errSessionGone, id, err))
	}
	ns, err := t.renew(ctx, s)
	if err != nil {
		return t.upstream(ctx, what, fmt.Errorf("%w, and a new session failed: %w", errSessionGone, err))
	}
	a = &attempt{}
	err = op(context.WithValue(ctx, attemptKey{}, a), ns)
	if err != nil && ctx.Err() == nil && t.ended(ns) && (!a.posted.Load() || a.refused.Load()) {
		return t.upstream(ctx, what, fmt.Errorf("%w: the new session %s was ended at once too; not tried again (%v)", errSessionGone, strconv.Quote(ns.ID()), err))
	}
	return err
}

// ended reports whether the server has ended session s: it answered 404 to
// it, or a renewal has already replaced it (and forgotten its 404: a request
// that met the end of s may fail after that, on the SDK's failed connection).
func (t *Tool) ended(s *mcp.ClientSession) bool {
	return t.redial.watch.isGone(s) || t.session.Load() != s
}

// renew returns the session that replaces from: the Tool's session when it
// is already another, else the one a renewal opens (one for all the
// requests that meet from's end; it runs apart from them, bounded by
// renewTimeout and Close). The new session's tools are listed again,
// within the Tool's limits, before it replaces from, so that the document
// and the hints are the new server's. from is then closed.
func (t *Tool) renew(ctx context.Context, from *mcp.ClientSession) (*mcp.ClientSession, error) {
	r := t.redial
	r.mu.Lock()
	if cur := t.session.Load(); cur != from {
		r.mu.Unlock()
		return cur, nil
	}
	if r.closed {
		r.mu.Unlock()
		return nil, mcp.ErrConnectionClosed
	}
	p := r.pending
	if p == nil || p.from != from {
		p = &renewal{from: from, done: make(chan struct{})}
		r.pending = p
		r.wg.Add(1)
		go t.runRenewal(p)
	}
	r.mu.Unlock()
	select {
	case <-p.done:
		return p.session, p.err
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// runRenewal opens the session of p.
func (t *Tool) runRenewal(p *renewal) {
	r := t.redial
	defer r.wg.Done()
	ctx, cancel := context.WithTimeout(context.WithValue(r.base, attemptKey{}, nil), renewTimeout)
	defer cancel()
	cs, err := r.connect(ctx)
	if err == nil {
		var tools []listed
		if tools, err = t.list(ctx, cs); err == nil {
			t.keep(tools, cs)
		} else {
			cs.Close()
		}
	}
	r.mu.Lock()
	if err == nil && r.closed {
		cs.Close()
		err = mcp.ErrConnectionClosed
	}
	if err == nil {
		t.session.Store(cs)
		p.session = cs
	} else {
		p.err = err
	}
	r.pending = nil
	close(p.done)
	r.mu.Unlock()
	if err == nil {
		p.from.Close() // no DELETE when the SDK knows the session is missing
	}
	r.watch.keepOnly(t.session.Load().ID())
}
