package gen

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/gen/load/opentool"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// examplesAPI gives examples in every place OpenAPI has them: a
// parameter's example, its examples, its schema's example; a request
// body's media example, its examples, its schema's example; and an
// operation whose examples lack a required argument.
const examplesAPI = `openapi: 3.1.0
info: {title: Examples, version: "1"}
paths:
  /pets/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: integer}, example: 7}
    put:
      operationId: updatePet
      parameters:
        - name: verbose
          in: query
          schema: {type: boolean}
          examples:
            b: {value: false}
            a: {value: true}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name]
              properties:
                name: {type: string}
                age: {type: integer}
            example: {name: Rex, age: 3}
            examples:
              two: {value: {name: Tom}}
              one: {value: {age: 4}}
    get:
      operationId: getPet
      parameters:
        - {name: fields, in: query, schema: {type: string, example: "name,age"}}
  /pets:
    get:
      operationId: listPets
      parameters:
        - {name: limit, in: query, schema: {type: integer}, example: ten}
        - {name: sort, in: query, schema: {type: string}, example: name}
    post:
      operationId: addPets
      requestBody:
        content:
          application/json:
            schema:
              type: array
              items: {type: object, properties: {name: {type: string}}}
              example: [{name: A}]
  /owners/{owner}:
    get:
      operationId: getOwner
      parameters:
        - {name: owner, in: path, required: true, schema: {type: string}}
        - {name: q, in: query, schema: {type: string}, example: x}
  /plain:
    get:
      operationId: plain
      parameters:
        - {name: q, in: query, schema: {type: string}}
`

// TestOperationExamples checks that an OpenAPI operation's examples reach
// its function in the generated document (assembled into argument objects,
// only complete ones, none where the document gives none), survive the
// OpenTool loader, and become Anthropic's input_examples, checked against
// the schema (a warning names the function of one that does not validate).
func TestOperationExamples(t *testing.T) {
	res, err := Generate("api.yaml", []byte(examplesAPI), Options{Package: "api", Declarations: declare.Anthropic})
	if err != nil {
		t.Fatal(err)
	}
	doc, _, err := opentool.LoadOpenToolWarnings(res.Document)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range doc.Functions {
		var list []string
		for _, ex := range f.Examples {
			list = append(list, string(ex))
		}
		got[f.Name] = strings.Join(list, " ")
	}
	want := map[string]string{
		// The body's example, then its examples by name; the one without
		// the required name is left out. The path item's parameter counts.
		"updatePet": `{"id":7,"verbose":true,"name":"Rex","age":3} {"id":7,"verbose":true,"name":"Tom"}`,
		"getPet":    `{"id":7,"fields":"name,age"}`,
		"listPets":  `{"limit":"ten","sort":"name"}`,
		"addPets":   `{"body":[{"name":"A"}]}`,
		"getOwner":  ``, // the required owner has no example
		"plain":     ``,
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: examples\n got %s\nwant %s", name, got[name], w)
		}
	}
	if strings.Count(string(res.Document), `"examples"`) != 4 {
		t.Errorf("want examples members on 4 functions only:\n%s", res.Document)
	}
	var tools []struct {
		Name     string            `json:"name"`
		Examples []json.RawMessage `json:"input_examples"`
	}
	if err := json.Unmarshal(res.Declarations, &tools); err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, tl := range tools {
		n[tl.Name] = len(tl.Examples)
	}
	if n["updatePet"] != 2 || n["getPet"] != 1 || n["addPets"] != 1 || n["listPets"] != 0 || n["plain"] != 0 {
		t.Errorf("input_examples per tool: %v\n%s", n, res.Declarations)
	}
	if strings.Contains(string(res.Declarations), `"plain","input_schema":{"type":"object","properties":{"q":{"type":"string"}}},"input_examples"`) {
		t.Errorf("an empty input_examples: %s", res.Declarations)
	}
	found := false
	for _, w := range res.Warnings {
		if strings.Contains(w.Message, `function "listPets": example 0 is left out: /limit: got "ten", want a number`) {
			found = true
		}
	}
	if !found {
		t.Errorf("no warning for listPets's example: %v", res.Warnings)
	}
}

// TestTagNamespacesOnePath checks that -namespaces tag and a generated
// Tool's served document declared at run time with
// declare.Options{TagNamespaces: true} give the same declarations: one
// path, from the document's function tags (OpenAPI 3.2 tags with parents).
func TestTagNamespacesOnePath(t *testing.T) {
	api := `openapi: 3.2.0
info: {title: t, version: "1"}
tags:
  - {name: pets, description: Every pet.}
  - {name: dogs, summary: Dogs only., parent: pets}
paths:
  /pets:
    get: {operationId: listPets, tags: [pets], responses: {"200": {description: ok}}}
  /dogs:
    get: {operationId: listDogs, tags: [dogs, pets], responses: {"200": {description: ok}}}
    post: {operationId: addDog, tags: [dogs], responses: {"200": {description: ok}}}
  /ping:
    get: {operationId: ping, responses: {"200": {description: ok}}}
`
	res, err := Generate("api.yaml", []byte(api), Options{Package: "api", Declarations: declare.OpenAIResponses, ToolSearch: true, Namespaces: "tag"})
	if err != nil {
		t.Fatal(err)
	}
	var doc document.OpenTool // what the generated package's Document returns
	if err := json.Unmarshal(res.Document, &doc); err != nil {
		t.Fatal(err)
	}
	d, err := declare.FunctionsWith(&doc, declare.OpenAIResponses, declare.Options{ToolSearch: true, TagNamespaces: true})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := json.Indent(&b, d.Tools, "", "  "); err != nil {
		t.Fatal(err)
	}
	b.WriteByte('\n')
	if !bytes.Equal(b.Bytes(), res.Declarations) {
		t.Errorf("run time:\n%s\ngenerator:\n%s", b.Bytes(), res.Declarations)
	}
	for _, s := range []string{`"name": "dogs",
    "description": "pets › dogs: Dogs only."`, `"name": "pets",
    "description": "Every pet."`} {
		if !strings.Contains(string(res.Declarations), s) {
			t.Errorf("want %s in\n%s", s, res.Declarations)
		}
	}
}
