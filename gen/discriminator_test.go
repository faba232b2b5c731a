package gen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// vetGenerated writes the packages generated from docs (package name to
// document, YAML or JSON) under testdata and vets them with the go command.
func vetGenerated(t *testing.T, docs map[string]string) map[string]*Result {
	t.Helper()
	dir, err := os.MkdirTemp("../testdata", "tmp-gen-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	results := map[string]*Result{}
	args := []string{"vet"}
	for name, doc := range docs {
		res, err := Generate(name+".yaml", []byte(doc), Options{Package: name})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		results[name] = res
		pdir := filepath.Join(dir, name)
		if err := os.MkdirAll(pdir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Files {
			if err := os.WriteFile(filepath.Join(pdir, f.Name), f.Content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		args = append(args, "./testdata/"+filepath.Base(dir)+"/"+name)
	}
	if !testing.Short() {
		goTool(t, nil, args...)
	}
	return results
}

// TestOpenAPIDiscriminatorShared: a discriminator value several variants
// take (one by the mapping, another by the default of its member, a third
// because the mapping's key is its name) is one case of the decoder that
// tries them in document order, and the package compiles (a case per variant
// was a duplicate case before); a mapping value that the variant's own enum
// excludes is a warning at the mapping's entry, and the variant is picked by
// its enum's values.
func TestOpenAPIDiscriminatorShared(t *testing.T) {
	res := vetGenerated(t, map[string]string{"shared": `openapi: 3.0.3
info: {title: shared, version: "1"}
paths:
  /pets:
    post:
      operationId: addPet
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Pet"}
      responses:
        "200": {description: ok}
  /errors:
    post:
      operationId: addError
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Problem"}
      responses:
        "200": {description: ok}
components:
  schemas:
    Pet:
      oneOf:
        - $ref: "#/components/schemas/Cat"
        - $ref: "#/components/schemas/Lion"
        - $ref: "#/components/schemas/Dog"
      discriminator:
        propertyName: kind
        mapping:
          Cat: Dog
          lion: Lion
    Cat:
      type: object
      required: [kind, purr]
      properties: {kind: {type: string}, purr: {type: boolean}}
    Lion:
      type: object
      required: [kind, mane]
      properties: {kind: {type: string}, mane: {type: boolean}}
    Dog:
      type: object
      required: [kind, bark]
      properties: {kind: {type: string, default: lion}, bark: {type: boolean}}
    Problem:
      oneOf:
        - $ref: "#/components/schemas/Missing"
        - $ref: "#/components/schemas/Wrong"
      discriminator:
        propertyName: kind
        mapping:
          missing: Missing
          wrong: Wrong
    Missing:
      type: object
      properties: {kind: {type: string, enum: [absent, empty]}}
    Wrong:
      type: object
      properties: {kind: {type: string, enum: [wrong]}}
`})["shared"]
	var warnings []string
	for _, w := range res.Warnings {
		warnings = append(warnings, w.String())
	}
	want := []string{
		`shared.yaml:53:20: warning: /components/schemas/Problem/discriminator/mapping/missing: discriminator value "missing" maps to "Missing", whose "kind" is one of "absent", "empty"; the variant is picked by those values instead, in the decoder and the declarations`,
	}
	if diff := cmp.Diff(want, warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	types := file(res, "types.gen.go")
	for _, want := range []string{
		// The mapping's key "Cat" is Dog's; Cat keeps its name (no mapping
		// names it): both are tried, Cat first as the document lists it.
		"\tcase \"Cat\":\n\t\tvar v1 Cat\n\t\tvar v2 Dog\n\t\tswitch decode.Shared(d, raw, \"kind\", tag, decode.Try(\"Cat\", &v1, decodeCat), decode.Try(\"Dog\", &v2, decodeDog)) {\n",
		// Dog, mapped from "Cat", is not picked by its default.
		"\tcase \"lion\":\n\t\tvar v Lion\n",
		"\tcase \"absent\", \"empty\":\n\t\tvar v Missing\n",
		"\tcase \"wrong\":\n\t\tvar v Wrong\n",
	} {
		if !strings.Contains(types, want) {
			t.Errorf("types.gen.go lacks %q", want)
		}
	}
	if strings.Contains(types, `case "missing"`) {
		t.Error(`the excluded mapping value "missing" picks a variant`)
	}
	var doc struct {
		Schemas map[string]struct {
			Description string `json:"description"`
			OneOf       []struct {
				Properties map[string]struct {
					Enum []string `json:"enum"`
				} `json:"properties"`
			} `json:"oneOf"`
		} `json:"schemas"`
	}
	if err := json.Unmarshal(res.Document, &doc); err != nil {
		t.Fatal(err)
	}
	var enums [][]string
	for _, name := range []string{"Pet", "Problem"} {
		for _, alt := range doc.Schemas[name].OneOf {
			enums = append(enums, alt.Properties["kind"].Enum)
		}
	}
	if diff := cmp.Diff([][]string{{"Cat"}, {"lion"}, {"Cat"}, {"absent", "empty"}, {"wrong"}}, enums); diff != "" {
		t.Errorf("the values the document declares per variant (-want +got):\n%s", diff)
	}
	if d := doc.Schemas["Pet"].Description; !strings.Contains(d, "variants that share a value of it are told apart by their other members") {
		t.Errorf("Pet's description: %q", d)
	}
}
