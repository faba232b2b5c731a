package mcpbridge_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// sessionTool connects client to server in memory and returns the Tool of
// the session.
func sessionTool(t testing.TB, server *mcp.Server, client *mcp.Client) *mcpbridge.Tool {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	tool, err := mcpbridge.NewTool(ctx, cs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tool.Close() })
	return tool
}

// collect runs a StreamCall and returns the items it emitted.
func collect(t *testing.T, tool runtime.StreamTool, name string) ([]string, error) {
	t.Helper()
	var items []string
	err := tool.StreamCall(context.Background(), name, nil, func(item json.RawMessage) error {
		items = append(items, string(item))
		return nil
	})
	return items, err
}

// TestStreamCall: the Tool of a server of this package streams a streaming
// function's items, with a client that routes progress notifications
// (NewClient) and with one that does not (the items then come with the
// result); the items sent before an error come too; a tool of another server
// streams its result as one item.
func TestStreamCall(t *testing.T) {
	want := []string{`{"text":"Hi"}`, `{"text":"World"}`} // the items of the stream: mocktool.Text results
	impl := &mcp.Implementation{Name: "test-client", Version: "1"}
	var heard int
	theirs := &mcp.ClientOptions{ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { heard++ }}
	for name, client := range map[string]*mcp.Client{
		"NewClient":     mcpbridge.NewClient(impl, theirs),
		"the SDK's own": mcp.NewClient(impl, nil),
	} {
		t.Run(name, func(t *testing.T) {
			s := newStore("Hi", "World")
			server, err := mcpbridge.NewServer(context.Background(), newMockTool(t, s), nil)
			if err != nil {
				t.Fatal(err)
			}
			tool := sessionTool(t, server, client)
			items, err := collect(t, tool, "sequentiallyRead")
			if err != nil || !slices.Equal(items, want) {
				t.Errorf("items %q, %v; want %q", items, err, want)
			}
			s.FailStream = true
			items, err = collect(t, tool, "sequentiallyRead")
			var re *runtime.Error
			if !errors.As(err, &re) || re.Message != "the store broke down" || !slices.Equal(items, want) {
				t.Errorf("a failing stream: items %q, %v; want %q and the store's error", items, err, want)
			}

			// Breaking off after the first item ends the call with emit's error.
			stop := errors.New("enough")
			var got []string
			s.FailStream = false
			err = tool.StreamCall(context.Background(), "sequentiallyRead", nil, func(item json.RawMessage) error {
				got = append(got, string(item))
				return stop
			})
			if !errors.Is(err, stop) || !slices.Equal(got, want[:1]) {
				t.Errorf("breaking off: items %q, %v; want %q and emit's error", got, err, want[:1])
			}
		})
	}
	if heard == 0 {
		t.Error("NewClient did not call the options' own progress handler")
	}

	// A tool of another server: its result is the one item.
	other := mcp.NewServer(&mcp.Implementation{Name: "other", Version: "1"}, nil)
	other.AddTool(&mcp.Tool{Name: "hello", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello"}}}, nil
		})
	tool := sessionTool(t, other, mcpbridge.NewClient(impl, nil))
	res, err := tool.Call(context.Background(), "hello", nil)
	if err != nil {
		t.Fatal(err)
	}
	items, err := collect(t, tool, "hello")
	if err != nil || !slices.Equal(items, []string{string(res)}) {
		t.Errorf("a tool of another server: items %q, %v; want its result %s", items, err, res)
	}
}
