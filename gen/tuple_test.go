package gen

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOpenAPITuples: tuples load as slices — of the items' type when they
// share a schema, of untyped values when they differ — whether written as
// 3.1's prefixItems (closed by items: false, continued by an items schema)
// or as an array of schemas in items, which OpenAPI does not allow (a
// warning at the member: read as prefixItems, or in Swagger 2.0 as the one
// schema the items share, or as no schema); the packages compile.
func TestOpenAPITuples(t *testing.T) {
	const paths = `
paths:
  /p:
    post:
      operationId: put
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/T"}
      responses:
        "200": {description: ok}
`
	const swaggerPaths = `
paths:
  /p:
    post:
      operationId: put
      parameters:
        - {in: body, name: body, schema: {$ref: "#/definitions/T"}}
      responses:
        "200": {description: ok}
`
	res := vetGenerated(t, map[string]string{
		"v31": `openapi: 3.1.0
info: {title: t, version: "1"}` + paths + `components:
  schemas:
    Point:
      type: object
      properties: {x: {type: number}}
    T:
      type: object
      properties:
        closed: {type: array, prefixItems: [{type: integer}, {type: integer}], items: false}
        open: {type: array, prefixItems: [{type: integer}], items: {type: integer}}
        refs: {type: array, prefixItems: [{$ref: "#/components/schemas/Point"}, {$ref: "#/components/schemas/Point"}]}
        mixed: {type: array, prefixItems: [{type: string}, {$ref: "#/components/schemas/Point"}], items: false}
        rest: {type: array, prefixItems: [{type: string}], items: {type: boolean}}
        untyped: {prefixItems: [{type: string}, {}]}
`,
		"v30": `openapi: 3.0.3
info: {title: t, version: "1"}` + paths + `components:
  schemas:
    T:
      type: object
      properties:
        same: {type: array, items: [{type: string, description: first}, {type: string, description: second}]}
        differ: {type: array, maxItems: 3, items: [{type: string}, {type: number, nullable: true}]}
`,
		"v20": `swagger: "2.0"
info: {title: t, version: "1"}` + swaggerPaths + `definitions:
  T:
    type: object
    properties:
      same: {type: array, items: [{type: integer}, {type: integer}]}
      differ: {type: array, items: [{type: integer}, {type: string}]}
`,
	})
	fields := func(name string) map[string]string {
		out := map[string]string{}
		for _, line := range strings.Split(file(res[name], "types.gen.go"), "\n") {
			f := strings.Fields(line)
			if len(f) == 3 && strings.HasPrefix(f[2], "`json:") {
				out[f[0]] = f[1]
			}
		}
		return out
	}
	wantFields := map[string]map[string]string{
		"v31": {"Closed": "[]int64", "Open": "[]int64", "Refs": "[]Point", "Mixed": "[]json.RawMessage", "Rest": "[]json.RawMessage", "Untyped": "[]json.RawMessage"},
		"v30": {"Same": "[]string", "Differ": "[]json.RawMessage"},
		"v20": {"Same": "[]int64", "Differ": "[]json.RawMessage"},
	}
	for name, want := range wantFields {
		got := fields(name)
		for f, typ := range want {
			if got[f] != typ {
				t.Errorf("%s: field %s is %q, want %q", name, f, got[f], typ)
			}
		}
	}
	warnings := map[string][]string{}
	for name, r := range res {
		for _, w := range r.Warnings {
			warnings[name] = append(warnings[name], w.String())
		}
	}
	wantWarnings := map[string][]string{
		"v30": {
			`v30.yaml:18:29: warning: /components/schemas/T/properties/same/items: "items" is an array of schemas (a tuple in the form of JSON Schema drafts before 2020-12, which OpenAPI does not allow); read as "prefixItems"`,
			`v30.yaml:19:44: warning: /components/schemas/T/properties/differ/items: "items" is an array of schemas (a tuple in the form of JSON Schema drafts before 2020-12, which OpenAPI does not allow); read as "prefixItems"`,
		},
		"v20": {
			`v20.yaml:15:27: warning: /definitions/T/properties/same/items: "items" is an array of schemas (a tuple, which the specification does not allow), all the same: read as that schema`,
			`v20.yaml:16:29: warning: /definitions/T/properties/differ/items: "items" is an array of schemas (a tuple, which the specification does not allow); the items are read as any JSON values`,
		},
	}
	if diff := cmp.Diff(wantWarnings, warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	// What the OpenTool document says of each.
	var doc struct {
		Schemas map[string]struct {
			Properties map[string]struct {
				Description string          `json:"description"`
				Items       json.RawMessage `json:"items"`
				MaxItems    *int            `json:"maxItems"`
			} `json:"properties"`
		} `json:"schemas"`
	}
	if err := json.Unmarshal(res["v31"].Document, &doc); err != nil {
		t.Fatal(err)
	}
	p := doc.Schemas["T"].Properties
	if m := p["closed"].MaxItems; m == nil || *m != 2 || compact(p["closed"].Items) != `{"type":"integer"}` {
		t.Errorf("closed: %+v", p["closed"])
	}
	if p["open"].MaxItems != nil {
		t.Errorf("open: maxItems %d", *p["open"].MaxItems)
	}
	if m := p["mixed"].MaxItems; m == nil || *m != 2 || compact(p["mixed"].Items) != `{}` ||
		!strings.Contains(p["mixed"].Description, "a tuple whose items have different schemas (string, Point; no items after them); each item is any JSON value") {
		t.Errorf("mixed: %+v", p["mixed"])
	}
	if d := p["rest"].Description; !strings.Contains(d, "(string; items after them: boolean)") {
		t.Errorf("rest: %q", d)
	}
	if err := json.Unmarshal(res["v30"].Document, &doc); err != nil {
		t.Fatal(err)
	}
	if d := doc.Schemas["T"].Properties["same"]; d.Description != "Items: 1. first; 2. second." || compact(d.Items) != `{"type":"string"}` {
		t.Errorf("same: %+v", d)
	}
	if d := doc.Schemas["T"].Properties["differ"]; !strings.Contains(d.Description, "(string, number; any items after them)") || d.MaxItems == nil || *d.MaxItems != 3 {
		t.Errorf("differ: %+v", d)
	}

	// An item of a tuple that is not a schema: an error at its place.
	_, err := generateOpenAPI(t, "bad.yaml", `openapi: 3.0.3
info: {title: t, version: "1"}`+paths+`components:
  schemas:
    T:
      type: object
      properties:
        bad: {type: array, items: [{type: string}, 3]}
`)
	if err == nil || err.Error() != `bad.yaml:18:28: warning: /components/schemas/T/properties/bad/items: "items" is an array of schemas (a tuple in the form of JSON Schema drafts before 2020-12, which OpenAPI does not allow); read as "prefixItems"
bad.yaml:18:52: /components/schemas/T/properties/bad/items/1: want a schema object, got a number` {
		t.Errorf("a tuple item that is not a schema: %v", err)
	}
}

// compact is raw without white space.
func compact(raw []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}
