package mcpbridge

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// TestTaskResultsHeldOnce stores 20 results of 1 MiB, as a call of this
// package answers them (structuredContent and a text content holding the
// same JSON), in a task store: the store counts 20 MiB (and a few bytes of
// each result's wrapper), the heap grows by about as much, not twice, and
// tasks/get still answers each result whole, its text content included.
func TestTaskResultsHeldOnce(t *testing.T) {
	const (
		n    = 20
		size = 1 << 20
	)
	ts, err := newTasks(&document.OpenTool{}, &TaskOptions{}, context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	held := make([]*task, 0, n)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range n {
		tk, full := ts.add("owner", "quota", func(error) {}, "big", false)
		if full != nil {
			t.Fatal(full)
		}
		raw, _ := json.Marshal(map[string]string{"text": strings.Repeat(string(rune('a'+i)), size)})
		res, err := answer(raw, nil)
		if err != nil {
			t.Fatal(err)
		}
		ts.end(tk, res, nil, context.Background())
		held = append(held, tk)
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	got := ts.held()
	t.Logf("%d results of %d bytes: the store counts %d bytes, the heap grew by %d", n, size, got, grown)
	if got < n*size || got > n*(size+256) {
		t.Errorf("the store counts %d bytes, want %d results of %d bytes counted once", got, n, size)
	}
	if grown > n*size*3/2 {
		t.Errorf("the heap grew by %d bytes for %d results of %d: held more than once", grown, n, size)
	}
	for i, tk := range held {
		info := ts.info(tk, "complete")
		tc, ok := info.Result.Content[0].(*mcp.TextContent)
		if info.Status != taskCompleted || !ok || tc.Text != string(info.Result.StructuredContent.(json.RawMessage)) || len(tc.Text) != size+len(`{"text":""}`) {
			t.Fatalf("task %d: status %s, content %T", i, info.Status, info.Result.Content[0])
		}
	}
	for _, tk := range held {
		ts.drop(tk.id)
	}
	if got := ts.held(); got != 0 {
		t.Errorf("the store counts %d bytes once its tasks are dropped", got)
	}
}
