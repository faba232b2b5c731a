package runtime_test

// GET /load as the reference clients read it. Their OpenTool.fromJson
// (opentool-typescript src/models/opentool.ts, schema.ts; opentool-dart
// lib/src/model/opentool.g.dart, schema.dart) resolve a {"$ref":"#/schemas/X"}
// the moment they meet it, in a process-wide registry (SchemasSingleton) that
// only their file loader fills (OpenToolJsonLoader.load: the entries of
// "schemas" in member order, each read against the entries before it). Their
// clients' load() calls OpenTool.fromJson alone, so every $ref fails there with
// "#ref not found: #/schemas/X". refMimic does the same in Go.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	otload "github.com/opentoolgen/opentoolgen/gen/load/opentool"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// ---- JSON as JavaScript's JSON.parse (and Dart's jsonDecode) build it ----

// jsObject is a parsed JSON object: its keys in the order they came (Dart's
// LinkedHashMap order) and their values, the last of duplicate keys winning.
type jsObject struct {
	keys []string
	vals map[string]any
}

// get returns the member's value and whether it is there (a missing member is
// JavaScript's undefined; a JSON null is nil).
func (o *jsObject) get(key string) (any, bool) {
	v, ok := o.vals[key]
	return v, ok
}

// jsOrder is the order of Object.entries: keys that are array indices first, in
// ascending numeric order, then the others in the order they came.
func (o *jsObject) jsOrder() []string {
	var ints, strs []string
	for _, k := range o.keys {
		if n, err := strconv.ParseUint(k, 10, 32); err == nil && strconv.FormatUint(n, 10) == k && n < 1<<32-1 {
			ints = append(ints, k)
		} else {
			strs = append(strs, k)
		}
	}
	slices.SortFunc(ints, func(a, b string) int {
		x, _ := strconv.ParseUint(a, 10, 32)
		y, _ := strconv.ParseUint(b, 10, 32)
		return int(x) - int(y)
	})
	return append(ints, strs...)
}

func parseJS(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseJSValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("SyntaxError: Unexpected non-whitespace character after JSON")
	}
	return v, nil
}

func parseJSValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &jsObject{vals: map[string]any{}}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := parseJSValue(dec)
			if err != nil {
				return nil, err
			}
			key := k.(string)
			if _, dup := o.vals[key]; !dup {
				o.keys = append(o.keys, key)
			}
			o.vals[key] = v
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := parseJSValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, err
	}
	return tok, nil // nil, bool, json.Number, string
}

// truthy is JavaScript's truthiness of a member's value (v, present).
func truthy(v any, present bool) bool {
	if !present || v == nil {
		return false
	}
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return v != ""
	case json.Number:
		f, err := v.Float64()
		return err != nil || f != 0
	}
	return true
}

// ---- the reference SDKs' OpenTool.fromJson ----

// refMimic reads a document as the reference SDKs do.
type refMimic struct {
	// loader: as OpenToolJsonLoader.load (their servers' way to read a file):
	// SchemasSingleton.initInstance(schemas) first. Otherwise as the clients'
	// load(): OpenTool.fromJson alone, the registry as a fresh process has it,
	// empty.
	loader bool
	// dart: with the Dart SDK's casts too (json_serializable): members the Dart
	// model requires must be there with their type, and schemas have a type.
	dart bool

	registry map[string]*refSchema // SchemasSingleton._schemas
}

// The model the mimic builds: what the reference's classes keep.
type refSchema struct {
	Type       any
	Properties []refProperty
	Items      *refSchema
	Enum       []any
}

type refProperty struct {
	Name   string
	Schema *refSchema
}

type refFunction struct {
	Name       any
	Parameters []*refSchema
	Return     *refSchema
	Stream     map[string]*refSchema // Dart only: the TypeScript model has no stream
}

type refDoc struct {
	Functions []refFunction
	Schemas   []refProperty
}

func typeError(format string, args ...any) error {
	return fmt.Errorf("TypeError: "+format, args...)
}

// dartCast is Dart's `value as T` of a required member.
func (m *refMimic) dartCast(o *jsObject, key, want string) error {
	if !m.dart {
		return nil
	}
	v, _ := o.get(key)
	ok := false
	switch want {
	case "String":
		_, ok = v.(string)
	case "bool":
		_, ok = v.(bool)
	case "List":
		_, ok = v.([]any)
	case "Map":
		_, ok = v.(*jsObject)
	}
	if !ok {
		return fmt.Errorf("type '%s' is not a subtype of type '%s' in type cast (member %q)", dartTypeName(v), want, key)
	}
	return nil
}

func dartTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "Null"
	case string:
		return "String"
	case bool:
		return "bool"
	case json.Number:
		return "num"
	case []any:
		return "List<dynamic>"
	}
	return "_Map<String, dynamic>"
}

// document is OpenTool.fromJson (after initInstance in loader mode).
func (m *refMimic) document(data []byte) (*refDoc, error) {
	m.registry = map[string]*refSchema{}
	root, err := parseJS(data)
	if err != nil {
		return nil, err
	}
	doc, ok := root.(*jsObject)
	if !ok {
		return nil, typeError("the document is not an object")
	}
	if m.loader {
		if v, ok := doc.get("schemas"); ok && v != nil { // if (this.schemasJson != null)
			if err := m.initInstance(v); err != nil {
				return nil, err
			}
		}
	}
	if err := m.dartCast(doc, "opentool", "String"); err != nil {
		return nil, err
	}
	// Info.fromJson(json.info)
	info, ok := doc.vals["info"].(*jsObject)
	if !ok {
		return nil, typeError("Cannot read properties of undefined (reading 'title')")
	}
	for _, k := range []string{"title", "version"} {
		if err := m.dartCast(info, k, "String"); err != nil {
			return nil, err
		}
	}
	if v, ok := doc.get("server"); truthy(v, ok) {
		if s, ok := v.(*jsObject); ok {
			if err := m.dartCast(s, "url", "String"); err != nil {
				return nil, err
			}
		}
	}
	out := &refDoc{}
	fv, fok := doc.get("functions")
	if m.dart {
		if err := m.dartCast(doc, "functions", "List"); err != nil {
			return nil, err
		}
	}
	if truthy(fv, fok) {
		fs, ok := fv.([]any)
		if !ok {
			return nil, typeError("json.functions.map is not a function")
		}
		for i, f := range fs {
			fn, err := m.function(f)
			if err != nil {
				return nil, fmt.Errorf("functions[%d]: %w", i, err)
			}
			out.Functions = append(out.Functions, fn)
		}
	}
	if v, ok := doc.get("schemas"); truthy(v, ok) {
		o, ok := v.(*jsObject)
		if !ok {
			return nil, typeError("schemas is not an object")
		}
		for _, k := range m.order(o) {
			s, err := m.schema(o.vals[k])
			if err != nil {
				return nil, fmt.Errorf("schemas.%s: %w", k, err)
			}
			out.Schemas = append(out.Schemas, refProperty{k, s})
		}
	}
	return out, nil
}

func (m *refMimic) order(o *jsObject) []string {
	if m.dart {
		return o.keys
	}
	return o.jsOrder()
}

// initInstance is SchemasSingleton.initInstance: each entry that is not itself a
// $ref is read, in member order, against the entries read before it.
func (m *refMimic) initInstance(v any) error {
	o, ok := v.(*jsObject)
	if !ok {
		return typeError("schemas is not an object")
	}
	for _, k := range m.order(o) {
		entry, _ := o.vals[k].(*jsObject)
		if entry == nil {
			return typeError("Cannot read properties of null (reading '$ref')")
		}
		if ref, ok := entry.get("$ref"); ok && ref != nil {
			continue
		}
		s, err := m.schema(entry)
		if err != nil {
			return fmt.Errorf("SchemasSingleton.initInstance: schemas.%s: %w", k, err)
		}
		m.registry[k] = s
	}
	return nil
}

func (m *refMimic) function(v any) (refFunction, error) {
	var fn refFunction
	o, ok := v.(*jsObject)
	if !ok {
		return fn, typeError("Cannot read properties of %v (reading 'name')", v)
	}
	fn.Name = o.vals["name"]
	for _, k := range []string{"name", "description"} {
		if err := m.dartCast(o, k, "String"); err != nil {
			return fn, err
		}
	}
	if err := m.dartCast(o, "parameters", "List"); err != nil {
		return fn, err
	}
	if pv, ok := o.get("parameters"); truthy(pv, ok) {
		ps, ok := pv.([]any)
		if !ok {
			return fn, typeError("json.parameters.map is not a function")
		}
		for i, p := range ps {
			po, ok := p.(*jsObject)
			if !ok {
				return fn, typeError("Cannot read properties of %v (reading 'name')", p)
			}
			for _, c := range [][2]string{{"name", "String"}, {"schema", "Map"}, {"required", "bool"}} {
				if err := m.dartCast(po, c[0], c[1]); err != nil {
					return fn, fmt.Errorf("parameters[%d]: %w", i, err)
				}
			}
			s, err := m.schema(po.vals["schema"])
			if err != nil {
				return fn, fmt.Errorf("parameters[%d].schema: %w", i, err)
			}
			fn.Parameters = append(fn.Parameters, s)
		}
	}
	ret := func(v any) (*refSchema, error) {
		ro, ok := v.(*jsObject)
		if !ok {
			return nil, typeError("Cannot read properties of %v (reading 'name')", v)
		}
		for _, c := range [][2]string{{"name", "String"}, {"schema", "Map"}} {
			if err := m.dartCast(ro, c[0], c[1]); err != nil {
				return nil, err
			}
		}
		return m.schema(ro.vals["schema"])
	}
	if rv, ok := o.get("return"); (m.dart && ok && rv != nil) || (!m.dart && truthy(rv, ok)) {
		s, err := ret(rv)
		if err != nil {
			return fn, fmt.Errorf("return.schema: %w", err)
		}
		fn.Return = s
	}
	if sv, ok := o.get("stream"); m.dart && ok && sv != nil {
		so, ok := sv.(*jsObject)
		if !ok {
			return fn, fmt.Errorf("type '%s' is not a subtype of type 'Map<String, dynamic>?' in type cast", dartTypeName(sv))
		}
		fn.Stream = map[string]*refSchema{}
		for _, k := range so.keys {
			s, err := ret(so.vals[k])
			if err != nil {
				return fn, fmt.Errorf("stream.%s.schema: %w", k, err)
			}
			fn.Stream[k] = s
		}
	}
	return fn, nil
}

// schema is Schema.fromJson.
func (m *refMimic) schema(v any) (*refSchema, error) {
	o, ok := v.(*jsObject)
	if !ok {
		if v == nil {
			return nil, typeError("Cannot read properties of undefined (reading '$ref')")
		}
		if m.dart {
			return nil, fmt.Errorf("type '%s' is not a subtype of type 'Map<String, dynamic>' in type cast", dartTypeName(v))
		}
		return &refSchema{}, nil // "x"["$ref"] is undefined: a schema with nothing
	}
	if rv, ok := o.get("$ref"); ok && rv != nil {
		ref, ok := rv.(string)
		if !ok {
			return nil, typeError("ref.split is not a function")
		}
		parts := strings.Split(ref, "/")
		if len(parts) >= 2 && parts[0] == "#" && parts[1] == "schemas" {
			name := "undefined"
			if len(parts) > 2 {
				name = parts[2]
			}
			if s := m.registry[name]; s != nil {
				return s, m.validateEnum(s)
			}
			return nil, fmt.Errorf("#ref not found: %s", ref)
		}
		return nil, fmt.Errorf("#ref format exception: %s", ref)
	}
	if err := m.dartCast(o, "type", "String"); err != nil {
		return nil, err
	}
	s := &refSchema{Type: o.vals["type"]}
	if pv, ok := o.get("properties"); truthy(pv, ok) {
		po, ok := pv.(*jsObject)
		if !ok {
			return nil, typeError("properties is not an object")
		}
		for _, k := range m.order(po) {
			ps, err := m.schema(po.vals[k])
			if err != nil {
				return nil, fmt.Errorf("properties.%s: %w", k, err)
			}
			s.Properties = append(s.Properties, refProperty{k, ps})
		}
	}
	if iv, ok := o.get("items"); truthy(iv, ok) {
		is, err := m.schema(iv)
		if err != nil {
			return nil, fmt.Errorf("items: %w", err)
		}
		s.Items = is
	}
	if ev, ok := o.get("enum"); ok {
		s.Enum, _ = ev.([]any)
	}
	return s, m.validateEnum(s)
}

// validateEnum is Schema._validateEnumConsistency.
func (m *refMimic) validateEnum(s *refSchema) error {
	for i, v := range s.Enum {
		ok := true
		switch s.Type {
		case "string":
			_, ok = v.(string)
		case "integer":
			n, isNum := v.(json.Number)
			if isNum {
				f, _ := n.Float64()
				ok = f == float64(int64(f))
			} else {
				ok = false
			}
		case "number":
			_, ok = v.(json.Number)
		case "boolean":
			_, ok = v.(bool)
		case "null":
			ok = false
		}
		if !ok && v != nil {
			return fmt.Errorf("Enum value at index %d (\"%v\") does not match schema type \"%v\".", i, v, s.Type)
		}
	}
	return nil
}

// The ways a reference SDK reads a document.
var refMimics = []struct {
	name  string
	mimic refMimic
}{
	{"TypeScript client load()", refMimic{}},
	{"TypeScript OpenToolJsonLoader", refMimic{loader: true}},
	{"Dart client load()", refMimic{dart: true}},
	{"Dart OpenToolJsonLoader", refMimic{loader: true, dart: true}},
}

// ---- the mimic itself ----

// The mimic fails where the reference does, and never loops on a cycle.
func TestRefMimic(t *testing.T) {
	const head = `{"opentool":"1.0.0","info":{"title":"t","version":"1"},"functions":[{"name":"f","description":"d","parameters":[{"name":"p","required":true,"schema":`
	for _, c := range []struct {
		name           string
		doc            string
		client, loader string // the error, "" for none
	}{
		{"no refs", head + `{"type":"integer"}}]}],"schemas":{"A":{"type":"string"}}}`, "", ""},
		{"ref in a function", head + `{"$ref":"#/schemas/A"}}]}],"schemas":{"A":{"type":"string"}}}`,
			"#ref not found: #/schemas/A", ""},
		{"backward ref in schemas", head + `{"type":"string"}}]}],"schemas":{"A":{"type":"string"},"B":{"type":"array","items":{"$ref":"#/schemas/A"}}}}`,
			"#ref not found: #/schemas/A", ""},
		{"forward ref in schemas", head + `{"type":"string"}}]}],"schemas":{"B":{"type":"array","items":{"$ref":"#/schemas/A"}},"A":{"type":"string"}}}`,
			"#ref not found: #/schemas/A", "#ref not found: #/schemas/A"},
		{"self reference", head + `{"type":"string"}}]}],"schemas":{"Node":{"type":"object","properties":{"next":{"$ref":"#/schemas/Node"}}}}}`,
			"#ref not found: #/schemas/Node", "#ref not found: #/schemas/Node"},
		{"cycle of two", head + `{"type":"string"}}]}],"schemas":{"A":{"type":"array","items":{"$ref":"#/schemas/B"}},"B":{"type":"array","items":{"$ref":"#/schemas/A"}}}}`,
			"#ref not found: #/schemas/B", "#ref not found: #/schemas/B"},
		{"alias entry", head + `{"$ref":"#/schemas/Alias"}}]}],"schemas":{"A":{"type":"string"},"Alias":{"$ref":"#/schemas/A"}}}`,
			"#ref not found: #/schemas/Alias", "#ref not found: #/schemas/Alias"}, // initInstance skips aliases
		{"not a schemas ref", head + `{"$ref":"#/definitions/A"}}]}]}`,
			"#ref format exception: #/definitions/A", "#ref format exception: #/definitions/A"},
		{"enum of the wrong type", head + `{"type":"integer","enum":[1,"x"]}}]}]}`,
			`Enum value at index 1 ("x") does not match schema type "integer".`, `Enum value at index 1 ("x") does not match schema type "integer".`},
	} {
		for _, mode := range []struct {
			loader bool
			want   string
		}{{false, c.client}, {true, c.loader}} {
			m := refMimic{loader: mode.loader}
			_, err := m.document([]byte(c.doc))
			if (mode.want == "" && err != nil) || (mode.want != "" && (err == nil || !strings.HasSuffix(err.Error(), mode.want))) {
				t.Errorf("%s (loader %v): got %v, want %q", c.name, mode.loader, err, mode.want)
			}
		}
	}
}

// ---- our /load through the mimic ----

// loadBody serves doc and returns the body of a plain GET /load, as the
// reference clients send it.
func loadBody(t *testing.T, doc *document.OpenTool) []byte {
	t.Helper()
	tool := newMockTool()
	tool.doc = doc
	srv, _ := serveMock(t, tool)
	res := do(t, http.MethodGet, srv.URL+"/opentool/load", "", nil, "Accept", "application/json, text/plain, */*", "User-Agent", "axios/1.6.0")
	if res.status != http.StatusOK {
		t.Fatalf("GET /load: %d %s", res.status, res.body)
	}
	return res.body
}

func loadFile(t *testing.T, path string) *document.OpenTool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := otload.LoadOpenTool(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return doc
}

// Item 8: the reference clients read our /load (their OpenTool.fromJson failed
// with "#ref not found: #/schemas/Count" on the mock tool's document).
func TestLoadReadByReferenceClients(t *testing.T) {
	files, err := filepath.Glob("testdata/opentool/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no documents: %v", err)
	}
	files = append(files, "../examples/mocktool/mock_tool.json")
	for _, file := range files {
		doc := loadFile(t, file)
		body := loadBody(t, doc)
		for _, rm := range refMimics {
			m := rm.mimic
			if _, err := m.document(body); err != nil {
				t.Errorf("%s: %s cannot read our /load: %v\n%s", file, rm.name, err, body)
			}
		}
		// Our own loader reads the answer too, without complaint.
		if _, warnings, err := otload.LoadOpenToolWarnings(body); err != nil || len(warnings) > 0 {
			t.Errorf("%s: LoadOpenTool of our /load: %v %v", file, warnings, err)
		}
	}

	// What the reference makes of the mock tool: the references resolved.
	body := loadBody(t, loadFile(t, "testdata/opentool/mock_tool.json"))
	m := refMimic{dart: true}
	rd, err := m.document(body)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[any]refFunction{}
	for _, f := range rd.Functions {
		byName[f.Name] = f
	}
	if r := byName["count"].Return; r == nil || r.Type != "integer" {
		t.Errorf("count returns %+v, want the integer of schemas.Count", r)
	}
	if p := byName["read"].Parameters; len(p) != 1 || p[0].Type != "integer" {
		t.Errorf("read's id: %+v, want the integer of schemas.Id", p)
	}
	if s := byName["sequentiallyRead"].Stream["data"]; s == nil || s.Type != "string" {
		t.Errorf("sequentiallyRead's stream: %+v, want the string of schemas.Text", s)
	}
	if len(rd.Schemas) != 3 {
		t.Errorf("schemas: got %d, want the document's 3 kept", len(rd.Schemas))
	}
}

// recursiveDoc has recursive schemas (Node refers to itself, Pair and Even to
// each other) next to references that are not part of any cycle, forward ones
// included (Alias → Node, Node → Count).
const recursiveDoc = `{"opentool":"1.0.0","info":{"title":"tree","version":"1"},
"functions":[
	{"name":"count","description":"d","parameters":[],"return":{"name":"Count","schema":{"$ref":"#/schemas/Count"}}},
	{"name":"walk","description":"d","parameters":[
		{"name":"tree","required":true,"schema":{"$ref":"#/schemas/Alias"}},
		{"name":"pair","required":false,"schema":{"$ref":"#/schemas/Pair","description":"a pair"}}
	]}
],
"schemas":{
	"Alias":{"$ref":"#/schemas/Node","description":"a tree"},
	"Node":{"type":"object","properties":{
		"value":{"$ref":"#/schemas/Count"},
		"children":{"type":"array","items":{"$ref":"#/schemas/Node"}}
	}},
	"Count":{"type":"integer"},
	"Pair":{"type":"object","properties":{"a":{"$ref":"#/schemas/Even"}}},
	"Even":{"type":"object","properties":{"next":{"$ref":"#/schemas/Pair"}}}
}}`

// refTargets returns the schema names the $refs of a JSON value point to.
func refTargets(v any) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case *jsObject:
			for _, k := range v.keys {
				if s, ok := v.vals[k].(string); k == "$ref" && ok {
					out = append(out, strings.TrimPrefix(s, "#/schemas/"))
				}
				walk(v.vals[k])
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return out
}

// A recursive schema cannot be written without a $ref, and the reference SDKs
// cannot read one at all (a self reference is not in the registry while its
// own schema is read). Our /load keeps exactly the references that are part of
// a cycle and inlines all others; the reference then fails on the first cyclic
// one it meets and on nothing else, and our own client and loader read it.
func TestLoadRecursiveReadByReferenceClients(t *testing.T) {
	doc, err := otload.LoadOpenTool([]byte(recursiveDoc))
	if err != nil {
		t.Fatal(err)
	}
	body := loadBody(t, doc)
	root, err := parseJS(body)
	if err != nil {
		t.Fatal(err)
	}
	cyclic := map[string]bool{"Node": true, "Pair": true, "Even": true}
	for _, name := range refTargets(root) {
		if !cyclic[name] {
			t.Errorf("a $ref to %s, which is part of no cycle, is left in %s", name, body)
		}
	}
	for _, rm := range refMimics {
		m := rm.mimic
		_, err := m.document(body)
		if err == nil {
			t.Errorf("%s read a recursive document: the mimic is wrong", rm.name)
			continue
		}
		_, ref, found := strings.Cut(err.Error(), "#ref not found: #/schemas/")
		if !found || !cyclic[ref] {
			t.Errorf("%s: got %v, want it to fail on a reference that is part of a cycle", rm.name, err)
		}
	}
	// The count function alone (no cycle reaches it) reads as the reference would.
	fs := root.(*jsObject).vals["functions"].([]any)
	if ret := fs[0].(*jsObject).vals["return"].(*jsObject).vals["schema"].(*jsObject); ret.vals["type"] != "integer" || len(ret.keys) != 1 {
		t.Errorf("count's return: got %v %v, want {\"type\":\"integer\"}", ret.keys, ret.vals)
	}
	tree := fs[1].(*jsObject).vals["parameters"].([]any)[0].(*jsObject).vals["schema"].(*jsObject)
	if tree.vals["type"] != "object" || tree.vals["description"] != "a tree" {
		t.Errorf("walk's tree: got %v, want Node inlined with the description of Alias", tree.vals)
	}

	// Our loader and client read it, cycles and all.
	got, warnings, err := otload.LoadOpenToolWarnings(body)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("LoadOpenTool: %v %v", warnings, err)
	}
	node, err := got.Resolve(got.Functions[1].Parameters[0].Schema)
	if err != nil || node.Properties.Get("children").Items.Ref != "#/schemas/Node" {
		t.Errorf("tree: %+v %v", node, err)
	}
	client := fakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
	loaded, err := client.Load(context.Background())
	if err != nil || loaded == nil || len(loaded.Functions) != 2 || len(loaded.Schemas) != 5 {
		t.Errorf("Client.Load of the inlined form: %+v %v", loaded, err)
	}
}

// Client.Load reads the inlined form, as the reference servers serve it, and
// still gets the document with its references from our server.
func TestClientLoadInlinedForm(t *testing.T) {
	doc := loadFile(t, "testdata/opentool/mock_tool.json")
	body := loadBody(t, doc)
	if bytes.Contains(body, []byte(`"$ref"`)) {
		t.Fatalf("GET /load kept references: %s", body)
	}
	client := fakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
	inlined, err := client.Load(context.Background())
	if err != nil || inlined == nil {
		t.Fatalf("Load: %v %v", inlined, err)
	}
	if r := inlined.Functions[0].Return.Schema; r.Ref != "" || r.Type != document.TypeInteger {
		t.Errorf("count returns %+v", r)
	}
	if len(inlined.Schemas) != 3 {
		t.Errorf("schemas: %d", len(inlined.Schemas))
	}

	// Against our server, the client asks for the document as the tool has it.
	tool := newMockTool()
	tool.doc = doc
	_, ours := serveMock(t, tool)
	got, err := ours.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(doc)
	if b, _ := json.Marshal(got); !bytes.Equal(b, want) {
		t.Errorf("Client.Load from our server:\n got %s\nwant %s", b, want)
	}
}
