package runtime_test

// Tests of Caller and Local: the same calls through a *Client of the tool
// served over loopback HTTP and through Local(tool) give the same results and
// errors that errors.Is and errors.As read alike.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// parityTool answers each function name in its own way, for the comparisons.
type parityTool struct {
	started chan string // the name of a call that waits for its context to end
	ended   chan error  // what a stream's emit returned after the caller stopped, or "ctx not done"
}

func newParityTool() *parityTool {
	return &parityTool{started: make(chan string, 1), ended: make(chan error, 1)}
}

func (*parityTool) Load(context.Context) (*document.OpenTool, error) { return nil, nil }

func (p *parityTool) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	switch name {
	case "echo":
		return args, nil
	case "none":
		return nil, nil
	case "array":
		return json.RawMessage(`[1,2]`), nil
	case "invalid":
		return json.RawMessage(`{"a":`), nil
	case "badUTF8":
		return json.RawMessage("{\"s\":\"a\xffb\"}"), nil
	case "spaced":
		return json.RawMessage(" {\"a\": 1,\n \"b\": [true]} "), nil
	case "plain":
		return nil, errors.New("disk on fire")
	case "coded":
		return nil, &runtime.Error{Code: 409, Message: "conflict", Data: json.RawMessage(`{"have": 2, "want": [3]}`)}
	case "wrapped":
		return nil, fmt.Errorf("reading: %w", runtime.NewError(404, "no such text"))
	case "noCode":
		return nil, &runtime.Error{Message: "no code"}
	case "relayed": // a client error a tool passes on
		return nil, runtime.ErrUnauthorized
	case "jsonMessage": // as the reference tools send
		return nil, runtime.NewError(500, `{"code":405,"message":"Function Not Supported"}`)
	case "badData":
		return nil, &runtime.Error{Code: 400, Message: "bad data", Data: json.RawMessage(`{bad`)}
	case "nullData":
		return nil, &runtime.Error{Code: 400, Message: "null data", Data: json.RawMessage(`null`)}
	case "badMessage":
		return nil, runtime.NewError(500, "a\xffb")
	case "typedNil":
		var e *runtime.Error
		return nil, e
	case "canceled": // a context error of the tool's own, not the caller's
		return nil, context.Canceled
	case "wait":
		p.started <- name
		<-ctx.Done()
		return nil, ctx.Err()
	case "ignore": // answers although its context ended
		p.started <- name
		<-ctx.Done()
		return json.RawMessage(`{"ok":true}`), nil
	}
	return nil, runtime.MethodNotFound(name)
}

func (p *parityTool) StreamCall(ctx context.Context, name string, args json.RawMessage, emit func(json.RawMessage) error) error {
	switch name {
	case "items":
		var a struct{ N int }
		if err := json.Unmarshal(args, &a); err != nil {
			return runtime.InvalidParams(runtime.Violation{Path: "/n", Message: err.Error()})
		}
		for i := range a.N {
			if err := emit(json.RawMessage(`{"i":` + strconv.Itoa(i) + `}`)); err != nil {
				return err
			}
		}
		return nil
	case "none":
		return emit(nil)
	case "spaced":
		if err := emit(json.RawMessage(" {\"a\": 1,\n \"b\": 2} ")); err != nil {
			return err
		}
		return emit(json.RawMessage(" {\"c\": [3, 4]}\t"))
	case "fail":
		for _, s := range []string{`{"i":0}`, `{"i":1}`} {
			if err := emit(json.RawMessage(s)); err != nil {
				return err
			}
		}
		return &runtime.Error{Code: 507, Message: "storage full", Data: json.RawMessage(`{"free":0}`)}
	case "plain":
		return errors.New("disk on fire")
	case "notObject":
		if err := emit(json.RawMessage(`{"i":0}`)); err != nil {
			return err
		}
		return emit(json.RawMessage(`[1]`))
	case "notStreamed":
		return runtime.NewError(runtime.CodeMethodNotFound, strconv.Quote(name)+" does not stream its result: call it with call")
	case "endless":
		for i := 0; ; i++ {
			if err := emit(json.RawMessage(`{"i":` + strconv.Itoa(i) + `}`)); err != nil {
				select {
				case <-ctx.Done():
					p.ended <- err
				case <-time.After(10 * time.Second): // a bound on a failure
					p.ended <- errors.New("ctx not done 10 s after emit failed")
				}
				return err
			}
		}
	case "wait":
		if err := emit(json.RawMessage(`{"i":0}`)); err != nil {
			return err
		}
		<-ctx.Done()
		return ctx.Err()
	}
	return runtime.MethodNotFound(name)
}

// callOnly is a Tool that does not stream.
type callOnly struct{ runtime.Tool }

// outcome is what a caller sees of a call: the result or items, and what
// errors.Is and errors.As tell of the error.
type outcome struct {
	Result string
	Items  []string
	Err    string // the *Error's fields, or "not a *runtime.Error" (whose texts transports word differently)
	Is     []string
}

var sentinels = []struct {
	name string
	err  error
}{
	{"ErrCall", runtime.ErrCall},
	{"ErrNoAccess", runtime.ErrNoAccess},
	{"ErrUnauthorized", runtime.ErrUnauthorized},
	{"ErrResponseNull", runtime.ErrResponseNull},
	{"ErrErrorNull", runtime.ErrErrorNull},
	{"ErrNoStreaming", runtime.ErrNoStreaming},
	{"context.Canceled", context.Canceled},
	{"context.DeadlineExceeded", context.DeadlineExceeded},
	{"code -32601", &runtime.Error{Code: runtime.CodeMethodNotFound}},
}

func errorOutcome(o *outcome, err error) {
	if err == nil {
		return
	}
	var e *runtime.Error
	if errors.As(err, &e) {
		data := string(e.Data)
		if len(e.Data) > 0 {
			var b bytes.Buffer
			if json.Compact(&b, e.Data) == nil {
				data = b.String()
			}
		}
		o.Err = fmt.Sprintf("class %q code %d message %q data %s", e.Class, e.Code, e.Message, data)
	} else {
		o.Err = "not a *runtime.Error"
	}
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			o.Is = append(o.Is, s.name)
		}
	}
}

// parityCallers are the tool served over loopback HTTP and called with a
// *Client, and the tool through Local.
func parityCallers(t *testing.T, tool runtime.Tool) map[string]runtime.Caller {
	srv := httptest.NewServer(runtime.NewHandler(tool, runtime.WithLogger(slog.New(slog.DiscardHandler))))
	t.Cleanup(srv.Close)
	return map[string]runtime.Caller{
		"http":  runtime.NewClient(srv.URL + runtime.DefaultPrefix),
		"local": runtime.Local(tool),
	}
}

// compare runs do through each caller and checks that they all see the same
// outcome; it returns it.
func compare(t *testing.T, callers map[string]runtime.Caller, do func(runtime.Caller) outcome) outcome {
	t.Helper()
	var first outcome
	var firstName string
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range callers {
			if !yield(k) {
				return
			}
		}
	}) {
		got := do(callers[name])
		if firstName == "" {
			first, firstName = got, name
			continue
		}
		if diff := cmp.Diff(first, got); diff != "" {
			t.Errorf("%s and %s differ (-%s +%s):\n%s", firstName, name, firstName, name, diff)
		}
	}
	return first
}

func callOutcome(ctx context.Context, c runtime.Caller, name, args string) outcome {
	var a json.RawMessage
	if args != "" {
		a = json.RawMessage(args)
	}
	var o outcome
	result, err := c.CallFunction(ctx, name, a)
	o.Result = string(result)
	errorOutcome(&o, err)
	return o
}

func streamOutcome(seq iter.Seq2[json.RawMessage, error]) outcome {
	var o outcome
	for item, err := range seq {
		if err != nil {
			errorOutcome(&o, err)
			continue // the sequence must end by itself after an error
		}
		o.Items = append(o.Items, string(item))
	}
	return o
}

func TestLocalCallParity(t *testing.T) {
	callers := parityCallers(t, newParityTool())
	tests := []struct {
		name, args string
		want       outcome // a check of the common outcome, on a few fields
	}{
		{name: "echo", args: `{"a": [1, "x"]}`, want: outcome{Result: `{"a": [1, "x"]}`}},
		{name: "echo", args: ``, want: outcome{Result: `{}`}}, // *Client sends {} for no arguments
		{name: "echo", args: `null`, want: outcome{Result: `{}`}},
		{name: "echo", args: ` {} `},
		{name: "echo", args: `[1]`},
		{name: "echo", args: `"text"`},
		{name: "echo", args: `{bad`},
		{name: "none", want: outcome{Result: `{}`}},
		{name: "array"},
		{name: "invalid"},
		{name: "badUTF8", want: outcome{Result: `{"s":"a\ufffdb"}`}},
		{name: "spaced"},
		{name: "plain"},
		{name: "coded"},
		{name: "wrapped"},
		{name: "noCode"},
		{name: "relayed"},
		{name: "jsonMessage"},
		{name: "badData"},
		{name: "nullData"},
		{name: "badMessage"},
		{name: "typedNil"},
		{name: "canceled"},
		{name: "unknown"},
		{name: "ech\xffo"},
		{name: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name+tt.args, func(t *testing.T) {
			got := compare(t, callers, func(c runtime.Caller) outcome { return callOutcome(t.Context(), c, tt.name, tt.args) })
			if tt.want.Result != "" && got.Result != tt.want.Result {
				t.Errorf("result %s, want %s", got.Result, tt.want.Result)
			}
			t.Logf("%+v", got)
		})
	}
}

// The common outcomes of a few calls, so that the comparison cannot pass with
// both transports wrong the same way.
func TestLocalCallErrors(t *testing.T) {
	local := runtime.Local(newParityTool())
	tests := []struct {
		name, args string
		want       string
		is         []string
	}{
		{"coded", "", `class "call" code 409 message "conflict" data {"have":2,"want":[3]}`, []string{"ErrCall"}},
		{"plain", "", `class "call" code 500 message "disk on fire" data `, []string{"ErrCall"}},
		{"wrapped", "", `class "call" code 404 message "no such text" data `, []string{"ErrCall"}},
		{"relayed", "", `class "call" code 401 message "Please check API Key is VALID or NOT" data `, []string{"ErrCall"}},
		{"jsonMessage", "", `class "call" code 405 message "Function Not Supported" data `, []string{"ErrCall"}},
		{"badData", "", `class "call" code 400 message "bad data" data `, []string{"ErrCall"}},
		{"badMessage", "", `class "call" code 500 message "a�b" data `, []string{"ErrCall"}},
		{"array", "", `class "call" code -32603 message "internal error: the tool returned a result that is not a JSON object" data `, []string{"ErrCall"}},
		{"unknown", "", `class "call" code -32601 message "method not found: \"unknown\"" data `, []string{"ErrCall", "code -32601"}},
		{"echo", "[1]", `class "" code -32602 message "arguments must be a JSON object" data `, nil},
		{"echo", "{bad", `class "call" code -32700 message "parse error: invalid character 'b' looking for beginning of object key string" data `, []string{"ErrCall"}},
		{"", "", `class "call" code -32600 message "method must be a non-empty string" data `, []string{"ErrCall"}},
		{"canceled", "", `class "call" code 500 message "context canceled" data `, []string{"ErrCall"}},
	}
	for _, tt := range tests {
		var args json.RawMessage
		if tt.args != "" {
			args = json.RawMessage(tt.args)
		}
		_, err := local.CallFunction(t.Context(), tt.name, args)
		var o outcome
		errorOutcome(&o, err)
		if o.Err != tt.want || !slices.Equal(o.Is, tt.is) {
			t.Errorf("%s(%s): %s %v, want %s %v", tt.name, tt.args, o.Err, o.Is, tt.want, tt.is)
		}
	}
}

func TestLocalCallContext(t *testing.T) {
	tool := newParityTool()
	callers := parityCallers(t, tool)
	t.Run("cancelled before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		got := compare(t, callers, func(c runtime.Caller) outcome { return callOutcome(ctx, c, "echo", "{}") })
		if !slices.Equal(got.Is, []string{"context.Canceled"}) || got.Err != "not a *runtime.Error" {
			t.Errorf("got %+v, want context.Canceled alone", got)
		}
	})
	for _, fn := range []string{"wait", "ignore"} {
		t.Run("cancelled during "+fn, func(t *testing.T) {
			got := compare(t, callers, func(c runtime.Caller) outcome {
				ctx, cancel := context.WithCancel(t.Context())
				go func() {
					<-tool.started
					cancel()
				}()
				return callOutcome(ctx, c, fn, "")
			})
			if !slices.Equal(got.Is, []string{"context.Canceled"}) || got.Result != "" {
				t.Errorf("got %+v, want context.Canceled alone", got)
			}
		})
	}
	t.Run("deadline", func(t *testing.T) {
		got := compare(t, callers, func(c runtime.Caller) outcome {
			ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
			defer cancel()
			go func() { <-tool.started }()
			return callOutcome(ctx, c, "wait", "")
		})
		if !slices.Equal(got.Is, []string{"context.DeadlineExceeded"}) {
			t.Errorf("got %+v, want context.DeadlineExceeded alone", got)
		}
	})
}

func TestLocalStreamParity(t *testing.T) {
	streams := parityCallers(t, newParityTool())
	callOnlys := parityCallers(t, callOnly{newParityTool()})
	tests := []struct {
		name, args string
		callOnly   bool
		want       outcome
	}{
		{name: "items", args: `{"n":3}`, want: outcome{Items: []string{`{"i":0}`, `{"i":1}`, `{"i":2}`}}},
		{name: "items", args: `{"n":0}`},
		{name: "items", args: `[1]`, want: outcome{Err: `class "" code -32602 message "arguments must be a JSON object" data `}},
		{name: "items", args: `{"n":"x"}`},
		{name: "none", want: outcome{Items: []string{`{}`}}},
		{name: "spaced", want: outcome{Items: []string{`{"a":1,"b":2}`, `{"c": [3, 4]}`}}},
		{name: "fail", want: outcome{Items: []string{`{"i":0}`, `{"i":1}`}, Err: `class "call" code 507 message "storage full" data {"free":0}`, Is: []string{"ErrCall"}}},
		{name: "plain", want: outcome{Err: `class "call" code 500 message "disk on fire" data `, Is: []string{"ErrCall"}}},
		{name: "notObject", want: outcome{Items: []string{`{"i":0}`}, Err: `class "call" code -32603 message "internal error: the tool returned a result that is not a JSON object" data `, Is: []string{"ErrCall"}}},
		{name: "notStreamed", want: outcome{Err: `class "call" code -32601 message "\"notStreamed\" does not stream its result: call it with call" data `, Is: []string{"ErrCall", "ErrNoStreaming", "code -32601"}}},
		{name: "unknown", want: outcome{Err: `class "call" code -32601 message "method not found: \"unknown\"" data `, Is: []string{"ErrCall", "ErrNoStreaming", "code -32601"}}},
		{name: "items", args: `{"n":3}`, callOnly: true, want: outcome{Err: `class "call" code -32601 message "this tool has no streaming functions: \"items\"" data `, Is: []string{"ErrCall", "ErrNoStreaming", "code -32601"}}},
		{name: "", want: outcome{Err: `class "call" code -32600 message "method must be a non-empty string" data `, Is: []string{"ErrCall"}}},
	}
	for _, tt := range tests {
		callers := streams
		if tt.callOnly {
			callers = callOnlys
		}
		t.Run(fmt.Sprintf("%s%s callOnly=%v", tt.name, tt.args, tt.callOnly), func(t *testing.T) {
			got := compare(t, callers, func(c runtime.Caller) outcome {
				var args json.RawMessage
				if tt.args != "" {
					args = json.RawMessage(tt.args)
				}
				return streamOutcome(c.StreamFunction(t.Context(), tt.name, args))
			})
			if tt.want.Items != nil || tt.want.Err != "" {
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			}
			t.Logf("%+v", got)
		})
	}
}

// Breaking out of the loop ends the tool's stream: its emit fails and its
// context is cancelled.
func TestLocalStreamBreak(t *testing.T) {
	tool := newParityTool()
	callers := parityCallers(t, tool)
	got := compare(t, callers, func(c runtime.Caller) outcome {
		var o outcome
		for item, err := range c.StreamFunction(t.Context(), "endless", nil) {
			if err != nil {
				errorOutcome(&o, err)
				break
			}
			o.Items = append(o.Items, string(item))
			if len(o.Items) == 3 {
				break
			}
		}
		if err := <-tool.ended; err == nil || strings.Contains(err.Error(), "ctx not done") {
			o.Err = fmt.Sprintf("the tool's emit after the break: %v", err)
		}
		return o
	})
	if want := []string{`{"i":0}`, `{"i":1}`, `{"i":2}`}; !slices.Equal(got.Items, want) || got.Err != "" {
		t.Errorf("got %+v, want items %q", got, want)
	}
}

func TestLocalStreamContext(t *testing.T) {
	tool := newParityTool()
	callers := parityCallers(t, tool)
	t.Run("cancelled before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		got := compare(t, callers, func(c runtime.Caller) outcome {
			return streamOutcome(c.StreamFunction(ctx, "items", json.RawMessage(`{"n":2}`)))
		})
		if !slices.Equal(got.Is, []string{"context.Canceled"}) || got.Items != nil {
			t.Errorf("got %+v, want context.Canceled alone", got)
		}
	})
	t.Run("cancelled during", func(t *testing.T) {
		got := compare(t, callers, func(c runtime.Caller) outcome {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			var o outcome
			for item, err := range c.StreamFunction(ctx, "wait", nil) {
				if err != nil {
					errorOutcome(&o, err)
					continue
				}
				o.Items = append(o.Items, string(item))
				cancel() // the tool waits for it
			}
			return o
		})
		if !slices.Equal(got.Is, []string{"context.Canceled"}) || !slices.Equal(got.Items, []string{`{"i":0}`}) {
			t.Errorf("got %+v, want an item then context.Canceled", got)
		}
	})
}

// An emit kept after the stream ended fails; emits from goroutines of the
// tool's own reach the loop one at a time.
func TestLocalStreamEmit(t *testing.T) {
	var kept func(json.RawMessage) error
	tool := streamFunc(func(ctx context.Context, emit func(json.RawMessage) error) error {
		kept = emit
		var wg sync.WaitGroup
		errs := make(chan error, 100)
		for g := range 4 {
			wg.Go(func() {
				for i := range 25 {
					errs <- emit(json.RawMessage(fmt.Sprintf(`{"g":%d,"i":%d}`, g, i)))
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				return err
			}
		}
		return nil
	})
	n, inLoop := 0, false
	for _, err := range runtime.Local(tool).StreamFunction(t.Context(), "f", nil) {
		if err != nil {
			t.Fatal(err)
		}
		if inLoop {
			t.Fatal("two emits in the loop body at once")
		}
		inLoop = true
		time.Sleep(time.Microsecond) // widens the loop body, where a second emit must not enter: not a wait
		n++
		inLoop = false
	}
	if n != 100 {
		t.Errorf("got %d items, want 100", n)
	}
	if err := kept(json.RawMessage(`{}`)); err == nil {
		t.Error("emit after the stream ended returned nil")
	}
}

type streamFunc func(ctx context.Context, emit func(json.RawMessage) error) error

func (streamFunc) Load(context.Context) (*document.OpenTool, error) { return nil, nil }
func (streamFunc) Call(context.Context, string, json.RawMessage) (json.RawMessage, error) {
	return nil, runtime.NewError(500, "no calls")
}
func (f streamFunc) StreamCall(ctx context.Context, _ string, _ json.RawMessage, emit func(json.RawMessage) error) error {
	return f(ctx, emit)
}

type panicTool struct{}

func (panicTool) Load(context.Context) (*document.OpenTool, error) { return nil, nil }
func (panicTool) Call(context.Context, string, json.RawMessage) (json.RawMessage, error) {
	panic("bug in Call")
}
func (panicTool) StreamCall(context.Context, string, json.RawMessage, func(json.RawMessage) error) error {
	panic("bug in StreamCall")
}

// Local does not recover a panic of the tool: the caller gets it.
func TestLocalPanics(t *testing.T) {
	recovered := func(f func()) (v any) {
		defer func() { v = recover() }()
		f()
		return nil
	}
	c := runtime.Local(panicTool{})
	if v := recovered(func() { c.CallFunction(t.Context(), "f", nil) }); v != "bug in Call" {
		t.Errorf("CallFunction: recovered %v, want the tool's panic", v)
	}
	if v := recovered(func() {
		for range c.StreamFunction(t.Context(), "f", nil) {
		}
	}); v != "bug in StreamCall" {
		t.Errorf("StreamFunction: recovered %v, want the tool's panic", v)
	}
}

// Nothing nil panics: Local(nil) and a typed call through a nil Caller are
// errors.
func TestLocalNil(t *testing.T) {
	c := runtime.Local(nil)
	if _, err := c.CallFunction(t.Context(), "f", nil); !errors.Is(err, runtime.ErrNoAccess) {
		t.Errorf("Local(nil).CallFunction: %v, want ErrNoAccess", err)
	}
	for _, err := range c.StreamFunction(t.Context(), "f", nil) {
		if !errors.Is(err, runtime.ErrNoAccess) {
			t.Errorf("Local(nil).StreamFunction: %v, want ErrNoAccess", err)
		}
	}
	if err := runtime.Invoke(t.Context(), nil, "f", nil, "", nil); err == nil || !strings.Contains(err.Error(), "nil Caller") {
		t.Errorf("Invoke(nil Caller): %v", err)
	}
	for _, err := range runtime.InvokeStream[int](t.Context(), nil, "f", nil, "") {
		if err == nil || !strings.Contains(err.Error(), "nil Caller") {
			t.Errorf("InvokeStream(nil Caller): %v", err)
		}
	}
}

// The typed helpers give the same values and errors through both callers.
func TestInvokeParity(t *testing.T) {
	callers := parityCallers(t, newParityTool())
	compare(t, callers, func(c runtime.Caller) outcome {
		var o outcome
		var v struct{ A []any }
		err := runtime.Invoke(t.Context(), c, "echo", map[string]any{"a": []any{1, "x"}}, "", &v)
		o.Result = fmt.Sprint(v)
		errorOutcome(&o, err)
		if v := fmt.Sprint(v.A); v != "[1 x]" {
			t.Errorf("Invoke: %s", v)
		}
		var s string // a result that does not decode
		errorOutcome(&o, runtime.Invoke(t.Context(), c, "echo", map[string]any{"a": 1}, "a", &s))
		for v, err := range runtime.InvokeStream[int](t.Context(), c, "items", map[string]int{"n": 3}, "i") {
			o.Items = append(o.Items, fmt.Sprint(v, err))
		}
		for v, err := range runtime.InvokeStream[string](t.Context(), c, "items", map[string]int{"n": 3}, "i") {
			o.Items = append(o.Items, fmt.Sprint(v, err != nil, errors.Is(err, runtime.ErrResponseNull)))
		}
		return o
	})
}
