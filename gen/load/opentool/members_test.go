package opentool_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/gen/load/opentool"
)

// warningsOf loads doc and returns its warnings as "line:col: path: message".
func warningsOf(t *testing.T, doc string) []string {
	t.Helper()
	_, warnings, err := opentool.LoadOpenToolWarnings([]byte(doc))
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	var got []string
	for _, w := range warnings {
		got = append(got, strings.TrimPrefix(w.Format("", []byte(doc)), ":"))
	}
	return got
}

// TestUnknownMembers: a member an object does not define is a warning at its
// key, naming it and the known name it is closest to; x-… extensions are not.
func TestUnknownMembers(t *testing.T) {
	doc := `{"opentool": "1.0.0", "x-vendor": 1, "shemas": {},
"info": {"title": "T", "version": "1", "descripton": "d"},
"server": {"url": "http://x", "URL": "http://y"},
"functions": [{"name": "f", "description": "d", "paramters": [], "parameters": [
  {"name": "a", "schema": {"type": "string", "requierd": true, "maxlength": 3, "x-ui": "text", "allOf": [], "zzz": 1}, "required": true, "requierd": false}],
  "return": {"name": "r", "schema": {"type": "string"}, "descriptoin": "x"}}]}`
	want := []string{ // no warning about x-vendor, an extension
		`1:38: /shemas: warning: unknown member "shemas" ignored; did you mean "schemas"?`,
		`2:40: /info/descripton: warning: unknown member "descripton" ignored; did you mean "description"?`,
		`3:31: /server/URL: warning: unknown member "URL" ignored; did you mean "url"?`,
		`4:49: /functions/0/paramters: warning: unknown member "paramters" ignored; did you mean "parameters"?`,
		`5:46: /functions/0/parameters/0/schema/requierd: warning: unknown member "requierd" ignored; did you mean "required"?`,
		`5:64: /functions/0/parameters/0/schema/maxlength: warning: unknown member "maxlength" ignored; did you mean "maxLength"?`,
		`5:96: /functions/0/parameters/0/schema/allOf: warning: ignored: the OpenTool model has no allOf`,
		`5:109: /functions/0/parameters/0/schema/zzz: warning: unknown member "zzz" ignored`,
		`5:138: /functions/0/parameters/0/requierd: warning: unknown member "requierd" ignored; did you mean "required"?`,
		`6:57: /functions/0/return/descriptoin: warning: unknown member "descriptoin" ignored; did you mean "description"?`,
	}
	if diff := cmp.Diff(want, warningsOf(t, doc)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

func TestClosest(t *testing.T) {
	known := []string{"name", "description", "parameters", "return", "stream"}
	for key, want := range map[string]string{
		"nmae": "name", "Name": "name", "descrption": "description", "retrun": "return", "streams": "stream",
		"params": "", "id": "", "returns": "return", "parameter": "parameters", "": "",
	} {
		if got := opentool.Closest(key, known); got != want {
			t.Errorf("Closest(%q) = %q, want %q", key, got, want)
		}
	}
}

// TestUncheckedKeywordsDropped: a keyword the generated decoders cannot check
// is dropped from the document, with a warning at its place.
func TestUncheckedKeywordsDropped(t *testing.T) {
	doc := `{"opentool": "1.0.0", "info": {"title": "T", "version": "1"}, "functions": [{"name": "f", "description": "d", "parameters": [
  {"name": "a", "schema": {"type": "string", "format": "password", "minLength": 1}, "required": true},
  {"name": "b", "schema": {"type": "integer", "format": "int8", "exclusiveMaximum": true}, "required": true},
  {"name": "c", "schema": {"type": "object", "const": {"k": 1}}, "required": true},
  {"name": "d", "schema": {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "integer", "minimum": 1}], "minLength": 2}, "required": true},
  {"name": "e", "schema": {"type": "number", "minimum": 1, "exclusiveMinimum": true, "format": "double"}, "required": true}]}]}`
	want := []string{
		`2:46: /functions/0/parameters/0/schema/format: warning: ignored: the generated decoders do not check format "password" of type string (they check binary, byte, date, date-time, email, hostname, ipv4, ipv6, time, uri, uri-reference, uuid)`,
		`3:47: /functions/0/parameters/1/schema/format: warning: ignored: the generated decoders do not check format "int8" of type integer (they check int32, int64)`,
		`3:65: /functions/0/parameters/1/schema/exclusiveMaximum: warning: ignored: true without maximum`,
		`4:46: /functions/0/parameters/2/schema/const: warning: ignored: the generated decoders do not check a const of type object`,
		`5:57: /functions/0/parameters/3/schema/anyOf/0/maxLength: warning: ignored: the generated decoders do not check maxLength inside oneOf or anyOf`,
		`5:94: /functions/0/parameters/3/schema/anyOf/1/minimum: warning: ignored: the generated decoders do not check minimum inside oneOf or anyOf`,
		`5:110: /functions/0/parameters/3/schema/minLength: warning: ignored: the generated decoders do not check minLength beside oneOf or anyOf`,
	}
	if diff := cmp.Diff(want, warningsOf(t, doc)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	loaded, err := opentool.LoadOpenTool([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(loaded.Functions[0].Parameters)
	wantDoc := `[{"name":"a","schema":{"type":"string","minLength":1},"required":true},` +
		`{"name":"b","schema":{"type":"integer"},"required":true},` +
		`{"name":"c","schema":{"type":"object"},"required":true},` +
		`{"name":"d","schema":{"anyOf":[{"type":"string"},{"type":"integer"}]},"required":true},` +
		`{"name":"e","schema":{"type":"number","format":"double","exclusiveMinimum":1},"required":true}]`
	if string(b) != wantDoc {
		t.Errorf("served parameters:\n%s\nwant\n%s", b, wantDoc)
	}
}

// A schema a oneOf or anyOf alternative names by $ref (and what it names in
// turn) is a value the decoders do not type: its constraints are not served,
// with a warning at each, even where a typed parameter uses it too.
func TestAlternativeRefsPruned(t *testing.T) {
	doc := `{"opentool": "1.0.0", "info": {"title": "T", "version": "1"}, "functions": [{"name": "f", "description": "d", "parameters": [
  {"name": "shape", "schema": {"anyOf": [{"$ref": "#/schemas/Circle"}, {"type": "string"}]}, "required": true},
  {"name": "size", "schema": {"$ref": "#/schemas/Size"}, "required": true}]}],
 "schemas": {
  "Circle": {"type": "object", "properties": {"radius": {"type": "number", "minimum": 0}, "tag": {"$ref": "#/schemas/Tag"}}},
  "Tag": {"type": "array", "items": {"type": "string", "minLength": 2}},
  "Size": {"type": "integer", "maximum": 9}}}`
	want := []string{
		`5:76: /schemas/Circle/properties/radius/minimum: warning: ignored: the generated decoders do not check minimum referenced from inside oneOf or anyOf`,
		`6:56: /schemas/Tag/items/minLength: warning: ignored: the generated decoders do not check minLength referenced from inside oneOf or anyOf`,
	}
	if diff := cmp.Diff(want, warningsOf(t, doc)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	loaded, err := opentool.LoadOpenTool([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(loaded.Schemas)
	wantSchemas := `{"Circle":{"type":"object","properties":{"radius":{"type":"number"},"tag":{"$ref":"#/schemas/Tag"}}},` +
		`"Tag":{"type":"array","items":{"type":"string"}},"Size":{"type":"integer","maximum":9}}`
	if string(b) != wantSchemas {
		t.Errorf("served schemas:\n%s\nwant\n%s", b, wantSchemas)
	}
}

// TestFunctionOrigin: a function's tags and HTTP method and path (written by
// packages generated from OpenAPI documents) are read back; of the wrong
// shape, they are ignored with a warning at their place.
func TestFunctionOrigin(t *testing.T) {
	doc := `{"opentool": "1.0.0", "info": {"title": "T", "version": "1"}, "functions": [
{"name": "f", "description": "d", "parameters": [], "tags": ["pets", "store"], "http": {"method": "GET", "path": "/pets/{id}"}},
{"name": "g", "description": "d", "parameters": [], "tags": "pets", "http": {"method": "GET"}}]}`
	got, warnings, err := opentool.LoadOpenToolWarnings([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	f, g := got.Functions[0], got.Functions[1]
	if b, _ := json.Marshal(f); !strings.Contains(string(b), `"tags":["pets","store"],"http":{"method":"GET","path":"/pets/{id}"}`) {
		t.Errorf("f: %s", b)
	}
	if g.Tags != nil || g.HTTP != nil {
		t.Errorf("g: tags %v, http %v, want none", g.Tags, g.HTTP)
	}
	var msgs []string
	for _, w := range warnings {
		msgs = append(msgs, strings.TrimPrefix(w.Format("", []byte(doc)), ":"))
	}
	want := []string{
		`3:61: /functions/1/tags: warning: got string "pets", want an array of strings; ignored`,
		`3:77: /functions/1/http: warning: want the strings "method" and "path" in it; ignored`,
	}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// TestFunctionListed: a function's title, annotations and
// execution.taskSupport (kept by packages generated from an MCP tools/list)
// are read back; of the wrong shape, they are ignored with a warning at
// their place.
func TestFunctionListed(t *testing.T) {
	doc := `{"opentool": "1.0.0", "info": {"title": "T", "version": "1"}, "functions": [
{"name": "f", "description": "d", "parameters": [], "title": "F", "annotations": {"readOnlyHint": true, "openWorldHint": false, "title": "x"}, "execution": {"taskSupport": "required"}},
{"name": "g", "description": "d", "parameters": [], "title": 1, "annotations": {"readOnlyHint": "yes"}, "execution": {"taskSupport": "always"}}]}`
	got, warnings, err := opentool.LoadOpenToolWarnings([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	f, g := got.Functions[0], got.Functions[1]
	if b, _ := json.Marshal(f); !strings.Contains(string(b), `"title":"F","annotations":{"readOnlyHint":true,"openWorldHint":false},"execution":{"taskSupport":"required"}`) {
		t.Errorf("f: %s", b)
	}
	if !f.TaskRequired() {
		t.Errorf("f: not task-required")
	}
	if g.Title != "" || g.Hints != nil || g.Execution != nil {
		t.Errorf("g: title %q, hints %v, execution %v, want none", g.Title, g.Hints, g.Execution)
	}
	var msgs []string
	for _, w := range warnings {
		msgs = append(msgs, strings.TrimPrefix(w.Format("", []byte(doc)), ":"))
	}
	if len(msgs) != 3 {
		t.Errorf("warnings: %q, want three (title, readOnlyHint, taskSupport)", msgs)
	}
	for i, want := range []string{"/functions/1/title", "readOnlyHint: got string", "taskSupport: got string \"always\""} {
		if i < len(msgs) && !strings.Contains(msgs[i], want) {
			t.Errorf("warning %d: %q, want it to name %q", i, msgs[i], want)
		}
	}
}
