package gen

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/gen/source"
)

// TestOpenAPIDuplicateKeys: an OpenAPI document (JSON or YAML, the main one
// or a file its $refs name) with a key that comes again loads, as
// encoding/json and JavaScript read it — the last value, in the first one's
// place — with a warning at the second key; the other kinds of document are
// still refused there.
func TestOpenAPIDuplicateKeys(t *testing.T) {
	root := writeTree(t, map[string]string{
		"api/openapi.json": `{
  "openapi": "3.0.3",
  "info": {"title": "Old", "version": "1", "title": "Dup"},
  "paths": {
    "/pets": {"get": {"operationId": "listPets", "responses": {"200": {"description": "ok"}}}},
    "/pets": {"post": {"operationId": "addPet",
      "requestBody": {"content": {"application/json": {"schema": {"$ref": "pet.yaml"}}}},
      "responses": {"200": {"description": "ok"}}}}
  }
}`,
		"api/pet.yaml": "type: object\nproperties:\n  name: {type: string}\n  age: {type: integer}\n  name: {type: integer}\n",
	})
	res, got, err := generateTreeDoc(t, root, "api/openapi.json")
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	want := []string{
		`api/openapi.json:3:44: warning: /info/title: duplicate key "title" (an earlier one is at line 3): the last one's value is used, as most JSON readers do`,
		`api/openapi.json:6:5: warning: /paths/~1pets: duplicate key "/pets" (an earlier one is at line 5): the last one's value is used, as most JSON readers do`,
		`api/pet.yaml:5:3: warning: /properties/name: duplicate key "name" (an earlier one is at line 3): the last one's value is used, as most JSON readers do`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	types, client := file(res, "types.gen.go"), file(res, "client.gen.go")
	if !strings.Contains(string(res.Document), `"title": "Dup"`) || strings.Contains(client, "ListPets") || !strings.Contains(client, "func (c *Client) AddPet(") {
		t.Errorf("the last values were not used:\n%s", res.Document)
	}
	// The member name keeps its place (before age) with the last type.
	if i, j := strings.Index(types, "Name *int64"), strings.Index(types, "Age "); i < 0 || j < i {
		t.Errorf("the pet's fields:\n%s", types)
	}

	// The same in a YAML document.
	res, err = generateOpenAPI(t, "dup.yaml", `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /p:
    get:
      operationId: first
      operationId: second
      responses:
        "200": {description: ok}
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || res.Warnings[0].String() != `dup.yaml:7:7: warning: /paths/~1p/get/operationId: duplicate key "operationId" (an earlier one is at line 6): the last one's value is used, as most JSON readers do` ||
		!strings.Contains(file(res, "client.gen.go"), "func (c *Client) Second(") {
		t.Errorf("YAML: %v", res.Warnings)
	}

	// An OpenTool document is ours, and strict.
	_, err = Generate("tool.json", []byte(`{"opentool": "1.0.0", "info": {"title": "t", "version": "1", "title": "u"}, "functions": []}`), Options{Package: "tool"})
	var e *source.Error
	if !errors.As(err, &e) || err.Error() != `tool.json:1:62: /info/title: duplicate key "title" (the first is at line 1)` {
		t.Errorf("OpenTool: %v", err)
	}
}

// TestYAMLDuplicateKeys: ReadSource keeps the last value of a key that comes
// again, in the first one's place, and records where; a key repeated in a
// mapping merged in through an alias is recorded once, at its place.
func TestYAMLDuplicateKeys(t *testing.T) {
	s, err := source.ReadSource("t.yaml", []byte("a:\n  b: 1\n  c: 0\n  b: 2\nd: &x {e: 1, e: 2}\nf: *x\ng:\n  <<: *x\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(s.JSON); got != `{"a":{"b":2,"c":0},"d":{"e":2},"f":{"e":2},"g":{"e":2}}` {
		t.Errorf("JSON: %s", got)
	}
	want := []source.Duplicate{{Path: "/a/b", Line: 4, Col: 3, FirstLine: 2}, {Path: "/d/e", Line: 5, Col: 14, FirstLine: 5}}
	if diff := cmp.Diff(want, s.Duplicates); diff != "" {
		t.Errorf("duplicates (-want +got):\n%s", diff)
	}
	if line, col := s.Position("/a/b", -1); line != 4 || col != 6 {
		t.Errorf("/a/b at %d:%d, want the last value's 4:6", line, col)
	}
	if got := s.DuplicateDiagnostics(false)[0].String(); got != `t.yaml:4:3: /a/b: duplicate key "b" (the first is at line 2)` {
		t.Errorf("as an error: %s", got)
	}
}
