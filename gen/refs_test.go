package gen

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/gen/source"
)

// marker is in every file a document must not read: no message or generated
// file may show it.
const marker = "MARKER-5c1e9f-secret"

// refTree is a document's folder and what lies around it:
//
//	root/api/           the document's folder
//	root/api/paths/     a sibling folder (accepted)
//	root/secret/x.yaml  outside the tree, with the marker
//	root/shared/s.yaml  outside the tree, allowed with AllowRefDirs
type refTree struct {
	root, api string
}

func newRefTree(t *testing.T) refTree {
	t.Helper()
	root := t.TempDir()
	tr := refTree{root: root, api: filepath.Join(root, "api")}
	tr.write(t, "secret/x.yaml", "X:\n  type: string\n  description: "+marker+"\n")
	tr.write(t, "outside.yaml", "X:\n  type: string\n  description: "+marker+"\n")
	tr.write(t, "shared/s.yaml", "S:\n  type: object\n  properties:\n    shared: {type: string}\n")
	tr.write(t, "api/paths/echo.yaml", "Echo:\n  type: object\n  properties:\n    common: {$ref: \"../common.yaml#/C\"}\n")
	tr.write(t, "api/common.yaml", "C: {type: integer}\n")
	tr.write(t, "api/schemas/ok.yaml", "X: {type: boolean}\n")
	tr.write(t, "api/paths/bad.yaml", "Bad:\n  type: object\n  properties:\n    leak:\n      $ref: \"../../secret/x.yaml#/X\"\n")
	return tr
}

func (tr refTree) write(t *testing.T, name, content string) {
	t.Helper()
	p := filepath.Join(tr.root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (tr refTree) symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, filepath.Join(tr.root, filepath.FromSlash(name))); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
}

// refDoc is an OpenAPI document whose one operation returns the schema $ref,
// written at refLine:refCol.
func refDoc(ref string) string {
	return `openapi: 3.0.3
info: {title: refs, version: "1"}
paths:
  /x:
    get:
      operationId: getX
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                $ref: "` + ref + `"
`
}

const (
	refLine = 13
	refCol  = 23
	refPtr  = "/paths/~1x/get/responses/200/content/application~1json/schema/$ref"
)

// generateRef generates the document at tr.api/api.yaml that references ref.
func (tr refTree) generate(t *testing.T, doc string, opts Options) (*Result, error) {
	t.Helper()
	main := filepath.Join(tr.api, "api.yaml")
	if err := os.WriteFile(main, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Package = "api"
	return Generate(main, []byte(doc), opts)
}

// noMarker fails if the marker shows in err or in what was generated.
func noMarker(t *testing.T, res *Result, err error) {
	t.Helper()
	if err != nil && strings.Contains(err.Error(), marker) {
		t.Errorf("the error shows the refused file: %v", err)
	}
	if res == nil {
		return
	}
	for _, f := range res.Files {
		if strings.Contains(string(f.Content), marker) {
			t.Errorf("%s shows the refused file", f.Name)
		}
	}
	if strings.Contains(string(res.Document), marker) {
		t.Error("the document shows the refused file")
	}
}

// refused checks that err is one diagnostic at file:line:col, path ptr, that
// names ref and says reason.
func refused(t *testing.T, res *Result, err error, file string, line, col int, ptr, ref, reason string) {
	t.Helper()
	noMarker(t, res, err)
	var e *source.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v (generated: %v); want an *Error", err, res != nil)
	}
	if len(e.Diagnostics) != 1 {
		t.Fatalf("got %d diagnostics, want 1:\n%v", len(e.Diagnostics), err)
	}
	d := e.Diagnostics[0]
	if d.File != file || d.Line != line || d.Col != col || d.Path != ptr || d.Warning {
		t.Errorf("got %s\nwant it at %s:%d:%d: %s", d, file, line, col, ptr)
	}
	if want := `$ref "` + ref + `": `; !strings.HasPrefix(d.Message, want) {
		t.Errorf("message %q does not start with %q", d.Message, want)
	}
	if !strings.Contains(d.Message, reason) {
		t.Errorf("message %q does not say %q", d.Message, reason)
	}
}

// TestRefsConfined: a $ref reads only regular files inside the document's
// directory tree; anything else is an error at the $ref that shows nothing of
// the file.
func TestRefsConfined(t *testing.T) {
	tr := newRefTree(t)
	tr.symlink(t, "../secret/x.yaml", "api/link.yaml")
	tr.symlink(t, "../secret", "api/linkdir")
	tr.symlink(t, "schemas/ok.yaml", "api/alias.yaml")
	apiDir := testRealDir(tr.api)
	outside := "outside the document's directory tree " + apiDir + "; allow it with -allow-ref-dir"
	main := filepath.Join(tr.api, "api.yaml")
	for _, c := range []struct {
		name, ref, reason string
	}{
		{"parent", "../secret/x.yaml#/X", outside},
		{"absolute", filepath.ToSlash(filepath.Join(tr.root, "outside.yaml")) + "#/X", outside},
		{"file URL", "file://" + filepath.ToSlash(filepath.Join(tr.root, "outside.yaml")) + "#/X", outside},
		{"dot dot inside", "schemas/../../secret/x.yaml#/X", outside},
		{"symlink out", "link.yaml#/X", outside},
		{"symlinked folder out", "linkdir/x.yaml#/X", outside},
		{"missing", "nope.yaml#/X", "no such file"},
		{"missing outside", "../nope.yaml#/X", outside},
		{"directory", "schemas#/X", "not a regular file (a directory)"},
		{"URL", "http://127.0.0.1:1/x.yaml#/X", "only references to local files are followed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := tr.generate(t, refDoc(c.ref), Options{})
			refused(t, res, err, main, refLine, refCol, refPtr, c.ref, c.reason)
		})
	}
}

// TestRefsConfinedNested: a file read for a reference is held to the tree of
// the document that names it first, and its refused $ref is reported in it.
func TestRefsConfinedNested(t *testing.T) {
	tr := newRefTree(t)
	res, err := tr.generate(t, refDoc("paths/bad.yaml#/Bad"), Options{})
	bad := filepath.ToSlash(filepath.Join(tr.api, "paths", "bad.yaml"))
	refused(t, res, err, bad, 5, 13, "/Bad/properties/leak/$ref", "../../secret/x.yaml#/X",
		"outside the document's directory tree "+testRealDir(tr.api))
}

// TestRefsAccepted: files in the tree, through folders, "..", symbolic links
// that stay inside, and allowed directories, are read.
func TestRefsAccepted(t *testing.T) {
	tr := newRefTree(t)
	tr.symlink(t, "schemas/ok.yaml", "api/alias.yaml")
	tr.symlink(t, filepath.Join(tr.api, "schemas"), "api/schemalink")
	for _, c := range []struct {
		name, ref string
		opts      Options
		want      string
	}{
		{"sibling folder", "paths/echo.yaml#/Echo", Options{}, "Common *C"},
		{"dot dot inside", "paths/../schemas/ok.yaml#/X", Options{}, "type X bool"},
		{"symlink in", "alias.yaml#/X", Options{}, "type X bool"},
		{"symlinked folder in", "schemalink/ok.yaml#/X", Options{}, "type X bool"},
		{"allowed", "../shared/s.yaml#/S", Options{AllowRefDirs: []string{filepath.Join(tr.root, "shared")}}, "Shared *string"},
		{"allowed above", "../shared/s.yaml#/S", Options{AllowRefDirs: []string{tr.root}}, "Shared *string"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := tr.generate(t, refDoc(c.ref), c.opts)
			if err != nil {
				t.Fatal(err)
			}
			noMarker(t, res, err)
			if types := file(res, "types.gen.go"); !strings.Contains(types, c.want) {
				t.Errorf("types.gen.go lacks %q:\n%s", c.want, types)
			}
		})
	}
	// An allowed directory widens the tree for those files only.
	res, err := tr.generate(t, refDoc("../secret/x.yaml#/X"), Options{AllowRefDirs: []string{filepath.Join(tr.root, "shared")}})
	refused(t, res, err, filepath.Join(tr.api, "api.yaml"), refLine, refCol, refPtr, "../secret/x.yaml#/X",
		"outside the document's directory tree "+testRealDir(tr.api)+" and the allowed directories "+testRealDir(filepath.Join(tr.root, "shared"))+"; allow it with -allow-ref-dir")
}

// TestRefsDevice: a device is refused, even in an allowed directory, at once.
func TestRefsDevice(t *testing.T) {
	if fi, err := os.Stat("/dev/zero"); err != nil || fi.Mode()&os.ModeDevice == 0 {
		t.Skip("no /dev/zero")
	}
	tr := newRefTree(t)
	main := filepath.Join(tr.api, "api.yaml")
	res, err := tr.generate(t, refDoc("/dev/zero"), Options{})
	refused(t, res, err, main, refLine, refCol, refPtr, "/dev/zero", "outside the document's directory tree")
	start := time.Now()
	res, err = tr.generate(t, refDoc("/dev/zero"), Options{AllowRefDirs: []string{"/dev"}})
	refused(t, res, err, main, refLine, refCol, refPtr, "/dev/zero", "not a regular file (a device)")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestRefsTooLarge: a referenced file, or a document, over the limit is
// refused without being read whole.
func TestRefsTooLarge(t *testing.T) {
	tr := newRefTree(t)
	tr.write(t, "api/big.yaml", "X:\n  type: string\n  description: "+strings.Repeat(marker+" ", 100)+"\n")
	res, err := tr.generate(t, refDoc("big.yaml#/X"), Options{MaxFileBytes: 1024})
	refused(t, res, err, filepath.Join(tr.api, "api.yaml"), refLine, refCol, refPtr, "big.yaml#/X", "larger than 1024 bytes")

	doc := refDoc("paths/echo.yaml#/Echo") + "# " + strings.Repeat("x", 1024) + "\n"
	_, err = Generate("big.yaml", []byte(doc), Options{Package: "api", MaxFileBytes: 1024})
	var e *source.Error
	want := "big.yaml: the document is larger than 1024 bytes (" + strconv.Itoa(len(doc)) + " bytes)"
	if !errors.As(err, &e) || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if got := source.SizeText(MaxFileBytes); got != "64 MiB" {
		t.Errorf("source.SizeText(MaxFileBytes) = %q", got)
	}
}

// TestRefsSwagger: Swagger 2.0 documents are converted with the same reader.
func TestRefsSwagger(t *testing.T) {
	tr := newRefTree(t)
	doc := func(ref string) string {
		return `{
  "swagger": "2.0",
  "info": {"title": "s", "version": "1"},
  "paths": {"/x": {"get": {"operationId": "getX", "responses": {"200": {"description": "ok",
    "schema": {"$ref": "` + ref + `"}}}}}}
}
`
	}
	main := filepath.Join(tr.api, "api.yaml")
	res, err := tr.generate(t, doc("../secret/x.yaml#/X"), Options{})
	refused(t, res, err, main, 5, 24, "/paths/~1x/get/responses/200/schema/$ref", "../secret/x.yaml#/X",
		"outside the document's directory tree "+testRealDir(tr.api))
	res, err = tr.generate(t, doc("paths/echo.yaml#/Echo"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if types := file(res, "types.gen.go"); !strings.Contains(types, "Common *C") {
		t.Errorf("types.gen.go:\n%s", types)
	}
}

// TestOpenAPIAliasCycles: schemas whose references go round in a cycle accept
// any JSON value, with a warning at each one's $ref.
func TestOpenAPIAliasCycles(t *testing.T) {
	tr := newRefTree(t)
	tr.write(t, "api/loop.yaml", "X: {$ref: \"#/Y\"}\nY: {$ref: \"#/X\"}\n")
	res, err := tr.generate(t, `openapi: 3.0.3
info: {title: cycles, version: "1"}
paths:
  /x:
    get:
      operationId: getX
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/A"}
        "201":
          description: ok
          content:
            application/json:
              schema: {$ref: "loop.yaml#/X"}
components:
  schemas:
    A: {$ref: "#/components/schemas/B"}
    B:
      $ref: "#/components/schemas/A"
    Self: {$ref: "#/components/schemas/Self"}
    Into: {$ref: "#/components/schemas/Self"}
    Fine: {$ref: "#/components/schemas/Real"}
    Real: {type: string}
`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(tr.api, "api.yaml")
	loop := filepath.ToSlash(filepath.Join(tr.api, "loop.yaml"))
	want := []string{
		main + `:20:15: warning: /components/schemas/A/$ref: the references form a cycle: "A" -> "B" -> "A"; A accepts any JSON value (json.RawMessage)`,
		main + `:22:13: warning: /components/schemas/B/$ref: the references form a cycle: "B" -> "A" -> "B"; B accepts any JSON value (json.RawMessage)`,
		main + `:23:18: warning: /components/schemas/Self/$ref: the references form a cycle: "Self" -> "Self"; Self accepts any JSON value (json.RawMessage)`,
		main + `:24:18: warning: /components/schemas/Into/$ref: the references lead into a cycle: "Into" -> "Self" -> "Self"; Into accepts any JSON value (json.RawMessage)`,
		loop + `:1:11: warning: /X/$ref: the references form a cycle: "` + loop + `#/X" -> "` + loop + `#/Y" -> "` + loop + `#/X"; X accepts any JSON value (json.RawMessage)`,
	}
	var got []string
	for _, w := range res.Warnings {
		got = append(got, w.String())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	types := file(res, "types.gen.go")
	for _, w := range []string{"type A = json.RawMessage", "type Self = json.RawMessage", "type X = json.RawMessage", "type Fine = Real"} {
		if !strings.Contains(types, w) {
			t.Errorf("types.gen.go lacks %q:\n%s", w, types)
		}
	}
}

// TestSwaggerAliasCycles: the same for Swagger 2.0, at the definitions.
func TestSwaggerAliasCycles(t *testing.T) {
	res, err := generateOpenAPI(t, "cycle.json", `{
  "swagger": "2.0",
  "info": {"title": "s", "version": "1"},
  "paths": {"/x": {"get": {"operationId": "getX", "responses": {"200": {"description": "ok", "schema": {"$ref": "#/definitions/A"}}}}}},
  "definitions": {
    "A": {"$ref": "#/definitions/A"}
  }
}`)
	if err != nil {
		t.Fatal(err)
	}
	want := `cycle.json:6:19: warning: /definitions/A/$ref: the references form a cycle: "A" -> "A"; A accepts any JSON value (json.RawMessage)`
	if len(res.Warnings) != 1 || res.Warnings[0].String() != want {
		t.Errorf("warnings: %v\nwant: %s", res.Warnings, want)
	}
}

// testRealDir is dir as the $ref checks name it: absolute, symbolic links
// resolved.
func testRealDir(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return filepath.Clean(dir)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// TestRefsReplacedPosition: a $ref where a plain string is wanted
// (info.description, DigitalOcean's) naming a file that is not there is
// reported at the $ref, in the document and in a file read for
// references, not at the document's start.
func TestRefsReplacedPosition(t *testing.T) {
	tr := newRefTree(t)
	tr.write(t, "api/paths/item.yaml", "get:\n  operationId: getItem\n  description:\n    $ref: ../missing.yml\n  responses:\n    \"200\": {description: ok}\n")
	for _, c := range []struct {
		doc, file string
		line, col int
		ptr, ref  string
	}{
		{"openapi: 3.0.3\ninfo:\n  title: t\n  version: \"1\"\n  description:\n    $ref: description.yml\npaths: {}\n",
			"api/api.yaml", 6, 5, "/info/description/$ref", "description.yml"},
		{"openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n  /item:\n    $ref: paths/item.yaml\n",
			"api/paths/item.yaml", 4, 5, "/get/description/$ref", "../missing.yml"},
	} {
		res, err := tr.generate(t, c.doc, Options{})
		noMarker(t, res, err)
		var e *source.Error
		if !errors.As(err, &e) {
			t.Fatalf("got %v, want an *Error", err)
		}
		var errs []source.Diagnostic
		for _, d := range e.Diagnostics {
			if !d.Warning {
				errs = append(errs, d)
			}
		}
		want := filepath.Join(tr.root, filepath.FromSlash(c.file))
		if len(errs) != 1 || errs[0].Line != c.line || errs[0].Col != c.col || errs[0].Path != c.ptr ||
			filepath.Clean(errs[0].File) != want && !strings.HasSuffix(errs[0].File, c.file[len("api/"):]) ||
			errs[0].Message != `$ref "`+c.ref+`": no such file` {
			t.Errorf("got %v\nwant one error at %s:%d:%d: %s: $ref %q: no such file", errs, c.file, c.line, c.col, c.ptr, c.ref)
		}
	}
}
