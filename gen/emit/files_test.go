package emit

import (
	"go/types"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// TestNoInputKind: no emitter reads what kind of document the model came
// from (model.Package.Kind); the files of a package follow from the facts of
// its model (packageFiles).
func TestNoInputKind(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedSyntax}, ".")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 || len(pkgs) != 1 {
		t.Fatal("loading the emit package failed")
	}
	p := pkgs[0]
	for id, obj := range p.TypesInfo.Uses {
		v, ok := obj.(*types.Var)
		if !ok || !v.IsField() || v.Name() != "Kind" {
			continue
		}
		// The struct the field belongs to: model.Package's Kind is the one
		// no emitter may read.
		if v.Pkg() != nil && v.Pkg().Path() == modelPath && isPackageField(v) {
			t.Errorf("%s: an emitter reads model.Package.Kind", p.Fset.Position(id.Pos()))
		}
	}
}

const modelPath = "github.com/opentoolgen/opentoolgen/gen/model"

// isPackageField reports whether v is a field of model.Package.
func isPackageField(v *types.Var) bool {
	obj := v.Pkg().Scope().Lookup("Package")
	if obj == nil {
		return false
	}
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if st.Field(i) == v {
			return true
		}
	}
	return false
}

// TestPackageFiles: the files of a package follow from the facts of its model.
func TestPackageFiles(t *testing.T) {
	base := []string{"document.gen.go", DocumentFile, "types.gen.go", "tool.gen.go", "client.gen.go"}
	for _, c := range []struct {
		name string
		p    *model.Package
		want []string
	}{
		{"user's code", &model.Package{Name: "p"}, base},
		{"REST API", &model.Package{Name: "p", API: &model.API{}}, base},
		{"C library", &model.Package{Name: "p", Dyn: &model.DynLibrary{Header: "opendyn.gen.h"}}, append(base[:len(base):len(base)], "library.gen.go", "opendyn.gen.h")},
		{"with a command", &model.Package{Name: "p", Command: &model.Command{}}, append(base[:len(base):len(base)], CommandFile)},
	} {
		outs, err := Package(c.p, Split{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []string
		for _, o := range outs {
			got = append(got, o.Name)
			if o.Command != (o.Name == CommandFile) {
				t.Errorf("%s: %s: Command is %v", c.name, o.Name, o.Command)
			}
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: files %v, want %v", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: files %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
}
