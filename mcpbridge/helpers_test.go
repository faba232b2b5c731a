package mcpbridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/internal/testtool"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// waitLong bounds every wait of the tests: long enough for a loaded machine,
// short enough that a hang fails the test instead of the run.
const waitLong = 30 * time.Second

// changed tells a waiter that something it watches may have changed: who
// changes it calls notify after each change, the waiter checks its condition
// again after each notification (one waiter at a time).
type changed chan struct{}

func newChanged() changed { return make(changed, 1) }

func (c changed) notify() {
	select {
	case c <- struct{}{}:
	default:
	}
}

// waitUntil returns once cond holds, checked at the start and after each
// notification; it fails the test after waitLong.
func (c changed) waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	if !c.until(cond) {
		t.Fatalf("%s: not after %v", what, waitLong)
	}
}

// until is waitUntil for another goroutine than the test's: it reports
// whether cond held within waitLong.
func (c changed) until(cond func() bool) bool {
	timeout := time.After(waitLong)
	for !cond() {
		select {
		case <-c:
		case <-timeout:
			return false
		}
	}
	return true
}

// eventually returns once cond holds, checked every 5 ms: polling for a state
// the test can observe but not be told of (a connection closed, a task
// expired); it fails the test, naming what, after waitLong.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for deadline := time.Now().Add(waitLong); !cond(); <-tick.C {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after %v", what, waitLong)
		}
	}
}

// conns counts the connections of an httptest server that are open.
type conns struct {
	mu   sync.Mutex
	open map[net.Conn]bool
}

// trackConns counts the connections of srv, which has not started yet.
func trackConns(srv *httptest.Server) *conns {
	c := &conns{open: map[net.Conn]bool{}}
	srv.Config.ConnState = func(nc net.Conn, s http.ConnState) {
		c.mu.Lock()
		defer c.mu.Unlock()
		switch s {
		case http.StateClosed, http.StateHijacked:
			delete(c.open, nc)
		default:
			c.open[nc] = true
		}
	}
	return c
}

func (c *conns) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.open)
}

// progressLog keeps the progress notifications a client receives.
type progressLog struct {
	mu      sync.Mutex
	notes   []*mcp.ProgressNotificationParams
	changed changed
}

func newProgressLog() *progressLog { return &progressLog{changed: newChanged()} }

// add is a progress handler for connect.
func (l *progressLog) add(p *mcp.ProgressNotificationParams) {
	l.mu.Lock()
	l.notes = append(l.notes, p)
	l.mu.Unlock()
	l.changed.notify()
}

// wait waits for n notifications in all (a client may handle them after the
// result of their call arrived) and returns those received.
func (l *progressLog) wait(t testing.TB, n int) []*mcp.ProgressNotificationParams {
	t.Helper()
	l.changed.waitUntil(t, fmt.Sprintf("%d progress notifications", n), func() bool { return len(l.got()) >= n })
	return l.got()
}

func (l *progressLog) got() []*mcp.ProgressNotificationParams {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.notes)
}

// ---- the generated mock tool, served from testtool.Store --------------------

// newStore is a store holding texts under the ids 0, 1, …
func newStore(texts ...mocktool.Text) *testtool.Store { return testtool.NewStore(texts...) }

func newMockTool(t testing.TB, s *testtool.Store) *mocktool.Tool {
	t.Helper()
	tool, err := mocktool.NewTool(s)
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// ---- a small hand-written tool: an object return, a $ref'd optional
// parameter, a blocking function and a panicking one --------------------------

const petsDoc = `{
  "opentool": "1.0.0",
  "info": {"title": "pets", "version": "2.0.0"},
  "functions": [
    {
      "name": "addPet",
      "description": "Add a pet.",
      "parameters": [
        {"name": "name", "schema": {"type": "string"}, "description": "The pet's name.", "required": true},
        {"name": "tag", "schema": {"$ref": "#/schemas/Tag"}, "required": false}
      ],
      "return": {"name": "pet", "description": "The new pet.", "schema": {"$ref": "#/schemas/Pet"}}
    },
    {
      "name": "block",
      "description": "Wait until cancelled.",
      "parameters": [],
      "return": null
    },
    {
      "name": "boom",
      "description": "Panic.",
      "parameters": [],
      "return": null
    }
  ],
  "schemas": {
    "Pet": {
      "type": "object",
      "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "tag": {"$ref": "#/schemas/Tag"}
      },
      "required": ["id", "name"]
    },
    "Tag": {"type": "string", "enum": ["cat", "dog"]}
  }
}`

// pets is a runtime.Tool (not a StreamTool) written by hand. block reports on
// started when it is called and on cancelled when its context ends (or, nil,
// when release is closed).
type pets struct {
	doc       *document.OpenTool
	started   chan struct{}
	cancelled chan error
	release   chan struct{} // closed by a test that must not hang when cancellation fails
}

func newPets(t testing.TB) *pets {
	t.Helper()
	var doc document.OpenTool
	if err := json.Unmarshal([]byte(petsDoc), &doc); err != nil {
		t.Fatal(err)
	}
	return &pets{doc: &doc, started: make(chan struct{}, 1), cancelled: make(chan error, 1), release: make(chan struct{})}
}

func (p *pets) Load(context.Context) (*document.OpenTool, error) { return p.doc, nil }

func (p *pets) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	switch name {
	case "addPet":
		var a struct {
			Name *string `json:"name"`
			Tag  string  `json:"tag,omitempty"`
		}
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, runtime.InvalidParams(runtime.Violation{Message: err.Error()})
		}
		if a.Name == nil {
			return nil, runtime.InvalidParams(runtime.Violation{Path: "/name", Message: "missing required parameter"})
		}
		return json.Marshal(struct {
			ID   int    `json:"id"`
			Name string `json:"name"`
			Tag  string `json:"tag,omitempty"`
		}{7, *a.Name, a.Tag})
	case "block":
		p.started <- struct{}{}
		select {
		case <-ctx.Done():
			p.cancelled <- ctx.Err()
			return nil, ctx.Err()
		case <-p.release:
			p.cancelled <- nil
			return nil, nil
		}
	case "boom":
		panic("boom")
	}
	return nil, runtime.MethodNotFound(name)
}

// ---- connecting the SDK's own client -----------------------------------------

// transports are the ways the tests connect a client to a served tool.
var transports = []string{"memory", "http", "http-stateless"}

// connect serves tool with mcpbridge over the named transport and connects
// the SDK's client to it; progress, when not nil, receives its progress
// notifications.
func connect(t testing.TB, transport string, tool runtime.Tool, progress func(*mcp.ProgressNotificationParams), opts ...mcpbridge.Option) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	copts := &mcp.ClientOptions{}
	if progress != nil {
		copts.ProgressNotificationHandler = func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			progress(req.Params)
		}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, copts)
	var ct mcp.Transport
	switch transport {
	case "memory":
		server, err := mcpbridge.NewServer(ctx, tool, nil, opts...)
		if err != nil {
			t.Fatal(err)
		}
		st, cli := mcp.NewInMemoryTransports()
		ss, err := server.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ss.Close() })
		ct = cli
	case "http", "http-stateless":
		h, err := mcpbridge.NewHTTPHandler(ctx, tool, nil, transport == "http-stateless", opts...)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		ct = &mcp.StreamableClientTransport{Endpoint: srv.URL, MaxRetries: -1}
	default:
		t.Fatalf("unknown transport %q", transport)
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// asJSON returns v's JSON decoded into an any, for comparisons that ignore
// member order and number representation.
func asJSON(t testing.TB, v any) any {
	t.Helper()
	var b []byte
	switch v := v.(type) {
	case string:
		b = []byte(v)
	case json.RawMessage:
		b = v
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return out
}

// text returns the only content of res, which must be text.
func text(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("content: got %d items, want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content: got %T, want *mcp.TextContent", res.Content[0])
	}
	return tc.Text
}

// newLogger returns a logger writing to buf under mu.
func newLogger(mu *sync.Mutex, buf *bytes.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(lockedWriter{mu, buf}, nil))
}

type lockedWriter struct {
	mu  *sync.Mutex
	buf *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}
