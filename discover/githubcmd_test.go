package discover_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opentoolgen/opentoolgen/discover"
	"github.com/opentoolgen/opentoolgen/gen"
)

// TestGitHubCommandDiscovery generates GitHub's REST API as a package and
// its -cmd server into a module of its own, builds the server, runs it as
// `github mcp --discovery on` and drives it with the official Go SDK's client
// over stdio: tools/list (under 5 KB), search, describe, and a call that
// reaches a stand-in for api.github.com answering the document's own example
// issue. Building 767 operations takes minutes: opt-in with
// OPENTOOLGEN_REALWORLD (TestPetstoreOverMCP is the always-on end to end).
func TestGitHubCommandDiscovery(t *testing.T) {
	if os.Getenv("OPENTOOLGEN_REALWORLD") == "" {
		t.Skip("set OPENTOOLGEN_REALWORLD=1 to build GitHub's -cmd server and drive it in discovery mode")
	}
	bin, main, spec := buildGitHubCommand(t)

	// The flag that sets the REST API's base URL, as the main names it.
	m := regexp.MustCompile(`fs\.StringVar\(&\w+, "(\w+)", "", "Base URL`).FindSubmatch(main)
	if m == nil {
		t.Fatal("the generated main has no base URL flag")
	}
	issue := exampleIssue(t, spec)
	var mu sync.Mutex
	var got []string
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write(issue)
	}))
	defer api.Close()

	ctx := context.Background()
	cmd := exec.Command(bin, "mcp", "--"+string(m[1]), api.URL, "--discovery", "on")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "discover-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(list)
	t.Logf("tools/list of the GitHub server in discovery mode: %d tools, %d bytes", len(list.Tools), len(b))
	if len(list.Tools) != 3 || len(b) >= 5*1024 {
		t.Errorf("tools/list: %d tools in %d bytes, want 3 in under 5 KB", len(list.Tools), len(b))
	}
	call := func(name string, args map[string]any) string {
		t.Helper()
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || r.IsError {
			t.Fatalf("%s %v: %v %+v", name, args, err, r)
		}
		out, _ := json.Marshal(r.StructuredContent)
		return string(out)
	}
	if s := call(discover.SearchName, map[string]any{"query": "get one issue of a repository", "limit": 5}); !strings.Contains(s, `"name":"issues_get"`) {
		t.Errorf("search: %s, want issues_get among the first 5", s)
	}
	if s := call(discover.DescribeName, map[string]any{"name": "issues_get"}); !strings.Contains(s, `"issue_number"`) || !strings.Contains(s, `"path":"/repos/{owner}/{repo}/issues/{issue_number}"`) {
		t.Errorf("describe issues_get: %s", s)
	}
	s := call(discover.CallName, map[string]any{"name": "issues_get", "arguments": map[string]any{"owner": "octocat", "repo": "Hello-World", "issue_number": 1347}})
	if !strings.Contains(s, `"title":"Found a bug"`) {
		t.Errorf("call issues_get: %s, want the example issue", s)
	}
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(got) != "[GET /repos/octocat/Hello-World/issues/1347]" {
		t.Errorf("the stand-in got %v", got)
	}
}

// buildGitHubCommand generates GitHub's REST API as a package and its -cmd
// server into a module of its own and builds the server: it returns the
// executable, the source of its main and GitHub's document.
func buildGitHubCommand(t *testing.T) (bin string, main, data []byte) {
	spec, err := githubSpec()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data, err = os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	res, err := gen.Generate(spec, data, gen.Options{Package: "github", Command: &gen.Command{Name: "github", ImportPath: "ghmod/github"}})
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, content []byte) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", []byte("module ghmod\n\ngo 1.26\n\nrequire github.com/opentoolgen/opentoolgen v0.0.0\n\nreplace github.com/opentoolgen/opentoolgen => "+root+"\n"))
	if sum, err := os.ReadFile(filepath.Join(root, "go.sum")); err == nil {
		write("go.sum", sum)
	}
	for _, f := range res.Files {
		write(filepath.Join("github", f.Name), f.Content)
	}
	write(filepath.Join("cmd", "github", res.Command.Name), res.Command.Content)
	bin = filepath.Join(dir, "github-server")
	build := exec.Command("go", "build", "-o", bin, "./cmd/github")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	return bin, res.Command.Content, data
}

// exampleIssue is the example issue of GitHub's document.
func exampleIssue(t *testing.T, spec []byte) []byte {
	var doc struct {
		Components struct {
			Examples map[string]struct{ Value json.RawMessage }
		}
	}
	if err := json.Unmarshal(spec, &doc); err != nil {
		t.Fatal(err)
	}
	v := doc.Components.Examples["issue"].Value
	if len(v) == 0 {
		t.Fatal("GitHub's document has no example issue")
	}
	return v
}
