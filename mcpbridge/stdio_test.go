package mcpbridge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
)

// stdioEnv makes the test binary an MCP server on stdio serving the mock tool.
const stdioEnv = "MCPBRIDGE_TEST_STDIO_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(stdioEnv) == "1" {
		tool, err := mocktool.NewTool(newStore("Hello", "World"))
		if err == nil {
			err = mcpbridge.ServeStdio(context.Background(), tool, nil)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "stdio server:", err)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestStdio starts this test binary as an MCP server over stdio, as a client
// such as an IDE does, and calls it.
func TestStdio(t *testing.T) {
	ctx := context.Background()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), stdioEnv+"=1")
	cmd.Stderr = os.Stderr
	progress := newProgressLog()
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) { progress.add(r.Params) },
	})
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if info := cs.InitializeResult().ServerInfo; info.Name != "CRUD API for mock" || info.Version != "1.0.0" {
		t.Errorf("server info %+v, want the document's title and version", info)
	}
	if n := len(listTools(t, cs)); n != 7 {
		t.Errorf("%d tools, want 7", n)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"id": 1}})
	if err != nil {
		t.Fatal(err)
	}
	if got := text(t, res); got != `{"text":"World"}` {
		t.Errorf("read: %s", got)
	}
	params := &mcp.CallToolParams{Name: "sequentiallyRead"}
	params.SetProgressToken(42)
	res, err = cs.CallTool(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Items []json.RawMessage }
	if err := json.Unmarshal([]byte(text(t, res)), &got); err != nil || len(got.Items) != 2 {
		t.Errorf("sequentiallyRead: %s, %v; want two items", text(t, res), err)
	}
	if n := len(progress.wait(t, 2)); n != 2 {
		t.Errorf("%d progress notifications, want 2", n)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
}
