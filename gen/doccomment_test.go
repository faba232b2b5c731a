package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestGoldenDocComments: every doc comment the generator writes on an
// exported declaration (a function, method, type, constant or variable, and
// a method of the Service interface) starts with the identifier it
// documents, as staticcheck's ST1020-ST1022 ask (emit's docComment and
// funcDoc).
func TestGoldenDocComments(t *testing.T) {
	for _, c := range goldenCases(t) {
		for name, content := range generateCase(t, c) {
			if !strings.HasSuffix(name, ".go") {
				continue
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, name, content, parser.ParseComments)
			if err != nil {
				t.Fatalf("%s/%s: %v", c.name, name, err)
			}
			for _, bad := range misnamedDocs(f) {
				t.Errorf("%s/%s:%d: the doc comment of %s starts %q", c.name, name, fset.Position(bad.id.Pos()).Line, bad.id.Name, bad.first)
			}
		}
	}
}

type misnamed struct {
	id    *ast.Ident
	first string
}

// misnamedDocs returns the exported declarations of f whose doc comment does
// not start with their name.
func misnamedDocs(f *ast.File) []misnamed {
	var out []misnamed
	check := func(id *ast.Ident, doc *ast.CommentGroup) {
		if doc == nil || !id.IsExported() {
			return
		}
		text := doc.Text()
		if !strings.HasPrefix(text, id.Name+" ") && !strings.HasPrefix(text, id.Name+"\n") {
			first, _, _ := strings.Cut(text, "\n")
			out = append(out, misnamed{id, first})
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			check(d.Name, d.Doc)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					doc := s.Doc
					if doc == nil && len(d.Specs) == 1 {
						doc = d.Doc
					}
					check(s.Name, doc)
					if it, ok := s.Type.(*ast.InterfaceType); ok {
						for _, m := range it.Methods.List {
							for _, n := range m.Names {
								check(n, m.Doc)
							}
						}
					}
				case *ast.ValueSpec:
					doc := s.Doc
					if doc == nil && len(d.Specs) == 1 {
						doc = d.Doc
					}
					for _, n := range s.Names {
						check(n, doc)
					}
				}
			}
		}
	}
	return out
}
