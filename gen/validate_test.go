package gen

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOpenDynUnknownMembers: an OpenDyn member misspelt is a warning at its
// place naming the OpenDyn member meant.
func TestOpenDynUnknownMembers(t *testing.T) {
	doc := `{"opendyn": "1.0.0",
"info": {"title": "m", "version": "1", "callingConvention": "cdecl", "callingConvension": "cdecl"},
"functions": [{"name": "sq", "description": "Square.", "parameters": [
  {"name": "x", "isIn": true, "isInn": true, "required": true, "schema": {"type": "number", "cTyp": {}, "cType": {"type": "double", "isPointer": false}}}],
  "return": {"name": "r", "schema": {"type": "number", "cType": {"type": "double", "isPointer": false}}}}]}`
	res, err := Generate("m.json", []byte(doc), Options{Package: "m"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`m.json:2:91: warning: /info/callingConvension: unknown member "callingConvension" ignored; did you mean "callingConvention"?`,
		`m.json:4:40: warning: /functions/0/parameters/0/isInn: unknown member "isInn" ignored; did you mean "isIn"?`,
		`m.json:4:101: warning: /functions/0/parameters/0/schema/cTyp: unknown member "cTyp" ignored; did you mean "cType"?`,
	}
	if diff := cmp.Diff(want, diagnosticLines(res.Warnings)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	checkPositions(t, "m.json", []byte(doc), res.Warnings)
}

// TestOpenAPIUncheckedFormat: a format of an OpenAPI schema the decoders do
// not check is dropped from the document with a warning; one they check is
// kept and checked.
func TestOpenAPIUncheckedFormat(t *testing.T) {
	doc := `openapi: 3.0.3
info: {title: f, version: "1"}
paths:
  /x:
    get:
      operationId: getX
      parameters:
        - {name: secret, in: query, schema: {type: string, format: password}}
        - {name: mail, in: query, schema: {type: string, format: email}}
        - {name: n, in: query, schema: {type: integer, format: int8, minimum: 0, exclusiveMinimum: true, multipleOf: 3}}
      responses:
        "200": {description: ok}
`
	res, err := Generate("f.yaml", []byte(doc), Options{Package: "f"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`f.yaml:8:68: warning: /paths/~1x/get/parameters/0/schema/format: format "password" is not checked: the generated decoders do not check format "password" of type string (they check binary, byte, date, date-time, email, hostname, ipv4, ipv6, time, uri, uri-reference, uuid)`,
		`f.yaml:10:64: warning: /paths/~1x/get/parameters/2/schema/format: format "int8" is not checked: the generated decoders do not check format "int8" of type integer (they check int32, int64)`,
	}
	if diff := cmp.Diff(want, diagnosticLines(res.Warnings)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if d := string(res.Document); strings.Contains(d, "password") || strings.Contains(d, "int8") || !strings.Contains(d, `"format": "email"`) ||
		!strings.Contains(d, `"exclusiveMinimum": 0`) || !strings.Contains(d, `"multipleOf": 3`) {
		t.Errorf("document:\n%s", d)
	}
}

// TestDocumentRoundTripKeepsChecks: the OpenTool document written from an
// OpenAPI document (-document), generated again, serves the same keywords
// and its decoders make the same checks. (Not yet for the alternatives of
// a union, which the OpenTool model does not type: openapi-schemas.)
func TestDocumentRoundTripKeepsChecks(t *testing.T) {
	for _, gc := range goldenCases(t) {
		c := gc.name
		if c != "openapi-petstore" && c != "openapi-params" && c != "openapi-petstore-agent" {
			continue
		}
		first := generateCase(t, gc)
		doc := first["opentool.gen.json"]
		res, err := Generate("opentool.gen.json", doc, Options{Package: goldenPackage(c)})
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		for _, w := range diagnosticLines(res.Warnings) {
			if !strings.HasSuffix(w, "missing: read as any JSON value") { // an untyped value, as in OpenAPI
				t.Errorf("%s: the document written from OpenAPI warns when generated again: %s", c, w)
			}
		}
		var a, b any
		if json.Unmarshal(doc, &a) != nil || json.Unmarshal(res.Document, &b) != nil {
			t.Fatalf("%s: documents do not parse", c)
		}
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("%s: the document generated again differs (-first +again):\n%s", c, diff)
		}
		// Every check call of the first package is in the second.
		count := func(files map[string][]byte) map[string]int {
			n := map[string]int{}
			for name, content := range files {
				if strings.HasSuffix(name, ".go") {
					for _, fn := range []string{"CheckMin(", "CheckMax(", "CheckLength(", "CheckPattern(", "CheckItems(", "CheckFormat(", "CheckMultipleOf", "CheckUnique", "CheckProperties(", "CheckConst("} {
						n[fn] += strings.Count(string(content), "opentool."+fn)
					}
				}
			}
			return n
		}
		again := map[string][]byte{}
		for _, f := range res.Files {
			again[f.Name] = f.Content
		}
		c1, c2 := count(first), count(again)
		for fn, n := range c1 {
			if c2[fn] < n {
				t.Errorf("%s: %s: %d checks from OpenAPI, %d when generated again", c, fn, n, c2[fn])
			}
		}
	}
}

// TestOpenAPIServedOnlyChecked: what the OpenAPI loader cannot check is not
// served, with a warning at its place, once (the schema is converted as a
// component and again as the request body's members): a format of a union,
// an untyped value, an array, an object, a boolean or a value of several
// types, and bounds that no value meets. internal/checke2e proves that the
// rest of the golden case's keywords are checked.
func TestOpenAPIServedOnlyChecked(t *testing.T) {
	doc, err := os.ReadFile("../testdata/golden/openapi-constraints/constraints.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate("c.yaml", doc, Options{Package: "c"})
	if err != nil {
		t.Fatal(err)
	}
	const at = "/components/schemas/Check/properties/"
	want := []string{
		`c.yaml:48:68: warning: ` + at + `choice/format: format "email" is not checked: the generated decoders do not check format "email" of a value without a type`,
		`c.yaml:49:28: warning: ` + at + `anything/format: format "uuid" is not checked: the generated decoders do not check format "uuid" of a value without a type`,
		`c.yaml:50:60: warning: ` + at + `list/format: format "csv" is not checked: the generated decoders do not check format "csv" of type array`,
		`c.yaml:51:37: warning: ` + at + `obj/format: format "json" is not checked: the generated decoders do not check format "json" of type object`,
		`c.yaml:52:39: warning: ` + at + `flag/format: format "yes-no" is not checked: the generated decoders do not check format "yes-no" of type boolean`,
		`c.yaml:53:50: warning: ` + at + `multi/format: format "date" is not checked: the generated decoders do not check format "date" of a value without a type`,
		`c.yaml:54:61: warning: ` + at + `never/maximum: got 5, not above exclusiveMinimum 5 (no value is valid): both ignored`,
		`c.yaml:55:76: warning: ` + at + `none/maxItems: got 2, less than minItems 3 (no value is valid): both ignored`,
		`c.yaml:56:64: warning: ` + at + `empty/maxProperties: got 1, less than minProperties 2 (no value is valid): both ignored`,
	}
	if diff := cmp.Diff(want, diagnosticLines(res.Warnings)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	checkPositions(t, "c.yaml", doc, res.Warnings)
	var d struct {
		Functions []struct {
			Parameters []struct {
				Name   string
				Schema json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(res.Document, &d); err != nil {
		t.Fatal(err)
	}
	for _, p := range d.Functions[0].Parameters {
		switch p.Name {
		case "choice", "anything", "list", "obj", "flag", "multi", "never", "none", "empty":
			for _, kw := range []string{`"format"`, `"minimum"`, `"maximum"`, `"exclusiveMinimum"`, `"minItems"`, `"maxItems"`, `"minProperties"`, `"maxProperties"`} {
				if strings.Contains(string(p.Schema), kw) {
					t.Errorf("%s: %s served: %s", p.Name, kw, p.Schema)
				}
			}
		}
	}
}
