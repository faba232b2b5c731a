package runtime_test

// Tests of the client: faults of the server and the network, and the error and
// protocol types.

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
)

func TestClientCall(t *testing.T) {
	_, client := serveMock(t, newMockTool())
	ctx := context.Background()

	ret, err := client.Call(ctx, runtime.FunctionCall{ID: "my-id", Name: "create", Arguments: json.RawMessage(`{"text":"hello"}`)})
	if err != nil || ret.ID != "my-id" || string(ret.Result) != `{"id":0}` {
		t.Fatalf("Call: %+v %v", ret, err)
	}
	// No id: a unique one.
	ids := map[string]bool{}
	for range 3 {
		ret, err := client.Call(ctx, runtime.FunctionCall{Name: "count"})
		if err != nil || ret.ID == "" || ids[ret.ID] {
			t.Fatalf("Call without id: %+v %v", ret, err)
		}
		ids[ret.ID] = true
	}
	if other := runtime.NewClient(client.BaseURL()).NewID(); ids[other] {
		t.Errorf("two clients made the same id %q", other)
	}
	// The typed helper: a Go struct in, a Go value out.
	var text string
	if err := client.Invoke(ctx, "read", struct {
		ID int `json:"id"`
	}{0}, "text", &text); err != nil || text != "hello" {
		t.Errorf("Invoke read: %q %v", text, err)
	}
	var n int
	if err := client.Invoke(ctx, "count", nil, "Count", &n); err != nil || n != 1 {
		t.Errorf("Invoke count: %d %v", n, err)
	}
	if err := client.Invoke(ctx, "update", map[string]any{"id": 0, "text": "bye"}, "", nil); err != nil {
		t.Errorf("Invoke update: %v", err)
	}
	// A result that does not match the Go type is a clear error.
	var wrong []bool
	err = client.Invoke(ctx, "read", map[string]int{"id": 0}, "text", &wrong)
	if e := asError(t, err); !errors.Is(err, runtime.ErrResponseNull) || !strings.Contains(e.Message, `"read"`) {
		t.Errorf("Invoke into the wrong type: %v", err)
	}
	// Arguments that are not an object never leave the client.
	if _, err := client.Call(ctx, runtime.FunctionCall{Name: "echo", Arguments: json.RawMessage(`[1]`)}); asError(t, err).Code != runtime.CodeInvalidParams {
		t.Errorf("array arguments: %v", err)
	}
	if err := client.Invoke(ctx, "echo", []int{1}, "", nil); asError(t, err).Code != runtime.CodeInvalidParams {
		t.Errorf("Invoke with array arguments: %v", err)
	}
	if err := client.Invoke(ctx, "echo", func() {}, "", nil); err == nil {
		t.Error("Invoke with unencodable arguments: no error")
	}
}

func TestClientToolErrors(t *testing.T) {
	_, client := serveMock(t, newMockTool())
	ctx := context.Background()
	_, err := client.Call(ctx, runtime.FunctionCall{Name: "fail"})
	e := asError(t, err)
	if !errors.Is(err, runtime.ErrCall) || e.Code != mockCodeFail || e.Message != "failed on purpose" || string(e.Data) != `{"why":"test"}` {
		t.Errorf("tool error: %#v", e)
	}
	if !errors.Is(err, runtime.NewError(mockCodeFail, "")) {
		t.Error("errors.Is does not match a tool error by code")
	}
	_, err = client.Call(ctx, runtime.FunctionCall{Name: "nope"})
	if e := asError(t, err); !errors.Is(err, runtime.ErrCall) || e.Code != runtime.CodeMethodNotFound {
		t.Errorf("unknown method: %v", err)
	}
	_, err = client.Call(ctx, runtime.FunctionCall{Name: "create", Arguments: json.RawMessage(`{}`)})
	e = asError(t, err)
	if e.Code != runtime.CodeInvalidParams || !reflect.DeepEqual(e.Violations(), []runtime.Violation{{Path: "/text", Message: "required"}}) {
		t.Errorf("invalid params: %v, violations %v", err, e.Violations())
	}
}

func TestServerDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	client := runtime.NewClient("http://" + addr + "/opentool")
	ctx := context.Background()
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, runtime.ErrNoAccess) {
			t.Errorf("%s: %v, want ErrNoAccess", what, err)
			return
		}
		e := asError(t, err)
		if e.Code != 404 || e.Class != runtime.ClassNoAccess {
			t.Errorf("%s: %#v", what, e)
		}
		var opErr *net.OpError
		if !errors.As(err, &opErr) {
			t.Errorf("%s: the dial error is not kept as the cause: %v", what, err)
		}
	}
	_, err = client.Call(ctx, runtime.FunctionCall{Name: "count"})
	check("Call", err)
	_, err = client.Version(ctx)
	check("Version", err)
	_, err = client.Load(ctx)
	check("Load", err)
	check("Invoke", client.Invoke(ctx, "count", nil, "", nil))
	n := 0
	for _, err := range client.StreamCall(ctx, runtime.FunctionCall{Name: "sequentiallyRead"}) {
		check("StreamCall", err)
		n++
	}
	if n != 1 {
		t.Errorf("StreamCall yielded %d times", n)
	}
}

// A server that answers something other than a JSON-RPC response.
func TestServerAnswersGarbage(t *testing.T) {
	for _, c := range []struct {
		name   string
		status int
		ctype  string
		body   string
		want   *runtime.Error // class and code
	}{
		{"html 200", 200, "text/html", "<html><body>Hello</body></html>", runtime.ErrResponseNull},
		{"empty 200", 200, "", "", runtime.ErrResponseNull},
		{"blank 200", 200, "application/json", " \n", runtime.ErrResponseNull},
		{"json array 200", 200, "application/json", "[1,2]", runtime.ErrResponseNull},
		{"json null 200", 200, "application/json", "null", runtime.ErrResponseNull},
		{"no result 200", 200, "application/json", `{"jsonrpc":"2.0","id":"1"}`, runtime.ErrResponseNull},
		{"html 400", 400, "text/html", "<!DOCTYPE html><title>Error</title><pre>Bad Request</pre>", runtime.ErrErrorNull},
		{"html 413", 413, "text/html", "<!DOCTYPE html><pre>PayloadTooLargeError: request entity too large</pre>", runtime.ErrErrorNull},
		{"html 500", 500, "text/html", "<h1>Internal Server Error</h1>", runtime.ErrErrorNull},
		{"empty 500", 500, "", "", runtime.ErrErrorNull},
		{"rpc without error 500", 500, "application/json", `{"jsonrpc":"2.0","result":{},"id":"1"}`, runtime.ErrErrorNull},
		{"text 429", 429, "text/plain", "slow down", runtime.ErrErrorNull},
		{"empty 401", 401, "", "", runtime.ErrUnauthorized},
		{"html 403", 403, "text/html", "<h1>Forbidden</h1>", runtime.ErrUnauthorized},
		{"html 404", 404, "text/html", "<h1>Not Found</h1>", runtime.ErrNoAccess},
		{"html 502", 502, "text/html", "<h1>Bad Gateway</h1>", runtime.ErrNoAccess},
		{"empty 503", 503, "", "", runtime.ErrNoAccess},
	} {
		t.Run(c.name, func(t *testing.T) {
			client := fakeServer(t, func(w http.ResponseWriter, r *http.Request) {
				if c.ctype != "" {
					w.Header().Set("Content-Type", c.ctype)
				}
				w.WriteHeader(c.status)
				io.WriteString(w, c.body)
			})
			_, err := client.Call(context.Background(), runtime.FunctionCall{Name: "count"})
			e := asError(t, err)
			if !errors.Is(err, c.want) {
				t.Errorf("error %v, want class %s", err, c.want.Class)
			}
			wantCode := c.status
			if c.want.Code != 0 {
				wantCode = c.want.Code
			}
			if e.Code != wantCode {
				t.Errorf("code %d, want %d", e.Code, wantCode)
			}
			if e.Message == "" {
				t.Error("no message")
			}
			if strings.Contains(c.body, "<") && strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("error text spans lines: %q", err.Error())
			}
			// Every client method fails the same way and never panics.
			if _, err := client.Version(context.Background()); err == nil {
				t.Error("Version: no error")
			}
			for _, err := range client.StreamCall(context.Background(), runtime.FunctionCall{Name: "count"}) {
				if c.status == http.StatusNotFound {
					// A 404 on /streamCall from a server that answers: it has
					// no streaming endpoint (a call error, not "no access").
					if !errors.Is(err, runtime.ErrCall) || !errors.Is(err, runtime.ErrNoStreaming) {
						t.Errorf("StreamCall: %v, want class call and ErrNoStreaming", err)
					}
				} else if !errors.Is(err, c.want) {
					t.Errorf("StreamCall: %v, want class %s", err, c.want.Class)
				}
			}
		})
	}
}

// A server that closes the connection without answering.
func TestServerHangsUp(t *testing.T) {
	client := fakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	})
	_, err := client.Call(context.Background(), runtime.FunctionCall{Name: "count"})
	if !errors.Is(err, runtime.ErrNoAccess) {
		t.Errorf("hang-up: %v", err)
	}
}

// A response bigger than WithMaxResponseBytes is refused.
func TestMaxResponseBytes(t *testing.T) {
	big := `{"jsonrpc":"2.0","result":{"s":"` + strings.Repeat("x", 1000) + `"},"error":null,"id":"1"}`
	client := fakeServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, big) }, runtime.WithMaxResponseBytes(500))
	if _, err := client.Call(context.Background(), runtime.FunctionCall{Name: "count"}); !errors.Is(err, runtime.ErrResponseNull) {
		t.Errorf("oversized response: %v", err)
	}
	client = fakeServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, big) }, runtime.WithMaxResponseBytes(int64(len(big))))
	if _, err := client.Call(context.Background(), runtime.FunctionCall{Name: "count"}); err != nil {
		t.Errorf("response of exactly the limit: %v", err)
	}
}

// What the client sends: a strict JSON-RPC 2.0 request with the headers set.
func TestClientRequest(t *testing.T) {
	var mu sync.Mutex
	var got []*http.Request
	var bodies []string
	client := fakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r)
		bodies = append(bodies, string(b))
		mu.Unlock()
		io.WriteString(w, `{"jsonrpc":"2.0","result":{},"error":null,"id":"x"}`)
	}, runtime.WithAPIKey("secret"), runtime.WithHeader("X-Trace", "t1"))
	ctx := context.Background()
	client.Call(ctx, runtime.FunctionCall{ID: "id-\"1\"", Name: "a<b>", Arguments: json.RawMessage(`{"k":[1,2]}`)})
	client.Call(ctx, runtime.FunctionCall{ID: "2", Name: "count"})
	client.Call(ctx, runtime.FunctionCall{ID: "3", Name: "count", Arguments: json.RawMessage(`null`)})

	want := []string{
		`{"jsonrpc":"2.0","method":"a\u003cb\u003e","params":{"k":[1,2]},"id":"id-\"1\""}`,
		`{"jsonrpc":"2.0","method":"count","params":{},"id":"2"}`,
		`{"jsonrpc":"2.0","method":"count","params":{},"id":"3"}`,
	}
	if !reflect.DeepEqual(bodies, want) {
		t.Errorf("bodies:\n got %q\nwant %q", bodies, want)
	}
	for _, r := range got {
		if r.Method != http.MethodPost || r.URL.Path != "/opentool/call" {
			t.Errorf("request %s %s", r.Method, r.URL.Path)
		}
		if h := r.Header.Get("Authorization"); h != "Bearer secret" {
			t.Errorf("Authorization %q", h)
		}
		if h := r.Header.Get("Content-Type"); h != "application/json" {
			t.Errorf("Content-Type %q", h)
		}
		if h := r.Header.Get("X-Trace"); h != "t1" {
			t.Errorf("X-Trace %q", h)
		}
	}
}

func TestErrorJSON(t *testing.T) {
	for _, e := range []*runtime.Error{
		runtime.NewError(4242, "custom"),
		runtime.Errorf("failed: %d", 3),
		runtime.MethodNotFound("x"),
		runtime.InternalError("oops"),
		runtime.InvalidParams(runtime.Violation{Path: "/a/0", Message: "want a string"}, runtime.Violation{Message: "too many"}),
		runtime.ErrResponseNull, runtime.ErrErrorNull, runtime.ErrUnauthorized, runtime.ErrNoAccess, runtime.ErrCall,
		{Code: 1, Message: "with data", Data: json.RawMessage(`{"a":[1]}`)},
	} {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var back runtime.Error
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&back, e) {
			t.Errorf("round trip of %s: got %#v", b, &back)
		}
		if e.Class != "" && !errors.Is(&back, e) {
			t.Errorf("the decoded %s is not errors.Is the original", b)
		}
	}
	b, _ := json.Marshal(runtime.ErrUnauthorized)
	if string(b) != `{"code":401,"message":"Please check API Key is VALID or NOT","class":"unauthorized"}` {
		t.Errorf("ErrUnauthorized JSON %s", b)
	}
	b, _ = json.Marshal(runtime.ErrNoAccess)
	if string(b) != `{"code":404,"message":"Please check OpenTool Server is RUNNING or NOT","class":"noAccess"}` {
		t.Errorf("ErrNoAccess JSON %s", b)
	}
}

func TestErrorsIs(t *testing.T) {
	classes := []*runtime.Error{runtime.ErrResponseNull, runtime.ErrErrorNull, runtime.ErrUnauthorized, runtime.ErrNoAccess, runtime.ErrCall}
	for i, a := range classes {
		for j, b := range classes {
			if got := errors.Is(a, b); got != (i == j) {
				t.Errorf("errors.Is(%s, %s) = %v", a.Class, b.Class, got)
			}
		}
	}
	// Wrapped, and with a cause.
	_, err := runtime.NewClient("http://127.0.0.1:1/opentool").Version(context.Background())
	wrapped := errors.Join(errors.New("context"), err)
	if !errors.Is(wrapped, runtime.ErrNoAccess) || errors.Is(wrapped, runtime.ErrCall) {
		t.Errorf("wrapped: %v", wrapped)
	}
	// Server-side errors have no class: they match by code, not by class.
	if errors.Is(runtime.MethodNotFound("x"), runtime.ErrCall) || !errors.Is(runtime.MethodNotFound("x"), runtime.MethodNotFound("y")) {
		t.Error("server errors match by code")
	}
	if errors.Is(runtime.NewError(1, "a"), errors.New("a")) {
		t.Error("an *Error is a plain error")
	}
	// The text says what happened.
	e := &runtime.Error{Code: 7, Message: "m", Data: json.RawMessage(`[1]`), Class: runtime.ClassCall}
	if got := e.Error(); got != "opentool: call: code 7: m (data: [1])" {
		t.Errorf("Error() = %q", got)
	}
}

func TestInvalidParamsViolations(t *testing.T) {
	vs := []runtime.Violation{{Path: "/loc/0/city", Message: "required"}, {Path: "", Message: "unknown member \"x\""}}
	e := runtime.InvalidParams(vs...)
	if e.Code != runtime.CodeInvalidParams || !reflect.DeepEqual(e.Violations(), vs) {
		t.Errorf("%#v violations %v", e, e.Violations())
	}
	if e.Message != `invalid params: /loc/0/city: required; unknown member "x"` {
		t.Errorf("message %q", e.Message)
	}
	if v := runtime.InvalidParams().Violations(); len(v) != 0 {
		t.Errorf("no violations: %v", v)
	}
	if string(runtime.InvalidParams().Data) != "[]" {
		t.Errorf("no violations: data %s, want []", runtime.InvalidParams().Data)
	}
	if runtime.NewError(500, "x").Violations() != nil || (*runtime.Error)(nil).Violations() != nil {
		t.Error("violations of another error")
	}
}

func TestProtocolTypesJSON(t *testing.T) {
	fc, err := runtime.NewFunctionCall("id1", "create", map[string]string{"text": "a"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(fc)
	if string(b) != `{"id":"id1","name":"create","arguments":{"text":"a"}}` {
		t.Errorf("FunctionCall JSON %s", b)
	}
	var fc2 runtime.FunctionCall
	if err := json.Unmarshal(b, &fc2); err != nil || !reflect.DeepEqual(fc, fc2) {
		t.Errorf("FunctionCall round trip %+v %v", fc2, err)
	}
	if fc, _ := runtime.NewFunctionCall("i", "count", nil); fc.Arguments != nil {
		t.Errorf("no arguments: %s", fc.Arguments)
	}
	if _, err := runtime.NewFunctionCall("i", "f", make(chan int)); err == nil {
		t.Error("unencodable arguments: no error")
	}

	tr := runtime.ToolReturn{ID: "id1", Result: json.RawMessage(`{"count":5}`)}
	b, _ = json.Marshal(tr)
	if string(b) != `{"id":"id1","result":{"count":5}}` {
		t.Errorf("ToolReturn JSON %s", b)
	}
	var tr2 runtime.ToolReturn
	if err := json.Unmarshal(b, &tr2); err != nil || !reflect.DeepEqual(tr, tr2) {
		t.Errorf("ToolReturn round trip %+v %v", tr2, err)
	}

	v := runtime.Version{Version: "1.2.3"}
	b, _ = json.Marshal(v)
	var v2 runtime.Version
	if string(b) != `{"version":"1.2.3"}` || json.Unmarshal(b, &v2) != nil || v2 != v {
		t.Errorf("Version JSON %s %v", b, v2)
	}
}

func TestDecodeResultLiberal(t *testing.T) {
	for _, c := range []struct {
		result, name string
		want         int
		ok           bool
	}{
		{`{"Count":5}`, "Count", 5, true},
		{`{"count":5}`, "Count", 5, true},           // case-insensitive
		{`{"n":5}`, "Count", 5, true},               // the only member
		{`{"Count":5,"count":6}`, "Count", 5, true}, // exact first
		{`{"COUNT":5,"count":6}`, "Count", 0, false},
		{`{"a":1,"b":2}`, "Count", 0, false},
		{`{}`, "Count", 0, false},
		{`[5]`, "Count", 0, false},
		{`{"count":"five"}`, "Count", 0, false},
	} {
		var n int
		err := runtime.ToolReturn{Result: json.RawMessage(c.result)}.Decode(c.name, &n)
		if (err == nil) != c.ok || n != c.want {
			t.Errorf("Decode(%s, %q) = %d, %v", c.result, c.name, n, err)
		}
	}
	var obj struct{ A int }
	if err := runtime.DecodeResult(nil, "", &obj); err != nil {
		t.Errorf("empty result as an object: %v", err)
	}
	if err := runtime.DecodeResult(json.RawMessage(`{"a":2}`), "", &obj); err != nil || obj.A != 2 {
		t.Errorf("object result: %v %v", obj, err)
	}
}

func TestWithHTTPClient(t *testing.T) {
	srv, _ := serveMock(t, newMockTool())
	var mu sync.Mutex
	n := 0
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		n++
		mu.Unlock()
		return http.DefaultTransport.RoundTrip(r)
	})}
	client := runtime.NewClient(srv.URL+"/opentool", runtime.WithHTTPClient(hc))
	if _, err := client.Call(context.Background(), runtime.FunctionCall{Name: "count"}); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("the HTTP client was used %d times", n)
	}
	// nil means the default.
	client = runtime.NewClient(srv.URL+"/opentool", runtime.WithHTTPClient(nil))
	if _, err := client.Call(context.Background(), runtime.FunctionCall{Name: "count"}); err != nil {
		t.Error(err)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
