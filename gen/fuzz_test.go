package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/gen/source"
)

// FuzzGenerate checks that Generate never panics, that the Go files it
// generates parse, and that it generates the same bytes every time. Seeds: the
// golden and negative documents (MCP tools/list results among them), the
// YAML twin and mcpSeed.
//
//	go test ./gen -run '^$' -fuzz FuzzGenerate -fuzztime 60s
func FuzzGenerate(f *testing.F) {
	var seeds []string
	for _, pat := range []string{"../testdata/golden/*/*", "../testdata/negative/*"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, m...)
	}
	for _, path := range seeds {
		ext := filepath.Ext(path)
		if ext != ".json" && ext != ".yaml" && ext != ".yml" || filepath.Base(path) == "opentool.gen.json" {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, ext != ".json")
	}
	f.Add([]byte(twinYAML), true)
	f.Add([]byte(twinJSON), false)
	f.Add([]byte(mcpSeed), false)

	f.Fuzz(func(t *testing.T, data []byte, isYAML bool) {
		name := "fuzz.json"
		if isYAML {
			name = "fuzz.yaml"
		}
		res, err := Generate(name, data, Options{Package: "fuzz"})
		if err != nil {
			var ge *source.Error
			if !errors.As(err, &ge) {
				t.Fatalf("Generate: %T %v; want an *Error", err, err)
			}
			if len(ge.Diagnostics) == 0 {
				t.Fatal("an *Error without diagnostics")
			}
			for _, d := range ge.Diagnostics {
				if d.File != name || d.Message == "" || strings.Contains(d.Message, "\n") {
					t.Errorf("diagnostic %q: want file %s, a one-line message", d.String(), name)
				}
			}
			return
		}
		checkDeclarations(t, res.Files) // parses every Go file
		again, err := Generate(name, data, Options{Package: "fuzz"})
		if err != nil {
			t.Fatalf("second run: %v", err)
		}
		if len(again.Files) != len(res.Files) || !bytes.Equal(again.Document, res.Document) {
			t.Fatal("two runs generated different files")
		}
		for i := range res.Files {
			if res.Files[i].Name != again.Files[i].Name || !bytes.Equal(res.Files[i].Content, again.Files[i].Content) {
				t.Fatalf("two runs generated different bytes for %s", res.Files[i].Name)
			}
		}
	})
}

// mcpSeed is a tools/list result saved as a JSON-RPC response, with local
// references (one into another definition, one to the schema itself) for the
// fuzzer to break.
const mcpSeed = `{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}},
"tools":[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"a":{"$ref":"#/$defs/A"},
"b":{"type":["string","null"],"enum":["x",null]},"c":{"anyOf":[{"type":"integer","minimum":1},{"type":"null"}]}},
"required":["a"],"$defs":{"A":{"type":"object","properties":{"next":{"$ref":"#/$defs/A"},"all":{"$ref":"#"}}}}},
"outputSchema":{"type":"object","properties":{"r":{"type":"array","items":{"const":1}}}}}]}}`

// FuzzGenerateNames puts fuzzed names, enum values and descriptions into a
// valid document: whatever they are, the generated Go files must parse and
// declare no identifier twice (what would make them not compile: two
// fields, methods, types or constants of the same name).
//
//	go test ./gen -run '^$' -fuzz FuzzGenerateNames -fuzztime 60s
func FuzzGenerateNames(f *testing.F) {
	f.Add("get_user", "userId", "user_id", "User", "a-b", "a_b", "*/ `x` \"y\"\n//go:generate z")
	f.Add("Client", "Client", "MarshalJSON", "ClientArgs", "", "Value1", "}\nfunc init() {}")
	f.Add("2fa", "名前", "X名前", "Service", "1st", "1", "\u2028")
	f.Add("user_id", "type", "func", "NewTool", "Empty", "empty", "*/")
	f.Add("f", "", "_", "Document", "Get", "get", "")
	f.Add("UserArgs", "Args", "args", "UserArgs", "UserArgsArgs", "Result", "ctx")
	f.Fuzz(func(t *testing.T, fn, p1, p2, schema, e1, e2, desc string) {
		q := func(s string) string {
			b, _ := json.Marshal(s)
			return string(b)
		}
		fnName := functionName(fn)
		doc := `{"opentool": "1.0.0", "info": {"title": ` + q(desc) + `, "version": "1", "description": ` + q(desc) + `},
		"functions": [
		  {"name": ` + q(fnName) + `, "description": ` + q(desc) + `, "parameters": [
		    {"name": ` + q(p1) + `, "description": ` + q(desc) + `, "schema": {"type": "string", "enum": [` + q(e1) + `, ` + q(e2) + `]}, "required": true},
		    {"name": ` + q(p2) + `, "schema": {"$ref": ` + q("#/schemas/"+schema) + `}, "required": false}],
		   "return": {"name": ` + q(p1) + `, "schema": {"type": "object", "properties": {` + q(p1) + `: {"type": "string"}, ` + q(p2) + `: {"$ref": ` + q("#/schemas/"+schema) + `}}}}},
		  {"name": ` + q(fnName+"_x") + `, "description": "d", "parameters": [], "return": {"name": "r", "schema": {"type": "array", "items": {"$ref": ` + q("#/schemas/"+schema) + `}}}}
		],
		"schemas": {` + q(schema) + `: {"type": "object", "description": ` + q(desc) + `, "properties": {` + q(e1) + `: {"type": "integer"}, ` + q(e2) + `: {"$ref": ` + q("#/schemas/"+schema) + `}}}}}`
		res, err := Generate("names.json", []byte(doc), Options{Package: "names"})
		if err != nil {
			var ge *source.Error
			if !errors.As(err, &ge) {
				t.Fatalf("Generate: %T %v", err, err)
			}
			return // p1 == p2, e1 == e2, schema "": rejected, fine
		}
		checkDeclarations(t, res.Files)
	})
}

// functionName makes s a valid function name: [A-Za-z0-9_-]{1,64}.
func functionName(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			b.WriteByte(c)
		}
	}
	name := b.String()
	if len(name) > 62 {
		name = name[:62]
	}
	if name == "" {
		name = "f"
	}
	return name
}

// checkDeclarations parses the generated Go files and fails on an identifier
// declared twice in a scope the generator names: the package, a struct's
// fields and methods, an interface's methods.
func checkDeclarations(t *testing.T, files []File) {
	t.Helper()
	fset := token.NewFileSet()
	pkgScope := map[string]string{}
	members := map[string]map[string]string{} // type -> field and method names
	member := func(typ, name, what string) {
		if members[typ] == nil {
			members[typ] = map[string]string{}
		}
		if prev, dup := members[typ][name]; dup {
			t.Errorf("%s.%s declared twice: %s and %s", typ, name, prev, what)
		}
		members[typ][name] = what
	}
	declare := func(name, where string) {
		if name == "_" || name == "init" {
			return
		}
		if prev, dup := pkgScope[name]; dup {
			t.Errorf("%s declared twice: %s and %s", name, prev, where)
		}
		pkgScope[name] = where
	}
	for _, file := range files {
		if !strings.HasSuffix(file.Name, ".go") {
			continue
		}
		af, err := parser.ParseFile(fset, file.Name, file.Content, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			t.Fatalf("%s does not parse: %v\n%s", file.Name, err, file.Content)
		}
		if !buildsOnLinux(af) {
			continue // its declarations are another system's
		}
		for _, decl := range af.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					declare(d.Name.Name, file.Name+": func")
					continue
				}
				recv := d.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				if id, ok := recv.(*ast.Ident); ok {
					member(id.Name, d.Name.Name, "method")
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						declare(s.Name.Name, file.Name+": type")
						switch ty := s.Type.(type) {
						case *ast.StructType:
							for _, fld := range ty.Fields.List {
								for _, n := range fld.Names {
									member(s.Name.Name, n.Name, "field")
								}
							}
						case *ast.InterfaceType:
							for _, m := range ty.Methods.List {
								for _, n := range m.Names {
									member(s.Name.Name, n.Name, "interface method")
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							declare(n.Name, file.Name+": "+d.Tok.String())
						}
					}
				}
			}
		}
	}
}

// buildsOnLinux reports whether the //go:build line of f, if any, holds on
// linux/amd64 with cgo.
func buildsOnLinux(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			if expr, err := constraint.Parse(c.Text); err == nil {
				return expr.Eval(func(tag string) bool {
					switch tag {
					case "linux", "unix", "amd64", "cgo", "gc":
						return true
					}
					return strings.HasPrefix(tag, "go1.")
				})
			}
		}
	}
	return true
}
