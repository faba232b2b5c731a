package runtime_test

// Tests of the server against hostile and broken peers: ids and results that
// are not valid UTF-8, and repeated envelope members.

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// hardTool misbehaves on purpose.
type hardTool struct {
	// wait (stream): emits one result, then waits for its context to end,
	// signals waitSaw, takes waitCleanup to clean up, and closes waitDone.
	waitSaw     chan error
	waitCleanup time.Duration
	waitDone    chan struct{}

	// slow (call): waits for its context to end or for slowFor, and reports
	// which on slowSaw.
	slowFor time.Duration
	slowSaw chan error
}

func newHardTool() *hardTool {
	return &hardTool{waitSaw: make(chan error, 1), waitDone: make(chan struct{}), slowSaw: make(chan error, 4)}
}

func (h *hardTool) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	switch name {
	case "echo":
		if args == nil {
			return nil, nil
		}
		return json.RawMessage(`{"args":` + string(args) + `}`), nil
	case "badError": // a message and data that are not valid UTF-8
		return nil, &runtime.Error{Code: 4000, Message: "bad \xff message", Data: json.RawMessage("{\"d\":\"\xfe\xff\"}")}
	case "slow":
		select {
		case <-time.After(h.slowFor):
			h.slowSaw <- nil
			return json.RawMessage(`{"slept":true}`), nil
		case <-ctx.Done():
			h.slowSaw <- ctx.Err()
			return nil, ctx.Err()
		}
	}
	if strings.HasPrefix(name, "panic") {
		panic("hostile " + name)
	}
	if strings.HasPrefix(name, "invalid") {
		return json.RawMessage(`[1]`), nil
	}
	return nil, runtime.MethodNotFound(name)
}

func (h *hardTool) StreamCall(ctx context.Context, name string, args json.RawMessage, emit func(json.RawMessage) error) error {
	switch name {
	case "bad": // a result and an error that are not valid UTF-8
		if err := emit(json.RawMessage("{\"s\":\"a\xffb\"}")); err != nil {
			return err
		}
		return &runtime.Error{Code: 4001, Message: "bad \xff", Data: json.RawMessage("[\"\xfe\"]")}
	case "wait":
		if err := emit(json.RawMessage(`{"waiting":true}`)); err != nil {
			return err
		}
		<-ctx.Done()
		h.waitSaw <- ctx.Err()
		time.Sleep(h.waitCleanup)
		close(h.waitDone)
		return ctx.Err()
	case "panicStream":
		panic("stream boom")
	}
	return runtime.MethodNotFound(name)
}

func (h *hardTool) Load(ctx context.Context) (*runtime.OpenTool, error) { return nil, nil }

// wantUTF8JSON fails unless body is valid UTF-8 and valid JSON.
func wantUTF8JSON(t testing.TB, what string, body []byte) {
	t.Helper()
	if !utf8.Valid(body) {
		t.Errorf("%s is not valid UTF-8: %q", what, body)
	}
	if !json.Valid(body) {
		t.Errorf("%s is not valid JSON: %q", what, body)
	}
}

// ---- item 2: every response is valid UTF-8 JSON ----

func TestInvalidUTF8IsNotEchoed(t *testing.T) {
	srv, _ := serveMock(t, newHardTool())
	url := srv.URL + "/opentool/call"
	for _, c := range []struct {
		name, body string
		status     int
		id         string // the id decoded, as a JSON decoder reads it
	}{
		{"id", `{"jsonrpc":"2.0","method":"echo","id":"a` + "\xff" + `b"}`, 200, "a\ufffdb"},
		{"id of several bad bytes", `{"jsonrpc":"2.0","method":"echo","id":"` + "\xff\xfe\xc3" + `"}`, 200, "\ufffd\ufffd\ufffd"},
		{"id with a lone surrogate", `{"jsonrpc":"2.0","method":"echo","id":"x\ud800y"}`, 200, "x\ufffdy"},
		{"id of an unknown method", `{"jsonrpc":"2.0","method":"nope` + "\xff" + `","id":"` + "\xff" + `"}`, 200, "\ufffd"},
		{"id of bad params", `{"jsonrpc":"2.0","method":"echo","params":[1],"id":"` + "\xff" + `"}`, 200, "\ufffd"},
		{"id of a missing method", `{"jsonrpc":"2.0","id":"` + "\xff" + `"}`, 400, "\ufffd"},
		{"result", `{"jsonrpc":"2.0","method":"echo","params":{"` + "\xfe" + `":"` + "\xff" + `"},"id":1}`, 200, ""},
		{"error message and data", `{"jsonrpc":"2.0","method":"badError","id":1}`, 200, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := postJSON(t, url, c.body)
			if res.status != c.status {
				t.Errorf("status %d, want %d: %s", res.status, c.status, res.body)
			}
			wantUTF8JSON(t, "the response", res.body)
			r := mustParse(t, res.body)
			if c.id != "" {
				var id string
				if err := json.Unmarshal(r.ID, &id); err != nil || id != c.id {
					t.Errorf("id %s (%q), want %q", r.ID, id, c.id)
				}
			}
		})
	}
	// A valid id is echoed byte for byte, escapes and all.
	for _, id := range []string{`"\u00e9\ud83d\ude00 x"`, `"é"`, `"a\"b\\"`, `-1.5e3`, `"<&>"`} {
		r := mustParse(t, postJSON(t, url, `{"jsonrpc":"2.0","method":"echo","id":`+id+`}`).body)
		if string(r.ID) != id {
			t.Errorf("id %s echoed as %s", id, r.ID)
		}
	}
}

func TestInvalidUTF8IsNotEchoedInStreams(t *testing.T) {
	srv, _ := serveMock(t, newHardTool())
	res := postJSON(t, srv.URL+"/opentool/streamCall", `{"jsonrpc":"2.0","method":"bad","id":"`+"\xff"+`"}`)
	evs := splitEvents(t, res.body)
	if len(evs) != 3 || evs[1][0] != "data" || evs[2][0] != "error" {
		t.Fatalf("events %q", evs)
	}
	for _, ev := range evs {
		wantUTF8JSON(t, ev[0]+" event", []byte(ev[1]))
	}
	r := mustParse(t, []byte(evs[1][1]))
	var id string
	if err := json.Unmarshal(r.ID, &id); err != nil || id != "\ufffd" {
		t.Errorf("id %s", r.ID)
	}
}

// ---- item 3: an envelope that repeats a member is rejected ----

func TestDuplicateEnvelopeMembers(t *testing.T) {
	srv, _ := serveMock(t, newHardTool())
	for _, c := range []struct{ body, id string }{
		{`{"jsonrpc":"2.0","method":"echo","method":"badError","id":1}`, `1`},
		{`{"jsonrpc":"2.0","method":"echo","METHOD":"badError","id":1}`, `1`},
		{`{"jsonrpc":"2.0","method":"echo","\u006dethod":"badError","id":1}`, `1`},
		{`{"jsonrpc":"2.0","method":"echo","params":{},"params":{"a":1},"id":"x"}`, `"x"`},
		{`{"jsonrpc":"2.0","method":"echo","params":{},"param\u017f":{"a":1},"id":"x"}`, `"x"`}, // ſ folds to s, as encoding/json matches
		{`{"jsonrpc":"2.0","method":"echo","id":1,"id":2}`, `null`},
		{`{"jsonrpc":"2.0","method":"echo","id":1,"Id":1}`, `null`},
		{`{"jsonrpc":"2.0","jsonrpc":"2.0","method":"echo"}`, `null`},
		{` { "method" : "echo" , "params" : { "method" : 1 } , "method" : "echo" } `, `null`},
	} {
		for _, path := range []string{"/call", "/streamCall"} {
			t.Run(path+" "+c.body, func(t *testing.T) {
				r := wantRPCError(t, postJSON(t, srv.URL+"/opentool"+path, c.body), http.StatusBadRequest, runtime.CodeInvalidRequest, c.id)
				if !strings.Contains(r.Error.Message, "repeat") {
					t.Errorf("message %q does not say the member repeats", r.Error.Message)
				}
			})
		}
	}
	// Members repeated inside params are the tool's business, and unknown
	// members are ignored.
	for _, c := range []struct{ body, result string }{
		{`{"jsonrpc":"2.0","method":"echo","params":{"a":1,"a":2,"method":3},"id":1}`, `{"args":{"a":1,"a":2,"method":3}}`},
		{`{"jsonrpc":"2.0","method":"echo","x":1,"x":[2,{"method":"no"}],"params":{"b":"}"},"id":1}`, `{"args":{"b":"}"}}`},
		{"\t{\"Method\" :\"echo\",\"ID\":[] ,\"id\":1}", ``},
	} {
		res := postJSON(t, srv.URL+"/opentool/call", c.body)
		if c.result == "" {
			wantRPCError(t, res, http.StatusBadRequest, runtime.CodeInvalidRequest, "null")
			continue
		}
		if r := mustParse(t, res.body); res.status != 200 || string(r.Result) != c.result {
			t.Errorf("%s: %d %s, want result %s", c.body, res.status, res.body, c.result)
		}
	}
}
