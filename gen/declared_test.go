package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// TestDeclaredNames checks that every package-level identifier the goldens
// declare is one the model made (types and their constants, decoders,
// patterns, client options) or one of the model's table of what generated
// files declare (gen/model/declared.go, with the unexported helpers listed
// in model.ReservedNames), and so is every method of Tool: no emitter
// invents an identifier the model does not know, which could collide with a
// name made from a document.
func TestDeclaredNames(t *testing.T) {
	for _, c := range goldenCases(t) {
		t.Run(c.name, func(t *testing.T) {
			data, err := os.ReadFile(c.input)
			if err != nil {
				t.Fatal(err)
			}
			_, pkg, _, err := load(filepath.Base(c.input), data, Options{Package: goldenPackage(c.name), Overlays: goldenOverlays(t, c)})
			if err != nil {
				t.Fatal(err)
			}
			known := map[string]bool{"_": true}
			for _, n := range model.ReservedNames(pkg.Kind) {
				known[n] = true
			}
			switch pkg.Kind {
			case "openapi":
				for _, s := range pkg.API.Security {
					known[s.Option] = true
					if s.FlowOption != "" {
						known[s.FlowOption] = true
					}
				}
				for _, fn := range pkg.Functions {
					if h := fn.HTTP.Headers; h != nil {
						known[h.Name] = true
					}
				}
				for _, v := range pkg.API.Variables {
					known[v.Option] = true
					if v.Type != nil {
						known[v.Type.Name] = true
						for _, c := range v.Type.Values {
							known[c.Name] = true
						}
					}
				}
				if len(pkg.API.Servers) > 0 {
					known[pkg.API.ServerType] = true
				}
				for _, sv := range pkg.API.Servers {
					known[sv.Const] = true
				}
			}
			known[pkg.Service()] = true
			for _, ty := range pkg.Types {
				known[ty.Name] = true
				if ty.Decoder != "" {
					known[ty.Decoder] = true
				}
				if ty.BodySender != "" {
					known[ty.BodySender] = true
				}
				for _, v := range ty.Values {
					known[v.Name] = true
				}
			}
			for _, p := range pkg.Patterns {
				known[p.Name] = true
			}
			toolMethods := map[string]bool{}
			for _, n := range model.ToolMethods() {
				toolMethods[n] = true
			}
			for _, fn := range pkg.Functions {
				toolMethods[fn.ToolMethod] = true
				if fn.HTTP != nil && fn.HTTP.Paging != nil {
					toolMethods[fn.HTTP.Paging.Gather] = true // the Tool's method of a list function
				}
			}
			files, _ := filepath.Glob(filepath.Join(c.dir, "*.go"))
			// A tool split over files (gen.Options.Split) declares, per file
			// after the first, the Service part serviceN and the methods
			// callN and headerParametersN: lower case and a number, which no
			// name made from a document is (those are exported, or a fixed
			// prefix and an exported name, or patternN).
			for i := 2; i <= len(files); i++ {
				known["service"+strconv.Itoa(i)] = true
				toolMethods["call"+strconv.Itoa(i)] = true
				toolMethods["headerParameters"+strconv.Itoa(i)] = true
			}
			fset := token.NewFileSet()
			for _, file := range files {
				f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
				if err != nil {
					t.Fatal(err)
				}
				var unknown []string
				for _, d := range f.Decls {
					switch d := d.(type) {
					case *ast.FuncDecl:
						if d.Recv == nil && !known[d.Name.Name] {
							unknown = append(unknown, d.Name.Name)
						}
						if isToolMethod(d) && !toolMethods[d.Name.Name] {
							unknown = append(unknown, "(*Tool)."+d.Name.Name)
						}
					case *ast.GenDecl:
						for _, s := range d.Specs {
							switch s := s.(type) {
							case *ast.TypeSpec:
								if !known[s.Name.Name] {
									unknown = append(unknown, s.Name.Name)
								}
							case *ast.ValueSpec:
								for _, n := range s.Names {
									if !known[n.Name] {
										unknown = append(unknown, n.Name)
									}
								}
							}
						}
					}
				}
				if len(unknown) > 0 {
					slices.Sort(unknown)
					t.Errorf("%s declares names neither the model nor its table know: %v", filepath.Base(file), slices.Compact(unknown))
				}
			}
		})
	}
}

// isToolMethod reports whether d is a method of *Tool.
func isToolMethod(d *ast.FuncDecl) bool {
	if d.Recv == nil || len(d.Recv.List) != 1 {
		return false
	}
	star, ok := d.Recv.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	id, ok := star.X.(*ast.Ident)
	return ok && id.Name == "Tool"
}
