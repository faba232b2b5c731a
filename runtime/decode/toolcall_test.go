package decode

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
)

type callArgs struct {
	Q     string
	Limit *int64
}

func decodeCallArgs(d *Decoder, x *callArgs) {
	if !d.Object() {
		return
	}
	for d.Next() {
		switch string(d.Key()) {
		case "q":
			x.Q, _ = d.String()
		case "limit":
			if v, ok := d.Int(); ok {
				x.Limit = &v
			}
		default:
			d.Skip()
		}
	}
}

// httpErr is an error of a REST call with an HTTP status (HTTPError).
type httpErr struct {
	status int
	body   string
}

func (e httpErr) Error() string   { return "status " + e.body }
func (e httpErr) HTTPStatus() int { return e.status }
func (e httpErr) RawBody() []byte { return []byte(e.body) }

// TestCallHelpers checks the bodies of a generated Tool's cases: the
// arguments completed by the options and decoded, the result encoded as
// an object, as a named member or as nothing, and the errors of decoding
// (-32602 with the path) and of the Service (ToolError).
func TestCallHelpers(t *testing.T) {
	a, err := toolopt.NewArgs(argsDoc(), toolopt.WithDefaults("search", map[string]any{"limit": 10}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var got callArgs
	echo := func(_ context.Context, v callArgs) (callArgs, error) { got = v; return v, nil }
	type obj struct {
		Q     string `json:"q"`
		Limit int64  `json:"limit"`
	}
	asObj := func(_ context.Context, v callArgs) (*obj, error) {
		if v.Q == "none" {
			return nil, nil
		}
		return &obj{v.Q, *v.Limit}, nil
	}

	out, err := CallObject(ctx, a, "search", json.RawMessage(`{"q":"x"}`), decodeCallArgs, asObj)
	if err != nil || string(out) != `{"q":"x","limit":10}` {
		t.Errorf("CallObject = %s, %v; want the object with the default limit", out, err)
	}
	out, err = CallObject(ctx, a, "search", json.RawMessage(`{"q":"none"}`), decodeCallArgs, asObj)
	if err != nil || string(out) != `{}` {
		t.Errorf("CallObject of a nil pointer = %s, %v; want {}", out, err)
	}
	out, err = CallResult(ctx, a, "search", json.RawMessage(`{"q":"y","limit":3}`), decodeCallArgs,
		func(ctx context.Context, v callArgs) ([]string, error) { return []string{v.Q}, nil }, "items")
	if err != nil || string(out) != `{"items":["y"]}` {
		t.Errorf("CallResult = %s, %v; want {\"items\":[\"y\"]}", out, err)
	}
	called := false
	out, err = CallNoResult(ctx, a, "search", json.RawMessage(`{"q":"z"}`), decodeCallArgs,
		func(ctx context.Context, v callArgs) error { called = v.Q == "z"; return nil })
	if err != nil || out != nil || !called {
		t.Errorf("CallNoResult = %s, %v (called %v); want nil, nil after a call", out, err, called)
	}

	// Arguments of the wrong type: -32602 naming the argument; the Service is not called.
	got = callArgs{Q: "untouched"}
	_, err = CallObject(ctx, a, "search", json.RawMessage(`{"q":"x","limit":"ten"}`), decodeCallArgs, echo)
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams || e.Message != `invalid params: /limit: got "ten", want integer` {
		t.Errorf("CallObject with a wrong type: %v; want -32602 at /limit", err)
	}
	if got.Q != "untouched" {
		t.Errorf("the Service was called with invalid arguments: %+v", got)
	}

	// The Service's errors: an HTTP error keeps its status and body; another passes through.
	_, err = CallResult(ctx, a, "search", json.RawMessage(`{"q":"x"}`), decodeCallArgs,
		func(context.Context, callArgs) (int, error) { return 0, httpErr{404, `{"m":"gone"}`} }, "n")
	if !errors.As(err, &e) || e.Code != 404 || e.Message != "HTTP 404 Not Found" || string(e.Data) != `{"m":"gone"}` {
		t.Errorf("CallResult with an HTTP error: %#v; want code 404 with the body as data", err)
	}
	plain := errors.New("boom")
	if _, err := CallNoResult(ctx, a, "search", json.RawMessage(`{}`), decodeCallArgs,
		func(context.Context, callArgs) error { return plain }); err != plain {
		t.Errorf("CallNoResult with a plain error: %v; want it as is", err)
	}
	if _, err := CallObject(ctx, a, "search", json.RawMessage(`{}`), decodeCallArgs,
		func(context.Context, callArgs) (obj, error) { return obj{}, plain }); err != plain {
		t.Errorf("CallObject with a plain error: %v; want it as is", err)
	}
}

func argsDoc() *document.OpenTool {
	return &document.OpenTool{OpenTool: "1.0.0", Info: document.Info{Title: "t", Version: "1"}, Functions: []document.Function{
		{Name: "search", Parameters: []document.Parameter{
			{Name: "q", Schema: &document.Schema{Type: document.TypeString}, Required: true},
			{Name: "limit", Schema: &document.Schema{Type: document.TypeInteger}},
			{Name: "key", Schema: &document.Schema{Ref: "#/schemas/Key"}},
			{Name: "session", Schema: &document.Schema{Type: document.TypeString}},
		}},
		{Name: "other", Parameters: []document.Parameter{{Name: "key", Schema: &document.Schema{Type: document.TypeString}}}},
	}, Schemas: document.Schemas{{Name: "Key", Schema: &document.Schema{Type: document.TypeString}}}}
}
