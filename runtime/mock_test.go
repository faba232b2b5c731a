package runtime_test

// The tool the server and client tests run against: the reference mock tool's
// functions (count, create, read, update, delete, run, and the streaming
// sequentiallyRead) plus functions that misbehave on purpose.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// Codes the mock tool's own errors carry.
const (
	mockCodeNotFound = 4404 // read/update/delete of an unknown id
	mockCodeFail     = 4242 // the "fail" function
	mockCodeStream   = 4243 // the "failAfter" stream
)

type mockTool struct {
	mu    sync.Mutex
	texts []string // id = index; "" = deleted
	doc   *document.OpenTool

	loadErr   error
	loadPanic bool

	// block: signals blockEntered, waits for its context to end and sends
	// ctx.Err() on blockSaw.
	blockEntered chan struct{}
	blockSaw     chan error

	// hold: signals holdEntered, waits for release (or for its context to end).
	holdEntered chan struct{}
	release     chan struct{}

	// forever (stream): emits until emit fails, then sends emit's error and
	// ctx.Err() on foreverSaw.
	foreverSaw chan [2]error

	// leak (stream): sends its emit function on leaked and returns.
	leaked chan func(json.RawMessage) error
}

func newMockTool() *mockTool {
	return &mockTool{
		blockEntered: make(chan struct{}, 16),
		blockSaw:     make(chan error, 16),
		holdEntered:  make(chan struct{}, 64),
		release:      make(chan struct{}),
		foreverSaw:   make(chan [2]error, 16),
		leaked:       make(chan func(json.RawMessage) error, 16),
	}
}

type idArgs struct {
	ID   *int    `json:"id"`
	Text *string `json:"text"`
}

func decodeArgs(args json.RawMessage, v any) error {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if err := json.Unmarshal(args, v); err != nil {
		return runtime.InvalidParams(runtime.Violation{Message: err.Error()})
	}
	return nil
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func (m *mockTool) lookup(a idArgs) (int, error) {
	var vs []runtime.Violation
	if a.ID == nil {
		vs = append(vs, runtime.Violation{Path: "/id", Message: "required"})
	}
	if len(vs) > 0 {
		return 0, runtime.InvalidParams(vs...)
	}
	if *a.ID < 0 || *a.ID >= len(m.texts) || m.texts[*a.ID] == "" {
		return 0, runtime.NewError(mockCodeNotFound, "no text with id "+strconv.Itoa(*a.ID))
	}
	return *a.ID, nil
}

func (m *mockTool) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	switch name {
	case "count":
		m.mu.Lock()
		defer m.mu.Unlock()
		n := 0
		for _, t := range m.texts {
			if t != "" {
				n++
			}
		}
		return mustJSON(map[string]int{"count": n}), nil // as the reference mock: "count" for a return named "Count"
	case "create":
		var a idArgs
		if err := decodeArgs(args, &a); err != nil {
			return nil, err
		}
		if a.Text == nil || *a.Text == "" {
			return nil, runtime.InvalidParams(runtime.Violation{Path: "/text", Message: "required"})
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		m.texts = append(m.texts, *a.Text)
		return mustJSON(map[string]int{"id": len(m.texts) - 1}), nil
	case "read":
		var a idArgs
		if err := decodeArgs(args, &a); err != nil {
			return nil, err
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		id, err := m.lookup(a)
		if err != nil {
			return nil, err
		}
		return mustJSON(map[string]string{"text": m.texts[id]}), nil
	case "update", "delete":
		var a idArgs
		if err := decodeArgs(args, &a); err != nil {
			return nil, err
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		id, err := m.lookup(a)
		if err != nil {
			return nil, err
		}
		if name == "delete" {
			m.texts[id] = ""
			return nil, nil
		}
		if a.Text == nil || *a.Text == "" {
			return nil, runtime.InvalidParams(runtime.Violation{Path: "/text", Message: "required"})
		}
		m.texts[id] = *a.Text
		return nil, nil
	case "run":
		return nil, nil
	case "echo": // the arguments exactly as the tool got them
		if args == nil {
			return json.RawMessage(`{"none":true}`), nil
		}
		return json.RawMessage(`{"args":` + string(args) + `}`), nil
	case "panic":
		panic("boom")
	case "block":
		m.blockEntered <- struct{}{}
		<-ctx.Done()
		m.blockSaw <- ctx.Err()
		return nil, ctx.Err()
	case "hold":
		m.holdEntered <- struct{}{}
		select {
		case <-m.release:
		case <-ctx.Done(): // a graceful shutdown does not cancel calls in flight
			return nil, ctx.Err()
		}
		var a struct{ N int }
		decodeArgs(args, &a)
		return mustJSON(map[string]int{"n": a.N}), nil
	case "fail":
		return nil, &runtime.Error{Code: mockCodeFail, Message: "failed on purpose", Data: json.RawMessage(`{"why":"test"}`)}
	case "plainFail":
		return nil, errors.New("plain failure")
	case "nilError": // a typed nil *Error in a non-nil error interface
		var e *runtime.Error
		return nil, e
	case "badJSON":
		return json.RawMessage(`{"a":`), nil
	case "array":
		return json.RawMessage(`[1,2]`), nil
	case "scalar":
		return json.RawMessage(`"text"`), nil
	case "pretty":
		return json.RawMessage("{\n  \"a\": 1,\n  \"b\": \"x\"\n}\n"), nil
	}
	return nil, runtime.MethodNotFound(name)
}

func (m *mockTool) StreamCall(ctx context.Context, name string, args json.RawMessage, emit func(json.RawMessage) error) error {
	switch name {
	case "sequentiallyRead":
		m.mu.Lock()
		texts := append([]string(nil), m.texts...)
		m.mu.Unlock()
		for _, t := range texts {
			if t == "" {
				continue
			}
			if err := emit(mustJSON(map[string]string{"text": t})); err != nil {
				return err
			}
		}
		return nil
	case "failAfter":
		var a struct{ N int }
		if err := decodeArgs(args, &a); err != nil {
			return err
		}
		for i := range a.N {
			if err := emit(mustJSON(map[string]int{"i": i})); err != nil {
				return err
			}
		}
		return runtime.NewError(mockCodeStream, "stream failed after "+strconv.Itoa(a.N))
	case "forever":
		for i := 0; ; i++ {
			if err := emit(mustJSON(map[string]int{"i": i})); err != nil {
				m.foreverSaw <- [2]error{err, ctx.Err()}
				return err
			}
		}
	case "streamPanic":
		if err := emit(json.RawMessage(`{"i":0}`)); err != nil {
			return err
		}
		panic("stream boom")
	case "streamPretty":
		for range 2 {
			if err := emit(json.RawMessage("{\n  \"a\": [\n    1,\n    2\n  ]\n}")); err != nil {
				return err
			}
		}
		return &runtime.Error{Code: mockCodeStream, Message: "pretty error", Data: json.RawMessage("{\n\"x\": 1\n}")}
	case "leak":
		m.leaked <- emit
		return nil
	case "streamBad":
		if err := emit(json.RawMessage(`[1]`)); err != nil {
			return err // the invalid result ends the stream with the emit error
		}
		return errors.New("emit accepted an array")
	}
	return runtime.MethodNotFound(name)
}

func (m *mockTool) Load(ctx context.Context) (*document.OpenTool, error) {
	if m.loadPanic {
		panic("load boom")
	}
	return m.doc, m.loadErr
}

// plainTool is a Tool without streaming.
type plainTool struct{}

func (plainTool) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	return json.RawMessage(`{"ok":true}`), nil
}

func (plainTool) Load(ctx context.Context) (*document.OpenTool, error) { return nil, nil }

// ---- harness ----

// quietLogger discards what the server logs; logs, when not nil, collects it.
func quietLogger(logs *syncBuffer) *slog.Logger {
	if logs == nil {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(logs, nil))
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveMock serves tool on a loopback httptest server and returns the server and
// a client of it.
func serveMock(t testing.TB, tool runtime.Tool, opts ...runtime.ServerOption) (*httptest.Server, *runtime.Client) {
	t.Helper()
	opts = append([]runtime.ServerOption{runtime.WithLogger(quietLogger(nil))}, opts...)
	srv := httptest.NewServer(runtime.NewHandler(tool, opts...))
	t.Cleanup(srv.Close)
	return srv, runtime.NewClient(srv.URL + runtime.DefaultPrefix)
}

// fakeServer serves a hand-written handler (a peer that behaves like one of the
// reference servers) and returns a client of it.
func fakeServer(t testing.TB, h http.HandlerFunc, opts ...runtime.ClientOption) *runtime.Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return runtime.NewClient(srv.URL+runtime.DefaultPrefix, opts...)
}

type httpResult struct {
	status int
	header http.Header
	body   []byte
}

// do sends a raw request and reads the whole answer.
func do(t testing.TB, method, url, contentType string, body io.Reader, header ...string) httpResult {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return httpResult{status: resp.StatusCode, header: resp.Header, body: b}
}

func postJSON(t testing.TB, url, body string, header ...string) httpResult {
	t.Helper()
	return do(t, http.MethodPost, url, "application/json", strings.NewReader(body), header...)
}

// rpcResponse is a JSON-RPC response as sent, member by member.
type rpcResponse struct {
	JSONRPC string
	Result  json.RawMessage
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	ID      json.RawMessage
	members []string
}

// parseResponse checks that body is a JSON-RPC response object of this server:
// exactly the members jsonrpc, result (an object), error and id, in that order.
func parseResponse(body []byte) (rpcResponse, error) {
	var r rpcResponse
	if !json.Valid(body) {
		return r, fmt.Errorf("not valid JSON: %q", body)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return r, fmt.Errorf("not a JSON object: %q", body)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return r, err
		}
		key := tok.(string)
		r.members = append(r.members, key)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return r, err
		}
		switch key {
		case "jsonrpc":
			err = json.Unmarshal(raw, &r.JSONRPC)
		case "result":
			r.Result = raw
		case "error":
			err = json.Unmarshal(raw, &r.Error)
		case "id":
			r.ID = raw
		}
		if err != nil {
			return r, fmt.Errorf("member %s: %v in %q", key, err, body)
		}
	}
	if got := strings.Join(r.members, ","); got != "jsonrpc,result,error,id" {
		return r, fmt.Errorf("members %s, want jsonrpc,result,error,id: %q", got, body)
	}
	if r.JSONRPC != "2.0" {
		return r, fmt.Errorf("jsonrpc %q, want 2.0", r.JSONRPC)
	}
	if len(r.Result) == 0 || r.Result[0] != '{' {
		return r, fmt.Errorf("result is not an object: %q", body)
	}
	if r.Error != nil && string(r.Result) != "{}" {
		return r, fmt.Errorf("result of an error response is not {}: %q", body)
	}
	return r, nil
}

func mustParse(t testing.TB, body []byte) rpcResponse {
	t.Helper()
	r, err := parseResponse(body)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// wantRPCError checks an answer's status, that its body is a JSON-RPC error
// response with code, and its id.
func wantRPCError(t testing.TB, res httpResult, status, code int, id string) rpcResponse {
	t.Helper()
	if res.status != status {
		t.Errorf("status %d, want %d (body %s)", res.status, status, res.body)
	}
	if ct := res.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	r := mustParse(t, res.body)
	if r.Error == nil {
		t.Fatalf("no error in %s", res.body)
	}
	if r.Error.Code != code {
		t.Errorf("error code %d, want %d (body %s)", r.Error.Code, code, res.body)
	}
	if r.Error.Message == "" {
		t.Errorf("error without message: %s", res.body)
	}
	if string(r.ID) != id {
		t.Errorf("id %s, want %s", r.ID, id)
	}
	return r
}

// recv receives from ch, failing the test if nothing comes within a generous
// bound (a watchdog against hangs, not a synchronisation delay).
func recv[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

// asError returns err as *runtime.Error or fails the test.
func asError(t testing.TB, err error) *runtime.Error {
	t.Helper()
	var e *runtime.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *runtime.Error", err, err)
	}
	return e
}
