package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// formBodies is an OpenAPI document with five operations whose form body is
// not an object (one warning each, at five places), a schema with a
// repeated enum value used by one operation only, and one more operation.
const formBodies = `openapi: 3.0.3
info: {title: Forms, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      requestBody: {content: {application/x-www-form-urlencoded: {schema: {type: string}}}}
      responses: {"204": {description: ok}}
  /b:
    get:
      operationId: getB
      requestBody: {content: {application/x-www-form-urlencoded: {schema: {type: string}}}}
      responses: {"204": {description: ok}}
  /c:
    get:
      operationId: getC
      requestBody: {content: {application/x-www-form-urlencoded: {schema: {type: string}}}}
      responses: {"204": {description: ok}}
  /d:
    get:
      operationId: getD
      requestBody: {content: {application/x-www-form-urlencoded: {schema: {type: string}}}}
      responses: {"204": {description: ok}}
    post:
      operationId: postD
      requestBody: {content: {multipart/form-data: {schema: {type: string}}}}
      responses: {"204": {description: ok}}
  /e:
    get:
      operationId: getE
      requestBody: {content: {application/x-www-form-urlencoded: {schema: {type: string}}}}
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {$ref: "#/components/schemas/Mode"}}}
  /f:
    get:
      operationId: getF
      responses: {"204": {description: ok}}
components:
  schemas:
    Mode: {type: string, enum: [on, off, on]}
`

// TestWarningGroups checks that a warning given at many places is printed
// once with their number and the first three, and that with -include the
// warnings about what is not generated are left out.
func TestWarningGroups(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "forms.yaml"), formBodies)
	r := opentoolgen(t, dir, "-o", "out", "forms.yaml")
	r.want(t, 0)
	want := `forms.yaml:42:42: warning: /components/schemas/Mode/enum/2: the enum lists the value "on" 2 times (first at index 0): kept once
forms.yaml: warning: at 5 places: an application/x-www-form-urlencoded body must be an object with properties: the body is left out
	forms.yaml:7:75: /paths/~1a/get/requestBody/content/application~1x-www-form-urlencoded/schema
	forms.yaml:12:75: /paths/~1b/get/requestBody/content/application~1x-www-form-urlencoded/schema
	forms.yaml:17:75: /paths/~1c/get/requestBody/content/application~1x-www-form-urlencoded/schema
	and 2 more
forms.yaml:26:61: warning: /paths/~1d/post/requestBody/content/multipart~1form-data/schema: a multipart/form-data body must be an object with properties: the body is left out
`
	if diff := cmp.Diff(want, r.stderr); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	r = opentoolgen(t, dir, "-o", "some", "-include", "getA", "-include", "getF", "forms.yaml")
	r.want(t, 0)
	want = "forms.yaml:7:75: warning: /paths/~1a/get/requestBody/content/application~1x-www-form-urlencoded/schema: an application/x-www-form-urlencoded body must be an object with properties: the body is left out\n"
	if diff := cmp.Diff(want, r.stderr); diff != "" {
		t.Errorf("warnings with -include (-want +got):\n%s", diff)
	}
	r = opentoolgen(t, dir, "-o", "e", "-include", "path:/e", "forms.yaml")
	r.want(t, 0)
	want = `forms.yaml:42:42: warning: /components/schemas/Mode/enum/2: the enum lists the value "on" 2 times (first at index 0): kept once
forms.yaml:31:75: warning: /paths/~1e/get/requestBody/content/application~1x-www-form-urlencoded/schema: an application/x-www-form-urlencoded body must be an object with properties: the body is left out
`
	if diff := cmp.Diff(want, r.stderr); diff != "" {
		t.Errorf("warnings with -include path:/e (-want +got):\n%s", diff)
	}
}

// swaggerWarnings is a Swagger 2.0 document with a repeated enum value in
// each place the conversion to OpenAPI 3 moves: a definition, query and
// header parameters (path-level and after a body parameter), a body, a
// response's schema and a formData parameter.
const swaggerWarnings = `swagger: "2.0"
info: {title: Sw, version: "1"}
host: example.com
paths:
  /pets/{id}:
    parameters:
      - {name: id, in: path, required: true, type: string, enum: [i, i]}
    get:
      operationId: getPet
      parameters:
        - {name: mode, in: query, type: string, enum: [a, b, a]}
      responses:
        "200":
          description: ok
          schema: {$ref: "#/definitions/Mode"}
    post:
      operationId: putPet
      consumes: [application/json]
      parameters:
        - name: body
          in: body
          schema: {type: string, enum: [p, p]}
        - {name: X-Flag, in: header, type: string, enum: [y, y]}
      responses:
        "200":
          description: ok
          schema: {type: string, enum: [r, r]}
  /forms:
    post:
      operationId: form
      consumes: [application/x-www-form-urlencoded]
      parameters:
        - {name: b, in: formData, type: integer}
        - {name: a, in: formData, type: string, enum: [f, f]}
      responses:
        "204": {description: ok}
definitions:
  Mode: {type: string, enum: ["on", "off", "on"]}
`

// TestSwaggerWarningPositions checks that the warnings about a Swagger 2.0
// document are at its own places, line and column, as its errors are: not
// at the places of the OpenAPI 3 document it is converted to (whose
// /components/schemas had no position, whose requestBody is not in the
// document).
func TestSwaggerWarningPositions(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "sw.yaml"), swaggerWarnings)
	r := opentoolgen(t, dir, "-o", "out", "sw.yaml")
	r.want(t, 0)
	want := `sw.yaml:38:44: warning: /definitions/Mode/enum/2: the enum lists the value "on" 2 times (first at index 0): kept once
sw.yaml:7:70: warning: /paths/~1pets~1{id}/parameters/0/enum/1: the enum lists the value "i" 2 times (first at index 0): kept once
sw.yaml:11:62: warning: /paths/~1pets~1{id}/get/parameters/0/enum/2: the enum lists the value "a" 2 times (first at index 0): kept once
sw.yaml:23:62: warning: /paths/~1pets~1{id}/post/parameters/1/enum/1: the enum lists the value "y" 2 times (first at index 0): kept once
sw.yaml:22:44: warning: /paths/~1pets~1{id}/post/parameters/0/schema/enum/1: the enum lists the value "p" 2 times (first at index 0): kept once
sw.yaml:27:44: warning: /paths/~1pets~1{id}/post/responses/200/schema/enum/1: the enum lists the value "r" 2 times (first at index 0): kept once
sw.yaml:34:59: warning: /paths/~1forms/post/parameters/1/enum/1: the enum lists the value "f" 2 times (first at index 0): kept once
`
	if diff := cmp.Diff(want, r.stderr); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// TestQuiet checks that -q leaves the warnings out and nothing else: the
// files are written as without it, and errors are still printed.
func TestQuiet(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "forms.yaml"), formBodies)
	loud := opentoolgen(t, dir, "-o", "loud", "-pkg", "forms", "forms.yaml")
	loud.want(t, 0)
	if loud.stderr == "" {
		t.Fatal("no warnings without -q: the test proves nothing")
	}
	quiet := opentoolgen(t, dir, "-q", "-o", "quiet", "-pkg", "forms", "forms.yaml")
	quiet.want(t, 0)
	if quiet.stderr != "" || quiet.stdout != "" {
		t.Errorf("-q: stdout %q, stderr %q; want nothing", quiet.stdout, quiet.stderr)
	}
	for _, name := range []string{"tool.gen.go", "types.gen.go", "client.gen.go"} {
		a, errA := os.ReadFile(filepath.Join(dir, "loud", name))
		b, errB := os.ReadFile(filepath.Join(dir, "quiet", name))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs with -q (%v, %v)", name, errA, errB)
		}
	}
	put(t, filepath.Join(dir, "bad.json"), badDoc)
	bad := opentoolgen(t, dir, "-q", "-o", "bad", "bad.json")
	bad.want(t, 1)
	if !strings.Contains(bad.stderr, "bad.json:3:") {
		t.Errorf("-q: the error is not printed:\n%s", bad.stderr)
	}
}
