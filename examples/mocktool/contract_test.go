package mocktool_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
)

// countingStore counts the calls that reach it.
type countingStore struct {
	*store
	reads atomic.Int64
}

func (s *countingStore) Read(ctx context.Context, a mocktool.ReadArgs) (mocktool.Text, error) {
	s.reads.Add(1)
	return s.store.Read(ctx, a)
}

// TestGateway serves the generated *Client of a remote mock tool with NewTool:
// a gateway with no hand-written code. Calls and streams pass through, and
// arguments are checked before they leave.
func TestGateway(t *testing.T) {
	up := &countingStore{store: newStore("Hello", "World")}
	upstream, _ := newClient(t, serve(t, up))
	gateway := serve(t, upstream) // *mocktool.Client is a mocktool.Service
	c, rt := newClient(t, gateway)
	ctx := t.Context()

	if text, err := c.Read(ctx, mocktool.ReadArgs{ID: 1}); err != nil || text != "World" {
		t.Fatalf("Read(1) through the gateway = %q, %v", text, err)
	}
	texts, err := readAll(c.SequentiallyReadSeq(ctx))
	if err != nil || !slices.Equal(texts, []mocktool.Text{"Hello", "World"}) {
		t.Errorf("SequentiallyRead through the gateway = %q, %v", texts, err)
	}
	// A tool error of the upstream keeps its code through the gateway.
	_, err = c.Read(ctx, mocktool.ReadArgs{ID: 7})
	if e := asError(t, err); e.Code != 404 {
		t.Errorf("Read(7) through the gateway: code %d, want the upstream's 404", e.Code)
	}
	// Invalid arguments are refused by the gateway: the upstream never sees them.
	before := up.reads.Load()
	_, err = rt.Call(ctx, runtime.FunctionCall{Name: "read", Arguments: json.RawMessage(`{"id":"seven"}`)})
	if e := asError(t, err); e.Code != runtime.CodeInvalidParams || !strings.Contains(e.Message, "/id") {
		t.Errorf("read with a string id through the gateway: got %v, want -32602 naming /id", err)
	}
	if got := up.reads.Load(); got != before {
		t.Errorf("the upstream saw %d reads of invalid arguments", got-before)
	}
}

// TestToolOptions: the options of NewTool work for an OpenTool package as for
// every kind — a subset of functions, fixed and defaulted arguments — and the
// Tool's document and declarations are the served ones.
func TestToolOptions(t *testing.T) {
	svc := newStore("Hello", "World")
	tool, err := mocktool.NewTool(svc,
		toolopt.WithFunctions("read", "update", "sequentiallyRead"),
		toolopt.WithDefaults("read", map[string]any{"id": 1}),
		toolopt.WithFixed("update", map[string]any{"text": "fixed"}),
	)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	// An argument left out takes its default.
	raw, err := tool.Call(ctx, "read", nil)
	if err != nil || string(raw) != `{"text":"World"}` {
		t.Errorf("read with the default id: %s, %v", raw, err)
	}
	// A fixed argument replaces what the caller sent.
	if _, err := tool.Call(ctx, "update", json.RawMessage(`{"id":0,"text":"mine"}`)); err != nil {
		t.Fatal(err)
	}
	if svc.texts[0] != "fixed" {
		t.Errorf("update with a fixed text stored %q", svc.texts[0])
	}
	// A function not served is not found, by call and by stream.
	var re *runtime.Error
	if _, err := tool.Call(ctx, "count", nil); !errors.As(err, &re) || re.Code != runtime.CodeMethodNotFound {
		t.Errorf("count, not served: got %v, want method not found", err)
	}
	if err := tool.StreamCall(ctx, "count", nil, func(json.RawMessage) error { return nil }); !errors.As(err, &re) || re.Code != runtime.CodeMethodNotFound {
		t.Errorf("count by stream, not served: got %v, want method not found", err)
	}
	// The served document: three functions, read's id optional, update without text.
	doc := tool.Document()
	var names []string
	for _, f := range doc.Functions {
		names = append(names, f.Name)
		switch f.Name {
		case "read":
			if len(f.Parameters) != 1 || f.Parameters[0].Required {
				t.Errorf("served read: %+v, want id optional", f.Parameters)
			}
		case "update":
			if len(f.Parameters) != 1 || f.Parameters[0].Name != "id" {
				t.Errorf("served update: %+v, want id only", f.Parameters)
			}
		}
	}
	if strings.Join(names, ",") != "read,sequentiallyRead,update" {
		t.Errorf("served functions %v", names)
	}
	loaded, _ := tool.Load(ctx)
	if len(loaded.Functions) != 3 {
		t.Errorf("Load: %d functions, want the 3 served", len(loaded.Functions))
	}
	d, err := tool.Declarations(declare.Anthropic)
	var decls []struct{ Name string }
	if err != nil || json.Unmarshal(d.Tools, &decls) != nil || len(decls) != 3 {
		t.Errorf("Declarations: %d (%v), want 3", len(decls), err)
	}
	// The package's document is the document as written.
	if n := len(mocktool.Document().Functions); n != 7 {
		t.Errorf("mocktool.Document(): %d functions, want 7", n)
	}
	// Options naming what the document lacks fail, naming it.
	for _, opt := range []toolopt.Option{
		toolopt.WithFunctions("read", "nope"),
		toolopt.WithDefaults("read", map[string]any{"nope": 1}),
		toolopt.WithFixed("nope", map[string]any{"id": 1}),
	} {
		if _, err := mocktool.NewTool(svc, opt); err == nil || !strings.Contains(err.Error(), `"nope"`) {
			t.Errorf("NewTool with an option naming nope: got %v", err)
		}
	}
}
