package dynlib_test

import (
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestPlatforms type-checks the package for the builds this machine does not
// make: Windows (LoadLibraryW through syscall; the stdcall names of
// windows/386 are a run-time check) and builds without cgo or dlopen, whose
// Open fails. The imports are type-checked from source for windows/amd64,
// once for all of them (compiling them for another platform would cost more;
// the other builds use nothing of the standard library that Windows lacks).
func TestPlatforms(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the type-checks for other platforms")
	}
	saved := build.Default
	defer func() { build.Default = saved }()
	build.Default.GOOS, build.Default.GOARCH, build.Default.CgoEnabled = "windows", "amd64", false
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil).(types.ImporterFrom)
	for _, p := range []struct {
		goos, goarch string
		cgo          bool
		want         string // the platform's file
	}{
		{"windows", "amd64", true, "dynlib_windows.go"},
		{"linux", "amd64", false, "dynlib_other.go"},
		{"js", "wasm", false, "dynlib_other.go"},
	} {
		ctx := saved
		ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled = p.goos, p.goarch, p.cgo
		entries, err := os.ReadDir(".")
		if err != nil {
			t.Fatal(err)
		}
		var files []*ast.File
		var names []string
		for _, e := range entries {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			if ok, err := ctx.MatchFile(".", name); err != nil || !ok {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
			names = append(names, name)
		}
		if want := []string{"dynlib.go", p.want, "errors.go"}; !slices.Equal(names, want) {
			t.Errorf("%s/%s (cgo %v) compiles %v, want %v", p.goos, p.goarch, p.cgo, names, want)
			continue
		}
		conf := types.Config{Importer: imp}
		if _, err := conf.Check("github.com/opentoolgen/opentoolgen/runtime/dynlib", fset, files, nil); err != nil {
			t.Errorf("type-checking %v for %s/%s: %v", names, p.goos, p.goarch, err)
		}
	}
}
