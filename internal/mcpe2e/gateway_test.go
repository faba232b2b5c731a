package mcpe2e

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveEnv makes the test binary the MCP server of newMCPServer on its
// standard input and output: the server the generated command starts with
// --command.
const serveEnv = "MCPE2E_SERVE_STDIO"

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) == "1" {
		if err := newMCPServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestCommandGateway builds the command generated (-cmd) from the server's
// listing and runs it as an MCP server (its mcp command, on stdio) in front
// of the MCP server itself: started by it (--command, this test binary as
// the server) or over streamable HTTP on loopback (--upstream). The official
// SDK's client calls book through it, and a call the listing's schema
// refuses never reaches the server.
func TestCommandGateway(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a command")
	}
	bin := filepath.Join(t.TempDir(), "mcp-server")
	if out, err := exec.Command("go", "build", "-o", bin, "../../testdata/golden/mcp-server/cmd/mcp-server").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s := newMCPServer()
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.Server }, nil))
	defer srv.Close()

	for _, c := range []struct {
		name string
		args []string
	}{
		{"command", []string{"mcp", "--command", strconv.Quote(self) + " -test.run=^$"}},
		{"upstream", []string{"mcp", "--upstream", srv.URL}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), waitLong)
			defer cancel()
			cmd := exec.Command(bin, c.args...)
			cmd.Env = append(os.Environ(), serveEnv+"=1")
			cmd.Stderr = os.Stderr
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "sdk", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "book", Arguments: map[string]any{"guest": "Ada", "room": "single"}})
			if err != nil || res.IsError {
				t.Fatalf("book: %+v, %v", res, err)
			}
			got, _ := json.Marshal(res.StructuredContent)
			if want := `{"guest":"Ada","id":7,"nights":1,"room":"single"}`; string(got) != want {
				t.Errorf("book: %s, want %s", got, want)
			}
			// The listing says room is single or double: the gateway refuses
			// another before the server sees it.
			before := s.calls.Load()
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "book", Arguments: map[string]any{"guest": "Ada", "room": "suite"}})
			if err != nil || !res.IsError {
				t.Fatalf("book a suite: %+v, %v; want an error result", res, err)
			}
			if c.name == "upstream" && s.calls.Load() != before {
				t.Error("the refused call reached the server")
			}
			tools, err := cs.ListTools(ctx, nil)
			if err != nil || len(tools.Tools) == 0 || tools.Tools[0].Title == "" {
				t.Errorf("listing through the gateway: %v; want the titles kept", err)
			}
		})
	}
}
