package main

import (
	"path/filepath"
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
