package toolcli_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opentoolgen/opentoolgen/internal/testtool"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// TestStartDiscovery: start --discovery on serves the three discovery
// functions over MCP and OpenTool HTTP, and call_tool reaches the tool's own
// function; auto (the default) and off serve the small tool's functions as
// they are; a bad mode is a usage error.
func TestStartDiscovery(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--discovery", "on"}, []string{"call_tool", "describe_tool", "search_tools"}},
		{nil, []string{"count", "create", "delete", "read", "run", "sequentiallyRead", "update"}},
		{[]string{"--discovery", "off"}, []string{"count", "create", "delete", "read", "run", "sequentiallyRead", "update"}},
	} {
		r := testtool.Start(t, mockCommand(newStore("a", "b")), tc.args...)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: r.Base + "/mcp", MaxRetries: -1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		list, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tl := range list.Tools {
			names = append(names, tl.Name)
		}
		slices.Sort(names)
		if !slices.Equal(names, tc.want) {
			t.Errorf("%v: MCP tools %v, want %v", tc.args, names, tc.want)
		}
		if tc.want[0] == "call_tool" {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": "count"}})
			if err != nil || res.IsError || !strings.Contains(textOf(res), `"Count":2`) {
				t.Errorf("call_tool count over MCP: %v %s", err, textOf(res))
			}
			var out struct{ Count int }
			raw, err := runtime.RemoteTool(runtime.NewClient(r.Base+"/opentool")).Call(context.Background(), "call_tool", json.RawMessage(`{"name":"count"}`))
			if err != nil || json.Unmarshal(raw, &out) != nil || out.Count != 2 {
				t.Errorf("call_tool count over OpenTool HTTP: %v %s", err, raw)
			}
		}
		cs.Close()
		r.Stop()
		r.Wait(t)
	}
	code, _, errs := testtool.Run(t, mockCommand(newStore()), "start", "--discovery", "maybe")
	if code != 2 || !strings.Contains(errs, `want auto, on or off`) {
		t.Errorf("--discovery maybe: exit status %d, stderr %s; want 2 and the modes", code, errs)
	}
}
