package docscheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The project's size limits (issue 31): no hand-written non-test Go file
// over maxFileLines lines, no function (a declaration or a literal) over
// maxFuncLines lines.
const (
	maxFileLines = 1000
	maxFuncLines = 120
)

// handWritten returns the hand-written non-test Go files of the repository
// (the main module and the nested ones, whose code is the project's too),
// relative to root: testdata, hidden directories and node_modules left out,
// and files generated (headed "// Code generated … DO NOT EDIT.", as
// ast.IsGenerated reads it) too, parsed with their comments.
func handWritten(t *testing.T) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if !ast.IsGenerated(f) {
			rel, _ := filepath.Rel(root, path)
			files[filepath.ToSlash(rel)] = f
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no hand-written Go files found")
	}
	return fset, files
}

// TestSizeLimits: every hand-written non-test Go file has at most
// maxFileLines lines and every function in it (declared, or a literal) at
// most maxFuncLines, from its func keyword to its closing brace. Each
// failure names the file and line; split the function into named helpers,
// or the file by what its parts do.
func TestSizeLimits(t *testing.T) {
	fset, files := handWritten(t)
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		f := files[rel]
		if n := fset.File(f.Pos()).LineCount(); n > maxFileLines {
			t.Errorf("%s: %d lines, more than %d: split the file", rel, n, maxFileLines)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var what string
			switch fn := n.(type) {
			case *ast.FuncDecl:
				if fn.Body == nil {
					return false
				}
				what = "func " + fn.Name.Name
				if fn.Recv != nil && len(fn.Recv.List) == 1 {
					what = "method " + recvName(fn.Recv.List[0].Type) + "." + fn.Name.Name
				}
			case *ast.FuncLit:
				what = "a func literal"
			default:
				return true
			}
			start, end := fset.Position(n.Pos()), fset.Position(n.End())
			if lines := end.Line - start.Line + 1; lines > maxFuncLines {
				t.Errorf("%s:%d: %s has %d lines, more than %d: split it", rel, start.Line, what, lines, maxFuncLines)
			}
			return true
		})
	}
}

// recvName is the name of a method's receiver type: T of T, *T, T[P].
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}
