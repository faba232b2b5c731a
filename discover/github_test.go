package discover_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/opentoolgen/opentoolgen/discover"
	"github.com/opentoolgen/opentoolgen/gen"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// githubDocument returns the OpenTool document opentoolgen generates from
// GitHub's REST API description (ogen's test copy, from the module cache),
// made once per test binary.
var githubDocument = sync.OnceValues(func() (*document.OpenTool, error) {
	path, err := githubSpec()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	res, err := gen.Generate(path, data, gen.Options{Package: "github"})
	if err != nil {
		return nil, err
	}
	var doc document.OpenTool
	if err := json.Unmarshal(res.Document, &doc); err != nil {
		return nil, err
	}
	return &doc, nil
})

// githubSpec returns the path of GitHub's REST API description in the
// module cache (ogen's test copy), downloading the module if need be.
func githubSpec() (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/ogen-go/ogen@v1.14.0").Output()
	if err != nil {
		return "", fmt.Errorf("go mod download github.com/ogen-go/ogen@v1.14.0: %w", err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		return "", fmt.Errorf("go mod download: %s", out)
	}
	return filepath.Join(mod.Dir, "_testdata", "examples", "api.github.com.json"), nil
}

func loadGitHub(t testing.TB) *document.OpenTool {
	t.Helper()
	doc, err := githubDocument()
	if err != nil {
		t.Fatalf("GitHub's document: %v", err)
	}
	return doc
}

// task is one line of testdata/github-tasks.txt.
type task struct {
	line int
	text string
	want []string
}

func readTasks(t *testing.T) []task {
	f, err := os.Open("testdata/github-tasks.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var tasks []task
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		text, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("github-tasks.txt:%d: want task<TAB>operation", n)
		}
		tasks = append(tasks, task{n, text, strings.Split(want, "|")})
	}
	return tasks
}

// TestSearchGitHub measures search_tools on GitHub's REST API (767
// functions): for each task of testdata/github-tasks.txt, whether the
// operation that does it is among the first five answers (at least 90 % must
// be) and first.
func TestSearchGitHub(t *testing.T) {
	doc := loadGitHub(t)
	tool := discover.Wrap(docTool{doc: doc})
	names := map[string]bool{}
	for _, f := range doc.Functions {
		names[f.Name] = true
	}
	tasks := readTasks(t)
	if len(tasks) < 60 {
		t.Fatalf("%d tasks, want at least 60", len(tasks))
	}
	top1, top5 := 0, 0
	for _, tk := range tasks {
		for _, w := range tk.want {
			if !names[w] {
				t.Fatalf("github-tasks.txt:%d: GitHub has no operation %s", tk.line, w)
			}
		}
		got := searchNames(t, tool, tk.text, 5)
		rank := -1
		for i, g := range got {
			for _, w := range tk.want {
				if g == w && rank < 0 {
					rank = i
				}
			}
		}
		switch {
		case rank == 0:
			top1++
			top5++
		case rank > 0:
			top5++
		default:
			t.Logf("github-tasks.txt:%d: %q: want %s, got %v", tk.line, tk.text, strings.Join(tk.want, "|"), got)
		}
	}
	p1, p5 := 100*float64(top1)/float64(len(tasks)), 100*float64(top5)/float64(len(tasks))
	t.Logf("GitHub, %d functions, %d tasks: top 5 %.1f %%, top 1 %.1f %%", len(doc.Functions), len(tasks), p5, p1)
	if p5 < 90 {
		t.Errorf("top 5: %.1f %% of the tasks, want at least 90 %%", p5)
	}
}

// searchNames calls search_tools and returns the names it answers.
func searchNames(t testing.TB, tool runtime.Tool, query string, limit int) []string {
	t.Helper()
	args, _ := json.Marshal(map[string]any{"query": query, "limit": limit})
	res, err := tool.Call(context.Background(), discover.SearchName, args)
	if err != nil {
		t.Fatalf("search %q: %v", query, err)
	}
	var out struct {
		Tools []struct{ Name string }
	}
	if err := json.Unmarshal(res, &out); err != nil {
		t.Fatalf("search %q: %v in %s", query, err, res)
	}
	var names []string
	for _, f := range out.Tools {
		names = append(names, f.Name)
	}
	return names
}

// docTool serves doc; Call answers which function it was called with and
// its arguments, so that a test sees what reached it.
type docTool struct {
	doc *document.OpenTool
}

func (d docTool) Load(context.Context) (*document.OpenTool, error) { return d.doc, nil }

func (d docTool) Call(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	for _, f := range d.doc.Functions {
		if f.Name == name {
			return json.Marshal(map[string]any{"called": name, "args": args})
		}
	}
	return nil, runtime.MethodNotFound(name)
}

// BenchmarkSearchGitHub: one search_tools call on GitHub's 767 functions
// (the index built once, before the loop), and building the index (the
// first call on a new document).
func BenchmarkSearchGitHub(b *testing.B) {
	doc := loadGitHub(b)
	b.Run("search", func(b *testing.B) {
		tool := discover.Wrap(docTool{doc: doc})
		args := json.RawMessage(`{"query":"list the workflow runs of a branch","limit":5}`)
		if _, err := tool.Call(context.Background(), discover.SearchName, args); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := tool.Call(context.Background(), discover.SearchName, args); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("index", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := discover.Wrap(docTool{doc: doc}).Load(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
