package declare_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/opentoolgen/opentoolgen/gen"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// profileDoc has what the profiles treat differently: optional and nullable
// arguments, bounds, formats OpenAPI has and JSON Schema lacks, defaults,
// oneOf, a map, a value of any type, recursion and a reference chain.
const profileDoc = `{
	"opentool": "1.0.0",
	"info": {"title": "t", "version": "1"},
	"functions": [
		{
			"name": "search",
			"description": "Searches.",
			"parameters": [
				{"name": "q", "description": "The query.", "schema": {"type": "string", "minLength": 3, "maxLength": 80, "pattern": "^[a-z ]+$"}, "required": true},
				{"name": "limit", "schema": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 100, "default": 10}, "required": false},
				{"name": "since", "schema": {"type": "string", "format": "date-time", "nullable": true}, "required": false},
				{"name": "kind", "schema": {"type": "string", "enum": ["a", "b"], "nullable": true}, "required": true},
				{"name": "level", "schema": {"type": "integer", "enum": [1, 2, 3]}, "required": false},
				{"name": "file", "schema": {"type": "string", "format": "binary"}, "required": false},
				{"name": "tags", "schema": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 5}, "required": false},
				{"name": "filter", "schema": {"$ref": "#/schemas/Filter"}, "required": false},
				{"name": "shape", "schema": {"oneOf": [{"$ref": "#/schemas/Circle"}, {"$ref": "#/schemas/Square"}]}, "required": false}
			]
		},
		{
			"name": "tree",
			"description": "A recursive argument.",
			"parameters": [{"name": "root", "schema": {"$ref": "#/schemas/Node"}, "required": true}]
		},
		{
			"name": "labels",
			"description": "A map.",
			"parameters": [{"name": "labels", "schema": {"type": "object", "additionalProperties": {"type": "string"}}, "required": true}]
		},
		{
			"name": "anything",
			"description": "A value of any type.",
			"parameters": [{"name": "v", "required": true}]
		},
		{"name": "ping", "description": "", "parameters": []}
	],
	"schemas": {
		"Filter": {"type": "object", "properties": {
			"owner": {"type": "string"},
			"inner": {"$ref": "#/schemas/Inner"}
		}, "required": ["owner"]},
		"Inner": {"type": "object", "properties": {"n": {"type": "number", "format": "double"}}},
		"Circle": {"type": "object", "properties": {"r": {"type": "number"}}, "required": ["r"]},
		"Square": {"type": "object", "properties": {"side": {"type": "number"}}, "required": ["side"]},
		"Node": {"type": "object", "properties": {
			"value": {"type": "string"},
			"children": {"type": "array", "items": {"$ref": "#/schemas/Node"}}
		}, "required": ["value"]}
	}
}`

func loadDoc(t *testing.T, s string) *document.OpenTool {
	t.Helper()
	var doc document.OpenTool
	if err := json.Unmarshal([]byte(s), &doc); err != nil {
		t.Fatal(err)
	}
	return &doc
}

// profileDocs are the documents every profile is checked on: ours and every
// golden's served document.
func profileDocs(t *testing.T) map[string]*document.OpenTool {
	docs := map[string]*document.OpenTool{"profileDoc": loadDoc(t, profileDoc), "declDoc": loadDoc(t, readFile(t, "testdata/declarations.json"))}
	files, err := filepath.Glob("../../testdata/golden/*/opentool.gen.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden documents: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc document.OpenTool
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		docs[f] = &doc
	}
	return docs
}

func decodeAny(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	return v
}

// tool is one declared tool, whatever the profile's shape.
type declaredTool struct {
	name, description string
	strict            bool
	params            map[string]any // nil when the declaration has none
	output            map[string]any
	deferred          bool // defer_loading
	namespace         string
	examples          []any // input_examples
}

// flattenSearch returns the function tools of a tools list, checking the
// tool search entries (the search tool, namespaces) on the way.
func flattenSearch(t *testing.T, p declare.Profile, list []any) []any {
	t.Helper()
	var out []any
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			t.Fatalf("%s: tool %v is not an object", p, e)
		}
		switch m["type"] {
		case "tool_search":
			if len(m) != 1 || (p != declare.OpenAIResponses && p != declare.OpenAIResponsesStrict) {
				t.Errorf("%s: search tool %v", p, m)
			}
		case "tool_search_tool_bm25_20251119":
			if len(m) != 2 || m["name"] != "tool_search_tool_bm25" || (p != declare.Anthropic && p != declare.AnthropicStrict) {
				t.Errorf("%s: search tool %v", p, m)
			}
		case "namespace":
			name, _ := m["name"].(string)
			desc, _ := m["description"].(string)
			fns, _ := m["tools"].([]any)
			if !toolNameRule.MatchString(name) || desc == "" || len(fns) == 0 || len(m) != 4 {
				t.Errorf("%s: namespace %v: want name, description and tools", p, m)
			}
			for _, f := range fns {
				f.(map[string]any)["x-namespace"] = name
				out = append(out, f)
			}
		default:
			out = append(out, e)
		}
	}
	return out
}

// toolsOf checks the shape of a profile's "tools" member and returns its tools.
func toolsOf(t *testing.T, p declare.Profile, raw json.RawMessage) []declaredTool {
	t.Helper()
	var out []declaredTool
	list, ok := decodeAny(t, raw).([]any)
	if !ok {
		t.Fatalf("%s: tools %s: want an array", p, raw)
	}
	if p == declare.Gemini || p == declare.GeminiOpenAPI {
		if len(list) == 0 {
			return nil
		}
		if len(list) != 1 {
			t.Fatalf("gemini: want one Tool, got %d", len(list))
		}
		fd, ok := list[0].(map[string]any)["functionDeclarations"].([]any)
		if !ok || len(list[0].(map[string]any)) != 1 {
			t.Fatalf("gemini: want {\"functionDeclarations\": [...]}, got %v", list[0])
		}
		list = fd
	}
	list = flattenSearch(t, p, list)
	for _, e := range list {
		m := e.(map[string]any)
		var tl declaredTool
		allowed := []string{"name", "description"}
		switch p {
		case declare.OpenAI, declare.OpenAIStrict:
			if m["type"] != "function" || len(m) != 2 {
				t.Fatalf("%s: %v: want {type: function, function: {...}}", p, m)
			}
			m = m["function"].(map[string]any)
			tl.params, _ = m["parameters"].(map[string]any)
			allowed = append(allowed, "parameters")
			if p == declare.OpenAIStrict {
				s, ok := m["strict"].(bool)
				if !ok {
					t.Errorf("%s: %v: no strict member", p, m["name"])
				}
				tl.strict = s
				allowed = append(allowed, "strict")
			}
		case declare.OpenAIResponses, declare.OpenAIResponsesStrict:
			if m["type"] != "function" {
				t.Fatalf("%s: %v: want {type: function, name, …}", p, m)
			}
			tl.params, _ = m["parameters"].(map[string]any)
			s, ok := m["strict"].(bool) // required in the Responses API
			if !ok {
				t.Errorf("%s: %v: no strict member", p, m["name"])
			}
			if s && p == declare.OpenAIResponses {
				t.Errorf("%s: %v: strict", p, m["name"])
			}
			tl.strict = s
			tl.deferred = m["defer_loading"] == true
			allowed = append(allowed, "type", "parameters", "strict", "defer_loading")
		case declare.Anthropic, declare.AnthropicStrict:
			tl.params, _ = m["input_schema"].(map[string]any)
			tl.strict = m["strict"] == true
			tl.deferred = m["defer_loading"] == true
			tl.examples, _ = m["input_examples"].([]any)
			allowed = append(allowed, "input_schema", "defer_loading", "input_examples")
			if p == declare.AnthropicStrict {
				allowed = append(allowed, "strict")
			}
		case declare.Gemini:
			tl.params, _ = m["parametersJsonSchema"].(map[string]any)
			allowed = append(allowed, "parametersJsonSchema")
		case declare.GeminiOpenAPI:
			tl.params, _ = m["parameters"].(map[string]any)
			allowed = append(allowed, "parameters")
		case declare.MCP:
			tl.params, _ = m["inputSchema"].(map[string]any)
			tl.output, _ = m["outputSchema"].(map[string]any)
			allowed = append(allowed, "inputSchema", "outputSchema")
		}
		tl.namespace, _ = m["x-namespace"].(string)
		delete(m, "x-namespace")
		for k := range m {
			if !slices.Contains(allowed, k) {
				t.Errorf("%s: tool %v has member %q", p, m["name"], k)
			}
		}
		tl.name, _ = m["name"].(string)
		tl.description, _ = m["description"].(string)
		if tl.params == nil && p != declare.Gemini && p != declare.GeminiOpenAPI {
			t.Errorf("%s: tool %q has no parameters schema", p, tl.name)
		}
		if p == declare.MCP && tl.output["type"] != "object" {
			t.Errorf("mcp: tool %q: outputSchema %v, want an object schema", tl.name, tl.output)
		}
		out = append(out, tl)
	}
	return out
}

var (
	toolNameRule   = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	geminiNameRule = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`)
)

// JSON Schema 2020-12's formats.
var schemaFormats = []string{"date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
	"ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template", "json-pointer",
	"relative-json-pointer", "regex"}

// checkRules checks the schemas of one tool against what the profile's
// provider documents, and returns the violations.
func checkRules(p declare.Profile, tl declaredTool) []string {
	var bad []string
	fail := func(path, f string, args ...any) {
		bad = append(bad, fmt.Sprintf("%s: %s: %s", tl.name, path, fmt.Sprintf(f, args...)))
	}
	if !toolNameRule.MatchString(tl.name) {
		fail("", "name does not match %s", toolNameRule)
	}
	if (p == declare.Gemini || p == declare.GeminiOpenAPI) && !geminiNameRule.MatchString(tl.name) {
		fail("", "name does not match %s", geminiNameRule)
	}
	if tl.params == nil {
		return bad
	}
	if tl.params["type"] != "object" && tl.params["type"] != "OBJECT" {
		fail("", "parameters are not an object schema")
	}
	// Keywords each dialect may hold.
	jsonSchemaKeys := []string{"type", "description", "properties", "required", "additionalProperties", "items", "enum",
		"anyOf", "oneOf", "$ref", "$defs", "pattern", "format", "default", "minimum", "maximum", "minLength", "maxLength",
		"minItems", "maxItems", "contentEncoding", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems",
		"minProperties", "maxProperties", "const"}
	strictOpenAIKeys := []string{"type", "description", "properties", "required", "additionalProperties", "items", "enum",
		"anyOf", "$ref", "$defs", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
		"multipleOf", "minItems", "maxItems", "const"}
	// Gemini's JSON Schema support (parametersJsonSchema).
	geminiJSONKeys := []string{"type", "description", "properties", "required", "additionalProperties", "items", "enum",
		"anyOf", "$ref", "$defs", "format", "minimum", "maximum", "minItems", "maxItems", "title"}
	geminiKeys := []string{"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems", "properties",
		"required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example", "anyOf",
		"propertyOrdering", "default", "items", "minimum", "maximum"}
	strict := tl.strict
	defs, _ := tl.params["$defs"].(map[string]any)
	var walk func(path string, v any, root bool)
	walk = func(path string, v any, root bool) {
		s, ok := v.(map[string]any)
		if !ok {
			fail(path, "a schema that is not an object: %v", v)
			return
		}
		keys := jsonSchemaKeys
		switch {
		case p == declare.GeminiOpenAPI:
			keys = geminiKeys
		case p == declare.Gemini:
			keys = geminiJSONKeys
		case (p == declare.OpenAIStrict || p == declare.OpenAIResponsesStrict) && strict:
			keys = strictOpenAIKeys
		}
		for k := range s {
			if !slices.Contains(keys, k) {
				fail(path, "keyword %q is not in the %s dialect", k, p)
			}
			if k == "$defs" && !root {
				fail(path, "$defs below the root")
			}
		}
		types := typesOf(s["type"])
		if p == declare.GeminiOpenAPI {
			for _, ty := range types {
				if !slices.Contains([]string{"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"}, ty) {
					fail(path, "type %q is not one of Gemini's", ty)
				}
			}
			if len(types) > 1 {
				fail(path, "a type union")
			}
			if props, ok := s["properties"].(map[string]any); ok && len(props) == 0 {
				fail(path, "OBJECT with empty properties")
			}
			if e, ok := s["enum"]; ok && !slices.Equal(types, []string{"STRING"}) {
				fail(path, "enum %v on a type that is not STRING", e)
			}
			if f, ok := s["format"].(string); ok && !slices.Contains([]string{"date-time", "enum", "float", "double", "int32", "int64"}, f) {
				fail(path, "format %q", f)
			}
		} else {
			if f, ok := s["format"].(string); ok && !slices.Contains(schemaFormats, f) {
				fail(path, "format %q is not a JSON Schema format", f)
			}
			if f, ok := s["format"].(string); ok && p == declare.Gemini && !slices.Contains([]string{"date-time", "date", "time"}, f) {
				fail(path, "format %q is not among Gemini's", f)
			}
			if e, ok := s["enum"].([]any); ok && slices.Contains(types, "null") && !slices.Contains(e, nil) {
				fail(path, "nullable enum %v without null", e)
			}
		}
		if strict {
			isObject := slices.Contains(types, "object")
			if isObject {
				if s["additionalProperties"] != false {
					fail(path, "a strict object without additionalProperties: false")
				}
				if _, ok := s["properties"]; !ok {
					fail(path, "a strict object without properties")
				}
			}
			if len(types) == 0 && s["$ref"] == nil && s["anyOf"] == nil && s["enum"] == nil {
				fail(path, "a strict schema without a type")
			}
			switch p {
			case declare.OpenAIStrict, declare.OpenAIResponsesStrict:
				if isObject {
					props, _ := s["properties"].(map[string]any)
					req := strs(s["required"])
					for k := range props {
						if !slices.Contains(req, k) {
							fail(path, "property %q is not required in a strict object", k)
						}
					}
				}
				if f, ok := s["format"].(string); ok && !slices.Contains([]string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}, f) {
					fail(path, "format %q is not in OpenAI's strict subset", f)
				}
			case declare.AnthropicStrict:
				for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "maxItems", "pattern", "oneOf", "default"} {
					if _, ok := s[k]; ok {
						fail(path, "keyword %q is not in Anthropic's strict subset", k)
					}
				}
				if n, ok := s["minItems"].(json.Number); ok && n != "0" && n != "1" {
					fail(path, "minItems %s (only 0 or 1)", n)
				}
				if f, ok := s["format"].(string); ok && !slices.Contains([]string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}, f) {
					fail(path, "format %q is not in Anthropic's strict subset", f)
				}
			}
		}
		if req, ok := s["required"]; ok {
			props, _ := s["properties"].(map[string]any)
			for _, r := range strs(req) {
				if _, ok := props[r]; !ok {
					fail(path, "required %q is not a property", r)
				}
			}
		}
		if ref, ok := s["$ref"].(string); ok {
			if p == declare.GeminiOpenAPI {
				fail(path, "$ref in Gemini's OpenAPI subset")
			} else if !strings.HasPrefix(ref, "#/$defs/") {
				fail(path, "$ref %q does not point into $defs", ref)
			}
		}
		if props, ok := s["properties"].(map[string]any); ok {
			for _, k := range sortedKeys(props) {
				walk(path+"/properties/"+k, props[k], false)
			}
		}
		for _, k := range []string{"items", "additionalProperties"} {
			if c, ok := s[k].(map[string]any); ok {
				walk(path+"/"+k, c, false)
			}
		}
		for _, k := range []string{"anyOf", "oneOf"} {
			if list, ok := s[k].([]any); ok {
				for i, c := range list {
					walk(fmt.Sprintf("%s/%s/%d", path, k, i), c, false)
				}
			}
		}
		if root {
			for _, k := range sortedKeys(defs) {
				walk("/$defs/"+k, defs[k], false)
			}
		}
	}
	walk("", tl.params, true)
	if p == declare.AnthropicStrict && strict && defs != nil && hasCycle(defs) {
		fail("", "a recursive schema in a strict tool")
	}
	return bad
}

func typesOf(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		return strs(v)
	}
	return nil
}

func strs(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// hasCycle reports whether the $defs refer to themselves.
func hasCycle(defs map[string]any) bool {
	refs := map[string][]string{}
	var collect func(from string, v any)
	collect = func(from string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if r, ok := v["$ref"].(string); ok {
				refs[from] = append(refs[from], strings.TrimPrefix(r, "#/$defs/"))
			}
			for _, c := range v {
				collect(from, c)
			}
		case []any:
			for _, c := range v {
				collect(from, c)
			}
		}
	}
	for k, v := range defs {
		collect(k, v)
	}
	state := map[string]int{}
	var visit func(string) bool
	visit = func(n string) bool {
		if state[n] == 1 {
			return true
		}
		if state[n] == 2 {
			return false
		}
		state[n] = 1
		for _, m := range refs[n] {
			if visit(m) {
				return true
			}
		}
		state[n] = 2
		return false
	}
	for k := range defs {
		if visit(k) {
			return true
		}
	}
	return false
}

// TestProfilesFollowProviderRules declares every test and golden document in
// every profile and checks each declaration against the provider's documented
// rules; the JSON Schema profiles' schemas also compile as JSON Schema 2020-12.
func TestProfilesFollowProviderRules(t *testing.T) {
	for name, doc := range profileDocs(t) {
		for _, p := range declare.Profiles() {
			d, err := declare.Functions(doc, p)
			var le *declare.LimitError
			if err != nil && !errors.As(err, &le) {
				t.Fatalf("%s %s: %v", name, p, err)
			}
			tools := toolsOf(t, p, d.Tools)
			if len(tools) != len(doc.Functions) {
				t.Errorf("%s %s: %d tools for %d functions", name, p, len(tools), len(doc.Functions))
			}
			for _, tl := range tools {
				for _, v := range checkRules(p, tl) {
					t.Errorf("%s %s: %s", name, p, v)
				}
				if p != declare.GeminiOpenAPI && tl.params != nil {
					compileSchema(t, name+" "+string(p)+" "+tl.name, tl.params)
				}
			}
		}
	}
}

func compileSchema(t *testing.T, what string, s map[string]any) *jsonschema.Schema {
	t.Helper()
	b, _ := json.Marshal(s)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("mem:///s.json", doc); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	cs, err := c.Compile("mem:///s.json")
	if err != nil {
		t.Fatalf("%s: %s does not compile as JSON Schema 2020-12: %v", what, b, err)
	}
	return cs
}

func declared(t *testing.T, doc *document.OpenTool, p declare.Profile) (*declare.Declared, map[string]declaredTool) {
	t.Helper()
	d, err := declare.Functions(doc, p)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	m := map[string]declaredTool{}
	for _, tl := range toolsOf(t, p, d.Tools) {
		m[tl.name] = tl
	}
	return d, m
}

func valid(t *testing.T, s *jsonschema.Schema, args string) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(args))
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(v)
}

// TestOpenAIStrict checks what strict mode changes: every argument required,
// the optional ones accepting null, keywords it lacks in the description, and
// the functions it cannot express declared without it.
func TestOpenAIStrict(t *testing.T) {
	d, tools := declared(t, loadDoc(t, profileDoc), declare.OpenAIStrict)
	search := tools["search"]
	if !search.strict || !tools["tree"].strict || !tools["ping"].strict {
		t.Errorf("search, tree (recursion through $defs is allowed) and ping must be strict")
	}
	s := compileSchema(t, "search", search.params)
	all := `{"q":"abc","limit":null,"since":null,"kind":null,"level":null,"file":null,"tags":null,"filter":null,"shape":null}`
	if err := valid(t, s, all); err != nil {
		t.Errorf("every optional argument null: %v", err)
	}
	if err := valid(t, s, `{"q":"abc","kind":"a"}`); err == nil {
		t.Errorf("optional arguments left out: valid, want every property required")
	}
	if err := valid(t, s, strings.Replace(all, `"filter":null`, `"filter":{"owner":"me","inner":null}`, 1)); err != nil {
		t.Errorf("a nested optional member null: %v", err)
	}
	if err := valid(t, s, strings.Replace(all, `"filter":null`, `"filter":{"owner":"me","inner":null,"extra":1}`, 1)); err == nil {
		t.Errorf("an unknown member: valid, want objects closed")
	}
	q := search.params["properties"].(map[string]any)["q"].(map[string]any)
	if q["description"] != "The query. (at least 3 characters; at most 80 characters)" || q["pattern"] != "^[a-z ]+$" {
		t.Errorf("q: %v", q)
	}
	limit := search.params["properties"].(map[string]any)["limit"].(map[string]any)
	if limit["description"] != "Default: 10." || limit["minimum"] == nil {
		t.Errorf("limit: %v", limit)
	}
	file := search.params["properties"].(map[string]any)["file"].(map[string]any)
	if file["description"] != "Base64-encoded." || file["format"] != nil {
		t.Errorf("file: %v", file)
	}
	if tools["anything"].strict {
		t.Errorf("anything: strict, want false (strict mode cannot express a value of any type)")
	}
	if !tools["labels"].strict {
		t.Errorf("labels: not strict, want its map declared as entries")
	}
	if len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], `"anything"`) {
		t.Errorf("warnings: %q", d.Warnings)
	}
}

// TestAnthropicStrict checks bounds moved into descriptions, optional
// arguments kept optional and recursion declared without strict mode.
func TestAnthropicStrict(t *testing.T) {
	d, tools := declared(t, loadDoc(t, profileDoc), declare.AnthropicStrict)
	search := tools["search"]
	if !search.strict || tools["tree"].strict || !tools["labels"].strict {
		t.Errorf("strict: search %v, labels %v (want true: entries), tree %v (want false)", search.strict, tools["labels"].strict, tools["tree"].strict)
	}
	if got := strs(search.params["required"]); !slices.Equal(got, []string{"q", "kind"}) {
		t.Errorf("required %v, want the required arguments only", got)
	}
	props := search.params["properties"].(map[string]any)
	if got := props["limit"].(map[string]any)["description"]; got != "At least 1; at most 100; default: 10." {
		t.Errorf("limit: %v", got)
	}
	if got := props["tags"].(map[string]any)["description"]; got != "At least 2 items; at most 5 items." {
		t.Errorf("tags: %v", got)
	}
	if !slices.ContainsFunc(d.Warnings, func(w string) bool { return strings.Contains(w, `"tree"`) && strings.Contains(w, "recursive") }) {
		t.Errorf("warnings %q: want one for the recursive tree", d.Warnings)
	}
}

// TestGeminiOpenAPI checks the OpenAPI-subset schema: references inlined, recursion
// cut, nullable, no map, upper-case types.
func TestGeminiOpenAPI(t *testing.T) {
	_, tools := declared(t, loadDoc(t, profileDoc), declare.GeminiOpenAPI)
	if tools["ping"].params != nil {
		t.Errorf("ping: parameters %v, want none (Gemini refuses an empty OBJECT)", tools["ping"].params)
	}
	props := tools["search"].params["properties"].(map[string]any)
	if s := props["since"].(map[string]any); s["type"] != "STRING" || s["nullable"] != true || s["format"] != "date-time" {
		t.Errorf("since: %v", s)
	}
	if s := props["level"].(map[string]any); s["type"] != "INTEGER" || s["enum"] != nil || s["description"] != "One of 1, 2, 3." {
		t.Errorf("level: %v", s)
	}
	filter := props["filter"].(map[string]any)
	inner := filter["properties"].(map[string]any)["inner"].(map[string]any)
	if filter["type"] != "OBJECT" || inner["properties"].(map[string]any)["n"].(map[string]any)["format"] != "double" {
		t.Errorf("filter: %v", filter)
	}
	if shape := props["shape"].(map[string]any); len(shape["anyOf"].([]any)) != 2 {
		t.Errorf("shape: %v", shape)
	}
	root := tools["tree"].params["properties"].(map[string]any)["root"].(map[string]any)
	child := root["properties"].(map[string]any)["children"].(map[string]any)["items"].(map[string]any)
	if child["type"] != "OBJECT" || child["properties"] != nil || !strings.Contains(child["description"].(string), "recursive") {
		t.Errorf("the recursion: %v", child)
	}
	labels := tools["labels"].params["properties"].(map[string]any)["labels"].(map[string]any)
	if labels["additionalProperties"] != nil || labels["description"] != "Any other members: each a string." {
		t.Errorf("labels: %v", labels)
	}
}

// TestDeclaredNames checks the names every provider takes: kept when they fit,
// made deterministically otherwise, unique, and mapped back.
func TestDeclaredNames(t *testing.T) {
	long := strings.Repeat("x", 70)
	names := []string{"get_weather", "get weather", "get.weather", "3d-render", "-x", "天气", "天気", long, long + "y", "ok-1"}
	doc := &document.OpenTool{}
	for _, n := range names {
		doc.Functions = append(doc.Functions, document.Function{Name: n})
	}
	got := declare.Names(doc)
	again := declare.Names(doc)
	seen := map[string]string{}
	for _, n := range names {
		d := got[n]
		if d != again[n] {
			t.Errorf("%q: %q then %q", n, d, again[n])
		}
		if !geminiNameRule.MatchString(d) {
			t.Errorf("%q: declared %q does not fit", n, d)
		}
		if o, ok := seen[d]; ok {
			t.Errorf("%q and %q both declared %q", o, n, d)
		}
		seen[d] = n
	}
	for n, want := range map[string]string{"get_weather": "get_weather", "ok-1": "ok-1", "3d-render": "_3d-render", "-x": "_-x"} {
		if got[n] != want {
			t.Errorf("%q: %q, want %q", n, got[n], want)
		}
	}
	if d := got["get weather"]; !strings.HasPrefix(d, "get_weather_") || len(d) != len("get_weather_")+8 {
		t.Errorf(`"get weather" (taken "get_weather"): %q, want get_weather_ and a hash`, d)
	}
	if len(got[long]) != 64 || got[long] == got[long+"y"] {
		t.Errorf("long names: %q, %q", got[long], got[long+"y"])
	}
	d, err := declare.Functions(doc, declare.OpenAI)
	if err != nil {
		t.Fatal(err)
	}
	if d.Names[got["天气"]] != "天气" || d.Names["get_weather"] != "" {
		t.Errorf("Names: %v", d.Names)
	}
}

// TestDeclareLimits checks the limits that make a request fail: an error
// naming the limit and the count, with the declarations.
func TestDeclareLimits(t *testing.T) {
	many := &document.OpenTool{}
	for i := range 130 {
		many.Functions = append(many.Functions, document.Function{Name: fmt.Sprintf("f%d", i),
			Parameters: []document.Parameter{{Name: "a", Schema: &document.Schema{Type: document.TypeString}}}})
	}
	d, err := declare.Functions(many, declare.OpenAI)
	if err == nil || !strings.Contains(err.Error(), "130 tools, at most 128") || d == nil || len(toolsOf(t, declare.OpenAI, d.Tools)) != 130 {
		t.Errorf("130 tools: %v", err)
	}
	_, err = declare.Functions(many, declare.AnthropicStrict)
	if err == nil || !strings.Contains(err.Error(), "130 strict tools, at most 20") || !strings.Contains(err.Error(), "130 optional parameters in strict tools, at most 24") {
		t.Errorf("anthropic-strict: %v", err)
	}
	if _, err := declare.Functions(many, declare.MCP); err != nil {
		t.Errorf("mcp: %v", err)
	}

	// Objects nested 12 deep.
	s := &document.Schema{Type: document.TypeString}
	for range 12 {
		s = &document.Schema{Type: document.TypeObject, Properties: document.Schemas{{Name: "n", Schema: s}}, Required: []string{"n"}}
	}
	deep := &document.OpenTool{Functions: []document.Function{{Name: "deep", Parameters: []document.Parameter{{Name: "a", Schema: s, Required: true}}}}}
	// Beyond strict mode's depth, the function is declared without it.
	for _, p := range []declare.Profile{declare.OpenAIStrict, declare.OpenAIResponsesStrict} {
		d, err = declare.Functions(deep, p)
		if err != nil || len(d.Warnings) != 1 || d.Warnings[0] != string(p)+`: function "deep" is declared without strict mode: 13 levels of nesting, where strict mode takes at most 10` {
			t.Errorf("deep, %s: %v %q", p, err, d.Warnings)
		}
		if tools := toolsOf(t, p, d.Tools); len(tools) != 1 || tools[0].strict {
			t.Errorf("deep, %s: %s", p, d.Tools)
		}
	}
	if _, err := declare.Functions(deep, declare.OpenAI); err != nil {
		t.Errorf("deep, not strict: %v", err)
	}

	// Gemini inlines references: ten levels of ten references each would
	// be 10^10 schemas. It stops, and says so.
	wide := &document.OpenTool{Functions: []document.Function{{Name: "wide", Parameters: []document.Parameter{{Name: "a", Schema: &document.Schema{Ref: "#/schemas/L0"}, Required: true}}}}}
	for l := range 10 {
		props := document.Schemas{}
		for i := range 10 {
			ps := &document.Schema{Type: document.TypeString}
			if l < 9 {
				ps = &document.Schema{Ref: fmt.Sprintf("#/schemas/L%d", l+1)}
			}
			props = append(props, document.NamedSchema{Name: fmt.Sprintf("p%d", i), Schema: ps})
		}
		wide.Schemas = append(wide.Schemas, document.NamedSchema{Name: fmt.Sprintf("L%d", l), Schema: &document.Schema{Type: document.TypeObject, Properties: props}})
	}
	d, err = declare.Functions(wide, declare.GeminiOpenAPI)
	if err == nil || !strings.Contains(err.Error(), `function "wide"`) || !strings.Contains(err.Error(), "schemas once references are inlined") {
		t.Errorf("wide: %v", err)
	}
	if d == nil || len(d.Tools) > 10<<20 {
		t.Errorf("wide: %d bytes of declarations", len(d.Tools))
	}
	if _, err := declare.Functions(wide, declare.OpenAI); err != nil {
		t.Errorf("wide, with $defs: %v", err)
	}
}

func TestParseProfile(t *testing.T) {
	for _, p := range declare.Profiles() {
		if got, err := declare.ParseProfile(string(p)); got != p || err != nil {
			t.Errorf("%s: %v %v", p, got, err)
		}
	}
	if _, err := declare.ParseProfile("openai-lax"); err == nil || !strings.Contains(err.Error(), `"openai-lax"`) || !strings.Contains(err.Error(), "anthropic-strict") {
		t.Errorf("unknown profile: %v", err)
	}
	if _, err := declare.Functions(&document.OpenTool{}, "x"); err == nil {
		t.Errorf("Functions with an unknown profile: no error")
	}
}

// TestProfilesRealWorld (opt-in: OPENTOOLGEN_REALWORLD=1) declares the large
// public documents of ogen's test data — GitHub's REST API, Kubernetes,
// OpenAI, Telegram — in every profile and checks every declaration against the
// providers' rules, as TestProfilesFollowProviderRules does for the goldens.
// Limits the documents exceed (GitHub's 767 tools for OpenAI's 128) are
// logged, not failures.
func TestProfilesRealWorld(t *testing.T) {
	if os.Getenv("OPENTOOLGEN_REALWORLD") == "" {
		t.Skip("set OPENTOOLGEN_REALWORLD=1 to declare the public documents of the module cache")
	}
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/ogen-go/ogen@v1.14.0").Output()
	if err != nil {
		t.Fatalf("go mod download: %v", err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		t.Fatalf("go mod download: %s", out)
	}
	for _, name := range []string{"api.github.com.json", "k8s.json", "openai.yml", "telegram_bot_api.json"} {
		path := filepath.Join(mod.Dir, "_testdata", "examples", name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		res, err := gen.Generate(path, data, gen.Options{Package: "p"})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var doc document.OpenTool
		if err := json.Unmarshal(res.Document, &doc); err != nil {
			t.Fatal(err)
		}
		for _, p := range declare.Profiles() {
			d, err := declare.Functions(&doc, p)
			var le *declare.LimitError
			if err != nil && !errors.As(err, &le) {
				t.Fatalf("%s %s: %v", name, p, err)
			}
			if le != nil {
				t.Logf("%s %s: %v", name, p, le)
			}
			bad := 0
			for _, tl := range toolsOf(t, p, d.Tools) {
				for _, v := range checkRules(p, tl) {
					if bad++; bad <= 20 {
						t.Errorf("%s %s: %s", name, p, v)
					}
				}
				if p != declare.GeminiOpenAPI && tl.params != nil {
					compileSchema(t, name+" "+string(p)+" "+tl.name, tl.params)
				}
			}
			t.Logf("%s %s: %d tools, %d bytes, %d warnings, %d rule violations", name, p, len(doc.Functions), len(d.Tools), len(d.Warnings), bad)
		}
	}
}

// readFile returns the text of the file at path.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestStrictWarningSaysWhere: a function strict mode cannot say is declared
// without it, with a warning that names the place in its parameters and
// the keyword (OpenAI's createAnswer: "expand" is an array whose items have
// no type; a map beside named members; a reference to no schema).
func TestStrictWarningSaysWhere(t *testing.T) {
	doc := loadDoc(t, `{
	"opentool": "1.0.0",
	"info": {"title": "t", "version": "1"},
	"functions": [
		{"name": "answer", "parameters": [
			{"name": "q", "schema": {"type": "string"}, "required": true},
			{"name": "expand", "schema": {"type": "array", "items": {}, "nullable": true}, "required": false}]},
		{"name": "mixed", "parameters": [
			{"name": "o", "schema": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "string"}}}]},
		{"name": "deep", "parameters": [
			{"name": "o", "schema": {"$ref": "#/schemas/Outer"}}]}
	],
	"schemas": {
		"Outer": {"type": "object", "properties": {"list": {"type": "array", "items": {"anyOf": [{"type": "string"}, {"$ref": "#/schemas/Missing"}]}}}}
	}
}`)
	for _, p := range []declare.Profile{declare.OpenAIStrict, declare.OpenAIResponsesStrict} {
		d, err := declare.Functions(doc, p)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			string(p) + `: function "answer" is declared without strict mode: at /properties/expand/items of the parameters' schema, a schema with no "type" (a value of any type) is not in the strict subset`,
			string(p) + `: function "mixed" is declared without strict mode: at /properties/o of the parameters' schema, an object with both named members and "additionalProperties" (members of any name) is not in the strict subset`,
			string(p) + `: function "deep" is declared without strict mode: at /$defs/Outer/properties/list/items/anyOf/1 of the parameters' schema, "$ref" "#/schemas/Missing" does not resolve`,
		}
		if !slices.Equal(d.Warnings, want) {
			t.Errorf("%s: warnings\n%s\nwant\n%s", p, strings.Join(d.Warnings, "\n"), strings.Join(want, "\n"))
		}
	}
}
