package natsbridge_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/natsbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// odd is a tool without a document whose functions misbehave.
type odd struct{}

func (odd) Load(context.Context) (*document.OpenTool, error) { return nil, nil }

func (odd) Call(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	switch name {
	case "panic":
		panic("boom")
	case "array":
		return json.RawMessage(`[1,2]`), nil
	case "none":
		return nil, nil
	case "big":
		return json.RawMessage(`{"s":"` + strings.Repeat("x", 2<<20) + `"}`), nil
	case "nilerr":
		var e *runtime.Error
		return nil, e
	case "echo":
		return args, nil
	}
	return nil, runtime.MethodNotFound(name)
}

// A tool without a document is served on PREFIX.*; a panic, a result that
// is not an object and one over max_payload are -32603, as on an OpenTool
// server; none is {}.
func TestMisbehavingTool(t *testing.T) {
	url := startServer(t)
	svc := serve(t, url, odd{}, natsbridge.WithLogger(discardLogger()))
	if svc.Prefix() != "opentool" {
		t.Errorf("prefix %q", svc.Prefix())
	}
	c := natsbridge.NewCaller(connect(t, url), "opentool")
	for _, tt := range []struct{ fn, want string }{
		{"panic", `<nil> call -32603|internal error: the tool failed while calling "panic"| ErrCall`},
		{"array", `<nil> call -32603|internal error: the tool returned a result that is not a JSON object| ErrCall`},
		{"big", `<nil> call -32603|internal error: the result of "big" is larger than the server's max_payload (1048576 bytes)| ErrCall`},
		{"nilerr", `<nil> call -32603|internal error: the tool returned a nil *runtime.Error| ErrCall`},
		{"none", `{} <nil>`},
		{"echo", `{"x":[1]} <nil>`},
		{"other", `<nil> call -32601|method not found: "other"| ErrCall`},
	} {
		got, err := c.CallFunction(t.Context(), tt.fn, json.RawMessage(`{"x":[1]}`))
		s := string(got)
		if got == nil {
			s = "<nil>"
		}
		if s+" "+errString(err) != tt.want {
			t.Errorf("%s: got %s %s\nwant %s", tt.fn, s, errString(err), tt.want)
		}
	}
	// A tool that does not stream.
	_, err := collect(c.StreamFunction(t.Context(), "echo", nil))
	if errString(err) != `call -32601|this tool has no streaming functions: "echo"| ErrCall ErrNoStreaming` {
		t.Errorf("stream: %s", errString(err))
	}
}

// Options and documents a service cannot serve are errors naming them.
func TestServiceErrors(t *testing.T) {
	nc := connect(t, startServer(t))
	bad := &document.OpenTool{Info: document.Info{Title: "x"}, Functions: []document.Function{{Name: "a.b"}}}
	for _, tt := range []struct {
		tool runtime.Tool
		opts []natsbridge.Option
		want string
	}{
		{newCalc("a"), []natsbridge.Option{natsbridge.WithPrefix("a b")}, `prefix "a b"`},
		{newCalc("a"), []natsbridge.Option{natsbridge.WithPrefix("a.>")}, `prefix "a.>"`},
		{newCalc("a"), []natsbridge.Option{natsbridge.WithQueueGroup("q *")}, `queue group "q *"`},
		{newCalc("a"), []natsbridge.Option{natsbridge.WithService("a b", "")}, `service name "a b"`},
		{newCalc("a"), []natsbridge.Option{natsbridge.WithService("ab", "v1")}, `service version "v1"`},
		{docTool{bad}, nil, `function "a.b" cannot be a subject token`},
	} {
		_, err := natsbridge.NewService(t.Context(), nc, tt.tool, tt.opts...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("got %v, want %s", err, tt.want)
		}
	}
	// A closed connection: the caller's errors are of class noAccess.
	nc.Close()
	_, err := natsbridge.NewCaller(nc, "calc").CallFunction(t.Context(), "add", nil)
	if !errors.Is(err, runtime.ErrNoAccess) || !strings.Contains(err.Error(), "connection closed") {
		t.Errorf("closed connection: %v", err)
	}
	if _, err := natsbridge.NewService(t.Context(), nc, newCalc("a")); err == nil {
		t.Error("a service on a closed connection")
	}
}

type docTool struct{ doc *document.OpenTool }

func (d docTool) Load(context.Context) (*document.OpenTool, error) { return d.doc, nil }
func (d docTool) Call(context.Context, string, json.RawMessage) (json.RawMessage, error) {
	return nil, nil
}
