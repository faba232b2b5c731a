package gen

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

func generateOpenAPI(t *testing.T, name string, doc string) (*Result, error) {
	t.Helper()
	return Generate(name, []byte(doc), Options{Package: "api"})
}

func file(res *Result, name string) string {
	for _, f := range res.Files {
		if f.Name == name {
			return string(f.Content)
		}
	}
	return ""
}

// TestOpenAPIExternalRefs resolves references to other local files relative
// to the document, keeping their member order.
func TestOpenAPIExternalRefs(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "schemas"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "schemas", "pet.yaml"), []byte(`
Pet:
  type: object
  properties:
    zebra: {type: string}
    alpha: {$ref: "#/Owner"}
    middle: {$ref: "tag.json"}
Owner:
  type: object
  properties:
    name: {type: string}
`), 0o644))
	must(os.WriteFile(filepath.Join(dir, "schemas", "tag.json"), []byte(`{"type": "string", "enum": ["a", "b"]}`), 0o644))
	main := filepath.Join(dir, "api.yaml")
	doc := `
openapi: 3.0.3
info: {title: refs, version: "1"}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "schemas/pet.yaml#/Pet"}
`
	must(os.WriteFile(main, []byte(doc), 0o644))
	res, err := Generate(main, []byte(doc), Options{Package: "api"})
	if err != nil {
		t.Fatal(err)
	}
	types := file(res, "types.gen.go")
	zebra, alpha, middle := strings.Index(types, "Zebra "), strings.Index(types, "Alpha "), strings.Index(types, "Middle ")
	if zebra < 0 || !(zebra < alpha && alpha < middle) {
		t.Errorf("want the fields of Pet in document order:\n%s", types)
	}
	for _, want := range []string{"type Pet struct", "type Owner struct", "type Tag string", "Alpha  *Owner", "Middle *Tag"} {
		if !strings.Contains(types, want) {
			t.Errorf("types.gen.go lacks %q:\n%s", want, types)
		}
	}
}

// TestOpenAPIRemoteRefs refuses references to URLs: only local files are read.
func TestOpenAPIRemoteRefs(t *testing.T) {
	_, err := generateOpenAPI(t, "remote.yaml", `
openapi: 3.0.3
info: {title: remote, version: "1"}
paths:
  /x:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "http://127.0.0.1:1/schemas.yaml#/X"}
`)
	var e *source.Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "only references to local files are followed") || !strings.HasPrefix(err.Error(), "remote.yaml:") {
		t.Errorf("got %v", err)
	}
}

func TestOpenAPIBrokenDocument(t *testing.T) {
	_, err := generateOpenAPI(t, "broken.json", `{"openapi": "3.0.0", "info": {"title": "x", "version": "1"}, "paths": {"/x": {"get": {"parameters": 5}}}}`)
	if err == nil || !strings.HasPrefix(err.Error(), "broken.json:") {
		t.Errorf("got %v", err)
	}
}

// TestOpenAPIWarnings: what the generator cannot honour is a warning at its
// place, and the rest of the document is generated.
func TestOpenAPIWarnings(t *testing.T) {
	res, err := generateOpenAPI(t, "warn.yaml", `openapi: 3.0.3
info: {title: warn, version: "1"}
paths:
  /x:
    get:
      operationId: getX
      parameters:
        - name: q
          in: query
          schema:
            type: string
            pattern: "^(?!bad).*$"
      responses:
        "204": {description: ok}
components:
  securitySchemes:
    digest:
      type: http
      scheme: digest
`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range res.Warnings {
		got = append(got, w.String())
	}
	want := []string{
		`warn.yaml:18:7: warning: /components/securitySchemes/digest: HTTP authentication scheme "digest" is not supported: the client cannot send it`,
		`warn.yaml:12:22: warning: /paths/~1x/get/parameters/0/schema/pattern: pattern "^(?!bad).*$" is not checked: Go's regexp package does not accept it (invalid or unsupported Perl syntax: ` + "`(?!`" + `)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(file(res, "client.gen.go"), "func (c *Client) GetX(") {
		t.Error("the operation was not generated")
	}
}

// TestOpenAPIDiscriminatorMapping: a discriminator's mapping names the
// variants by reference or by a schema name as loosely written as a Go name
// ("PetCat" for the schema "pet_cat"); a value mapped to no variant is a
// warning.
func TestOpenAPIDiscriminatorMapping(t *testing.T) {
	res, err := generateOpenAPI(t, "disc.yaml", `openapi: 3.0.3
info: {title: disc, version: "1"}
paths:
  /pets:
    get:
      operationId: getPet
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                oneOf:
                  - $ref: "#/components/schemas/pet_cat"
                  - $ref: "#/components/schemas/Dog"
                discriminator:
                  propertyName: kind
                  mapping:
                    c: PetCat
                    d: "#/components/schemas/Dog"
                    x: Nothing
components:
  schemas:
    pet_cat:
      type: object
      properties: {kind: {type: string}}
    Dog:
      type: object
      properties: {kind: {type: string}}
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || !strings.HasSuffix(res.Warnings[0].String(), `/discriminator/mapping/x: discriminator value "x" maps to "Nothing", which is not one of the variants`) {
		t.Errorf("warnings: %v", res.Warnings)
	}
	types := file(res, "types.gen.go")
	for _, want := range []string{
		"\tcase \"c\":\n\t\tvar v PetCat\n",
		"\tcase \"d\":\n\t\tvar v Dog\n",
	} {
		if !strings.Contains(types, want) {
			t.Errorf("types.gen.go lacks %q", want)
		}
	}
	if strings.Contains(types, `case "pet_cat":`) || strings.Contains(types, `case "Dog":`) {
		t.Error("a mapped variant kept its implicit tag")
	}
}

// TestSelect chooses functions by name, tag and path: the package keeps them
// and the types and document schemas they need, and nothing else.
func TestSelect(t *testing.T) {
	data, err := os.ReadFile("../testdata/golden/openapi-petstore/petstore.yaml")
	if err != nil {
		t.Fatal(err)
	}
	gen := func(include, exclude []string) (*Result, error) {
		return Generate("petstore.yaml", data, Options{Package: "api", Include: include, Exclude: exclude})
	}
	all, err := gen(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		include, exclude []string
		want             []string // the functions kept
	}{
		{[]string{"tag:pets"}, nil, []string{"listPets"}},
		{[]string{"path:/pets/*"}, []string{"deletePet"}, []string{"showPetById", "updatePet"}},
		{[]string{"*Pet*"}, []string{"tag:pets", "update*"}, []string{"createPet", "showPetById", "deletePet"}},
		{nil, []string{"path:/pets/*", "path:/pets/*/*"}, []string{"listPets", "createPet", "stats"}},
	} {
		res, err := gen(tc.include, tc.exclude)
		if err != nil {
			t.Fatalf("%v %v: %v", tc.include, tc.exclude, err)
		}
		var doc document.OpenTool
		if err := json.Unmarshal(res.Document, &doc); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range doc.Functions {
			names = append(names, f.Name)
		}
		if strings.Join(names, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%v %v: functions %v, want %v", tc.include, tc.exclude, names, tc.want)
		}
		// Every reference the kept functions make resolves; no schema is kept
		// that nothing refers to.
		used := map[string]bool{}
		var walk func(s *document.Schema)
		walk = func(s *document.Schema) {
			s.Each(func(s *document.Schema) bool {
				if n, ok := document.RefName(s.Ref); ok {
					if doc.Schemas.Get(n) == nil {
						t.Errorf("%v: %s does not resolve", tc.include, s.Ref)
					}
					if !used[n] {
						used[n] = true
						walk(doc.Schemas.Get(n))
					}
				}
				return true
			})
		}
		for _, f := range doc.Functions {
			for _, p := range f.Parameters {
				walk(p.Schema)
			}
			if f.Return != nil {
				walk(f.Return.Schema)
			}
		}
		for _, m := range doc.Schemas {
			if !used[m.Name] {
				t.Errorf("%v %v: schema %q kept, unused", tc.include, tc.exclude, m.Name)
			}
		}
		if len(file(res, "types.gen.go")) >= len(file(all, "types.gen.go")) {
			t.Errorf("%v %v: types.gen.go not smaller than the whole package's", tc.include, tc.exclude)
		}
	}
	// Only listPets: no NewPet (createPet's body), no arguments of others.
	res, _ := gen([]string{"listPets"}, nil)
	if types := file(res, "types.gen.go"); strings.Contains(types, "type NewPet ") || strings.Contains(types, "type CreatePetArgs ") ||
		!strings.Contains(types, "type Pet struct") || !strings.Contains(types, "type ListPetsArgs ") {
		t.Errorf("listPets alone: types.gen.go keeps %v", regexp.MustCompile(`(?m)^type (\w+)`).FindAllString(types, -1))
	}
	// A pattern that matches nothing is a warning; keeping nothing, or a
	// malformed pattern, an error.
	res, err = gen([]string{"listPets", "nope*"}, nil)
	if err != nil || len(res.Warnings) == 0 || !strings.Contains(res.Warnings[len(res.Warnings)-1].String(), `pattern "nope*" chose no function`) {
		t.Errorf("a pattern matching nothing: %v %v", err, res)
	}
	if _, err := gen([]string{"nope"}, nil); err == nil || !strings.Contains(err.Error(), "keep none of the 7 functions") {
		t.Errorf("keeping nothing: %v", err)
	}
	if _, err := gen([]string{"tag:["}, nil); err == nil || !strings.Contains(err.Error(), `pattern "tag:["`) {
		t.Errorf("a malformed pattern: %v", err)
	}
}

// TestSelectOpenTool: an OpenTool document's functions are chosen by name the
// same way, and the schemas only the others used go.
func TestSelectOpenTool(t *testing.T) {
	data, err := os.ReadFile("../testdata/golden/mocktool/mock_tool.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate("mock_tool.json", data, Options{Package: "mock", Include: []string{"read", "update"}})
	if err != nil {
		t.Fatal(err)
	}
	types := file(res, "types.gen.go")
	if strings.Contains(types, "type Count ") || !strings.Contains(types, "type ReadArgs ") || strings.Contains(types, "type CreateArgs ") {
		t.Errorf("types: %v", regexp.MustCompile(`(?m)^type (\w+)`).FindAllString(types, -1))
	}
	if tool := file(res, "tool.gen.go"); strings.Contains(tool, "Count(") || !strings.Contains(tool, "Update(ctx") {
		t.Errorf("tool.gen.go has the wrong functions")
	}
}

// TestOpenAPIAWSSignature: AWS's documents declare Signature Version 4 as an
// API key in Authorization (x-amazon-apigateway-authtype); the client cannot
// sign, so the scheme is a warning at its place and no option, and the
// operations that require it are generated without it.
func TestOpenAPIAWSSignature(t *testing.T) {
	res, err := generateOpenAPI(t, "aws.yaml", `openapi: 3.0.0
info: {title: aws, version: "1"}
security: [{hmac: []}]
paths:
  "/#Action=Describe":
    get:
      operationId: Describe
      responses:
        "200": {description: ok, content: {text/xml: {schema: {type: string}}}}
components:
  securitySchemes:
    hmac:
      type: apiKey
      name: Authorization
      in: header
      x-amazon-apigateway-authtype: awsSigv4
`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range res.Warnings {
		got = append(got, w.String())
	}
	want := `aws.yaml:13:7: warning: /components/securitySchemes/hmac: AWS Signature Version 4 (x-amazon-apigateway-authtype "awsSigv4") is not supported: the client does not sign requests; sign each one with WithRequestEditor (or an http.RoundTripper in WithHTTPClient)`
	if strings.Join(got, "\n") != want {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
	client := file(res, "client.gen.go")
	if strings.Contains(client, "WithHmac") || strings.Contains(client, "r.Security(") || !strings.Contains(client, `NewRequest("GET", "/#Action=Describe")`) {
		t.Errorf("client.gen.go: want Describe without a security scheme:\n%s", client)
	}
}
