package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"sort"
	"testing"

	"github.com/opentoolgen/opentoolgen/gen/emit"
)

// declared returns the top-level names the Go files declare, sorted.
func declared(t *testing.T, files []File) []string {
	t.Helper()
	var names []string
	fset := token.NewFileSet()
	for _, f := range files {
		if len(f.Name) < 3 || f.Name[len(f.Name)-3:] != ".go" {
			continue
		}
		af, err := parser.ParseFile(fset, f.Name, f.Content, 0)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				name := d.Name.Name
				if d.Recv != nil {
					name = recvName(d.Recv.List[0].Type) + "." + name
				}
				names = append(names, name)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names = append(names, s.Name.Name)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.Name != "_" {
								names = append(names, n.Name)
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(names)
	return names
}

func recvName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return "?"
}

// TestTypesSplit checks that a document with more types than a file holds is
// split over types.gen.go, types2.gen.go, … declaring exactly what one file
// would, each name once.
func TestTypesSplit(t *testing.T) {
	data := synthDocument(30)
	whole, err := Generate("synth.json", data, Options{Package: "synth"})
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { emit.TypesPerFile = n }(emit.TypesPerFile)
	emit.TypesPerFile = 16
	split, err := Generate("synth.json", data, Options{Package: "synth"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range split.Files {
		names = append(names, f.Name)
	}
	for _, want := range []string{"types.gen.go", "types2.gen.go", "types3.gen.go"} {
		if !slices.Contains(names, want) {
			t.Errorf("files %v: missing %s", names, want)
		}
	}
	a, b := declared(t, whole.Files), declared(t, split.Files)
	if !slices.Equal(a, b) {
		t.Errorf("split files declare %d names, one file %d", len(b), len(a))
	}
	if c := slices.Compact(slices.Clone(b)); len(c) != len(b) {
		t.Errorf("split files declare a name twice")
	}
}
