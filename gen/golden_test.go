package gen

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/gen/emit"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

const goldenDir = "../testdata/golden"

// goldenCase is one folder of testdata/golden: an input document (the only
// .json, .yaml or .yml file at its top) and the files generated from it.
type goldenCase struct {
	name  string
	dir   string
	input string
}

func goldenCases(t *testing.T) []goldenCase {
	t.Helper()
	entries, err := os.ReadDir(goldenDir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(goldenDir, e.Name())
		files, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var inputs []string
		for _, f := range files {
			switch filepath.Ext(f.Name()) {
			case ".json", ".yaml", ".yml":
				if f.Name() != "opentool.gen.json" {
					inputs = append(inputs, filepath.Join(dir, f.Name()))
				}
			}
		}
		if len(inputs) != 1 {
			t.Fatalf("%s: want one input document, got %v", dir, inputs)
		}
		cases = append(cases, goldenCase{name: e.Name(), dir: dir, input: inputs[0]})
	}
	if len(cases) == 0 {
		t.Fatal("no golden cases")
	}
	return cases
}

// goldenPackage is the package name of a golden case: its folder name, reduced
// to letters and digits.
func goldenPackage(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func generateCase(t *testing.T, c goldenCase) map[string][]byte {
	t.Helper()
	data, err := os.ReadFile(c.input)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate(filepath.Base(c.input), data, Options{Package: goldenPackage(c.name),
		Command:   &Command{Name: c.name, ImportPath: goldenModule + "/testdata/golden/" + c.name, NATS: natsCases[c.name], OTel: otelCases[c.name]},
		Split:     splitCases[c.name],
		Packaging: packagingCases[c.name],
		Overlays:  goldenOverlays(t, c)})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range res.Files {
		out[f.Name] = f.Content
	}
	// -document writes the bytes the package embeds.
	if !bytes.Equal(out[emit.DocumentFile], res.Document) {
		t.Errorf("Result.Document differs from the embedded %s", emit.DocumentFile)
	}
	out[goldenCommand(c.name)] = res.Command.Content
	for _, f := range res.Packaging {
		out[path.Dir(goldenCommand(c.name))+"/"+f.Name] = f.Content
	}
	if declaredCases[c.name] {
		// The declarations of every profile, as -declarations writes them.
		for _, p := range declare.Profiles() {
			d, err := Generate(filepath.Base(c.input), data, Options{Package: goldenPackage(c.name), Declarations: p})
			if err != nil {
				t.Fatalf("Generate -for %s: %v", p, err)
			}
			out[goldenDeclarations(p)] = d.Declarations
		}
	}
	return out
}

// goldenOverlays are the overlays of a case: the files of its folder
// overlays, applied in the order of their names.
func goldenOverlays(t *testing.T, c goldenCase) []Overlay {
	t.Helper()
	dir := filepath.Join(c.dir, "overlays")
	files, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []Overlay
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Overlay{Name: filepath.Join("overlays", f.Name()), Data: data})
	}
	return out
}

// declaredCases are the golden cases whose declarations in every profile are
// golden files too: one of each input kind.
var declaredCases = map[string]bool{"weather": true, "mocktool": true, "openapi-petstore": true, "openapi-schemas": true, "openapi-wild": true, "opendyn-example": true, "mcp-tools": true}

// natsCases are the golden cases whose main is generated -with nats (the
// nats and exec commands of toolcli/natscli); the others have the default
// fronts, OpenTool HTTP and MCP, and link no NATS.
var natsCases = map[string]bool{"mocktool": true}

// otelCases are the golden cases whose main is generated -with otel
// (OpenTelemetry export, toolcli/otelcli.Telemetry); the others link no
// OpenTelemetry SDK.
var otelCases = map[string]bool{"weather": true}

// packagingCases are the golden cases generated with every packaging file
// (opentoolgen -package all): an OpenAPI one with credentials, an OpenTool
// gateway with a streamable HTTP remote.
var packagingCases = map[string]*Packaging{
	"openapi-petstore": {Opentoolfile: true, MCPB: true, Registry: true, OCI: true, RegistryName: "io.github.opentoolgen/openapi-petstore"},
	"weather": {Opentoolfile: true, MCPB: true, Registry: true, OCI: true, RegistryName: "io.example/weather",
		Image: "docker.io/example/weather", ReleaseURL: "https://gitlab.com/example/weather/-/releases/v1/downloads", RemoteURL: "https://weather.example.com/mcp"},
}

// packagingFiles are the files packaging may write beside a main.
var packagingFiles = []string{OpentoolfileFile, ManifestFile, ServerJSONFile}

// splitCases are the golden cases generated with small files
// (Options.Split), so that their types, tool and client are split over
// numbered files as a large document's are.
var splitCases = map[string]Split{
	"openapi-split":  {Types: 120, Functions: 4},
	"opentool-split": {Types: 80, Functions: 3},
}

// goldenDeclarations is the file of a case's declarations in profile p.
func goldenDeclarations(p declare.Profile) string { return "declarations/" + string(p) + ".gen.json" }

// goldenModule is this module's path.
const goldenModule = "github.com/opentoolgen/opentoolgen"

// goldenCommand is the file of a golden case's generated main (opentoolgen
// -cmd), in cmd/<case> under the case's folder.
func goldenCommand(name string) string { return "cmd/" + name + "/" + emit.CommandFile }

// TestGolden compares the generated files of every case with the files in its
// folder; -update rewrites them.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases(t) {
		t.Run(c.name, func(t *testing.T) {
			got := generateCase(t, c)
			// On disk: every generated file of the case (.go and the document).
			onDisk := map[string]bool{}
			files, _ := os.ReadDir(c.dir)
			for _, f := range files {
				if strings.HasSuffix(f.Name(), ".gen.go") || f.Name() == "opentool.gen.json" {
					onDisk[f.Name()] = true
				}
			}
			for _, name := range append([]string{emit.CommandFile}, packagingFiles...) {
				name = path.Dir(goldenCommand(c.name)) + "/" + name
				if _, err := os.Stat(filepath.Join(c.dir, name)); err == nil {
					onDisk[name] = true
				}
			}
			for _, p := range declare.Profiles() {
				if _, err := os.Stat(filepath.Join(c.dir, goldenDeclarations(p))); err == nil {
					onDisk[goldenDeclarations(p)] = true
				}
			}
			if *update {
				for name := range onDisk {
					if _, ok := got[name]; !ok {
						os.Remove(filepath.Join(c.dir, name))
					}
				}
				for name, content := range got {
					if err := os.MkdirAll(filepath.Dir(filepath.Join(c.dir, name)), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(c.dir, name), content, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				return
			}
			names := make([]string, 0, len(got))
			for name := range got {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
				want, err := os.ReadFile(filepath.Join(c.dir, name))
				if err != nil {
					t.Errorf("%s: missing golden file (run go test ./gen -update): %v", name, err)
					continue
				}
				if diff := cmp.Diff(string(want), string(got[name])); diff != "" {
					t.Errorf("%s differs from the golden file (-want +got); run go test ./gen -update and review the diff:\n%s", name, diff)
				}
				delete(onDisk, name)
			}
			for name := range onDisk {
				t.Errorf("%s: golden file no longer generated", name)
			}
		})
	}
}

// TestGoldenDeterministic generates every case twice and compares the bytes.
func TestGoldenDeterministic(t *testing.T) {
	for _, c := range goldenCases(t) {
		a, b := generateCase(t, c), generateCase(t, c)
		for name := range a {
			if !bytes.Equal(a[name], b[name]) {
				t.Errorf("%s/%s: two runs generated different bytes", c.name, name)
			}
		}
	}
}

// TestGoldenCompiles builds and vets every golden package with the go command,
// against this module's runtime.
func TestGoldenCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping go vet of the golden packages")
	}
	args := []string{"vet"}
	for _, c := range goldenCases(t) {
		args = append(args, "./testdata/golden/"+c.name, "./testdata/golden/"+c.name+"/cmd/"+c.name)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = ".."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestGoldenNoDirectives checks that no document text became a directive or
// code: every comment line of the generated Go files, but for the header, is
// "//" alone, or "// " or "//\t" (a code block) followed by text.
// cgoPreambleEnd returns the index of the line that ends the cgo preamble
// starting at lines[i] (a block comment right before import "C"), or 0.
func cgoPreambleEnd(lines []string, i int) int {
	if lines[i] != "/*" {
		return 0
	}
	for j := i + 1; j+1 < len(lines); j++ {
		if strings.Contains(lines[j], "*/") {
			if lines[j] == "*/" && lines[j+1] == `import "C"` {
				return j
			}
			return 0
		}
	}
	return 0
}

func TestGoldenNoDirectives(t *testing.T) {
	for _, c := range goldenCases(t) {
		for name, content := range generateCase(t, c) {
			if !strings.HasSuffix(name, ".go") {
				continue
			}
			lines := strings.Split(string(content), "\n")
			for i := 0; i < len(lines); i++ {
				line := lines[i]
				l := strings.TrimLeft(line, " \t")
				// The generator's own directives: the build constraints of the
				// platform files, the embedded document and the cgo preamble
				// of an OpenDyn package.
				if l == "//go:build unix" || l == "//go:build windows" || l == "//go:build cgo" || l == "//go:embed "+emit.DocumentFile {
					continue
				}
				if end := cgoPreambleEnd(lines, i); end > 0 {
					i = end
					continue
				}
				// "//\t": a code block of a doc comment as gofmt writes it.
				if strings.HasPrefix(l, "//") && l != "//" && !strings.HasPrefix(l, "// ") && !strings.HasPrefix(l, "//\t") {
					t.Errorf("%s/%s:%d: comment line without a space after //: %q", c.name, name, i+1, line)
				}
				if strings.Contains(l, "/*") && !strings.HasPrefix(l, "//") && !strings.Contains(l, `"`) && !strings.Contains(l, "`") {
					t.Errorf("%s/%s:%d: block comment outside a literal: %q", c.name, name, i+1, line)
				}
			}
		}
	}
}

// TestGoldenDocumentsLoad checks that the equivalent OpenTool document of every
// case (what -document writes, what GET /load answers) is itself a valid
// OpenTool document: the generator takes it as input again.
func TestGoldenDocumentsLoad(t *testing.T) {
	for _, c := range goldenCases(t) {
		doc := generateCase(t, c)["opentool.gen.json"]
		res, err := Generate("opentool.gen.json", doc, Options{Package: goldenPackage(c.name)})
		if err != nil {
			t.Errorf("%s: the equivalent OpenTool document does not generate:\n%v", c.name, err)
			continue
		}
		checkDeclarations(t, res.Files)
	}
}
