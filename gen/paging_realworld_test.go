package gen

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestPagingRealWorld generates GitHub's REST API (ogen's copy of its
// document), reports how many operations get an iterator and what told the
// loader so, and vets the package.
//
//	OPENTOOLGEN_REALWORLD=1 go test ./gen -run TestPagingRealWorld -v -timeout 20m
func TestPagingRealWorld(t *testing.T) {
	if os.Getenv("OPENTOOLGEN_REALWORLD") == "" {
		t.Skip("set OPENTOOLGEN_REALWORLD=1 to generate GitHub's REST API (downloads " + ogenModule + ")")
	}
	doc := filepath.Join(moduleDir(t, ogenModule), "_testdata/examples/api.github.com.json")
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate(doc, data, Options{Package: "github"})
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	gomod := "module realworld\n\ngo 1.26\n\nrequire github.com/opentoolgen/opentoolgen v0.0.0\n\nreplace github.com/opentoolgen/opentoolgen => " + root + "\n"
	os.WriteFile(filepath.Join(out, "go.mod"), []byte(gomod), 0o644)
	if sum, err := os.ReadFile(filepath.Join(root, "go.sum")); err == nil {
		os.WriteFile(filepath.Join(out, "go.sum"), sum, 0o644)
	}
	os.MkdirAll(filepath.Join(out, "github"), 0o755)
	var client string
	for _, f := range res.Files {
		if f.Name == "client.gen.go" {
			client = string(f.Content)
		}
		if err := os.WriteFile(filepath.Join(out, "github", f.Name), f.Content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ops := strings.Count(client, "\n\tr := c.rc.NewRequest(")
	iters := regexp.MustCompile(`\) iter\.Seq2\[`).FindAllString(client, -1)
	bySource := map[string]int{}
	for _, m := range regexp.MustCompile(`\(recognised from ([^)]*)\)`).FindAllStringSubmatch(client, -1) {
		bySource[m[1]]++
	}
	var lines []string
	for s, n := range bySource {
		lines = append(lines, s+": "+strconv.Itoa(n))
	}
	sort.Strings(lines)
	t.Logf("GitHub: %d operations, %d iterators (%s)", ops, len(iters), strings.Join(lines, "; "))
	if bySource["its Link response header"] < 100 {
		t.Errorf("only %d operations follow the Link header", bySource["its Link response header"])
	}
	cmd := exec.Command("go", "vet", "./github")
	cmd.Dir = out
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
}
