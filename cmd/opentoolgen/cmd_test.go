package main

import (
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

// TestCmdImportPath checks that -cmd writes the main into its directory,
// importing the generated package by the path the enclosing go.mod gives it,
// and that -check covers the main.
func TestCmdImportPath(t *testing.T) {
	mod := t.TempDir()
	put(t, filepath.Join(mod, "go.mod"), "module example.com/agent // the agent\n\ngo 1.26\n")
	put(t, filepath.Join(mod, "tools", "petstore.yaml"), string(readRoot(t, "testdata/golden/openapi-petstore/petstore.yaml")))
	dir := filepath.Join(mod, "tools")
	opentoolgen(t, dir, "-o", "petstore", "-cmd", "../cmd/petstore", "petstore.yaml").want(t, 0)
	main := filepath.Join(mod, "cmd", "petstore", "main.gen.go")
	src, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"package main",
		`petstore "example.com/agent/tools/petstore"`,
		`Name:     "petstore",`,
		`os.Getenv("PETSTORE_API_KEY")`,
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("main.gen.go lacks %q:\n%s", want, src)
		}
	}
	opentoolgen(t, dir, "-check", "-o", "petstore", "-cmd", "../cmd/petstore", "petstore.yaml").want(t, 0)
	put(t, main, string(src)+"\n// edited\n")
	r := opentoolgen(t, dir, "-check", "-o", "petstore", "-cmd", "../cmd/petstore", "petstore.yaml")
	r.want(t, 1)
	if !strings.Contains(r.stderr, filepath.Join("..", "cmd", "petstore", "main.gen.go")) {
		t.Errorf("-check does not name the stale main:\n%s", r.stderr)
	}
}

// TestCmdErrors checks the -cmd directories that cannot work: each a clear
// error, and nothing written.
func TestCmdErrors(t *testing.T) {
	doc := string(readRoot(t, "testdata/golden/weather/weather.json"))
	cases := []struct {
		name  string
		setup func(dir string)
		args  []string
		want  string
	}{
		{"no module", func(string) {}, []string{"-o", "w", "-cmd", "cmd/w"}, "no go.mod in w or above it"},
		{"two modules", func(dir string) {
			put(t, filepath.Join(dir, "go.mod"), "module example.com/a\n")
			put(t, filepath.Join(dir, "cmd", "go.mod"), "module example.com/b\n")
		}, []string{"-o", "w", "-cmd", "cmd/w"}, "they must be in one module"},
		{"same directory", func(dir string) {
			put(t, filepath.Join(dir, "go.mod"), "module example.com/a\n")
		}, []string{"-o", "w", "-cmd", "w"}, "the main needs a directory of its own"},
		{"no module directive", func(dir string) {
			put(t, filepath.Join(dir, "go.mod"), "go 1.26\n")
		}, []string{"-o", "w", "-cmd", "cmd/w"}, "go.mod: no module directive"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.setup(dir)
			put(t, filepath.Join(dir, "weather.json"), doc)
			before := snapshot(t, dir)
			r := opentoolgen(t, dir, append(c.args, "weather.json")...)
			if r.code == 0 {
				t.Fatalf("exit status 0, want an error\n%s", r.stderr)
			}
			if !strings.Contains(r.stderr, c.want) {
				t.Errorf("stderr lacks %q:\n%s", c.want, r.stderr)
			}
			unchanged(t, dir, before)
		})
	}
}

// TestCmdInModule follows the README: in a throw-away module that uses this
// one, opentoolgen -o petstore -cmd petstore/cmd/petstore petstore.yaml, then
// go build of the command, which answers -h with the help of its options
// and environment variables. As TestUseInModule, nothing is fetched.
func TestCmdInModule(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the throw-away module")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = mod
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("mod", "init", "example.com/agent")
	run("mod", "edit", "-require=github.com/opentoolgen/opentoolgen@v0.0.0", "-replace=github.com/opentoolgen/opentoolgen="+root)
	copyFile(t, filepath.Join(root, "go.sum"), filepath.Join(mod, "go.sum"))
	copyFile(t, filepath.Join(root, "testdata", "golden", "openapi-petstore", "petstore.yaml"), filepath.Join(mod, "petstore.yaml"))
	opentoolgen(t, mod, "-o", "petstore", "-cmd", "petstore/cmd/petstore", "petstore.yaml").want(t, 0)
	exe := filepath.Join(mod, "bin", "petstore")
	run("build", "-o", exe, "./petstore/cmd/petstore")
	out, err := exec.Command(exe, "-h").Output()
	if err != nil {
		t.Fatalf("petstore -h: %v", err)
	}
	for _, want := range []string{
		"petstore 1.2.0 — OpenTool and MCP server for Petstore",
		"Usage: petstore <command> [options]",
		"--base-url",
		"default: the document's servers, https://eu.petstore.example.com/v1", // its server has a variable
		"PETSTORE_API_KEY",
		"PETSTORE_BEARER_AUTH",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("petstore -h lacks %q:\n%s", want, out)
		}
	}
	// -v: the version served, then the document and the build, labelled,
	// the versions as the go command stamped them.
	out, err = exec.Command(exe, "-v").Output()
	if err != nil {
		t.Fatalf("petstore -v: %v", err)
	}
	want := "petstore 1.2.0\n" +
		"  document:    Petstore, version 1.2.0\n" +
		"  module:      example.com/agent (devel)\n" +
		"  opentoolgen: v0.0.0 => " + root + "\n" +
		"  go:          " + strings.TrimSpace(goVersion(t, goCmd)) + "\n"
	if string(out) != want {
		t.Errorf("petstore -v:\n%s\nwant\n%s", out, want)
	}
}

// goVersion is the version of Go the go command builds with (go1.26.8).
func goVersion(t *testing.T, goCmd string) string {
	t.Helper()
	out, err := exec.Command(goCmd, "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// readRoot reads a file of the module by its path from the module's root.
func readRoot(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestNextCommand checks the command printed when the go.mod of -o's module
// lacks what the generated code needs to build: nothing when it has it all,
// a go get of toolcli at the required version for a -cmd main, and the
// requirement of this module itself (with a replace directive to the clone
// the command was built in) when go.mod lacks it; a cd first when run from
// outside the module.
func TestNextCommand(t *testing.T) {
	petstore := string(readRoot(t, "testdata/golden/openapi-petstore/petstore.yaml"))
	weather := string(readRoot(t, "testdata/golden/weather/weather.json"))
	clone, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	const head = "module example.com/agent\n\ngo 1.26\n\n"
	all := "require (\n\tgithub.com/opentoolgen/opentoolgen v0.3.0 // the generator\n"
	for _, m := range packageModules["toolcli"] {
		v := "v1.0.0" // a version go.mod accepts for the path's major version
		if i := strings.LastIndex(m, "/v"); i > 0 && strings.Trim(m[i+2:], "0123456789") == "" {
			v = m[i+1:] + ".0.0"
		}
		all += "\t" + m + " " + v + " // indirect\n"
	}
	all += ")\n"
	for _, c := range []struct {
		name, goMod, doc string
		args             []string
		want             string // "" for nothing printed
	}{
		{"complete", head + all, petstore, []string{"-o", "petstore", "-cmd", "cmd/petstore"}, ""},
		{"with nats", head + all, petstore, []string{"-o", "petstore", "-cmd", "cmd/petstore", "-with", "nats"},
			"go get github.com/opentoolgen/opentoolgen/toolcli/natscli@v0.3.0"},
		{"no main", head + "require github.com/opentoolgen/opentoolgen v0.3.0\n", weather, []string{"-o", "weather"}, ""},
		{"main without the MCP SDK", head + "require github.com/opentoolgen/opentoolgen v0.3.0\n", weather, []string{"-o", "weather", "-cmd", "cmd/weather"},
			"go get github.com/opentoolgen/opentoolgen/toolcli@v0.3.0"},
		{"OAuth client credentials", head + "require (\n\t\"github.com/opentoolgen/opentoolgen\" v0.3.0\n)\n", petstore, []string{"-o", "petstore"},
			"go get github.com/opentoolgen/opentoolgen/oauth2cred@v0.3.0"},
		{"not required", head, weather, []string{"-o", "weather", "-cmd", "cmd/weather"},
			"go mod edit -require=github.com/opentoolgen/opentoolgen@v0.0.0 -replace=github.com/opentoolgen/opentoolgen=" + clone +
				" && go get github.com/opentoolgen/opentoolgen/toolcli@v0.0.0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mod := t.TempDir()
			put(t, filepath.Join(mod, "go.mod"), c.goMod)
			put(t, filepath.Join(mod, "doc"), c.doc)
			r := opentoolgen(t, mod, append(c.args, "doc")...)
			r.want(t, 0)
			if c.want == "" {
				if strings.Contains(r.stderr, "next, run") {
					t.Errorf("printed a next command:\n%s", r.stderr)
				}
				return
			}
			if !strings.Contains(r.stderr, "next, run:\n\t"+c.want+"\n") {
				t.Errorf("stderr lacks the next command %q:\n%s", c.want, r.stderr)
			}
			// From outside the module: the same, after a cd into it.
			outside := append([]string{"-o", filepath.Join(filepath.Base(mod), c.args[1])}, c.args[2:]...)
			if len(outside) > 2 {
				outside[3] = filepath.Join(filepath.Base(mod), outside[3])
			}
			r = opentoolgen(t, filepath.Dir(mod), append(outside, filepath.Join(filepath.Base(mod), "doc"))...)
			r.want(t, 0)
			if want := "\tcd " + filepath.Base(mod) + " && " + c.want + "\n"; !strings.Contains(r.stderr, want) {
				t.Errorf("from outside the module, stderr lacks %q:\n%s", want, r.stderr)
			}
		})
	}
}

// TestPackageModules checks packageModules against go list: for every
// package of this module that generated code imports (the goldens' and -cmd
// mains' imports), the modules it needs besides this one.
func TestPackageModules(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping go list")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	imported := map[string]bool{}
	err = filepath.WalkDir(filepath.Join("..", "..", "testdata", "golden"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		af, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, is := range af.Imports {
			p, _ := strconv.Unquote(is.Path.Value)
			if rest, ok := strings.CutPrefix(p, selfModule+"/"); ok && !strings.HasPrefix(rest, "testdata/") { // a -cmd main's golden package
				imported[rest] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, must := range []string{"runtime", "toolcli", "oauth2cred"} {
		if !imported[must] {
			t.Errorf("no golden imports %s: the walk is wrong", must)
		}
	}
	for p := range imported {
		cmd := exec.Command(goCmd, "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", "./"+p)
		cmd.Dir = filepath.Join("..", "..")
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps ./%s: %v", p, err)
		}
		var got []string
		for _, m := range strings.Fields(string(out)) {
			if m != selfModule && !slices.Contains(got, m) {
				got = append(got, m)
			}
		}
		slices.Sort(got)
		want := slices.Clone(packageModules[p])
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("package %s needs the modules %q, packageModules says %q", p, got, want)
		}
	}
}
