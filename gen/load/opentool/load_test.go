package opentool_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opentoolgen/opentoolgen/gen/load/opentool"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// loadExamples returns the reference implementations' example documents.
func loadExamples(t testing.TB) map[string][]byte {
	t.Helper()
	// The documents runtime's tests serve, too.
	files, err := filepath.Glob("../../../runtime/testdata/opentool/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples in runtime/testdata/opentool: %v", err)
	}
	docs := make(map[string][]byte)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs[filepath.Base(f)] = data
	}
	return docs
}

func TestLoadOpenToolExamples(t *testing.T) {
	for name, data := range loadExamples(t) {
		t.Run(name, func(t *testing.T) {
			doc, warnings, err := opentool.LoadOpenToolWarnings(data)
			if err != nil {
				t.Fatal(err)
			}
			if len(warnings) > 0 {
				t.Errorf("warnings: %v", warnings)
			}
			loadRoundTrip(t, doc)
		})
	}
}

func TestLoadOpenToolMockTool(t *testing.T) {
	doc, err := opentool.LoadOpenTool(loadExamples(t)["mock_tool.json"])
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Functions) != 7 || doc.Info.Title != "CRUD API for mock" || doc.OpenTool != "1.0.0" || doc.Server != nil {
		t.Fatalf("got %+v", doc)
	}
	count := doc.Functions[0]
	if count.Parameters == nil || len(count.Parameters) != 0 {
		t.Errorf("count: parameters %#v, want an empty non-nil slice", count.Parameters)
	}
	if got := count.Return; got == nil || got.Name != "Count" || got.Description != "Storage size" || got.Schema.Ref != "#/schemas/Count" {
		t.Errorf("count: return %+v", got)
	}
	if s, err := doc.Resolve(count.Return.Schema); err != nil || s.Type != document.TypeInteger {
		t.Errorf("count: Resolve: %+v, %v", s, err)
	}
	seq := doc.Functions[3]
	if seq.Name != "sequentiallyRead" || seq.Return != nil || !seq.IsStream() || seq.StreamData().Name != "text" || seq.StreamData().Schema.Ref != "#/schemas/Text" {
		t.Errorf("sequentiallyRead: %+v", seq)
	}
	if update := doc.Functions[4]; update.Return != nil || len(update.Parameters) != 2 || !update.Parameters[1].Required {
		t.Errorf("update: %+v", update)
	}
	var names []string
	for _, s := range doc.Schemas {
		names = append(names, s.Name)
	}
	if diff := cmp.Diff([]string{"Count", "Id", "Text"}, names); diff != "" {
		t.Errorf("schema order (-want +got):\n%s", diff)
	}
	out, err := json.Marshal(doc.Functions[6])
	if err != nil || string(out) != `{"name":"run","description":"trigger runing","parameters":[]}` {
		t.Errorf("run: got %s, %v", out, err)
	}
}

// loadRoundTrip checks that doc survives json.Marshal and LoadOpenTool unchanged.
func loadRoundTrip(t testing.TB, doc *document.OpenTool) {
	t.Helper()
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	again, err := opentool.LoadOpenTool(out)
	if err != nil {
		t.Fatalf("LoadOpenTool(Marshal(doc)): %v\n%s", err, out)
	}
	if diff := cmp.Diff(doc, again); diff != "" {
		t.Fatalf("round trip changed the document (-first +second):\n%s\n%s", diff, out)
	}
}

const loadHead = `{"opentool":"1.0.0","info":{"title":"t","version":"1"},`

// loadBadCases are documents LoadOpenTool rejects, each with every error
// (and warning) expected, in document order.
var loadBadCases = []struct {
	name     string
	doc      string
	errs     []string
	warnings []string
}{
	{
		name: "not an object",
		doc:  `[]`,
		errs: []string{"(root): got an empty array, want an OpenTool document (an object)"},
	},
	{
		name: "empty object",
		doc:  `{}`,
		errs: []string{
			"/opentool: missing, want a string",
			"/info: missing, want an object",
			"/functions: missing, want an array",
		},
	},
	{
		name: "top-level types",
		doc:  `{"opentool": 1, "info": {"title": 2}, "server": {"description": "x"}, "functions": {}, "schemas": []}`,
		errs: []string{
			"/opentool: got number 1, want a string",
			"/info/version: missing, want a string",
			"/info/title: got number 2, want a string",
			"/server/url: missing, want a string",
			"/functions: got an object, want an array",
			"/schemas: got an empty array, want an object mapping names to schemas",
		},
	},
	{
		name: "null for required members",
		doc:  `{"opentool": null, "info": null, "functions": null}`,
		errs: []string{
			"/opentool: got null, want a string",
			"/info: got null, want an object",
			"/functions: got null, want an array",
		},
	},
	{
		name: "functions",
		doc: loadHead + `"functions":[
			{"name":"get weather","description":"d","parameters":[]},
			{"name":"f","parameters":[
				{"name":"a","schema":{"type":"string"},"required":true},
				{"name":"a","schema":{"type":"strin"},"required":"yes"}
			], "return": []},
			{"name":"f","description":3},
			{"name":"` + strings.Repeat("x", 65) + `","description":"d","parameters":[1]},
			{"description":"d","parameters":{}},
			7
		]}`,
		errs: []string{
			`/functions/0/name: got "get weather", want 1 to 64 characters a-z, A-Z, 0-9, _ or -`,
			`/functions/1/parameters/1/name: duplicate parameter name "a"; the first is /functions/1/parameters/0`,
			`/functions/1/parameters/1/schema/type: got "strin", want one of boolean, integer, number, string, array, object`,
			`/functions/1/parameters/1/required: got string "yes", want a boolean`,
			`/functions/1/return: got an empty array, want an object or null`,
			`/functions/2/name: duplicate function name "f"; the first is /functions/1`,
			`/functions/2/description: got number 3, want a string`,
			`/functions/3/name: got "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…", want 1 to 64 characters a-z, A-Z, 0-9, _ or -`,
			`/functions/3/parameters/0: got number 1, want a parameter object`,
			`/functions/4/name: missing, want a string`,
			`/functions/4/parameters: got an object, want an array`,
			`/functions/5: got number 7, want a function object`,
		},
		warnings: []string{
			`/functions/1/description: warning: missing, want a string that says what the function does`,
			`/functions/2/parameters: warning: missing, want an array; reading it as []`,
		},
	},
	{
		name: "parameters, returns and streams",
		doc: loadHead + `"functions":[{"name":"f","description":"d","parameters":[
			{"schema":{"type":"string"}},
			{"name":"b","required":true},
			{"name":"c","required":true,"schema":[]}
		],
		"return":{"description":"r"},
		"stream":{"data":3,"end":{"name":"e","schema":null}}}]}`,
		errs: []string{
			`/functions/0/parameters/0/name: missing, want a string`,
			`/functions/0/parameters/1/schema: missing, want a schema object`,
			`/functions/0/parameters/2/schema: got an empty array, want a schema object`,
			`/functions/0/return/name: missing, want a string`,
			`/functions/0/return/schema: missing, want a schema object`,
			`/functions/0/stream/data: got number 3, want a return object`,
			`/functions/0/stream/end/schema: got null, want a schema object`,
		},
		warnings: []string{
			`/functions/0/parameters/0/required: warning: missing, want a boolean; reading it as false`,
		},
	},
	{
		name: "schemas",
		doc: loadHead + `"functions":[{"name":"f","description":"d","parameters":[
			{"name":"a","required":true,"schema":{"type":"object","properties":{"x":{"type":"string"}},"required":["x","y","x",1]}},
			{"name":"b","required":true,"schema":{"type":"array"}},
			{"name":"c","required":true,"schema":{"type":"string","enum":["a",1,"a",null]}},
			{"name":"d","required":true,"schema":{"type":"integer","enum":[1,1.5,1.0,10e-1,[]]}},
			{"name":"e","required":true,"schema":{"type":"number","minimum":5,"maximum":1,"minLength":2,"format":"double","x-go-type":"float64","title":"t","oneOf":[]}},
			{"name":"f","required":true,"schema":{"description":"no type"}},
			{"name":"g","required":true,"schema":{"$ref":"#/schemas/Nope","type":"string","description":"ok","x-y":1}},
			{"name":"h","required":true,"schema":{"$ref":"#/definitions/X"}},
			{"name":"i","required":true,"schema":{"$ref":3}},
			{"name":"j","required":true,"schema":{"type":"string","default":3,"minLength":-1,"maxLength":1.5,"pattern":"(?=x)"}},
			{"name":"k","required":true,"schema":{"type":"object","enum":[{}]}},
			{"name":"l","required":true,"schema":{"type":"string","enum":[]}},
			{"name":"m","required":true,"schema":{"type":"array","items":{"type":"string"},"minItems":3,"maxItems":2,"nullable":"no"}},
			{"name":"n","required":true,"schema":{"type":["string","null"],"properties":3}},
			{"name":"o","required":true,"schema":{"type":"object","additionalProperties":"no","properties":{"p":{"type":"number","minimum":1e400}}}},
			{"name":"p","required":true,"schema":{"type":"string","properties":{},"items":{},"required":[]}}
		]}],
		"schemas":{"S":{"type":"string"},"":{"type":"string"}}}`,
		errs: []string{
			`/functions/0/parameters/0/schema/required/1: got "y", want the name of a property of this schema`,
			`/functions/0/parameters/0/schema/required/3: got number 1, want a property name (a string)`,
			`/functions/0/parameters/1/schema/items: missing, want a schema for the elements (required with type array)`,
			`/functions/0/parameters/2/schema/enum/1: got number 1, want a string`,
			`/functions/0/parameters/2/schema/enum/2: got string "a" again, want distinct values (the same as /functions/0/parameters/2/schema/enum/0)`,
			`/functions/0/parameters/2/schema/enum/3: got null, want a value of type string (null only with "nullable": true)`,
			`/functions/0/parameters/3/schema/enum/1: got number 1.5, want an integer`,
			`/functions/0/parameters/3/schema/enum/2: got number 1.0 again, want distinct values (the same as /functions/0/parameters/3/schema/enum/0)`,
			`/functions/0/parameters/3/schema/enum/3: got number 10e-1 again, want distinct values (the same as /functions/0/parameters/3/schema/enum/0)`,
			`/functions/0/parameters/3/schema/enum/4: got an empty array, want a boolean, number or string`,
			`/functions/0/parameters/4/schema/maximum: got 1, want at least minimum 5`,
			`/functions/0/parameters/4/schema/oneOf: got an empty array, want a non-empty array of schemas`,
			`/functions/0/parameters/6/schema/$ref: got "#/schemas/Nope", want a reference to one of the document's schemas ("S", "")`,
			`/functions/0/parameters/7/schema/$ref: got "#/definitions/X", want "#/schemas/<name>"`,
			`/functions/0/parameters/8/schema/$ref: got number 3, want a string "#/schemas/<name>"`,
			`/functions/0/parameters/9/schema/default: got number 3, want a string`,
			`/functions/0/parameters/9/schema/minLength: got number -1, want a non-negative integer`,
			`/functions/0/parameters/9/schema/maxLength: got number 1.5, want a non-negative integer`,
			`/functions/0/parameters/10/schema/enum: got an enum with type object, want type boolean, integer, number or string`,
			`/functions/0/parameters/11/schema/enum: got an empty array, want at least one value`,
			`/functions/0/parameters/12/schema/maxItems: got 2, want at least minItems 3`,
			`/functions/0/parameters/12/schema/nullable: got string "no", want a boolean`,
			`/functions/0/parameters/13/schema/type: got an array, want one of boolean, integer, number, string, array, object`,
			`/functions/0/parameters/13/schema/properties: got number 3, want an object mapping property names to schemas`,
			`/functions/0/parameters/14/schema/additionalProperties: got string "no", want a schema object or a boolean`,
			`/functions/0/parameters/14/schema/properties/p/minimum: got number 1e400, want a number in the range of a float64`,
			`/schemas/: got "", want a schema name`,
		},
		warnings: []string{
			`/functions/0/parameters/0/schema/required/2: warning: "x" is already listed; ignored`,
			`/functions/0/parameters/4/schema/minLength: warning: ignored: got type number, want type string`,
			`/functions/0/parameters/5/schema/type: warning: missing: read as any JSON value`,
			`/functions/0/parameters/6/schema/type: warning: ignored next to $ref`,
			`/functions/0/parameters/9/schema/pattern: warning: ignored: not a regular expression Go can use: error parsing regexp: invalid or unsupported Perl syntax: ` + "`(?=`",
			`/functions/0/parameters/15/schema/properties: warning: ignored: got type string, want type object`,
			`/functions/0/parameters/15/schema/items: warning: ignored: got type string, want type array`,
			`/functions/0/parameters/15/schema/required: warning: ignored: got type string, want type object`,
		},
	},
	{
		name: "contradictory bounds",
		doc: loadHead + `"functions":[{"name":"f","description":"d","parameters":[
			{"name":"a","required":true,"schema":{"type":"number","exclusiveMinimum":5,"maximum":5}},
			{"name":"b","required":true,"schema":{"type":"number","minimum":2,"exclusiveMaximum":2}},
			{"name":"c","required":true,"schema":{"type":"integer","exclusiveMinimum":3,"exclusiveMaximum":1}},
			{"name":"d","required":true,"schema":{"type":"number","minimum":5,"exclusiveMinimum":true,"maximum":5}},
			{"name":"e","required":true,"schema":{"type":"number","minimum":0,"exclusiveMinimum":7,"maximum":6}},
			{"name":"f","required":true,"schema":{"type":"string","minLength":4,"maxLength":3}},
			{"name":"g","required":true,"schema":{"type":"object","minProperties":2,"maxProperties":1}},
			{"name":"ok","required":true,"schema":{"type":"number","minimum":5,"maximum":5,"exclusiveMinimum":1,"exclusiveMaximum":9}}
		]}]}`,
		errs: []string{
			`/functions/0/parameters/0/schema/maximum: got 5, want above exclusiveMinimum 5`,
			`/functions/0/parameters/1/schema/exclusiveMaximum: got 2, want above minimum 2`,
			`/functions/0/parameters/2/schema/exclusiveMaximum: got 1, want above exclusiveMinimum 3`,
			`/functions/0/parameters/3/schema/maximum: got 5, want above minimum 5`,
			`/functions/0/parameters/4/schema/maximum: got 6, want above exclusiveMinimum 7`,
			`/functions/0/parameters/5/schema/maxLength: got 3, want at least minLength 4`,
			`/functions/0/parameters/6/schema/maxProperties: got 1, want at least minProperties 2`,
		},
	},
	{
		name: "reference cycles",
		doc: loadHead + `"functions":[{"name":"f","description":"d","parameters":[],"return":{"name":"r","schema":{"$ref":"#/schemas/C"}}}],
		"schemas":{
			"C":{"$ref":"#/schemas/A"},
			"A":{"$ref":"#/schemas/B"},
			"B":{"$ref":"#/schemas/A"},
			"Self":{"$ref":"#/schemas/Self"},
			"Ok":{"$ref":"#/schemas/T"},
			"T":{"type":"string"},
			"a/b~":{"$ref":"#/schemas/a~1b~0"}
		}}`,
		errs: []string{
			`/schemas/A/$ref: the references form a cycle: "A" -> "B" -> "A"; want a chain that ends at a schema with a type`,
			`/schemas/Self/$ref: the references form a cycle: "Self" -> "Self"; want a chain that ends at a schema with a type`,
			`/schemas/a~1b~0/$ref: the references form a cycle: "a/b~" -> "a/b~"; want a chain that ends at a schema with a type`,
		},
	},
	{
		name: "duplicate key",
		doc:  `{"opentool": "1.0.0", "info": {"title": "t", "title": "u"}}`,
		errs: []string{`/info/title: invalid JSON: duplicate key "title"`},
	},
	{
		name: "syntax error",
		doc:  loadHead + `"functions": [{"name": "f",}]}`,
		errs: []string{`/functions/0: invalid JSON: invalid character '}' looking for beginning of object key string`},
	},
}

func TestLoadOpenToolErrors(t *testing.T) {
	for _, tt := range loadBadCases {
		t.Run(tt.name, func(t *testing.T) {
			doc, warnings, err := opentool.LoadOpenToolWarnings([]byte(tt.doc))
			if doc != nil {
				t.Errorf("got a document, want nil")
			}
			var de *opentool.DocumentError
			if !errors.As(err, &de) {
				t.Fatalf("got error %v, want a *DocumentError", err)
			}
			var got []string
			for _, p := range de.Problems {
				if p.Warning {
					t.Errorf("warning %v among the errors", p)
				}
				if p.Offset < 0 || p.Offset >= int64(len(tt.doc)) {
					t.Errorf("%v: offset %d out of range", p, p.Offset)
				}
				got = append(got, p.String())
			}
			if diff := cmp.Diff(tt.errs, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if want := strings.Join(tt.errs, "\n"); err.Error() != want {
				t.Errorf("Error():\ngot  %s\nwant %s", err, want)
			}
			got = nil
			for _, p := range warnings {
				got = append(got, p.String())
			}
			if diff := cmp.Diff(tt.warnings, got); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadOpenToolPositions(t *testing.T) {
	data := []byte("{\n  \"opentool\": \"1.0.0\",\n  \"info\": {\"title\": \"t\"},\n  \"functions\": [\n    {\"name\": \"a b\", \"description\": \"d\", \"parameters\": []}\n  ]\n}\n")
	_, err := opentool.LoadOpenTool(data)
	var de *opentool.DocumentError
	if !errors.As(err, &de) {
		t.Fatalf("got %v, want a *DocumentError", err)
	}
	var got []string
	for _, p := range de.Problems {
		got = append(got, p.Format("doc.json", data))
	}
	want := []string{
		"doc.json:3:11: /info/version: missing, want a string",
		`doc.json:5:14: /functions/0/name: got "a b", want 1 to 64 characters a-z, A-Z, 0-9, _ or -`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := (opentool.Problem{Path: "/x", Offset: -1, Message: "m"}).Format("f", data); got != "f: /x: m" {
		t.Errorf("unknown offset: got %q", got)
	}
	if l, c := (opentool.Problem{Offset: -1}).Position(data); l != 0 || c != 0 {
		t.Errorf("unknown offset: got %d:%d, want 0:0", l, c)
	}
}

func TestLoadOpenToolWarnings(t *testing.T) {
	data := []byte(`{"opentool":"2.0","info":{"title":"t","version":"1"},"functions":[
		{"name":"f","parameters":[{"name":"p","schema":{"type":"string","properties":{"x":{"type":"string"}},"example":"x","x-order":1}}]},
		{"name":"g","description":"d","parameters":null,"return":null,"stream":null}
	],"server":null,"schemas":null}`)
	doc, warnings, err := opentool.LoadOpenToolWarnings(data)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range warnings {
		got = append(got, p.String())
	}
	want := []string{
		`/opentool: warning: got "2.0", want a version 1.x; reading it as 1.x`,
		`/functions/0/description: warning: missing, want a string that says what the function does`,
		`/functions/0/parameters/0/required: warning: missing, want a boolean; reading it as false`,
		`/functions/0/parameters/0/schema/properties: warning: ignored: got type string, want type object`,
		`/functions/1/parameters: warning: missing, want an array; reading it as []`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	wantDoc := &document.OpenTool{
		OpenTool: "2.0",
		Info:     document.Info{Title: "t", Version: "1"},
		Functions: []document.Function{
			{Name: "f", Parameters: []document.Parameter{{Name: "p", Schema: &document.Schema{Type: "string"}}}},
			{Name: "g", Description: "d", Parameters: []document.Parameter{}},
		},
	}
	if diff := cmp.Diff(wantDoc, doc); diff != "" {
		t.Errorf("document (-want +got):\n%s", diff)
	}
	if doc2, err := opentool.LoadOpenTool(data); err != nil || !cmp.Equal(doc, doc2) {
		t.Errorf("LoadOpenTool: got %+v, %v", doc2, err)
	}
	loadRoundTrip(t, doc)
}

const loadRecursive = loadHead + `"functions":[{"name":"walk","description":"d","parameters":[
	{"name":"tree","required":true,"schema":{"$ref":"#/schemas/Alias"}},
	{"name":"list","required":false,"schema":{"$ref":"#/schemas/List"}}
]}],
"schemas":{
	"Alias":{"$ref":"#/schemas/Node","description":"a tree"},
	"Node":{"type":"object","properties":{
		"value":{"type":"string"},
		"children":{"type":"array","items":{"$ref":"#/schemas/Node"}},
		"next":{"$ref":"#/schemas/Node"},
		"extra":{"type":"object","additionalProperties":{"$ref":"#/schemas/Alias"}}
	},"required":["value"]},
	"List":{"type":"array","items":{"$ref":"#/schemas/List"}}
}}`

func TestLoadOpenToolRecursive(t *testing.T) {
	doc, warnings, err := opentool.LoadOpenToolWarnings([]byte(loadRecursive))
	if err != nil || len(warnings) > 0 {
		t.Fatalf("got %v, %v", warnings, err)
	}
	tree := doc.Functions[0].Parameters[0].Schema
	if tree.Ref != "#/schemas/Alias" || tree.Type != "" {
		t.Errorf("tree: got %+v, want the reference kept", tree)
	}
	node, err := doc.Resolve(tree)
	if err != nil || node != doc.Schemas.Get("Node") {
		t.Fatalf("Resolve(tree): got %+v, %v", node, err)
	}
	if next := node.Properties.Get("next"); next.Ref != "#/schemas/Node" {
		t.Errorf("next: got %+v", next)
	}
	if alias := doc.Schemas.Get("Alias"); alias.Description != "a tree" {
		t.Errorf("Alias: got %+v, want the description kept next to $ref", alias)
	}
	loadRoundTrip(t, doc)
}

const loadFull = `{"opentool":"1.1.0","info":{"title":"t","description":"about","version":"1"},
"server":{"url":"http://localhost:9627/opentool","description":"s"},
"functions":[{"name":"f-1_x","description":"d","parameters":[{"name":"","description":"pd","required":false,"schema":{
	"type":"object","description":"o","properties":{
		"n":{"type":"number","minimum":-1.5,"maximum":1e3,"default":2.50,"enum":[1,2.5,1e3, 7]},
		"i":{"type":"integer","minimum":0,"default":1.0,"enum":[-0,1.0e1]},
		"s":{"type":"string","format":"date","nullable":true,"minLength":0,"maxLength":1e1,"pattern":"^[a-z<>]+$",
			"default":"<a&b>\u2028","enum":["<a&b>\u2028",null,"x","\ud800"]},
		"a":{"type":"array","items":{"type":"integer"},"minItems":1,"maxItems":3,"default":[1, 2]},
		"m":{"type":"object","additionalProperties":{"type":"boolean"},"default":{"k" : true, "<": null},"properties":{}},
		"b":{"type":"boolean","enum":[true],"additionalProperties":false,"nullable":false},
		"free":{"type":"object","additionalProperties":true}
	},"required":["n"]}}],
	"return":{"name":"r","schema":{"$ref":"#/schemas/R","description":"about r"}},
	"stream":{"data":{"name":"ev","schema":{"type":"boolean"}},"other":{"name":"o","description":"x","schema":{"type":"string"}}}}],
"schemas":{"R":{"type":"string"},"E":{"type":"object","properties":{},"required":[]}}}`

func TestLoadOpenToolModel(t *testing.T) {
	doc, warnings, err := opentool.LoadOpenToolWarnings([]byte(loadFull))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range warnings {
		got = append(got, p.String())
	}
	if diff := cmp.Diff([]string{
		`/functions/0/parameters/0/schema/properties/b/additionalProperties: warning: ignored: got type boolean, want type object`,
	}, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	f := doc.Functions[0]
	props := f.Parameters[0].Schema.Properties
	f64 := func(f float64) *float64 { return &f }
	i64 := func(i int64) *int64 { return &i }
	want := document.Schemas{
		{Name: "n", Schema: &document.Schema{Type: "number", Minimum: f64(-1.5), Maximum: f64(1000), Default: json.RawMessage(`2.50`),
			Enum: []any{json.Number("1"), json.Number("2.5"), json.Number("1e3"), json.Number("7")}}},
		{Name: "i", Schema: &document.Schema{Type: "integer", Minimum: f64(0), Default: json.RawMessage(`1.0`),
			Enum: []any{json.Number("-0"), json.Number("1.0e1")}}},
		{Name: "s", Schema: &document.Schema{Type: "string", Format: "date", Nullable: true, MinLength: i64(0), MaxLength: i64(10), Pattern: "^[a-z<>]+$",
			Default: json.RawMessage(`"\u003ca\u0026b\u003e\u2028"`), Enum: []any{"<a&b>\u2028", nil, "x", "\ufffd"}}},
		{Name: "a", Schema: &document.Schema{Type: "array", Items: &document.Schema{Type: "integer"}, MinItems: i64(1), MaxItems: i64(3), Default: json.RawMessage(`[1,2]`)}},
		{Name: "m", Schema: &document.Schema{Type: "object", AdditionalProperties: &document.Schema{Type: "boolean"}, Default: json.RawMessage(`{"k":true,"\u003c":null}`)}},
		{Name: "b", Schema: &document.Schema{Type: "boolean", Enum: []any{true}}},
		{Name: "free", Schema: &document.Schema{Type: "object"}},
	}
	if diff := cmp.Diff(want, props); diff != "" {
		t.Errorf("properties (-want +got):\n%s", diff)
	}
	if f.Return.Schema.Ref != "#/schemas/R" || f.Return.Schema.Description != "about r" || len(f.Stream) != 2 || f.StreamData().Name != "ev" {
		t.Errorf("function: got %+v", f)
	}
	if e := doc.Schemas.Get("E"); e == nil || e.Properties != nil || e.Required != nil {
		t.Errorf("E: got %+v, want empty properties and required read as nil", e)
	}
	if doc.Server == nil || doc.Server.URL != "http://localhost:9627/opentool" || doc.Info.Description != "about" {
		t.Errorf("got server %+v info %+v", doc.Server, doc.Info)
	}
	loadRoundTrip(t, doc)
}

// loadOdd has names and values that JSON encoders write differently: escapes,
// invalid UTF-8, pointer characters in names, unusual number literals.
var loadOdd = strings.NewReplacer("%FF", "\xff", "%FE", "\xfe", "%C3", "\xc3", "%F09F98", "\xf0\x9f\x98").Replace(`{"opentool":"1.0","info":{"title":"a\u2028b <&>","version":"\ud800x\udc00"},"functions":[
	{"name":"f","description":"\u00e9\/%FF%FE","parameters":[{"name":"a/b~c","required":true,"schema":{"$ref":"#/schemas/x~1y~0z"}}],
	"stream":{"":{"name":"","schema":{"type":"integer","enum":[1E+2,-0.0e0,7],"default":10e1,"maximum":1E2}}}}],
"schemas":{"x/y~z":{"type":"object","properties":{"\u003c%FF":{"type":"string","default":"\u003c%C3","enum":["\ud83d\ude00","%F09F98"]}}}}}`)

func TestLoadOpenToolOddities(t *testing.T) {
	doc, err := opentool.LoadOpenTool([]byte(loadOdd))
	if err != nil {
		t.Fatal(err)
	}
	s := doc.Schemas.Get("x/y~z").Properties.Get("<\ufffd")
	if s == nil || string(s.Default) != "\"\\u003c\ufffd\"" || s.Enum[0] != "\U0001F600" || s.Enum[1] != "\ufffd\ufffd\ufffd" {
		t.Errorf("got %+v", s)
	}
	if got := doc.Info.Version; got != "\ufffdx\ufffd" {
		t.Errorf("version: got %q", got)
	}
	loadRoundTrip(t, doc)
}

func FuzzLoadOpenTool(f *testing.F) {
	for _, data := range loadExamples(f) {
		f.Add(data)
	}
	for _, tt := range loadBadCases {
		f.Add([]byte(tt.doc))
	}
	f.Add([]byte(loadRecursive))
	f.Add([]byte(loadFull))
	f.Add([]byte(loadOdd))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, warnings, err := opentool.LoadOpenToolWarnings(data)
		for _, p := range warnings {
			if !p.Warning || p.Offset < 0 || p.Offset > int64(len(data)) {
				t.Fatalf("bad warning %+v", p)
			}
		}
		if err != nil {
			var de *opentool.DocumentError
			if doc != nil || !errors.As(err, &de) || len(de.Problems) == 0 {
				t.Fatalf("got %v and error %#v, want nil and a *DocumentError", doc, err)
			}
			for _, p := range de.Problems {
				if p.Warning || p.Offset < 0 || p.Offset > int64(len(data)) || p.Message == "" {
					t.Fatalf("bad problem %+v", p)
				}
			}
			return
		}
		if doc == nil {
			t.Fatal("got neither a document nor an error")
		}
		loadRoundTrip(t, doc)
	})
}

func BenchmarkLoadOpenTool(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(loadHead + `"functions":[`)
	for i := range 500 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"name":"f%d","description":"does thing number %d","parameters":[
			{"name":"x","required":true,"schema":{"type":"string","enum":["a","b\u00e9"]}},
			{"name":"y","required":false,"schema":{"type":"object","properties":{"a":{"type":"integer","minimum":0},"b":{"$ref":"#/schemas/S"}},"required":["a"]}}],
			"return":{"name":"r","schema":{"type":"array","items":{"type":"number"}}}}`, i, i)
	}
	sb.WriteString(`],"schemas":{"S":{"type":"string"}}}`)
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := opentool.LoadOpenTool(data); err != nil {
			b.Fatal(err)
		}
	}
}
