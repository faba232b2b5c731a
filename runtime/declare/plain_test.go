package declare_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// declDoc (testdata/declarations.json, which profile_test.go reads
// too) has every kind of parameter a declaration carries: required and
// optional, described or not, without a schema, references to a schema that
// references another, to a recursive schema and to schemas with odd names, and
// a streaming function.
var declDoc = func() string {
	b, err := os.ReadFile("testdata/declarations.json")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

func declLoad(t *testing.T) *document.OpenTool {
	t.Helper()
	var doc document.OpenTool
	if err := json.Unmarshal([]byte(declDoc), &doc); err != nil {
		t.Fatal(err)
	}
	return &doc
}

func TestDeclarations(t *testing.T) {
	doc := declLoad(t)
	before, _ := json.Marshal(doc)
	decls := declare.Plain(doc)
	if after, _ := json.Marshal(doc); !bytes.Equal(before, after) {
		t.Errorf("Declarations changed the document:\n%s\n%s", before, after)
	}

	const (
		item  = `"Item":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`
		order = `"Order":{"type":"object","properties":{"item":{"$ref":"#/$defs/Item"},"qty":{"type":"integer"},"meta":{"type":"object","additionalProperties":{"$ref":"#/$defs/a~1b~0c%25d%20e%23%C3%A9"}}},"required":["item"]}`
		tree  = `"Tree":{"type":"object","properties":{"value":{"$ref":"#/$defs/Item"},"children":{"type":"array","items":{"$ref":"#/$defs/Tree"}}},"required":["value"]}`
		odd   = `"a/b~c%d e#é":{"type":"string","enum":["x"]}`
	)
	want := []declare.Declaration{
		{Name: "plain", Description: "Plain parameters.", Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"city":{"type":"string","description":"The city."},` +
			`"days":{"type":"integer","minimum":1},` +
			`"unit":{"type":"string","description":"Own.","enum":["c","f"]},` +
			`"anything":{"description":"No schema."},` +
			`"bare":{}` +
			`},"required":["city"]}`)},
		{Name: "refs", Description: "References.", Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"order":{"$ref":"#/$defs/Order","description":"The order."},` +
			`"tree":{"$ref":"#/$defs/Tree"},` +
			`"odd":{"$ref":"#/$defs/a~1b~0c%25d%20e%23%C3%A9"},` +
			`"again":{"type":"array","items":{"$ref":"#/$defs/Item"}}` +
			`},"required":["order","tree"],"$defs":{` + item + `,` + order + `,` + tree + `,` + odd + `}}`)},
		{Name: "ticks", Description: "A streaming function.", Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)},
		{Name: "none", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)},
	}
	if len(decls) != len(want) {
		t.Fatalf("%d declarations, want %d", len(decls), len(want))
	}
	for i := range want {
		got, w := decls[i], want[i]
		if got.Name != w.Name || got.Description != w.Description {
			t.Errorf("declaration %d = %q %q, want %q %q", i, got.Name, got.Description, w.Name, w.Description)
		}
		if !json.Valid(w.Parameters) {
			t.Fatalf("%s: the wanted parameters are not JSON", w.Name)
		}
		if string(got.Parameters) != string(w.Parameters) {
			t.Errorf("%s: parameters\n got %s\nwant %s", w.Name, got.Parameters, w.Parameters)
		}
	}

	// The wire form chat APIs take.
	b, err := json.Marshal(decls[3])
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"name":"none","parameters":{"type":"object","properties":{}}}`; string(b) != want {
		t.Errorf("JSON = %s, want %s", b, want)
	}
}

func TestDeclarationsEmpty(t *testing.T) {
	if got := declare.Plain(nil); got != nil {
		t.Errorf("Declarations(nil) = %v, want nil", got)
	}
	if got := declare.Plain(&document.OpenTool{}); len(got) != 0 {
		t.Errorf("Declarations(no functions) = %v, want none", got)
	}
}

// TestDeclarationsAreJSONSchema compiles each declaration's parameters with a
// JSON Schema (2020-12) validator, which checks them against the metaschema and
// resolves every reference, and validates arguments with them.
func TestDeclarationsAreJSONSchema(t *testing.T) {
	decls := declare.Plain(declLoad(t))
	schemas := map[string]*jsonschema.Schema{}
	for _, d := range decls {
		var shape struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
			Defs       map[string]json.RawMessage `json:"$defs"`
		}
		if err := json.Unmarshal(d.Parameters, &shape); err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		if shape.Type != "object" || shape.Properties == nil {
			t.Errorf("%s: parameters %s: want an object schema with properties", d.Name, d.Parameters)
		}
		for _, r := range shape.Required {
			if _, ok := shape.Properties[r]; !ok {
				t.Errorf("%s: required %q is not a property", d.Name, r)
			}
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(d.Parameters))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		url := "mem:///" + d.Name + ".json"
		if err := c.AddResource(url, doc); err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		s, err := c.Compile(url)
		if err != nil {
			t.Fatalf("%s: parameters %s: %v", d.Name, d.Parameters, err)
		}
		schemas[d.Name] = s
	}
	tests := []struct {
		fn, args string
		valid    bool
	}{
		{"plain", `{"city":"Paris"}`, true},
		{"plain", `{"city":"Paris","days":3,"unit":"c","anything":[{}],"bare":null}`, true},
		{"plain", `{}`, false},
		{"plain", `{"city":1}`, false},
		{"plain", `{"city":"x","unit":"k"}`, false},
		{"plain", `{"city":"x","days":0}`, false},
		{"refs", `{"order":{"item":{"name":"a"},"qty":2,"meta":{"k":"x"}},"tree":{"value":{"name":"r"},"children":[{"value":{"name":"c"},"children":[]}]},"odd":"x","again":[{"name":"b"}]}`, true},
		{"refs", `{"order":{"item":{"name":"a"},"meta":{"k":"y"}},"tree":{"value":{"name":"r"}}}`, false},             // via the odd name
		{"refs", `{"order":{"item":{"name":"a"}},"tree":{"value":{"name":"r"},"children":[{"children":[]}]}}`, false}, // recursion
		{"refs", `{"order":{"item":{}},"tree":{"value":{"name":"r"}}}`, false},                                        // Order → Item
		{"refs", `{"order":{"item":{"name":"a"}},"tree":{"value":{"name":"r"}},"odd":"y"}`, false},
		{"refs", `{"order":{"item":{"name":"a"}},"tree":{"value":{"name":"r"}},"again":[{}]}`, false},
		{"ticks", `{"n":1}`, true},
		{"ticks", `{"n":"1"}`, false},
		{"none", `{}`, true},
	}
	for _, tt := range tests {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(tt.args))
		if err != nil {
			t.Fatal(err)
		}
		err = schemas[tt.fn].Validate(v)
		if (err == nil) != tt.valid {
			t.Errorf("%s(%s): validation error %v, want valid %v", tt.fn, tt.args, err, tt.valid)
		}
	}
}

// TestDeclarationsDefsOnce checks that each referenced schema lands in $defs
// exactly once, in name order, whatever the order and number of references.
func TestDeclarationsDefsOnce(t *testing.T) {
	doc := &document.OpenTool{
		Functions: []document.Function{{Name: "f", Parameters: []document.Parameter{
			{Name: "z", Schema: &document.Schema{Ref: "#/schemas/Z"}},
			{Name: "z2", Schema: &document.Schema{Type: document.TypeArray, Items: &document.Schema{Ref: "#/schemas/Z"}}},
			{Name: "a", Schema: &document.Schema{Ref: "#/schemas/A"}},
			{Name: "u", Schema: &document.Schema{OneOf: []*document.Schema{{Ref: "#/schemas/U"}, nil}, AnyOf: []*document.Schema{{Ref: "#/schemas/A"}}}},
		}}},
		Schemas: document.Schemas{
			{Name: "Z", Schema: &document.Schema{Type: document.TypeObject, Properties: document.Schemas{
				{Name: "m", Schema: &document.Schema{Ref: "#/schemas/M"}},
				{Name: "self", Schema: &document.Schema{Ref: "#/schemas/Z"}},
			}}},
			{Name: "M", Schema: &document.Schema{Type: document.TypeArray, Items: &document.Schema{Ref: "#/schemas/B"}}},
			{Name: "B", Schema: &document.Schema{Type: document.TypeObject, Properties: document.Schemas{
				{Name: "z", Schema: &document.Schema{Ref: "#/schemas/Z"}},
				{Name: "a", Schema: &document.Schema{Ref: "#/schemas/A"}},
			}}},
			{Name: "A", Schema: &document.Schema{Type: document.TypeString}},
			{Name: "Unused", Schema: &document.Schema{Type: document.TypeString}},
			{Name: "U", Schema: &document.Schema{Type: document.TypeArray, Items: &document.Schema{Ref: "#/schemas/U"}}},
		},
	}
	decls := declare.Plain(doc)
	if len(decls) != 1 {
		t.Fatalf("%d declarations", len(decls))
	}
	var p struct {
		Defs document.Schemas `json:"$defs"`
	}
	if err := json.Unmarshal(decls[0].Parameters, &p); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range p.Defs {
		names = append(names, d.Name)
	}
	if diff := cmp.Diff([]string{"A", "B", "M", "U", "Z"}, names); diff != "" {
		t.Errorf("$defs (-want +got):\n%s\nin %s", diff, decls[0].Parameters)
	}
	if strings.Contains(string(decls[0].Parameters), "#/schemas/") {
		t.Errorf("a reference is not rewritten: %s", decls[0].Parameters)
	}
	if want := `"u":{"oneOf":[{"$ref":"#/$defs/U"},{}],"anyOf":[{"$ref":"#/$defs/A"}]}`; !strings.Contains(string(decls[0].Parameters), want) {
		t.Errorf("parameters %s do not contain %s", decls[0].Parameters, want)
	}
}
