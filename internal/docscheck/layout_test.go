package docscheck

import (
	"bufio"
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is this module's path.
const module = "github.com/opentoolgen/opentoolgen"

// root is the repository's root, from this package's directory.
const root = "../.."

// section is what docs/layout.md says under one "## " heading: the first
// field of each line of its fenced blocks (a path ending in "/"), and the
// first cell of each row of its table.
type section struct {
	paths []string // fenced-block entries, without the trailing "/"
	cells []string // first table cells
}

// readLayout splits docs/layout.md into its sections by heading.
func readLayout(t *testing.T) map[string]*section {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "docs", "layout.md"))
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]*section{}
	cur := &section{}
	fenced := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```"):
			fenced = !fenced
		case !fenced && strings.HasPrefix(line, "## "):
			cur = &section{}
			sections[strings.TrimPrefix(line, "## ")] = cur
		case fenced:
			f := strings.Fields(line)
			if len(f) == 0 || !strings.HasSuffix(f[0], "/") || strings.HasPrefix(line, " ") {
				continue // a continued description
			}
			cur.paths = append(cur.paths, strings.TrimSuffix(f[0], "/"))
		case strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "|---"):
			cell, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
			cur.cells = append(cur.cells, cell)
		}
	}
	for _, name := range []string{"Packages", "Nested modules", "What generated code imports", "Other directories"} {
		if sections[name] == nil {
			t.Fatalf("docs/layout.md has no section %q", name)
		}
	}
	return sections
}

// listPackages returns the directories, relative to the repository's root, of
// the packages of `go list ./...` run in dir (a module's root).
func listPackages(t *testing.T, dir string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-f", "{{.Dir}}", "./...")
	cmd.Dir = filepath.Join(root, dir)
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./... in %s: %v\n%s", dir, err, stderr.Bytes())
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, d := range strings.Fields(string(out)) {
		rel, err := filepath.Rel(abs, d)
		if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, filepath.ToSlash(rel))
	}
	return pkgs
}

// nestedModules returns the directories of the go.mod files below the root,
// testdata left out.
func nestedModules(t *testing.T) []string {
	t.Helper()
	var mods []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "go.mod" && filepath.Dir(path) != root {
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			mods = append(mods, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return mods
}

// TestLayoutNamesEveryPackage: every package of `go list ./...`, of the main
// module and of each nested module, is named in docs/layout.md's "Packages"
// or "Nested modules", each once, and every path named there is such a
// package; the paths of "Other directories" exist. A package added, moved or
// deleted fails this test until docs/layout.md says so.
func TestLayoutNamesEveryPackage(t *testing.T) {
	sections := readLayout(t)
	listed := map[string]string{} // package directory → where go list found it
	for _, p := range listPackages(t, ".") {
		listed[p] = "go list ./..."
	}
	for _, mod := range nestedModules(t) {
		for _, p := range listPackages(t, mod) {
			listed[p] = "go list ./... in " + mod
		}
	}
	named := map[string]int{}
	for _, s := range []string{"Packages", "Nested modules"} {
		for _, p := range sections[s].paths {
			named[p]++
			switch {
			case named[p] == 2:
				t.Errorf("docs/layout.md names %s/ twice", p)
			case listed[p] == "":
				t.Errorf("docs/layout.md, %s: %s/ is not a package of go list ./... (of the module or a nested one): remove or correct its line", s, p)
			}
		}
	}
	var missing []string
	for p, where := range listed {
		if named[p] == 0 {
			missing = append(missing, p+" ("+where+")")
		}
	}
	slices.Sort(missing)
	for _, m := range missing {
		t.Errorf("docs/layout.md does not name package %s: add a line for it under \"## Packages\" or \"## Nested modules\"", m)
	}
	for _, p := range sections["Other directories"].paths {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("docs/layout.md, Other directories: %s/: %v", p, err)
		}
	}
}

// TestLayoutGeneratedImports: the table "What generated code imports" of
// docs/layout.md names exactly the packages outside the standard library
// that the golden packages (testdata/golden/CASE) and their mains
// (testdata/golden/CASE/cmd/NAME) import, this module's by their path in it.
func TestLayoutGeneratedImports(t *testing.T) {
	sections := readLayout(t)
	documented := map[string]bool{}
	for _, cell := range sections["What generated code imports"].cells[1:] { // [0] is the header
		for _, part := range strings.Split(cell, ",") {
			p := strings.Trim(strings.TrimSpace(part), "`")
			if p == "" {
				t.Errorf("docs/layout.md, What generated code imports: an empty name in %q", cell)
			}
			documented[p] = true
		}
	}
	files, err := filepath.Glob(filepath.Join(root, "testdata", "golden", "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	mains, err := filepath.Glob(filepath.Join(root, "testdata", "golden", "*", "cmd", "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 || len(mains) == 0 {
		t.Fatalf("no golden files: %d package files, %d mains", len(files), len(mains))
	}
	imported := map[string]string{} // import → a file that imports it
	fset := token.NewFileSet()
	for _, file := range append(files, mains...) {
		f, err := parser.ParseFile(fset, file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.Contains(strings.SplitN(p, "/", 2)[0], ".") || strings.HasPrefix(p, module+"/testdata/") {
				continue // the standard library, or the golden package a main serves
			}
			p = strings.TrimPrefix(p, module+"/")
			if imported[p] == "" {
				imported[p] = file
			}
		}
	}
	for p, file := range imported {
		if !documented[p] {
			t.Errorf("generated code imports %s (%s), which docs/layout.md's \"What generated code imports\" does not name", p, file)
		}
	}
	for p := range documented {
		if imported[p] == "" {
			t.Errorf("docs/layout.md's \"What generated code imports\" names %s, which no golden package imports", p)
		}
	}
}
