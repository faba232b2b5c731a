package gen_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// module is this module's path.
const module = "github.com/opentoolgen/opentoolgen"

// stages are the packages of the module in pipeline order: a package may
// import (of this module) only packages of earlier stages, and only those its
// stage lists. runtime, what generated code imports, comes first: it knows
// nothing of the generator.
var stages = []struct {
	pkg      string
	may      []string // the module's packages it may import
	third    bool     // whether it may import packages outside the standard library and the module
	jennifer bool     // whether it may import jennifer (and nothing else outside)
}{
	{pkg: "internal/jsontree"},
	{pkg: "internal/inflight"},
	{pkg: "internal/redirect"},
	{pkg: "internal/sse"},
	{pkg: "internal/lograte"},
	{pkg: "internal/jsonrpc"},
	// the versions of a binary, as the go command stamped them (-version, -v)
	{pkg: "internal/buildinfo"},
	// the OpenTool document model, the content of answers and what
	// interceptors see: below runtime, importing nothing of the module
	{pkg: "runtime/document"},
	{pkg: "runtime/content"},
	{pkg: "runtime/intercept"},
	{pkg: "runtime/civil"},
	{pkg: "runtime", may: []string{"runtime/document", "runtime/intercept", "internal/lograte", "internal/jsonrpc", "internal/jsontree", "internal/inflight", "internal/redirect", "internal/sse"}},
	// beside runtime, one package per job, each importing runtime and never
	// imported by it
	{pkg: "runtime/rest", may: []string{"internal/jsonrpc", "internal/redirect", "internal/sse", "runtime", "runtime/decode", "runtime/toolopt", "runtime/intercept", "runtime/civil"}},
	{pkg: "runtime/declare", may: []string{"internal/jsontree", "runtime", "runtime/document"}},
	{pkg: "runtime/toolopt", may: []string{"internal/jsontree", "runtime", "runtime/declare", "runtime/document"}},
	{pkg: "runtime/functions", may: []string{"internal/jsonrpc", "runtime", "runtime/declare", "runtime/document"}},
	{pkg: "runtime/decode", may: []string{"internal/jsonrpc", "internal/jsontree", "runtime", "runtime/toolopt", "runtime/civil"}},
	{pkg: "runtime/dynlib", may: []string{"runtime"}},
	{pkg: "discover", may: []string{"runtime", "runtime/declare", "runtime/functions", "runtime/document"}},
	// webhook receivers: signatures, replay protection, the handler, wait functions
	{pkg: "runtime/webhook", may: []string{"runtime", "runtime/document"}},
	// MCP tools as an OpenTool document: what mcpbridge and the generator share
	{pkg: "internal/checked", may: []string{"runtime", "runtime/decode", "runtime/document"}},
	{pkg: "internal/mcpschema", may: []string{"internal/jsontree", "internal/checked", "runtime", "runtime/document"}},
	{pkg: "templates"},
	// read: a document's text (JSON or YAML) with the positions of its values;
	// diagnostics
	{pkg: "gen/source", may: []string{"internal/jsontree"}, third: true},
	// OpenAPI overlays: the patched document, read before any loader
	// (github.com/theory/jsonpath)
	{pkg: "gen/overlay", may: []string{"internal/jsontree", "gen/source"}, third: true},
	// the model: what every loader produces and every emitter reads; every
	// Go name is made there
	{pkg: "gen/model", may: []string{"runtime", "runtime/decode", "runtime/document"}},
	// loaders: input formats, nothing of Go; each builds the model with one
	// Load(src, model.LoadOptions) (OpenDyn and MCP listings through their
	// OpenTool document), leaving its names to it (loadersMakeNoNames)
	{pkg: "gen/load/opentool", may: []string{"internal/jsontree", "internal/checked", "runtime", "gen/source", "gen/model", "runtime/document"}},
	{pkg: "gen/load/opendyn", may: []string{"internal/jsontree", "runtime", "gen/source", "gen/load/opentool", "gen/model", "runtime/document"}},
	// kin-openapi's values decoded from a parsed tree (the OpenAPI loader's
	// fast path)
	{pkg: "gen/load/openapi/fastload", may: []string{"internal/jsontree"}, third: true},
	{pkg: "gen/load/openapi", may: []string{"internal/jsontree", "internal/checked", "runtime", "gen/source", "gen/model", "gen/load/openapi/fastload", "runtime/document"}, third: true},
	{pkg: "gen/load/mcptools", may: []string{"internal/jsontree", "internal/mcpschema", "runtime", "gen/source", "gen/load/opentool", "gen/model", "runtime/document"}},
	// emit: Go from the model, nothing of input formats (jennifer only)
	{pkg: "gen/emit", may: []string{"internal/jsontree", "runtime", "templates", "gen/model", "runtime/document"}, jennifer: true},
	// the driver: Generate, render, format; see gen's package doc
	{pkg: "gen", may: []string{"runtime", "runtime/declare", "runtime/document", "discover", "gen/source", "gen/overlay", "gen/load/opentool", "gen/load/opendyn", "gen/load/openapi", "gen/load/mcptools", "gen/model", "gen/emit"}},
	{pkg: "cmd/opentoolgen", may: []string{"internal/buildinfo", "gen"}, third: true}, // golang.org/x/mod/modfile
	// fronts beside runtime, which never imports them
	// the tool executors of an agent platform on NATS (natsexec)
	// the intercept.Metadata of NATS headers, shared by the NATS fronts
	{pkg: "internal/natsmeta", third: true},
	{pkg: "natsexec", may: []string{"internal/natsmeta", "runtime", "runtime/intercept"}, third: true},
	{pkg: "mcpbridge", may: []string{"internal/jsontree", "internal/inflight", "internal/mcpschema", "runtime", "runtime/declare", "runtime/content", "runtime/document", "runtime/intercept"}, third: true},
	// any Tool as a NATS micro service, and a Caller over NATS
	{pkg: "natsbridge", may: []string{"internal/natsmeta", "runtime", "runtime/document", "runtime/intercept"}, third: true},
	{pkg: "oauth2cred", may: []string{"internal/redirect", "runtime/rest"}, third: true},
	// OpenTelemetry for the interceptors of runtime and its fronts
	{pkg: "otelbridge", may: []string{"internal/jsontree", "runtime", "runtime/intercept"}, third: true},
	// the command line of a tool server (what opentoolgen -cmd's mains call):
	// OpenTool HTTP and MCP, so beside runtime too
	{pkg: "toolcli", may: []string{"internal/jsontree", "internal/buildinfo", "internal/inflight", "runtime", "discover", "mcpbridge", "natsbridge", "natsexec", "runtime/document", "runtime/toolopt", "runtime/intercept"}, third: true},
	// OpenTelemetry export of the command (-with otel): the SDK and its exporters
	{pkg: "toolcli/otelcli", may: []string{"runtime", "otelbridge", "toolcli", "runtime/intercept"}, third: true},
	// what tests and examples share: after everything they exercise, so that
	// no package above may import them
	{pkg: "internal/testtool", may: []string{"runtime", "toolcli", "examples/mocktool/mocktool"}},
	{pkg: "examples/internal/exampleclient", may: []string{"runtime"}},
}

// TestLayout asserts the import graph: no stage imports a later one, runtime
// imports nothing but the standard library (and our stdlib-only jsontree and inflight),
// and the command holds no generation logic of its own; and that loaders
// make no names.
func TestLayout(t *testing.T) {
	t.Run("loaders make no names", loadersMakeNoNames)
	var pkgs []string
	for _, s := range stages {
		pkgs = append(pkgs, module+"/"+s.pkg)
	}
	out, err := exec.Command("go", append([]string{"list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, list, _ := strings.Cut(line, ":")
		imports[strings.TrimPrefix(path, module+"/")] = strings.Fields(list)
	}
	std := func(p string) bool { return p == "C" || !strings.Contains(strings.SplitN(p, "/", 2)[0], ".") }
	for _, s := range stages {
		got, ok := imports[s.pkg]
		if !ok {
			t.Errorf("%s: not listed by go list", s.pkg)
			continue
		}
		allowed := map[string]bool{}
		for _, m := range s.may {
			allowed[m] = true
		}
		for _, imp := range got {
			switch {
			case strings.HasPrefix(imp, module+"/"):
				if rel := strings.TrimPrefix(imp, module+"/"); !allowed[rel] {
					t.Errorf("%s imports %s, which its stage may not (may: %v)", s.pkg, rel, s.may)
				}
			case std(imp):
			case s.jennifer && imp == "github.com/dave/jennifer/jen":
			case !s.third:
				t.Errorf("%s imports %s, outside the standard library", s.pkg, imp)
			}
		}
	}
}

// namingAPI is what of gen/model makes Go names: the loaders (gen/load/...)
// use none of it. They record document names and places (model.Naming,
// model.Place) or hand a document to model.FromOpenTool or model.FromOpenDyn,
// and the model makes every name; Reserved* (the names generated files
// declare) are the model's business too.
var namingAPI = map[string]bool{
	"GoName": true, "GoNameOr": true, "LocalName": true, "Camel": true, "Words": true,
	"NestedName": true, "NestedOrigin": true, "NewScope": true, "Scope": true,
	"NameMethods": true, "MarkDecoders": true,
}

// modelNames are the fields of the model that hold identifiers the model
// makes (Go and C); loaders neither set nor read them.
var modelNames = map[string]bool{
	"GoName": true, "ToolMethod": true, "SeqName": true, "Decoder": true,
	"PatternVar": true, "Typedef": true, "Trampoline": true,
}

// loadersMakeNoNames asserts that no file of gen/load/... uses the model's
// naming API or touches the names the model makes, so that names stay
// decided in one place (see gen's package doc).
func loadersMakeNoNames(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir("load", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		model := "" // the file's name of gen/model
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == module+"/gen/model" {
				model = "model"
				if imp.Name != nil {
					model = imp.Name.Name
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			name := sel.Sel.Name
			if x, ok := sel.X.(*ast.Ident); ok && model != "" && x.Name == model {
				if namingAPI[name] || strings.HasPrefix(name, "Reserved") {
					t.Errorf("%s: %s.%s: loaders make no Go names; the model does", fset.Position(sel.Pos()), model, name)
				}
				return true
			}
			if modelNames[name] {
				t.Errorf("%s: .%s: a name the model makes; loaders leave it alone", fset.Position(sel.Pos()), name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 5 {
		t.Fatalf("read %d files under gen/load, want the loaders'", files)
	}
}
