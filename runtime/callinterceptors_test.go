package runtime_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// TestCallInterceptors: the interceptors a context carries
// (WithCallInterceptors) run around the typed calls made with it, once,
// calls and streams, on the calling side with the Caller's front; a Caller
// that runs interceptors of its own runs those alone; without them on the
// context, nothing runs.
func TestCallInterceptors(t *testing.T) {
	var mu sync.Mutex
	var got []string
	ic := func(name string) intercept.Func {
		return func(ctx context.Context, call *intercept.Call, next func(context.Context) error) error {
			mu.Lock()
			got = append(got, name+" "+call.Function+" "+call.Front+" "+map[bool]string{true: "server", false: "client"}[call.Server])
			mu.Unlock()
			return next(ctx)
		}
	}
	tool := echoTool{}
	ctx := intercept.WithCallInterceptors(context.Background(), ic("carried"))
	if err := runtime.Invoke(ctx, runtime.Local(tool), "echo", map[string]int{"x": 1}, "", nil); err != nil {
		t.Fatal(err)
	}
	for _, err := range runtime.InvokeStream[json.RawMessage](ctx, runtime.Local(tool), "count", nil, "") {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := runtime.Invoke(ctx, runtime.InterceptCaller(runtime.Local(tool), ic("own")), "echo", nil, "", nil); err != nil {
		t.Fatal(err)
	}
	if err := runtime.Invoke(context.Background(), runtime.Local(tool), "echo", nil, "", nil); err != nil {
		t.Fatal(err)
	}
	want := []string{"carried echo local client", "carried count local client", "own echo local client"}
	if !slices.Equal(got, want) {
		t.Errorf("interceptors ran %q, want %q", got, want)
	}
}

// echoTool answers {} to any call, and streams one item.
type echoTool struct{}

func (echoTool) Call(context.Context, string, json.RawMessage) (json.RawMessage, error) {
	return json.RawMessage(`{}`), nil
}

func (echoTool) StreamCall(_ context.Context, _ string, _ json.RawMessage, emit func(json.RawMessage) error) error {
	return emit(json.RawMessage(`{}`))
}

func (echoTool) Load(context.Context) (*document.OpenTool, error) { return nil, nil }
