package gen

import (
	"errors"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opentoolgen/opentoolgen/gen/source"
)

// The OpenDyn loader's warnings and errors, each with its place; the
// generated bindings built and run against C libraries compiled by the tests
// (testdata/opendyn/e2e), with -race, under AddressSanitizer, and checked for
// Windows.

func generateFile(t *testing.T, path string) (*Result, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Generate(filepath.Base(path), data, Options{Package: "dyn"})
}

func diagnosticLines(ds []source.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.String())
	}
	return out
}

// TestOpenDynUpstreamExample: upstream's example generates, with a warning
// for each place it deviates from the specification.
func TestOpenDynUpstreamExample(t *testing.T) {
	res, err := generateFile(t, "../testdata/golden/opendyn-example/example.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`example.json:22:23: warning: /functions/0/parameters/0/schema/cType/isIn: isIn belongs to the parameter, not to its cType; reading it as the parameter's`,
		`example.json:34:23: warning: /functions/0/parameters/1/schema/cType/isIn: isIn belongs to the parameter, not to its cType; reading it as the parameter's`,
		`example.json:47:21: warning: /functions/0/return/schema/cType/isIn: ignored: a return value has no isIn (it is always an output)`,
		`example.json:60:21: warning: /functions/1/parameters/0/schema/type: got "double", a C type, want one of boolean, integer, number, string, array, object; reading it as "number"`,
		`example.json:72:21: warning: /functions/1/parameters/1/schema/type: got "double", a C type, want one of boolean, integer, number, string, array, object; reading it as "number"`,
		`example.json:85:19: warning: /functions/1/return/schema/type: got "double", a C type, want one of boolean, integer, number, string, array, object; reading it as "number"`,
	}
	if diff := cmp.Diff(want, diagnosticLines(res.Warnings)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// TestOpenDynWarnings: what can be read one way only is read so, with a
// warning naming the place (in YAML too).
func TestOpenDynWarnings(t *testing.T) {
	res, err := generateFile(t, "../testdata/opendyn/bad/warnings.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`warnings.yaml:4:3: warning: /info/callingConvention: missing, want "cdecl" or "stdcall"; reading it as "cdecl"`,
		`warnings.yaml:12:17: warning: /functions/0/parameters/0/schema/type: got "int", a C type, want one of boolean, integer, number, string, array, object; reading it as "integer"`,
		`warnings.yaml:13:25: warning: /functions/0/parameters/0/schema/cType/type: got "unsigned", want "unsigned int"; reading it so`,
		`warnings.yaml:15:17: warning: /functions/0/parameters/1/schema/cType: missing; reading it as char* (the C type of strings)`,
		`warnings.yaml:17:17: warning: /functions/0/parameters/2/schema/cType: missing; reading it as bool`,
		`warnings.yaml:21:25: warning: /functions/0/parameters/3/schema/cType/type: got "const char *", want "char" with isPointer true; reading it so`,
		`warnings.yaml:25:57: warning: /functions/0/parameters/4/schema/cType/isIn: ignored: isIn belongs to the parameter, which has it`,
		`warnings.yaml:25:69: warning: /functions/0/parameters/4/schema/cType/size: unknown member "size" ignored`,
		`warnings.yaml:30:41: warning: /functions/0/parameters/5/schema/items/cType: ignored: a C type belongs to a parameter's or return value's schema (for an array, the element type with isPointer true)`,
		`warnings.yaml:34:17: warning: /functions/0/parameters/6/schema/type: got "float", a C type, want one of boolean, integer, number, string, array, object; reading it as "number"`,
		`warnings.yaml:35:18: warning: /functions/0/parameters/6/schema/cType: an output parameter is a pointer (isIn false); reading isPointer as true`,
		`warnings.yaml:41:16: warning: /functions/0/return/schema/cType: the C function returns void; reading it as no return value`,
		`warnings.yaml:47:7: warning: /code/ok: ignored: got the code "ok", want an integer (the value a function returns)`,
	}
	if diff := cmp.Diff(want, diagnosticLines(res.Warnings)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	// What they were read as.
	var lib []byte
	for _, f := range res.Files {
		if f.Name == "library.gen.go" {
			lib = f.Content
		}
	}
	sig := "func (l *Library) F(count uint32, text string, flag bool, name string, both float64, list []int32) (out float32, err error)"
	if !strings.Contains(string(lib), sig) {
		t.Errorf("library.gen.go lacks %s", sig)
	}
}

// TestOpenDynErrors: a document with an error of each kind; every one is
// reported at once, at its place, with the warnings among them, and nothing is
// generated.
func TestOpenDynErrors(t *testing.T) {
	_, err := generateFile(t, "../testdata/opendyn/bad/errors.json")
	var e *source.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want an *Error", err)
	}
	want := []string{
		`errors.json:3:68: /info/callingConvention: got "fastcall", want "cdecl" or "stdcall"`,
		`errors.json:9:77: /functions/0/parameters/0/schema/cType/type: got "int32", want one of void, bool, char, unsigned char, short, unsigned short, int, unsigned int, long, unsigned long, long long, unsigned long long, float, double`,
		`errors.json:10:36: /functions/0/parameters/1/schema: a char* output needs the size of its buffer: want maxLength, the most bytes the function writes before the NUL`,
		`errors.json:11:36: /functions/0/parameters/2/schema: an array output needs the size of its buffer: want maxItems (at least 1), the number of elements the function writes`,
		`errors.json:12:67: /functions/0/parameters/3/schema/cType: got void*, which no JSON value can carry; want a typed pointer`,
		`errors.json:13:108: /functions/0/parameters/4/schema/cType: got an object, which would be a C struct; OpenDyn has none: want scalars, strings and arrays`,
		`errors.json:14:78: /functions/0/parameters/5/schema/cType/type: got C type float for a value of schema type integer, want a C integer type (char, short, int, long, long long, or one of them unsigned)`,
		`errors.json:15:96: /functions/0/parameters/6/schema/cType/isPointer: got a single char for a string, want isPointer true (char*)`,
		`errors.json:16:109: /functions/0/parameters/7/schema/cType/isIn: got false, but the parameter's isIn is true: want one isIn, on the parameter`,
		`errors.json:17:39: /functions/0/parameters/8/schema/cType: missing, want the C type of the value: float or double`,
		`errors.json:18:74: /functions/0/parameters/9/schema/cType/type: got "int**", a pointer to a pointer; want a C type with at most one *`,
		`errors.json:19:93: /functions/0/parameters/10/schema/cType/type: got C type char, which cannot hold the enum value 300`,
		`errors.json:20:18: /functions/0/parameters/11/name: got "result", the name of the return value; want another name: the result object carries both`,
		`errors.json:22:75: /functions/0/parameters/13/schema/cType: got long, but the schema "Count" has the C type int: want one of them`,
		`errors.json:23:9: /functions/0/parameters/14/name: missing, want a string`,
		`errors.json:25:103: /functions/0/return/schema/cType: got a returned pointer to an array, whose length the caller cannot know; want an output parameter with maxItems`,
		`errors.json:29:20: warning: /code/zero: ignored: got the code "zero", want an integer (the value a function returns)`,
		`errors.json:29:41: /code/1: got number 2, want a string`,
	}
	if diff := cmp.Diff(want, diagnosticLines(e.Diagnostics)); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestOpenDynSchemaUses: a named schema used as two different C types is an
// error at the second use, naming the first.
func TestOpenDynSchemaUses(t *testing.T) {
	doc := `{"opendyn": "1.0.0", "info": {"title": "t", "version": "1", "callingConvention": "cdecl"},
"functions": [
 {"name": "f", "description": "d", "parameters": [
  {"name": "a", "schema": {"$ref": "#/schemas/N", "cType": {"type": "short"}}},
  {"name": "b", "schema": {"$ref": "#/schemas/N", "cType": {"type": "int"}}}]}],
"schemas": {"N": {"type": "integer"}}}`
	_, err := Generate("uses.json", []byte(doc), Options{Package: "dyn"})
	want := `uses.json:5:60: /functions/0/parameters/1/schema/cType: the schema "N" is used as C type int here and as short at 4:60; want one C type per schema (its Go type has one width)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// goTool runs the go command in the module's root.
func goTool(t *testing.T, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s go %s: %v\n%s", strings.Join(env, " "), strings.Join(args, " "), err, out)
	}
}

func needCGo(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the build of cgo packages")
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s): %v", cc, err)
	}
}

// TestOpenDynEndToEnd runs testdata/opendyn/e2e with the race detector: the
// generated packages against gcc-built libraries, directly, served over
// loopback and called with the generated client, from many goroutines.
func TestOpenDynEndToEnd(t *testing.T) {
	needCGo(t)
	goTool(t, nil, "test", "-race", "-count=1", "./testdata/opendyn/e2e")
}

// TestOpenDynASan runs the same tests with the C libraries built with
// -fsanitize=address, the sanitizer runtime preloaded, and a leak check at the
// end (Go exits without the C exit handlers that would run it).
func TestOpenDynASan(t *testing.T) {
	needCGo(t)
	if runtime.GOOS != "linux" {
		t.Skip("the ASan run preloads libasan.so, which needs Linux")
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	out, err := exec.Command(cc, "-print-file-name=libasan.so").Output()
	asan := strings.TrimSpace(string(out))
	if err != nil || !filepath.IsAbs(asan) {
		t.Skipf("%s has no libasan.so (-print-file-name gave %q): the toolchain lacks AddressSanitizer", cc, asan)
	}
	dir := t.TempDir()
	probe := filepath.Join(dir, "probe.c")
	os.WriteFile(probe, []byte("int f(void) { return 0; }\n"), 0o644)
	if b, err := exec.Command(cc, "-shared", "-fPIC", "-fsanitize=address", "-o", filepath.Join(dir, "probe.so"), probe).CombinedOutput(); err != nil {
		t.Skipf("%s cannot build with -fsanitize=address: %v\n%s", cc, err, b)
	}
	bin := filepath.Join(dir, "e2e.test")
	goTool(t, nil, "test", "-c", "-o", bin, "./testdata/opendyn/e2e")
	cmd := exec.Command(bin, "-test.count=1")
	cmd.Dir = "../testdata/opendyn/e2e"
	cmd.Env = append(os.Environ(),
		"LD_PRELOAD="+asan,
		"ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=23",
		"OPENDYN_CFLAGS=-fsanitize=address -fno-omit-frame-pointer",
		"OPENDYN_LEAKCHECK=1",
	)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("e2e tests under ASan: %v\n%s", err, b)
	}
}

// TestOpenDynWindows checks the Windows side of the generated packages: it
// type-checks every Go file that a Windows cgo build compiles (the bindings;
// runtime/dynlib, which loads the library, has its own test), with the C
// declarations faked and the imports type-checked from source for
// windows/amd64 (compiling them for Windows would cost more than the rest of
// the tests). With a mingw-w64 compiler it also cross-compiles and vets them
// with cgo, C side included.
func TestOpenDynWindows(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the Windows checks")
	}
	pkgs := dynGoldenPackages(t)
	saved := build.Default
	defer func() { build.Default = saved }()
	build.Default.GOOS, build.Default.GOARCH, build.Default.CgoEnabled = "windows", "amd64", false
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil).(types.ImporterFrom)
	for _, p := range pkgs {
		typeCheckWindows(t, fset, imp, p)
	}
	build.Default = saved
	if _, err := exec.LookPath("x86_64-w64-mingw32-gcc"); err != nil {
		t.Log("no x86_64-w64-mingw32-gcc: the C side is not cross-compiled")
		return
	}
	goTool(t, []string{"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=1", "CC=x86_64-w64-mingw32-gcc"}, append([]string{"vet"}, pkgs...)...)
}

// dynGoldenPackages lists the OpenDyn golden packages, as ./testdata/golden/….
func dynGoldenPackages(t *testing.T) []string {
	t.Helper()
	var pkgs []string
	for _, c := range goldenCases(t) {
		if strings.HasPrefix(c.name, "opendyn-") {
			pkgs = append(pkgs, "./testdata/golden/"+c.name)
		}
	}
	return pkgs
}

// typeCheckWindows type-checks the files of the package at pkg (relative to
// the module's root) that a Windows cgo build compiles, with import "C"
// faked.
func typeCheckWindows(t *testing.T, fset *token.FileSet, imp types.ImporterFrom, pkg string) {
	t.Helper()
	ctx := build.Default
	ctx.CgoEnabled = true
	dir := filepath.Join("..", pkg)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		if ok, err := ctx.MatchFile(dir, e.Name()); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	conf := types.Config{FakeImportC: true, Importer: imp}
	if _, err := conf.Check(pkg, fset, files, nil); err != nil {
		t.Errorf("type-checking %s for windows/amd64: %v", pkg, err)
	}
}

// TestOpenDynBufferLimits: each call has its own output buffers, so their
// sizes are bounded.
func TestOpenDynBufferLimits(t *testing.T) {
	doc := `{"opendyn": "1.0.0", "info": {"title": "big", "version": "1", "callingConvention": "cdecl"}, "functions": [
 {"name": "f", "description": "d", "parameters": [
  {"name": "s", "schema": {"type": "string", "maxLength": 16777216, "cType": {"type": "char", "isPointer": true}}, "isIn": false},
  {"name": "a", "schema": {"type": "array", "items": {"type": "integer"}, "maxItems": 3000000, "cType": {"type": "int", "isPointer": true}}, "isIn": false}]}]}`
	_, err := Generate("big.json", []byte(doc), Options{Package: "dyn"})
	want := `big.json:3:59: /functions/0/parameters/0/schema/maxLength: got 16777216, want less than 16777216: each call has a buffer of maxLength+1 bytes
big.json:4:87: /functions/0/parameters/1/schema/maxItems: got 3000000, want at most 2097152: each call has a buffer of maxItems elements`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
