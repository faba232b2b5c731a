package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/gen"
	"github.com/opentoolgen/opentoolgen/internal/buildinfo"
)

// The tests run the test binary itself as the command: with this variable set,
// TestMain runs main instead of the tests (as x/tools' cmd/stringer does).
const runAsTool = "OPENTOOLGEN_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runAsTool) != "" {
		main()
		os.Exit(0) // main exits itself; in case it returns
	}
	os.Exit(m.Run())
}

// toolDoc is a small document using every part of the generated package:
// parameters, a nested object, an enum, a named schema and a result.
const toolDoc = `{
  "opentool": "1.0.0",
  "info": {"title": "Test tool", "version": "1.0.0"},
  "functions": [
    {
      "name": "get_user",
      "description": "Get a user",
      "parameters": [
        {"name": "user_id", "schema": {"type": "string"}, "required": true},
        {"name": "fields", "schema": {"type": "array", "items": {"type": "string", "enum": ["name", "email"]}}, "required": false},
        {"name": "filter", "schema": {"type": "object", "properties": {"active": {"type": "boolean"}}}, "required": false}
      ],
      "return": {"name": "user", "schema": {"$ref": "#/schemas/User"}}
    },
    {"name": "ping", "description": "Ping", "parameters": [], "return": null}
  ],
  "schemas": {
    "User": {"type": "object", "properties": {"id": {"type": "string"}, "age": {"type": "integer"}}, "required": ["id"]}
  }
}
`

// toolYAML is toolDoc in YAML.
const toolYAML = `opentool: 1.0.0
info:
  title: Test tool
  version: 1.0.0
functions:
  - name: get_user
    description: Get a user
    parameters:
      - name: user_id
        schema: {type: string}
        required: true
      - name: fields
        schema:
          type: array
          items: {type: string, enum: [name, email]}
        required: false
      - name: filter
        schema:
          type: object
          properties:
            active: {type: boolean}
        required: false
    return:
      name: user
      schema: {$ref: "#/schemas/User"}
  - name: ping
    description: Ping
    parameters: []
    return: null
schemas:
  User:
    type: object
    properties:
      id: {type: string}
      age: {type: integer}
    required: [id]
`

// badDoc has three problems, reported in document order.
const badDoc = `{
  "opentool": "1.0.0",
  "info": {"title": 7, "version": "1.0.0"},
  "functions": [
    {
      "name": "get user",
      "description": "d",
      "parameters": [
        {"name": "x", "schema": {"type": "strin"}, "required": true}
      ],
      "return": {"name": "r", "schema": {"$ref": "#/schemas/Nope"}}
    }
  ]
}
`

var badDocWant = []string{
	`bad.json:3:21: /info/title: got number 7, want a string`,
	`bad.json:6:15: /functions/0/name: got "get user", want 1 to 64 characters a-z, A-Z, 0-9, _ or -`,
	`bad.json:9:42: /functions/0/parameters/0/schema/type: got "strin", want one of boolean, integer, number, string, array, object`,
	`bad.json:11:50: /functions/0/return/schema/$ref: got "#/schemas/Nope", want a reference to one of the document's schemas (it has none)`,
}

var generatedFiles = []string{"client.gen.go", "document.gen.go", "opentool.gen.json", "tool.gen.go", "types.gen.go"}

type result struct {
	code           int
	stdout, stderr string
}

// opentoolgen runs the command in dir with args.
func opentoolgen(t *testing.T, dir string, args ...string) result {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), runAsTool+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running opentoolgen %v: %v", args, err)
	}
	return r
}

// want checks the exit status.
func (r result) want(t *testing.T, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
}

func put(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// snapshot returns every file under dir with its content and modification
// time, to tell that a run wrote nothing.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = info.ModTime().Format(time.RFC3339Nano) + " " + string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func unchanged(t *testing.T, dir string, before map[string]string) {
	t.Helper()
	if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
		t.Errorf("the run changed files in %s (-before +after):\n%s", dir, diff)
	}
}

// expected returns what gen.Generate makes of doc, by file name.
func expected(t *testing.T, name, doc, pkg string) map[string][]byte {
	t.Helper()
	res, err := gen.Generate(name, []byte(doc), gen.Options{Package: pkg})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range res.Files {
		out[f.Name] = f.Content
	}
	if !bytes.Equal(out["opentool.gen.json"], res.Document) {
		t.Errorf("Result.Document is not the embedded opentool.gen.json")
	}
	return out
}

// TestVersion checks that -version prints the version of the module the
// command was built from, as the go command stamped it (the test binary runs
// as the command: its build information is the command's), not a number of
// its own.
func TestVersion(t *testing.T) {
	r := opentoolgen(t, t.TempDir(), "-version")
	r.want(t, 0)
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Fatal("no build information")
	}
	in := buildinfo.Of(bi)
	want := "opentoolgen " + in.OpenToolGen + ", built with " + bi.GoVersion + "\n"
	if in.OpenToolGen == "" || r.stdout != want || r.stderr != "" {
		t.Errorf("-version: stdout %q, stderr %q; want %q", r.stdout, r.stderr, want)
	}
	if strings.Contains(r.stdout, "0.1.0") {
		t.Errorf("-version: %q is not the module's version", r.stdout)
	}
}

func TestUsage(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "tool.json"), toolDoc)
	for _, args := range [][]string{
		{},
		{"tool.json", "tool.json"},
		{"-unknown", "tool.json"},
		{"-o"},
		{"-pkg", "1abc", "tool.json"},
		{"-pkg", "func", "tool.json"},
	} {
		before := snapshot(t, dir)
		r := opentoolgen(t, dir, args...)
		if r.code != 2 {
			t.Errorf("opentoolgen %q: exit status %d, want 2\nstderr:\n%s", args, r.code, r.stderr)
		}
		if !strings.Contains(r.stderr, "usage: opentoolgen") {
			t.Errorf("opentoolgen %q: no usage line on stderr:\n%s", args, r.stderr)
		}
		if strings.Contains(r.stderr, "goroutine ") {
			t.Errorf("opentoolgen %q: a stack trace on stderr:\n%s", args, r.stderr)
		}
		unchanged(t, dir, before)
	}
}

func TestMissingInput(t *testing.T) {
	dir := t.TempDir()
	r := opentoolgen(t, dir, "-o", "out", "nope.json")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "nope.json") {
		t.Errorf("stderr does not name the file:\n%s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Errorf("out was created: %v", err)
	}
}

// TestGenerate generates packages from JSON and YAML, checks the files are what
// gen.Generate makes, that only they are written, and that the packages build
// and vet in a module that uses this working tree.
func TestGenerate(t *testing.T) {
	mod := t.TempDir()
	put(t, filepath.Join(mod, "tool.json"), toolDoc)
	put(t, filepath.Join(mod, "tool.yaml"), toolYAML)
	// A file of the user's in an output directory is left alone.
	put(t, filepath.Join(mod, "my-tool", "notes.txt"), "mine")

	for _, c := range []struct {
		args []string
		dir  string // output directory
		pkg  string // package name expected
		doc  string // input
	}{
		{[]string{"-o", "my-tool", "tool.json"}, "my-tool", "mytool", toolDoc},
		{[]string{"-o", "yamltool", "tool.yaml"}, "yamltool", "yamltool", toolYAML},
		{[]string{"-o", "a/b/Deep.Dir", "-pkg", "deep", "tool.json"}, "a/b/Deep.Dir", "deep", toolDoc},
		// Package names that are also imports of the generated code.
		{[]string{"-o", "p1", "-pkg", "opentool", "tool.json"}, "p1", "opentool", toolDoc},
		{[]string{"-o", "p2", "-pkg", "json", "tool.json"}, "p2", "json", toolDoc},
		{[]string{"-o", "p3", "-pkg", "context", "tool.json"}, "p3", "context", toolDoc},
		{[]string{"-o", "p4", "-pkg", "runtime", "tool.json"}, "p4", "runtime", toolDoc},
		// Directory names that are no package names as they are.
		{[]string{"-o", "2fa", "tool.json"}, "2fa", "tool2fa", toolDoc},
		{[]string{"-o", "type", "tool.json"}, "type", "tooltype", toolDoc},
	} {
		r := opentoolgen(t, mod, c.args...)
		r.want(t, 0)
		if r.stdout != "" || r.stderr != "" {
			t.Errorf("opentoolgen %q: output on success:\nstdout:\n%s\nstderr:\n%s", c.args, r.stdout, r.stderr)
		}
		name := c.args[len(c.args)-1]
		want := expected(t, name, c.doc, c.pkg)
		entries, err := os.ReadDir(filepath.Join(mod, c.dir))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
		}
		wantNames := slices.Clone(generatedFiles)
		if c.dir == "my-tool" {
			wantNames = append(wantNames, "notes.txt")
			slices.Sort(wantNames)
		}
		if !slices.Equal(got, wantNames) {
			t.Errorf("opentoolgen %q wrote %v, want %v", c.args, got, wantNames)
		}
		for file, content := range want {
			data, err := os.ReadFile(filepath.Join(mod, c.dir, file))
			if err != nil {
				t.Error(err)
				continue
			}
			if !bytes.Equal(data, content) {
				t.Errorf("%s/%s differs from what gen.Generate makes:\n%s", c.dir, file, cmp.Diff(string(content), string(data)))
			}
			if strings.HasSuffix(file, ".go") && !bytes.Contains(data, []byte("\npackage "+c.pkg+"\n")) {
				t.Errorf("%s/%s: no package clause for %s", c.dir, file, c.pkg)
			}
		}
	}
	if data, _ := os.ReadFile(filepath.Join(mod, "my-tool", "notes.txt")); string(data) != "mine" {
		t.Errorf("notes.txt changed: %q", data)
	}

	// The YAML document generates the same code as its JSON twin, but for the
	// names of the package and of the source.
	for _, f := range generatedFiles {
		j, _ := os.ReadFile(filepath.Join(mod, "my-tool", f))
		y, _ := os.ReadFile(filepath.Join(mod, "yamltool", f))
		j = bytes.ReplaceAll(j, []byte("mytool"), []byte("yamltool"))
		j = bytes.ReplaceAll(j, []byte("tool.json"), []byte("tool.yaml"))
		if !bytes.Equal(j, y) {
			t.Errorf("%s from YAML differs from JSON:\n%s", f, cmp.Diff(string(j), string(y)))
		}
	}

	if testing.Short() {
		return
	}
	buildModule(t, mod)
}

// buildModule builds and vets every package of the module in dir, which uses
// this working tree in place of github.com/opentoolgen/opentoolgen.
func buildModule(t *testing.T, dir string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/generated\n\ngo 1.26\n\n" +
		"require github.com/opentoolgen/opentoolgen v0.0.0\n\n" +
		"replace github.com/opentoolgen/opentoolgen => " + root + "\n"
	put(t, filepath.Join(dir, "go.mod"), gomod)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(dir, "go.sum"), string(sum))
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "tool.json"), toolDoc)
	opentoolgen(t, dir, "-o", "out", "-document", "out/opentool.json", "tool.json").want(t, 0)

	check := func(wantCode int, wantStale ...string) {
		t.Helper()
		before := snapshot(t, dir)
		r := opentoolgen(t, dir, "-check", "-o", "out", "-document", "out/opentool.json", "tool.json")
		r.want(t, wantCode)
		for _, f := range wantStale {
			if !strings.Contains(r.stderr, f) {
				t.Errorf("-check: stderr does not name %s:\n%s", f, r.stderr)
			}
		}
		for _, f := range append(generatedFiles, "opentool.json") {
			if !slices.Contains(wantStale, filepath.Join("out", f)) && strings.Contains(r.stderr, f) {
				t.Errorf("-check: stderr names %s, which is fresh:\n%s", f, r.stderr)
			}
		}
		unchanged(t, dir, before)
	}

	check(0) // fresh

	// The embedded document is a generated file like the Go files.
	embedded := filepath.Join(dir, "out", "opentool.gen.json")
	doc, err := os.ReadFile(embedded)
	if err != nil {
		t.Fatal(err)
	}
	put(t, embedded, strings.Replace(string(doc), "Get a user", "Get one user", 1))
	check(1, filepath.Join("out", "opentool.gen.json"))
	put(t, embedded, string(doc))
	check(0)

	types := filepath.Join(dir, "out", "types.gen.go")
	data, err := os.ReadFile(types)
	if err != nil {
		t.Fatal(err)
	}
	put(t, types, string(data)+"\n// edited\n")
	check(1, filepath.Join("out", "types.gen.go"))

	if err := os.Remove(filepath.Join(dir, "out", "client.gen.go")); err != nil {
		t.Fatal(err)
	}
	check(1, filepath.Join("out", "types.gen.go"), filepath.Join("out", "client.gen.go"))

	// The document changed: every file that holds its text is stale (not
	// document.gen.go, which embeds opentool.gen.json). Regenerating makes
	// them fresh.
	put(t, filepath.Join(dir, "tool.json"), strings.Replace(toolDoc, "Get a user", "Get one user", 1))
	check(1, filepath.Join("out", "types.gen.go"), filepath.Join("out", "client.gen.go"),
		filepath.Join("out", "opentool.gen.json"), filepath.Join("out", "tool.gen.go"), filepath.Join("out", "opentool.json"))
	opentoolgen(t, dir, "-o", "out", "-document", "out/opentool.json", "tool.json").want(t, 0)
	check(0)

	// Without an output directory at all.
	r := opentoolgen(t, dir, "-check", "-o", "none", "tool.json")
	r.want(t, 1)
	if _, err := os.Stat(filepath.Join(dir, "none")); !os.IsNotExist(err) {
		t.Errorf("-check created the output directory: %v", err)
	}
}

func TestDocumentFlag(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "tool.yaml"), toolYAML)
	opentoolgen(t, dir, "-o", "out", "-document", "doc/tool.opentool.json", "tool.yaml").want(t, 0)
	got, err := os.ReadFile(filepath.Join(dir, "doc", "tool.opentool.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := expected(t, "tool.yaml", toolYAML, "out")["opentool.gen.json"]
	if !bytes.Equal(got, want) {
		t.Errorf("-document wrote (-want +got):\n%s", cmp.Diff(string(want), string(got)))
	}
	var v map[string]any
	if err := json.Unmarshal(got, &v); err != nil || v["opentool"] != "1.0.0" {
		t.Errorf("-document: not the OpenTool document: %v\n%s", err, got)
	}
}

// TestBadDocument checks that a document with problems prints all of them,
// each at its place, and writes nothing.
func TestBadDocument(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "bad.json"), badDoc)
	put(t, filepath.Join(dir, "bad.yaml"), "opentool: 1.0.0\ninfo:\n  title: [unclosed\n")
	put(t, filepath.Join(dir, "existing", "types.gen.go"), "package existing\n")

	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"-o", "out", "bad.json"}, badDocWant},
		{[]string{"-o", "out", "-document", "doc.json", "bad.json"}, badDocWant},
		{[]string{"-o", "existing", "bad.json"}, badDocWant},
		{[]string{"-check", "-o", "existing", "bad.json"}, badDocWant},
		{[]string{"-o", "out", "bad.yaml"}, nil},
	} {
		before := snapshot(t, dir)
		r := opentoolgen(t, dir, c.args...)
		r.want(t, 1)
		if r.stdout != "" {
			t.Errorf("opentoolgen %q: stdout %q", c.args, r.stdout)
		}
		// The diagnostics, one line each; the lines of the document around
		// each are indented.
		var lines []string
		for _, l := range strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n") {
			if !strings.HasPrefix(l, " ") {
				lines = append(lines, l)
			}
		}
		if c.want != nil {
			if diff := cmp.Diff(c.want, lines); diff != "" {
				t.Errorf("opentoolgen %q: stderr (-want +got):\n%s", c.args, diff)
			}
		} else if len(lines) != 1 || !strings.HasPrefix(lines[0], "bad.yaml:") {
			t.Errorf("opentoolgen %q: want one bad.yaml:line:col: message, got:\n%s", c.args, r.stderr)
		}
		unchanged(t, dir, before)
	}
	for _, f := range []string{"out", "doc.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
			t.Errorf("%s was created: %v", f, err)
		}
	}
	// Each error with the lines around it and a caret under its column.
	r := opentoolgen(t, dir, "-o", "out", "bad.yaml")
	want := "" +
		"bad.yaml:3:3: did not find expected ',' or ']'\n" +
		"    1 | opentool: 1.0.0\n" +
		"    2 | info:\n" +
		"  > 3 |   title: [unclosed\n" +
		"      |   ^\n"
	if r.stderr != want {
		t.Errorf("stderr (-want +got):\n%s", cmp.Diff(want, r.stderr))
	}
	r = opentoolgen(t, dir, "-o", "out", "bad.json")
	if !strings.HasPrefix(r.stderr, badDocWant[0]+"\n"+
		"    1 | {\n"+
		"    2 |   \"opentool\": \"1.0.0\",\n"+
		"  > 3 |   \"info\": {\"title\": 7, \"version\": \"1.0.0\"},\n"+
		"      |                     ^\n"+
		"    4 |   \"functions\": [\n"+
		"    5 |     {\n"+
		badDocWant[1]+"\n") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}

// TestErrorExcerpts: the first ten errors are shown with the lines around
// them, the others and the warnings among them one line each.
func TestErrorExcerpts(t *testing.T) {
	dir := t.TempDir()
	var doc strings.Builder
	doc.WriteString("openapi: 3.0.3\ninfo: {title: t, version: 1}\npaths:\n  /p:\n    get:\n      operationId: p\n      parameters:\n")
	for i := range 12 {
		fmt.Fprintf(&doc, "        - {name: p%d, in: query, required: maybe}\n", i)
	}
	doc.WriteString("      responses: {\"200\": {description: ok}}\n")
	put(t, filepath.Join(dir, "many.yaml"), doc.String())
	r := opentoolgen(t, dir, "-o", "out", "many.yaml")
	r.want(t, 1)
	var diags, carets int
	for _, l := range strings.Split(r.stderr, "\n") {
		switch {
		case strings.HasPrefix(l, "many.yaml:"):
			diags++
		case strings.HasPrefix(l, "       |"):
			carets++
		}
	}
	if diags != 13 || carets != 10 || !strings.Contains(r.stderr, "many.yaml:2:27: warning: /info/version: want a string, got the number 1; read as the string \"1\"\nmany.yaml:8:43:") {
		t.Errorf("%d diagnostics, %d excerpts:\n%s", diags, carets, r.stderr)
	}
}

// TestLeftovers checks that a generated file the document no longer produces
// (types3.gen.go after types were removed) is reported by -check and removed
// by a run, while the user's own files, even named *.gen.go, stay.
func TestLeftovers(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "tool.json"), toolDoc)
	opentoolgen(t, dir, "-o", "out", "tool.json").want(t, 0)
	old := filepath.Join(dir, "out", "types3.gen.go")
	put(t, old, "// Code generated by opentoolgen. DO NOT EDIT.\n// Source: tool.json\n\npackage out\n\ntype User struct{}\n")
	other := filepath.Join(dir, "out", "other.gen.go")
	put(t, other, "// Code generated by opentoolgen. DO NOT EDIT.\n// Source: other.json\n\npackage out\n")
	mine := filepath.Join(dir, "out", "mine.gen.go")
	put(t, mine, "// Code generated by another tool. DO NOT EDIT.\n\npackage out\n")
	notes := filepath.Join(dir, "out", "notes.txt")
	put(t, notes, "// Code generated by opentoolgen. DO NOT EDIT.\n")

	r := opentoolgen(t, dir, "-check", "-o", "out", "tool.json")
	r.want(t, 1)
	if !strings.Contains(r.stderr, filepath.Join("out", "types3.gen.go")) || strings.Contains(r.stderr, "mine.gen.go") || strings.Contains(r.stderr, "other.gen.go") {
		t.Errorf("-check: stderr should name types3.gen.go only:\n%s", r.stderr)
	}
	if _, err := os.Stat(old); err != nil {
		t.Errorf("-check removed a file: %v", err)
	}

	opentoolgen(t, dir, "-o", "out", "tool.json").want(t, 0)
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("types3.gen.go is still there after a run: %v", err)
	}
	for _, f := range []string{mine, notes, other} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("a file opentoolgen did not write was touched: %v", err)
		}
	}
	opentoolgen(t, dir, "-check", "-o", "out", "tool.json").want(t, 0)
}

// TestDeclarationsFlag: -declarations writes the profile's tools member, -check
// finds it stale, and what the profile cannot say is a warning.
func TestDeclarationsFlag(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "tool.yaml"), toolYAML)
	put(t, filepath.Join(dir, "map.json"), `{"opentool":"1.0.0","info":{"title":"m","version":"1"},"functions":[
		{"name":"tag","description":"Tags.","parameters":[{"name":"value","description":"Any JSON value.","schema":{},"required":true}]}]}`)
	for _, p := range []string{"openai", "openai-strict", "openai-responses", "openai-responses-strict", "anthropic", "anthropic-strict", "gemini", "gemini-openapi", "mcp"} {
		file := filepath.Join("decl", p+".json")
		opentoolgen(t, dir, "-o", "out", "-declarations", file, "-for", p, "tool.yaml").want(t, 0)
		got, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		var v []any
		if err := json.Unmarshal(got, &v); err != nil || len(v) == 0 {
			t.Errorf("-for %s: %v\n%s", p, err, got)
		}
		opentoolgen(t, dir, "-check", "-o", "out", "-declarations", file, "-for", p, "tool.yaml").want(t, 0)
	}
	// Another profile's declarations are stale.
	r := opentoolgen(t, dir, "-check", "-o", "out", "-declarations", "decl/openai.json", "-for", "gemini", "tool.yaml")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "openai.json") {
		t.Errorf("-check: %s", r.stderr)
	}
	// A value of any type cannot be strict: declared without, and said so.
	r = opentoolgen(t, dir, "-o", "out2", "-declarations", "decl/map.json", "-for", "openai-strict", "map.json")
	r.want(t, 0)
	if !strings.Contains(r.stderr, `function "tag" is declared without strict mode`) {
		t.Errorf("no warning for the value of any type: %q", r.stderr)
	}
	r = opentoolgen(t, dir, "-declarations", "x.json", "-for", "claude", "tool.yaml")
	r.want(t, 2)
	if !strings.Contains(r.stderr, `unknown declaration profile "claude"`) {
		t.Errorf("bad -for: %q", r.stderr)
	}
}

// TestToolSearchFlags: -tool-search and -namespaces tag write the tools
// member for the providers' tool search, namespaces from OpenAPI tags, and
// are usage errors where the profile has no place for them.
func TestToolSearchFlags(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "api.yaml"), `openapi: 3.0.3
info: {title: t, version: 1}
paths:
  /issues:
    get: {operationId: listIssues, tags: [Issue Tracker], responses: {"200": {description: ok}}}
    post: {operationId: createIssue, tags: [Issue Tracker], responses: {"200": {description: ok}}}
  /ping:
    get: {operationId: ping, responses: {"200": {description: ok}}}
`)
	r := opentoolgen(t, dir, "-o", "out", "-declarations", "decl.json", "-for", "openai-responses", "-tool-search", "-namespaces", "tag", "api.yaml")
	r.want(t, 0)
	var tools []map[string]any
	b, err := os.ReadFile(filepath.Join(dir, "decl.json"))
	if err != nil || json.Unmarshal(b, &tools) != nil || len(tools) != 3 {
		t.Fatalf("%v %s", err, b)
	}
	if tools[0]["type"] != "tool_search" || tools[1]["type"] != "namespace" || tools[1]["name"] != "issue_tracker" ||
		len(tools[1]["tools"].([]any)) != 2 || tools[2]["name"] != "ping" || tools[2]["defer_loading"] != true {
		t.Errorf("tools: %s", b)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-declarations", "d.json", "-for", "openai", "-tool-search"}, "-tool-search: the openai profile has no tool search"},
		{[]string{"-declarations", "d.json", "-for", "anthropic", "-namespaces", "tag"}, "-namespaces: the anthropic profile has no namespaces"},
		{[]string{"-declarations", "d.json", "-for", "openai-responses", "-namespaces", "path"}, `-namespaces: got "path", want tag or none`},
		{[]string{"-tool-search"}, "-tool-search and -namespaces need -declarations FILE"},
	} {
		r := opentoolgen(t, dir, append(tc.args, "api.yaml")...)
		r.want(t, 2)
		if !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: %q, want %q", tc.args, r.stderr, tc.want)
		}
	}
}

// TestProfileFlags checks that -cpuprofile and -memprofile write profiles
// go tool pprof reads, and that a profile file that cannot be created is a
// usage-time error before anything is generated.
func TestProfileFlags(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "tool.json"), toolDoc)
	opentoolgen(t, dir, "-o", "out", "-cpuprofile", "cpu.pprof", "-memprofile", "mem.pprof", "tool.json").want(t, 0)
	for file, want := range map[string]string{"cpu.pprof": "Type: cpu", "mem.pprof": "Type: alloc_space"} {
		args := []string{"tool", "pprof", "-top"}
		if file == "mem.pprof" {
			args = append(args, "-sample_index=alloc_space")
		}
		out, err := exec.Command("go", append(args, filepath.Join(dir, file))...).CombinedOutput()
		if err != nil || !strings.Contains(string(out), want) {
			t.Errorf("go tool pprof %s: %v, want %q in:\n%s", file, err, want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "tool.gen.go")); err != nil {
		t.Errorf("with profiles, the package was not written: %v", err)
	}

	bad := opentoolgen(t, dir, "-o", "out2", "-memprofile", filepath.Join("missing", "mem.pprof"), "tool.json")
	bad.want(t, 1)
	if !strings.Contains(bad.stderr, "-memprofile:") {
		t.Errorf("stderr does not name -memprofile:\n%s", bad.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out2")); !os.IsNotExist(err) {
		t.Errorf("out2 written although the profile could not be created: %v", err)
	}
}

// TestSplitFlags: -split-types and -split-functions write what gen.Generate
// writes with the same Split (0 keeps one file), a smaller bound leaves
// fewer lines a file and no stale numbered file behind, and a negative bound
// is a usage error.
func TestSplitFlags(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "tool.json"), toolDoc)
	files := func() []string {
		t.Helper()
		names, err := filepath.Glob(filepath.Join(dir, "out", "*.gen.go"))
		if err != nil {
			t.Fatal(err)
		}
		for i, n := range names {
			names[i] = filepath.Base(n)
		}
		return names
	}
	opentoolgen(t, dir, "-o", "out", "-split-types", "20", "-split-functions", "1", "tool.json").want(t, 0)
	res, err := gen.Generate("tool.json", []byte(toolDoc), gen.Options{Package: "out", Split: gen.Split{Types: 20, Functions: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		got, err := os.ReadFile(filepath.Join(dir, "out", f.Name))
		if err != nil || !bytes.Equal(got, f.Content) {
			t.Errorf("%s: not what gen.Generate writes with the same Split (%v)", f.Name, err)
		}
	}
	for _, want := range []string{"types2.gen.go", "tool2.gen.go", "client2.gen.go"} {
		if !slices.Contains(files(), want) {
			t.Errorf("-split-types 20 -split-functions 1: files %v, want %s among them", files(), want)
		}
	}
	opentoolgen(t, dir, "-check", "-o", "out", "-split-types", "20", "-split-functions", "1", "tool.json").want(t, 0)

	// 0 keeps one file of each, as the defaults do for a small document;
	// the numbered files of the run before are removed.
	opentoolgen(t, dir, "-o", "out", "-split-types", "0", "-split-functions", "0", "tool.json").want(t, 0)
	want := []string{"client.gen.go", "document.gen.go", "tool.gen.go", "types.gen.go"}
	if got := files(); !slices.Equal(got, want) {
		t.Errorf("-split-types 0 -split-functions 0: files %v, want %v", got, want)
	}
	opentoolgen(t, dir, "-check", "-o", "out", "tool.json").want(t, 0)

	r := opentoolgen(t, dir, "-o", "out", "-split-types", "-5", "tool.json")
	r.want(t, 2)
	if !strings.Contains(r.stderr, "-split-types: got -5") {
		t.Errorf("stderr: %s", r.stderr)
	}
}
