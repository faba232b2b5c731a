package gen

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// Public OpenAPI documents ship inside Go modules: ogen's examples (GitHub's
// REST API, Kubernetes, OpenAI, the Telegram Bot API, …) and kin-openapi's
// test data. The opt-in test below generates a package for each and vets them
// all; nothing is copied into this repository.
//
//	OPENTOOLGEN_REALWORLD=1 go test ./gen -run RealWorld -v -timeout 30m
const ogenModule = "github.com/ogen-go/ogen@v1.14.0"

// realWorldDocs lists the documents: path and whether kin-openapi must load
// it (kin-openapi's own test data includes documents broken on purpose).
func realWorldDocs(t testing.TB) (docs []string, optional map[string]bool) {
	optional = map[string]bool{}
	ogen := moduleDir(t, ogenModule)
	for _, pat := range []string{"_testdata/examples/*", "_testdata/examples/autorest/*", "_testdata/examples/redoc/*"} {
		docs = append(docs, docFiles(t, filepath.Join(ogen, pat))...)
	}
	// ogen's own edge cases: some use what kin-openapi does not load.
	for _, f := range docFiles(t, filepath.Join(ogen, "_testdata/positive/*")) {
		docs = append(docs, f)
		optional[f] = true
	}
	kin := moduleDir(t, "github.com/getkin/kin-openapi@"+requiredVersion(t, "github.com/getkin/kin-openapi"))
	for _, f := range docFiles(t, filepath.Join(kin, "openapi3/testdata/*")) {
		docs = append(docs, f)
		optional[f] = true
	}
	return docs, optional
}

func docFiles(t testing.TB, pattern string) []string {
	matches, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range matches {
		switch filepath.Ext(m) {
		case ".json", ".yml", ".yaml":
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return out
}

// moduleDir downloads a module (go mod download) and returns its directory.
func moduleDir(t testing.TB, mod string) string {
	out, err := exec.Command("go", "mod", "download", "-json", mod).Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v", mod, err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		t.Fatalf("go mod download %s: %s", mod, out)
	}
	return info.Dir
}

func requiredVersion(t testing.TB, mod string) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", mod).Output()
	if err != nil {
		t.Fatalf("go list -m %s: %v", mod, err)
	}
	return strings.TrimSpace(string(out))
}

func TestOpenAPIRealWorld(t *testing.T) {
	if os.Getenv("OPENTOOLGEN_REALWORLD") == "" {
		t.Skip("set OPENTOOLGEN_REALWORLD=1 to generate and vet public OpenAPI documents (downloads " + ogenModule + ")")
	}
	docs, optional := realWorldDocs(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	gomod := "module realworld\n\ngo 1.26\n\nrequire github.com/opentoolgen/opentoolgen v0.0.0\n\nreplace github.com/opentoolgen/opentoolgen => " + root + "\n"
	if err := os.WriteFile(filepath.Join(out, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(root, "go.sum")); err == nil {
		os.WriteFile(filepath.Join(out, "go.sum"), data, 0o644)
	}
	generated := 0
	for i, doc := range docs {
		if !isOpenAPI(doc) {
			continue
		}
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		pkg := fmt.Sprintf("p%03d", i)
		start := time.Now()
		res, err := Generate(doc, data, Options{Package: pkg})
		if err != nil {
			if optional[doc] && strings.Contains(err.Error(), ":1:1: ") {
				t.Logf("skipped %s: %v", doc, firstLine(err.Error()))
				continue
			}
			t.Errorf("%s: %v", doc, err)
			continue
		}
		size := 0
		dir := filepath.Join(out, pkg)
		os.MkdirAll(dir, 0o755)
		for _, f := range res.Files {
			size += len(f.Content)
			if err := os.WriteFile(filepath.Join(dir, f.Name), f.Content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		generated++
		t.Logf("%s: %s, %d kB of Go, %d warnings -> %s", filepath.Base(doc), time.Since(start).Round(time.Millisecond),
			size/1024, len(res.Warnings), pkg)
	}
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = out
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	start := time.Now()
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go vet of %d generated packages: %v\n%s", generated, err, b)
	} else {
		t.Logf("go vet of %d generated packages: %s", generated, time.Since(start).Round(time.Millisecond))
	}
	// staticcheck too, when it is installed (.ci/run installs the pinned one).
	sc, err := exec.LookPath("staticcheck")
	if err != nil {
		if gopath, gerr := exec.Command("go", "env", "GOPATH").Output(); gerr == nil {
			sc = filepath.Join(strings.TrimSpace(string(gopath)), "bin", "staticcheck")
			_, err = os.Stat(sc)
		}
	}
	if err != nil {
		t.Log("no staticcheck: the generated packages are vetted only")
		return
	}
	cmd = exec.Command(sc, "./...")
	cmd.Dir = out
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	start = time.Now()
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("staticcheck of %d generated packages: %v\n%s", generated, err, b)
	} else {
		t.Logf("staticcheck of %d generated packages: %s", generated, time.Since(start).Round(time.Millisecond))
	}
}

// isOpenAPI reports whether a file is an OpenAPI or Swagger document (test
// data also holds plain schemas and fragments).
func isOpenAPI(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	head := string(data)
	if len(head) > 4096 {
		head = head[:4096]
	}
	return strings.Contains(head, `"openapi"`) || strings.Contains(head, `"swagger"`) ||
		strings.Contains(head, "openapi:") || strings.Contains(head, "swagger:")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// BenchmarkOpenAPIGenerate measures Generate on the golden petstore document
// and, with OPENTOOLGEN_REALWORLD set, on GitHub's REST API, Kubernetes,
// OpenAI and the Telegram Bot API (scripts/bench-openapi.sh compares with
// other generators).
func BenchmarkOpenAPIGenerate(b *testing.B) {
	docs := []string{filepath.Join(goldenDir, "openapi-petstore", "petstore.yaml")}
	if os.Getenv("OPENTOOLGEN_REALWORLD") != "" {
		ex := filepath.Join(moduleDir(b, ogenModule), "_testdata", "examples")
		for _, name := range []string{"api.github.com.json", "k8s.json", "openai.yml", "telegram_bot_api.json"} {
			docs = append(docs, filepath.Join(ex, name))
		}
	}
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(doc), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Generate(doc, data, Options{Package: "api"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
