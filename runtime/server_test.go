package runtime_test

// Tests of the server handler over real HTTP: the protocol, and every item of
// "Bad input and faults" on the server side.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

func TestCallCRUD(t *testing.T) {
	srv, _ := serveMock(t, newMockTool())
	url := srv.URL + "/opentool/call"
	steps := []struct{ req, resp string }{
		{`{"jsonrpc":"2.0","method":"count","params":{},"id":"1"}`, `{"jsonrpc":"2.0","result":{"count":0},"error":null,"id":"1"}`},
		{`{"jsonrpc":"2.0","method":"create","params":{"text":"a"},"id":"2"}`, `{"jsonrpc":"2.0","result":{"id":0},"error":null,"id":"2"}`},
		{`{"jsonrpc":"2.0","method":"create","params":{"text":"b"},"id":"3"}`, `{"jsonrpc":"2.0","result":{"id":1},"error":null,"id":"3"}`},
		{`{"jsonrpc":"2.0","method":"update","params":{"id":1,"text":"B"},"id":"4"}`, `{"jsonrpc":"2.0","result":{},"error":null,"id":"4"}`},
		{`{"jsonrpc":"2.0","method":"read","params":{"id":1},"id":"5"}`, `{"jsonrpc":"2.0","result":{"text":"B"},"error":null,"id":"5"}`},
		{`{"jsonrpc":"2.0","method":"delete","params":{"id":0},"id":"6"}`, `{"jsonrpc":"2.0","result":{},"error":null,"id":"6"}`},
		{`{"jsonrpc":"2.0","method":"count","id":"7"}`, `{"jsonrpc":"2.0","result":{"count":1},"error":null,"id":"7"}`},
		{`{"jsonrpc":"2.0","method":"read","params":{"id":0},"id":"8"}`, `{"jsonrpc":"2.0","result":{},"error":{"code":4404,"message":"no text with id 0"},"id":"8"}`},
		{`{"jsonrpc":"2.0","method":"run","id":"9"}`, `{"jsonrpc":"2.0","result":{},"error":null,"id":"9"}`},
	}
	for _, s := range steps {
		res := postJSON(t, url, s.req)
		if res.status != http.StatusOK || string(res.body) != s.resp {
			t.Errorf("%s\n got %d %s\nwant 200 %s", s.req, res.status, res.body, s.resp)
		}
		if ct := res.header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type %q", ct)
		}
	}
}

// The tool gets the params bytes as sent, or nil when there are none.
func TestCallPassesRawArguments(t *testing.T) {
	srv, _ := serveMock(t, newMockTool())
	url := srv.URL + "/opentool/call"
	for _, c := range []struct{ params, want string }{
		{`,"params":{ "b" : [1, 2.50],"a":"\u00e9" }`, `{"args":{ "b" : [1, 2.50],"a":"\u00e9" }}`},
		{`,"params":{}`, `{"args":{}}`},
		{`,"params":null`, `{"none":true}`},
		{``, `{"none":true}`},
	} {
		res := postJSON(t, url, `{"jsonrpc":"2.0","method":"echo"`+c.params+`,"id":1}`)
		r := mustParse(t, res.body)
		if string(r.Result) != c.want {
			t.Errorf("params %s: tool got %s, want %s", c.params, r.Result, c.want)
		}
	}
}

func TestMalformedJSON(t *testing.T) {
	srv, _ := serveMock(t, newMockTool())
	for _, body := range []string{
		`{"jsonrpc":"2.0","method":"count"`,
		`{"jsonrpc":"2.0","method":"count","id":1}}`,
		`{"jsonrpc":"2.0","method":"count","id":1} {"x":1}`,
		`{method:"count"}`,
		``,
		`   `,
		"\xff\xfe",
	} {
		t.Run(fmt.Sprintf("%q", body), func(t *testing.T) {
			wantRPCError(t, postJSON(t, srv.URL+"/opentool/call", body), http.StatusBadRequest, runtime.CodeParseError, "null")
		})
	}
}

func TestNonObjectBody(t *testing.T) {
	srv, _ := serveMock(t, newMockTool())
	for _, body := range []string{`"count"`, `42`, `true`, `null`} {
		t.Run(body, func(t *testing.T) {
			wantRPCError(t, postJSON(t, srv.URL+"/opentool/call", body), http.StatusBadRequest, runtime.CodeInvalidRequest, "null")
		})
	}
}

func TestBatchRequest(t *testing.T) {
	srv, _ := serveMock(t, newMockTool())
	for _, body := range []string{
		`[{"jsonrpc":"2.0","method":"count","id":1},{"jsonrpc":"2.0","method":"count","id":2}]`,
		` [{"jsonrpc":"2.0","method":"count","id":1}]`,
		`[]`,
	} {
		r := wantRPCError(t, postJSON(t, srv.URL+"/opentool/call", body), http.StatusBadRequest, runtime.CodeInvalidRequest, "null")
		if !strings.Contains(r.Error.Message, "batch") {
			t.Errorf("message %q does not say batch", r.Error.Message)
		}
	}
}

func TestMissingOrEmptyMethod(t *testing.T) {
	srv, _ := serveMock(t, newMockTool())
	for _, c := range []struct{ body, id string }{
		{`{"jsonrpc":"2.0","params":{},"id":"a"}`, `"a"`},
		{`{"jsonrpc":"2.0","method":"","id":7}`, `7`},
		{`{"jsonrpc":"2.0","method":null,"id":7}`, `7`},
		{`{"jsonrpc":"2.0","method":5,"id":7}`, `7`},
		{`{"jsonrpc":"2.0","method":["count"],"id":7}`, `7`},
		{`{}`, `null`},
	} {
		t.Run(c.body, func(t *testing.T) {
			wantRPCError(t, postJSON(t, srv.URL+"/opentool/call", c.body), http.StatusBadRequest, runtime.CodeInvalidRequest, c.id)
		})
	}
}

func TestInvalidID(t *testing.T) {
	srv, _ := serveMock(t, newMockTool())
	for _, id := range []string{`{}`, `[1]`, `true`, `false`} {
		wantRPCError(t, postJSON(t, srv.URL+"/opentool/call", `{"jsonrpc":"2.0","method":"count","id":`+id+`}`),
			http.StatusBadRequest, runtime.CodeInvalidRequest, "null")
	}
}

// Params that are not an object are invalid params (-32602), answered with 200
// like every other -32602 (the request itself is a valid JSON-RPC request).
func TestParamsWrongShape(t *testing.T) {
	srv, _ := serveMock(t, newMockTool())
	for _, p := range []string{`[1,2]`, `[]`, `"text"`, `5`, `true`} {
		t.Run(p, func(t *testing.T) {
			wantRPCError(t, postJSON(t, srv.URL+"/opentool/call", `{"jsonrpc":"2.0","method":"echo","params":`+p+`,"id":"p"}`),
				http.StatusOK, runtime.CodeInvalidParams, `"p"`)
		})
	}
}

func TestUnknownMethod(t *testing.T) {
	srv, _ := serveMock(t, newMockTool())
	r := wantRPCError(t, postJSON(t, srv.URL+"/opentool/call", `{"jsonrpc":"2.0","method":"nope","id":"u"}`),
		http.StatusOK, runtime.CodeMethodNotFound, `"u"`)
	if !strings.Contains(r.Error.Message, `"nope"`) {
		t.Errorf("message %q does not name the method", r.Error.Message)
	}
}

func TestWrongHTTPMethod(t *testing.T) {
	srv, _ := serveMock(t, newMockTool())
	for _, c := range []struct{ method, path, allow string }{
		{http.MethodGet, "/call", "POST"},
		{http.MethodPut, "/call", "POST"},
		{http.MethodGet, "/streamCall", "POST"},
		{http.MethodPost, "/version", "GET, HEAD"},
		{http.MethodDelete, "/load", "GET, HEAD"},
	} {
		t.Run(c.method+c.path, func(t *testing.T) {
			res := do(t, c.method, srv.URL+"/opentool"+c.path, "", nil)
			wantRPCError(t, res, http.StatusMethodNotAllowed, http.StatusMethodNotAllowed, "null")
			if got := res.header.Get("Allow"); got != c.allow {
				t.Errorf("Allow %q, want %q", got, c.allow)
			}
		})
	}
}

func TestContentType(t *testing.T) {
	srv, _ := serveMock(t, newMockTool())
	body := `{"jsonrpc":"2.0","method":"count","id":1}`
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset", "json"} {
		t.Run("reject "+ct, func(t *testing.T) {
			res := do(t, http.MethodPost, srv.URL+"/opentool/call", ct, strings.NewReader(body))
			r := wantRPCError(t, res, http.StatusUnsupportedMediaType, runtime.CodeInvalidRequest, "null")
			if !strings.Contains(r.Error.Message, "Content-Type") {
				t.Errorf("message %q", r.Error.Message)
			}
		})
	}
	// What clients send: the reference SDKs, JSON-RPC over HTTP conventions, none.
	for _, ct := range []string{"", "application/json", "application/json; charset=utf-8", "Application/JSON", "application/json-rpc", "application/jsonrequest", "application/vnd.api+json"} {
		t.Run("accept "+ct, func(t *testing.T) {
			res := do(t, http.MethodPost, srv.URL+"/opentool/call", ct, strings.NewReader(body))
			if res.status != http.StatusOK || string(res.body) != `{"jsonrpc":"2.0","result":{"count":0},"error":null,"id":1}` {
				t.Errorf("got %d %s", res.status, res.body)
			}
		})
	}
}

func TestBodyTooLarge(t *testing.T) {
	const limit = 100
	srv, client := serveMock(t, newMockTool(), runtime.WithMaxBodyBytes(limit))
	url := srv.URL + "/opentool/call"
	prefix := `{"jsonrpc":"2.0","method":"echo","id":1,"params":{"s":"`
	fill := func(n int) string { // a request of exactly n bytes
		return prefix + strings.Repeat("x", n-len(prefix)-3) + `"}}`
	}
	if res := postJSON(t, url, fill(limit)); res.status != http.StatusOK {
		t.Errorf("a body of exactly the limit: %d %s", res.status, res.body)
	}
	wantRPCError(t, postJSON(t, url, fill(limit+1)), http.StatusRequestEntityTooLarge, runtime.CodeInvalidRequest, "null")
	wantRPCError(t, postJSON(t, url, fill(10*limit)), http.StatusRequestEntityTooLarge, runtime.CodeInvalidRequest, "null")

	// Without Content-Length (chunked): the limit holds while reading.
	chunked := io.MultiReader(strings.NewReader(fill(limit + 50)[:10]), strings.NewReader(fill(limit + 50)[10:]))
	res := do(t, http.MethodPost, url, "application/json", chunked)
	wantRPCError(t, res, http.StatusRequestEntityTooLarge, runtime.CodeInvalidRequest, "null")

	// The same on /streamCall.
	wantRPCError(t, postJSON(t, srv.URL+"/opentool/streamCall", fill(limit+1)), http.StatusRequestEntityTooLarge, runtime.CodeInvalidRequest, "null")

	// Through the client: an error naming the limit.
	_, err := client.Call(context.Background(), runtime.FunctionCall{Name: "echo", Arguments: json.RawMessage(`{"s":"` + strings.Repeat("y", limit) + `"}`)})
	if e := asError(t, err); e.Code != runtime.CodeInvalidRequest || !strings.Contains(e.Message, "larger than 100 bytes") {
		t.Errorf("client error %v", err)
	}
}

func TestAPIKeys(t *testing.T) {
	srv, _ := serveMock(t, newMockTool(), runtime.WithAPIKeys("key-one", "", "key-two"))
	body := `{"jsonrpc":"2.0","method":"count","id":1}`
	for _, auth := range []string{"", "Bearer", "Bearer ", "Bearer wrong", "Bearer key-one2", "Bearer key-on", "Basic a2V5LW9uZQ==", "key-one", "Bearer key-one key-two"} {
		t.Run("reject "+auth, func(t *testing.T) {
			res := postJSON(t, srv.URL+"/opentool/call", body, "Authorization", auth)
			wantRPCError(t, res, http.StatusUnauthorized, http.StatusUnauthorized, "null")
			if res.header.Get("WWW-Authenticate") == "" {
				t.Error("no WWW-Authenticate header")
			}
		})
	}
	for _, auth := range []string{"Bearer key-one", "Bearer key-two", "bearer key-two", "BEARER  key-one "} {
		t.Run("accept "+auth, func(t *testing.T) {
			res := postJSON(t, srv.URL+"/opentool/call", body, "Authorization", auth)
			if res.status != http.StatusOK {
				t.Errorf("got %d %s", res.status, res.body)
			}
		})
	}
	// Every route is protected.
	for _, path := range []string{"/version", "/load"} {
		if res := do(t, http.MethodGet, srv.URL+"/opentool"+path, "", nil); res.status != http.StatusUnauthorized {
			t.Errorf("GET %s without key: %d", path, res.status)
		}
	}
	if res := postJSON(t, srv.URL+"/opentool/streamCall", `{"method":"sequentiallyRead"}`); res.status != http.StatusUnauthorized {
		t.Errorf("streamCall without key: %d", res.status)
	}

	// The client: several keys work, a wrong or missing one is ErrUnauthorized.
	ctx := context.Background()
	for _, key := range []string{"key-one", "key-two"} {
		c := runtime.NewClient(srv.URL+"/opentool", runtime.WithAPIKey(key))
		if _, err := c.Call(ctx, runtime.FunctionCall{Name: "count"}); err != nil {
			t.Errorf("key %s: %v", key, err)
		}
		if _, err := c.Version(ctx); err != nil {
			t.Errorf("key %s: %v", key, err)
		}
	}
	for _, key := range []string{"", "key-three"} {
		c := runtime.NewClient(srv.URL+"/opentool", runtime.WithAPIKey(key))
		_, err := c.Call(ctx, runtime.FunctionCall{Name: "count"})
		if !errors.Is(err, runtime.ErrUnauthorized) {
			t.Errorf("key %q: Call error %v, want ErrUnauthorized", key, err)
		}
		if e := asError(t, err); e.Code != 401 {
			t.Errorf("code %d", e.Code)
		}
		if _, err := c.Version(ctx); !errors.Is(err, runtime.ErrUnauthorized) {
			t.Errorf("key %q: Version error %v", key, err)
		}
		if _, err := c.Load(ctx); !errors.Is(err, runtime.ErrUnauthorized) {
			t.Errorf("key %q: Load error %v", key, err)
		}
		for _, err := range c.StreamCall(ctx, runtime.FunctionCall{Name: "sequentiallyRead"}) {
			if !errors.Is(err, runtime.ErrUnauthorized) {
				t.Errorf("key %q: StreamCall error %v", key, err)
			}
		}
	}
}

func TestToolPanics(t *testing.T) {
	logs := &syncBuffer{}
	srv, client := serveMock(t, newMockTool(), runtime.WithLogger(quietLogger(logs)))
	r := wantRPCError(t, postJSON(t, srv.URL+"/opentool/call", `{"jsonrpc":"2.0","method":"panic","id":"p"}`),
		http.StatusOK, runtime.CodeInternalError, `"p"`)
	if strings.Contains(r.Error.Message, "boom") {
		t.Errorf("the panic value leaks to the caller: %q", r.Error.Message)
	}
	if !strings.Contains(logs.String(), "boom") || !strings.Contains(logs.String(), "panicked") {
		t.Errorf("the panic is not logged: %s", logs)
	}
	// The server keeps serving.
	ctx := context.Background()
	for range 3 {
		if _, err := client.Call(ctx, runtime.FunctionCall{Name: "panic"}); !errors.Is(err, runtime.ErrCall) || asError(t, err).Code != runtime.CodeInternalError {
			t.Errorf("panic through the client: %v", err)
		}
		ret, err := client.Call(ctx, runtime.FunctionCall{Name: "count"})
		if err != nil || string(ret.Result) != `{"count":0}` {
			t.Errorf("after a panic: %s %v", ret.Result, err)
		}
	}
}

func TestLoadPanics(t *testing.T) {
	tool := newMockTool()
	tool.loadPanic = true
	srv, client := serveMock(t, tool)
	wantRPCError(t, do(t, http.MethodGet, srv.URL+"/opentool/load", "", nil), http.StatusInternalServerError, http.StatusInternalServerError, "null")
	if _, err := client.Load(context.Background()); !errors.Is(err, runtime.ErrCall) || asError(t, err).Code != 500 {
		t.Errorf("Load: %v", err)
	}
	if _, err := client.Version(context.Background()); err != nil {
		t.Errorf("after a panic in Load: %v", err)
	}
}

// A tool's own errors: an *Error keeps its code, message and data; any other
// error is code 500 with its text; results that are not JSON objects are
// internal errors.
func TestToolErrors(t *testing.T) {
	srv, _ := serveMock(t, newMockTool())
	url := srv.URL + "/opentool/call"
	for _, c := range []struct{ method, resp string }{
		{"fail", `{"jsonrpc":"2.0","result":{},"error":{"code":4242,"message":"failed on purpose","data":{"why":"test"}},"id":1}`},
		{"plainFail", `{"jsonrpc":"2.0","result":{},"error":{"code":500,"message":"plain failure"},"id":1}`},
		{"badJSON", `{"jsonrpc":"2.0","result":{},"error":{"code":-32603,"message":"internal error: the tool returned a result that is not a JSON object"},"id":1}`},
		{"array", `{"jsonrpc":"2.0","result":{},"error":{"code":-32603,"message":"internal error: the tool returned a result that is not a JSON object"},"id":1}`},
		{"scalar", `{"jsonrpc":"2.0","result":{},"error":{"code":-32603,"message":"internal error: the tool returned a result that is not a JSON object"},"id":1}`},
		{"create", `{"jsonrpc":"2.0","result":{},"error":{"code":-32602,"message":"invalid params: /text: required","data":[{"path":"/text","message":"required"}]},"id":1}`},
	} {
		res := postJSON(t, url, `{"jsonrpc":"2.0","method":"`+c.method+`","id":1}`)
		if res.status != http.StatusOK || string(res.body) != c.resp {
			t.Errorf("%s:\n got %d %s\nwant 200 %s", c.method, res.status, res.body, c.resp)
		}
	}
	// A typed nil *Error is still an error of the tool, and the server survives it.
	wantRPCError(t, postJSON(t, url, `{"jsonrpc":"2.0","method":"nilError","id":1}`), http.StatusOK, runtime.CodeInternalError, "1")
	// A pretty-printed result is passed on as is.
	r := mustParse(t, postJSON(t, url, `{"jsonrpc":"2.0","method":"pretty","id":1}`).body)
	var v struct{ A int }
	if err := json.Unmarshal(r.Result, &v); err != nil || v.A != 1 {
		t.Errorf("pretty result %s: %v", r.Result, err)
	}
}

func TestToolBlocksUntilClientGivesUp(t *testing.T) {
	tool := newMockTool()
	_, client := serveMock(t, tool)

	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			_, err := client.Call(ctx, runtime.FunctionCall{Name: "block"})
			errc <- err
		}()
		recv(t, tool.blockEntered, "the tool to start")
		cancel()
		err := recv(t, errc, "the call to return")
		if !errors.Is(err, context.Canceled) {
			t.Errorf("client error %v, want context.Canceled", err)
		}
		if errors.Is(err, runtime.ErrNoAccess) {
			t.Errorf("a cancelled call is not a server that is down: %v", err)
		}
		if saw := recv(t, tool.blockSaw, "the tool to see the cancellation"); !errors.Is(saw, context.Canceled) {
			t.Errorf("the tool saw %v", saw)
		}
	})
	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := client.Call(ctx, runtime.FunctionCall{Name: "block"})
		recv(t, tool.blockEntered, "the tool to start")
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("client error %v, want context.DeadlineExceeded", err)
		}
		if saw := recv(t, tool.blockSaw, "the tool to see the cancellation"); saw == nil {
			t.Error("the tool did not see its context end")
		}
	})
	// The server still serves.
	if _, err := client.Call(context.Background(), runtime.FunctionCall{Name: "count"}); err != nil {
		t.Error(err)
	}
}

func TestConcurrentCallers(t *testing.T) {
	tool := newMockTool()
	_, client := serveMock(t, tool)
	const n = 200
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			fc, err := runtime.NewFunctionCall("", "echo", map[string]int{"n": i})
			if err != nil {
				errs <- err
				return
			}
			ret, err := client.Call(context.Background(), fc)
			if err != nil {
				errs <- err
				return
			}
			var got struct{ Args struct{ N int } }
			if err := ret.Decode("", &got); err != nil || got.Args.N != i || ret.ID == "" {
				errs <- fmt.Errorf("caller %d got %s (id %q): %v", i, ret.Result, ret.ID, err)
				return
			}
			var id int
			if err := client.Invoke(context.Background(), "create", map[string]string{"text": fmt.Sprint("t", i)}, "id", &id); err != nil {
				errs <- err
				return
			}
			var text string
			if err := client.Invoke(context.Background(), "read", map[string]int{"id": id}, "text", &text); err != nil || text != fmt.Sprint("t", i) {
				errs <- fmt.Errorf("caller %d read %q: %v", i, text, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var count int
	if err := client.Invoke(context.Background(), "count", nil, "Count", &count); err != nil || count != n {
		t.Errorf("count %d, %v", count, err)
	}
}

// closeNotifyListener reports when it is closed.
type closeNotifyListener struct {
	net.Listener
	once   sync.Once
	closed chan struct{}
}

func (l *closeNotifyListener) Close() error {
	err := l.Listener.Close()
	l.once.Do(func() { close(l.closed) })
	return err
}

func TestShutdownWithCallsInFlight(t *testing.T) {
	tool := newMockTool()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &closeNotifyListener{Listener: ln, closed: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- runtime.ServeListener(ctx, cl, tool, runtime.WithLogger(quietLogger(nil))) }()

	base := "http://" + ln.Addr().String() + "/opentool"
	client := runtime.NewClient(base)
	if v, err := client.Version(context.Background()); err != nil || v.Version != "1.0.0" {
		t.Fatalf("Version: %v %v", v, err)
	}

	const n = 8
	type answer struct {
		i   int
		n   int
		err error
	}
	answers := make(chan answer, n)
	for i := range n {
		go func() {
			var got struct{ N int }
			err := client.Invoke(context.Background(), "hold", map[string]int{"n": i}, "", &got)
			answers <- answer{i, got.N, err}
		}()
	}
	for range n {
		recv(t, tool.holdEntered, "the calls to reach the tool")
	}
	cancel()
	recv(t, cl.closed, "the listener to close")

	// New calls are refused (a fresh transport: no connection to reuse).
	fresh := runtime.NewClient(base, runtime.WithHTTPClient(&http.Client{Transport: &http.Transport{}}))
	if _, err := fresh.Call(context.Background(), runtime.FunctionCall{Name: "count"}); !errors.Is(err, runtime.ErrNoAccess) {
		t.Errorf("a call after shutdown: %v, want ErrNoAccess", err)
	}
	select {
	case err := <-served:
		t.Fatalf("ServeListener returned %v with calls in flight", err)
	default:
	}

	close(tool.release)
	for range n {
		a := recv(t, answers, "the calls in flight to complete")
		if a.err != nil || a.n != a.i {
			t.Errorf("call %d in flight: got %d, %v", a.i, a.n, a.err)
		}
	}
	if err := recv(t, served, "ServeListener to return"); err != nil {
		t.Errorf("ServeListener: %v", err)
	}
}

// A call that does not finish within WithShutdownTimeout is cut off: its
// connection closes, the tool's context ends, ServeListener says so.
func TestShutdownTimeout(t *testing.T) {
	tool := newMockTool()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() {
		served <- runtime.ServeListener(ctx, ln, tool, runtime.WithLogger(quietLogger(nil)), runtime.WithShutdownTimeout(50*time.Millisecond))
	}()
	client := runtime.NewClient("http://" + ln.Addr().String() + "/opentool")
	errc := make(chan error, 1)
	go func() {
		_, err := client.Call(context.Background(), runtime.FunctionCall{Name: "block"})
		errc <- err
	}()
	recv(t, tool.blockEntered, "the call to reach the tool")
	cancel()
	if err := recv(t, served, "ServeListener to return"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("ServeListener: %v, want context.DeadlineExceeded", err)
	}
	if saw := recv(t, tool.blockSaw, "the tool to see its context end"); saw == nil {
		t.Error("the tool's context did not end")
	}
	if err := recv(t, errc, "the call to fail"); !errors.Is(err, runtime.ErrNoAccess) {
		t.Errorf("the call cut off: %v, want ErrNoAccess", err)
	}
}

func TestServeBadAddress(t *testing.T) {
	err := runtime.Serve(context.Background(), "127.0.0.1:-1", newMockTool())
	if err == nil {
		t.Fatal("Serve on a bad address returned nil")
	}
}

func TestVersion(t *testing.T) {
	srv, client := serveMock(t, newMockTool(), runtime.WithVersion("2.3.4"))
	res := do(t, http.MethodGet, srv.URL+"/opentool/version", "", nil)
	if res.status != 200 || string(res.body) != `{"version":"2.3.4"}` || res.header.Get("Content-Type") != "application/json" {
		t.Errorf("GET /version: %d %s %v", res.status, res.body, res.header)
	}
	if res := do(t, http.MethodHead, srv.URL+"/opentool/version", "", nil); res.status != 200 || len(res.body) != 0 {
		t.Errorf("HEAD /version: %d %q", res.status, res.body)
	}
	v, err := client.Version(context.Background())
	if err != nil || v.Version != "2.3.4" {
		t.Errorf("client Version: %v %v", v, err)
	}
	_, client = serveMock(t, newMockTool())
	if v, err := client.Version(context.Background()); err != nil || v.Version != "1.0.0" {
		t.Errorf("default version: %v %v", v, err)
	}
}

func testDoc() *document.OpenTool {
	minLen := int64(1)
	maxV := 10.5
	return &document.OpenTool{
		OpenTool: "1.0.0",
		Info:     document.Info{Title: "CRUD API for mock", Description: "a <mock> & \"tool\"", Version: "1.0.0"},
		Server:   &document.Server{URL: "http://localhost:9627/opentool"},
		Functions: []document.Function{
			{Name: "count", Description: "Get storage size.", Parameters: []document.Parameter{},
				Return: &document.Return{Name: "Count", Schema: &document.Schema{Ref: "#/schemas/Count"}}},
			{Name: "create", Description: "Create a text", Parameters: []document.Parameter{
				{Name: "text", Schema: &document.Schema{Type: "string", MinLength: &minLen, Enum: []any{"a", "b"}}, Required: true},
				{Name: "tags", Schema: &document.Schema{Type: "array", Items: &document.Schema{Type: "string"}}},
			}, Return: &document.Return{Name: "Id", Schema: &document.Schema{Ref: "#/schemas/Id"}}},
			{Name: "sequentiallyRead", Description: "Read one by one", Parameters: []document.Parameter{},
				Stream: map[string]*document.Return{"data": {Name: "text", Schema: &document.Schema{Type: "string"}}}},
		},
		Schemas: document.Schemas{
			{Name: "Id", Schema: &document.Schema{Type: "integer", Maximum: &maxV, Default: json.RawMessage(`3`)}},
			{Name: "Count", Schema: &document.Schema{Type: "integer"}},
			{Name: "Point", Schema: &document.Schema{Type: "object", Required: []string{"y", "x"}, Properties: document.Schemas{
				{Name: "y", Schema: &document.Schema{Type: "number"}},
				{Name: "x", Schema: &document.Schema{Type: "number", Nullable: true}},
			}}},
		},
	}
}

func TestLoad(t *testing.T) {
	t.Run("none", func(t *testing.T) {
		srv, client := serveMock(t, newMockTool())
		res := do(t, http.MethodGet, srv.URL+"/opentool/load", "", nil)
		if res.status != 200 || string(res.body) != `{}` {
			t.Errorf("GET /load: %d %s", res.status, res.body)
		}
		doc, err := client.Load(context.Background())
		if doc != nil || err != nil {
			t.Errorf("Load: %v, %v; want nil, nil", doc, err)
		}
	})
	t.Run("document", func(t *testing.T) {
		tool := newMockTool()
		tool.doc = testDoc()
		srv, client := serveMock(t, tool)
		want, err := json.Marshal(testDoc())
		if err != nil {
			t.Fatal(err)
		}
		// A plain GET /load answers the references inlined, as the reference
		// servers do (their clients cannot read a $ref: load_interop_test.go).
		inlined := strings.NewReplacer(`{"$ref":"#/schemas/Count"}`, `{"type":"integer"}`,
			`{"$ref":"#/schemas/Id"}`, `{"type":"integer","default":3,"maximum":10.5}`).Replace(string(want))
		res := do(t, http.MethodGet, srv.URL+"/opentool/load", "", nil)
		if res.status != 200 || string(res.body) != inlined || strings.Contains(inlined, "$ref") {
			t.Errorf("GET /load:\n got %s\nwant %s", res.body, inlined)
		}
		// With refs=keep, the document as the tool has it.
		res = do(t, http.MethodGet, srv.URL+"/opentool/load?refs=keep", "", nil)
		if res.status != 200 || !bytes.Equal(res.body, want) {
			t.Errorf("GET /load?refs=keep:\n got %s\nwant %s", res.body, want)
		}
		doc, err := client.Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(doc)
		if !bytes.Equal(got, want) {
			t.Errorf("round trip:\n got %s\nwant %s", got, want)
		}
		if doc.Schemas[2].Name != "Point" || doc.Schemas[2].Schema.Properties[0].Name != "y" {
			t.Errorf("schema order lost: %s", got)
		}
		if !doc.Functions[2].IsStream() || doc.Functions[2].StreamData().Name != "text" {
			t.Errorf("stream member lost: %+v", doc.Functions[2])
		}
	})
	t.Run("error", func(t *testing.T) {
		tool := newMockTool()
		tool.loadErr = errors.New("no disk")
		srv, client := serveMock(t, tool)
		r := wantRPCError(t, do(t, http.MethodGet, srv.URL+"/opentool/load", "", nil), http.StatusInternalServerError, http.StatusInternalServerError, "null")
		if !strings.Contains(r.Error.Message, "no disk") {
			t.Errorf("message %q", r.Error.Message)
		}
		_, err := client.Load(context.Background())
		if e := asError(t, err); e.Code != 500 || !strings.Contains(e.Message, "no disk") {
			t.Errorf("Load: %v", err)
		}
	})
}

func TestNotFound(t *testing.T) {
	srv, _ := serveMock(t, newMockTool())
	for _, path := range []string{"/", "/call", "/opentool", "/opentool/", "/opentool/calls", "/opentoolx/call", "/opentool/call/x"} {
		wantRPCError(t, do(t, http.MethodPost, srv.URL+path, "", nil), http.StatusNotFound, http.StatusNotFound, "null")
	}
	// A client with the wrong base URL: the server is not there.
	client := runtime.NewClient(srv.URL + "/elsewhere")
	if _, err := client.Call(context.Background(), runtime.FunctionCall{Name: "count"}); !errors.Is(err, runtime.ErrNoAccess) {
		t.Errorf("wrong prefix: %v", err)
	}
}

func TestPrefix(t *testing.T) {
	for _, c := range []struct{ prefix, base string }{
		{"/api/tools/", "/api/tools"},
		{"/api", "/api"},
		{"", ""},
		{"/", ""},
	} {
		srv, _ := serveMock(t, newMockTool(), runtime.WithPrefix(c.prefix))
		client := runtime.NewClient(srv.URL + c.base + "/")
		if _, err := client.Call(context.Background(), runtime.FunctionCall{Name: "count"}); err != nil {
			t.Errorf("prefix %q: %v", c.prefix, err)
		}
		if c.base != "" {
			if res := postJSON(t, srv.URL+"/opentool/call", `{"method":"count"}`); res.status != http.StatusNotFound {
				t.Errorf("prefix %q: /opentool/call answered %d", c.prefix, res.status)
			}
		}
	}
}

// RequireAPIKeys guards any handler with WithAPIKeys' comparison and answers
// as the OpenTool handler does.
func TestRequireAPIKeys(t *testing.T) {
	reached := 0
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached++; io.WriteString(w, "in") })
	srv := httptest.NewServer(runtime.RequireAPIKeys(inner, "key-one", "", "key-two"))
	defer srv.Close()
	for _, auth := range []string{"", "Bearer", "Bearer wrong", "Bearer key-on", "Basic a2V5LW9uZQ==", "key-one"} {
		res := do(t, http.MethodGet, srv.URL+"/mcp", "", nil, "Authorization", auth)
		wantRPCError(t, res, http.StatusUnauthorized, http.StatusUnauthorized, "null")
		if res.header.Get("WWW-Authenticate") == "" {
			t.Errorf("%q: no WWW-Authenticate header", auth)
		}
	}
	if reached != 0 {
		t.Fatalf("the handler was reached %d times without a valid key", reached)
	}
	for _, auth := range []string{"Bearer key-one", "bearer key-two", "BEARER  key-one "} {
		if res := do(t, http.MethodGet, srv.URL+"/mcp", "", nil, "Authorization", auth); res.status != http.StatusOK || string(res.body) != "in" {
			t.Errorf("%q: got %d %s", auth, res.status, res.body)
		}
	}
	// No keys: nothing is required.
	open := httptest.NewServer(runtime.RequireAPIKeys(inner, "", ""))
	defer open.Close()
	if res := do(t, http.MethodGet, open.URL+"/mcp", "", nil); res.status != http.StatusOK {
		t.Errorf("without keys: got %d %s", res.status, res.body)
	}
}

// ServeHandler serves a mux with the OpenTool handler mounted in it, and
// shuts down as ServeListener does: a call in flight completes.
func TestServeHandler(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started, release := make(chan struct{}), make(chan struct{})
	mux := http.NewServeMux()
	mux.Handle("/opentool/", runtime.NewHandler(plainTool{}))
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		io.WriteString(w, "done")
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runtime.ServeHandler(ctx, ln, mux, runtime.WithShutdownTimeout(10*time.Second)) }()
	base := "http://" + ln.Addr().String()
	res, err := runtime.NewClient(base+runtime.DefaultPrefix).Call(context.Background(), runtime.FunctionCall{Name: "f"})
	if err != nil || string(res.Result) != `{"ok":true}` {
		t.Fatalf("call through the mux: %s, %v", res.Result, err)
	}
	slow := make(chan string, 1)
	go func() {
		r, err := http.Get(base + "/slow")
		if err != nil {
			slow <- err.Error()
			return
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		slow <- string(b)
	}()
	<-started
	cancel()
	select {
	case err := <-done:
		t.Fatalf("ServeHandler returned %v with a request in flight", err)
	case <-time.After(100 * time.Millisecond):
		// Not a wait for an event: the request stays in flight until
		// release, and a ServeHandler that did not wait for it would return
		// within this window.
	}
	close(release)
	if got := <-slow; got != "done" {
		t.Errorf("the request in flight got %q, want done", got)
	}
	if err := <-done; err != nil {
		t.Errorf("ServeHandler: %v", err)
	}
}
