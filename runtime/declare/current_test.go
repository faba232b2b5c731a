package declare_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// TestOpenAIStrictKeeps checks the list of OpenAI's structured outputs
// guide: strict mode takes pattern, the formats date-time, time, date,
// duration, email, hostname, ipv4, ipv6 and uuid, numeric bounds
// (minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf) and
// minItems/maxItems; the rest goes into the description.
func TestOpenAIStrictKeeps(t *testing.T) {
	doc := loadDoc(t, `{"opentool":"1.0.0","info":{"title":"t","version":"1"},"functions":[{"name":"f","description":"","parameters":[
		{"name":"code","schema":{"type":"string","pattern":"^[A-Z]{3}$","minLength":3,"maxLength":3},"required":true},
		{"name":"when","schema":{"type":"string","format":"duration"},"required":true},
		{"name":"site","schema":{"type":"string","format":"uri"},"required":true},
		{"name":"ratio","schema":{"type":"number","minimum":0,"maximum":1,"exclusiveMinimum":0,"multipleOf":0.25},"required":true},
		{"name":"ids","schema":{"type":"array","items":{"type":"string","format":"uuid"},"minItems":1,"maxItems":3,"uniqueItems":true},"required":true}
	]}]}`)
	for _, p := range []declare.Profile{declare.OpenAIStrict, declare.OpenAIResponsesStrict} {
		_, tools := declared(t, doc, p)
		props := tools["f"].params["properties"].(map[string]any)
		got, _ := json.Marshal(props)
		want := `{"code":{"description":"At least 3 characters; at most 3 characters.","pattern":"^[A-Z]{3}$","type":"string"},` +
			`"ids":{"description":"No two items equal.","items":{"format":"uuid","type":"string"},"maxItems":3,"minItems":1,"type":"array"},` +
			`"ratio":{"exclusiveMinimum":0,"maximum":1,"minimum":0,"multipleOf":0.25,"type":"number"},` +
			`"site":{"description":"Format: uri.","type":"string"},` +
			`"when":{"format":"duration","type":"string"}}`
		if string(got) != want {
			t.Errorf("%s:\n got %s\nwant %s", p, got, want)
		}
	}
}

// TestOpenAIResponses checks the Responses API's flat shape, and that the
// Chat Completions shape read as it gives tools without names (the mistake
// the profile's doc warns about).
func TestOpenAIResponses(t *testing.T) {
	doc := loadDoc(t, profileDoc)
	for _, p := range []declare.Profile{declare.OpenAIResponses, declare.OpenAIResponsesStrict} {
		d, tools := declared(t, doc, p)
		if len(tools) != len(doc.Functions) || tools["search"].params == nil {
			t.Fatalf("%s: %s", p, d.Tools)
		}
		if p == declare.OpenAIResponsesStrict && (!tools["search"].strict || tools["anything"].strict) {
			t.Errorf("%s: search strict %v (want true), anything %v (want false)", p, tools["search"].strict, tools["anything"].strict)
		}
	}
	chat, err := declare.Functions(doc, declare.OpenAI)
	if err != nil {
		t.Fatal(err)
	}
	var flat []struct {
		Type, Name string
		Parameters map[string]any
	}
	if err := json.Unmarshal(chat.Tools, &flat); err != nil || flat[0].Name != "" || flat[0].Parameters != nil {
		t.Errorf("Chat Completions declarations read as Responses tools: %+v, %v (want no names: the wrong profile)", flat[0], err)
	}
}

// TestGeminiJSONSchema checks parametersJsonSchema: references kept in
// $defs, nullable as a type union, a map as additionalProperties, what
// Gemini does not list moved into the description.
func TestGeminiJSONSchema(t *testing.T) {
	_, tools := declared(t, loadDoc(t, profileDoc), declare.Gemini)
	props := tools["search"].params["properties"].(map[string]any)
	if s := props["since"].(map[string]any); !slices.Equal(typesOf(s["type"]), []string{"string", "null"}) || s["format"] != "date-time" || s["nullable"] != nil {
		t.Errorf("since: %v", s)
	}
	if q := props["q"].(map[string]any); q["pattern"] != nil || q["description"] != "The query. (at least 3 characters; at most 80 characters; matching the regular expression ^[a-z ]+$)" {
		t.Errorf("q: %v", q)
	}
	if f := props["filter"].(map[string]any); f["$ref"] != "#/$defs/Filter" {
		t.Errorf("filter: %v", f)
	}
	if f := props["file"].(map[string]any); f["contentEncoding"] != nil || f["description"] != "Base64-encoded." {
		t.Errorf("file: %v", f)
	}
	labels := tools["labels"].params["properties"].(map[string]any)["labels"].(map[string]any)
	if ap, _ := labels["additionalProperties"].(map[string]any); ap["type"] != "string" {
		t.Errorf("labels: %v", labels)
	}
	if tools["tree"].params["$defs"].(map[string]any)["Node"] == nil {
		t.Errorf("tree: the recursive Node is not in $defs: %v", tools["tree"].params)
	}
}

// TestStrictMapEntries checks the map of a strict declaration: an array
// of {key, value} entries that strict mode takes, which a call in the
// object form does not match and a call in the entries form does.
func TestStrictMapEntries(t *testing.T) {
	doc := loadDoc(t, `{"opentool":"1.0.0","info":{"title":"t","version":"1"},"functions":[{"name":"tag","description":"","parameters":[
		{"name":"labels","description":"Labels to set.","schema":{"type":"object","additionalProperties":{"type":"integer","minimum":0},"maxProperties":5},"required":true},
		{"name":"deep","schema":{"type":"object","additionalProperties":{"type":"object","additionalProperties":{"$ref":"#/schemas/P"}}},"required":false},
		{"name":"meta","schema":{"type":"object"},"required":false}
	]}],"schemas":{"P":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"]}}}`)
	for _, p := range []declare.Profile{declare.OpenAIStrict, declare.OpenAIResponsesStrict, declare.AnthropicStrict} {
		d, tools := declared(t, doc, p)
		tl := tools["tag"]
		if !tl.strict || len(d.Warnings) != 0 {
			t.Fatalf("%s: strict %v, warnings %q", p, tl.strict, d.Warnings)
		}
		for _, v := range checkRules(p, tl) {
			t.Errorf("%s: %s", p, v)
		}
		labels := tl.params["properties"].(map[string]any)["labels"].(map[string]any)
		if labels["type"] != "array" || !strings.HasPrefix(labels["description"].(string), "Labels to set. (a map, as its entries: each key once") {
			t.Errorf("%s: labels %v", p, labels)
		}
		s := compileSchema(t, string(p), tl.params)
		deep := `null`
		if p == declare.AnthropicStrict {
			deep = `[{"key":"a","value":[{"key":"b","value":{"x":1}}]}]`
		}
		entries := `{"labels":[{"key":"env","value":1},{"key":"tier","value":2}],"deep":` + deep + `,"meta":[{"key":"a","value":"x"},{"key":"b","value":2.5},{"key":"c","value":null}]}`
		if err := valid(t, s, entries); err != nil {
			t.Errorf("%s: the entries form: %v", p, err)
		}
		if err := valid(t, s, `{"labels":{"env":1},"deep":null,"meta":null}`); err == nil {
			t.Errorf("%s: the object form is valid, want the entries the declaration asks for", p)
		}
		meta := tl.params["properties"].(map[string]any)["meta"].(map[string]any)
		if d, _ := meta["description"].(string); !strings.Contains(d, "each value a string, number, boolean or null") {
			t.Errorf("%s: meta (a free-form object) %v", p, meta)
		}
	}
	// Not strict: the map as JSON Schema says it.
	_, tools := declared(t, doc, declare.OpenAI)
	if l := tools["tag"].params["properties"].(map[string]any)["labels"].(map[string]any); l["type"] != "object" || l["additionalProperties"] == nil {
		t.Errorf("openai: labels %v", l)
	}
}

// searchDoc has 12 functions in three groups.
func searchDoc() *document.OpenTool {
	doc := &document.OpenTool{}
	for _, g := range []string{"issues", "pulls", "repos"} {
		for i := range 4 {
			doc.Functions = append(doc.Functions, document.Function{Name: fmt.Sprintf("%s_%d", g, i), Description: "Does " + g + ".",
				Parameters: []document.Parameter{{Name: "owner", Schema: &document.Schema{Type: document.TypeString}, Required: true}}})
		}
	}
	return doc
}

// TestToolSearch checks the tools member prepared for the providers' tool
// search: every function deferred, the search tool first, namespaces for
// OpenAI, and the errors for what a provider does not take.
func TestToolSearch(t *testing.T) {
	doc := searchDoc()
	ns := map[string]string{}
	for _, f := range doc.Functions[:8] { // repos_* stay at the top level
		ns[f.Name] = declare.NamespaceName(strings.Split(f.Name, "_")[0] + " API")
	}
	o := declare.Options{ToolSearch: true, Namespaces: ns, NamespaceDescriptions: map[string]string{"issues_api": "Issues."}}
	for _, p := range []declare.Profile{declare.OpenAIResponses, declare.OpenAIResponsesStrict} {
		d, err := declare.FunctionsWith(doc, p, o)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var top []map[string]any
		if err := json.Unmarshal(d.Tools, &top); err != nil {
			t.Fatal(err)
		}
		var shape []string
		for _, e := range top {
			shape = append(shape, fmt.Sprint(e["type"], ":", e["name"], ":", e["description"]))
		}
		want := []string{"tool_search:<nil>:<nil>", "namespace:issues_api:Issues.", "namespace:pulls_api:Functions pulls_0, pulls_1, pulls_2, pulls_3.",
			"function:repos_0:Does repos.", "function:repos_1:Does repos.", "function:repos_2:Does repos.", "function:repos_3:Does repos."}
		if !slices.Equal(shape, want) {
			t.Errorf("%s: tools\n got %q\nwant %q", p, shape, want)
		}
		tools := toolsOf(t, p, d.Tools)
		for _, tl := range tools {
			wantNS := ""
			if !strings.HasPrefix(tl.name, "repos") {
				wantNS = strings.Split(tl.name, "_")[0] + "_api"
			}
			if !tl.deferred || tl.namespace != wantNS {
				t.Errorf("%s: %s: deferred %v, namespace %q (want %q)", p, tl.name, tl.deferred, tl.namespace, wantNS)
			}
		}
	}
	for _, p := range []declare.Profile{declare.Anthropic, declare.AnthropicStrict} {
		d, err := declare.FunctionsWith(doc, p, declare.Options{ToolSearch: true})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		tools := toolsOf(t, p, d.Tools)
		if len(tools) != 12 || !tools[0].deferred || !strings.HasPrefix(string(d.Tools), `[{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"},`) {
			t.Errorf("%s: %s", p, d.Tools)
		}
	}
	for _, tc := range []struct {
		p    declare.Profile
		o    declare.Options
		want string
	}{
		{declare.OpenAI, declare.Options{ToolSearch: true}, `opentool: openai declarations have no tool search: OpenAI's tool_search is in the Responses API (profile openai-responses)`},
		{declare.Gemini, declare.Options{ToolSearch: true}, `opentool: gemini declarations have no tool search (OpenAI's Responses API and Anthropic's have)`},
		{declare.Anthropic, declare.Options{Namespaces: ns}, `opentool: anthropic declarations have no namespaces (OpenAI's Responses API has: profile openai-responses)`},
		{declare.OpenAIResponses, declare.Options{Namespaces: map[string]string{"issues_1": "the issues"}}, `opentool: function "issues_1": namespace "the issues": want 1 to 64 of a-z, A-Z, 0-9, _ and -`},
		{declare.OpenAIResponses, declare.Options{Namespaces: map[string]string{"issues_1": "repos_0"}}, `opentool: function "issues_1": namespace "repos_0" has the name of function "repos_0", declared beside it`},
	} {
		if _, err := declare.FunctionsWith(doc, tc.p, tc.o); err == nil || err.Error() != tc.want {
			t.Errorf("%s %+v: %v\nwant %s", tc.p, tc.o, err, tc.want)
		}
	}
	// OpenAI advises fewer than 10 functions a namespace.
	all := map[string]string{}
	for _, f := range doc.Functions {
		all[f.Name] = "everything"
	}
	d, err := declare.FunctionsWith(doc, declare.OpenAIResponses, declare.Options{ToolSearch: true, Namespaces: all})
	if err != nil || len(d.Warnings) != 1 || d.Warnings[0] != "openai-responses: namespaces with 10 functions or more, where OpenAI advises fewer: everything (12)" {
		t.Errorf("one namespace of 12: %v %q", err, d.Warnings)
	}
}

// TestToolSearchLimits checks the limits with tool search: Anthropic's
// catalog of 10,000 tools, OpenAI's 128 tools counted at the top level.
func TestToolSearchLimits(t *testing.T) {
	doc := &document.OpenTool{}
	ns := map[string]string{}
	for i := range 10_001 {
		name := fmt.Sprintf("f%d", i)
		doc.Functions = append(doc.Functions, document.Function{Name: name})
		ns[name] = fmt.Sprintf("g%d", i/9)
	}
	_, err := declare.FunctionsWith(doc, declare.Anthropic, declare.Options{ToolSearch: true})
	var le *declare.LimitError
	if !errors.As(err, &le) || err.Error() != "opentool: the anthropic declarations exceed the provider's limits: 10001 tools deferred for tool search, at most 10000" {
		t.Errorf("anthropic: %v", err)
	}
	doc.Functions = doc.Functions[:1000]
	// 1,000 functions in 112 namespaces and the search tool: 113 entries.
	if _, err := declare.FunctionsWith(doc, declare.OpenAIResponses, declare.Options{ToolSearch: true, Namespaces: ns}); err != nil {
		t.Errorf("1,000 functions in namespaces of 9: %v", err)
	}
	if _, err := declare.FunctionsWith(doc, declare.OpenAIResponses, declare.Options{ToolSearch: true}); err == nil || !strings.Contains(err.Error(), "1001 tools, at most 128") {
		t.Errorf("1,000 functions without namespaces: %v", err)
	}
}

// TestInputExamples checks Anthropic's input_examples: members of
// arguments the declaration lacks left out, maps as entries in a strict
// declaration, a bad example left out with a warning naming the function.
func TestInputExamples(t *testing.T) {
	doc := loadDoc(t, `{"opentool":"1.0.0","info":{"title":"t","version":"1"},"functions":[{"name":"tag","description":"","parameters":[
		{"name":"id","schema":{"type":"integer"},"required":true},
		{"name":"labels","schema":{"type":"object","additionalProperties":{"type":"string"}},"required":false}
	]}]}`)
	o := declare.Options{Examples: map[string][]json.RawMessage{"tag": {
		json.RawMessage(`{"id": 12345678901234567890, "labels": {"b": "2", "a": "1"}, "api_key": "fixed"}`),
		json.RawMessage(`{"labels": {}}`),
		json.RawMessage(`[1]`),
	}}}
	for p, want := range map[declare.Profile]string{
		declare.Anthropic:       `[{"id":12345678901234567890,"labels":{"a":"1","b":"2"}}]`,
		declare.AnthropicStrict: `[{"id":12345678901234567890,"labels":[{"key":"a","value":"1"},{"key":"b","value":"2"}]}]`,
	} {
		d, err := declare.FunctionsWith(doc, p, o)
		if err != nil {
			t.Fatal(err)
		}
		tools := toolsOf(t, p, d.Tools)
		got, _ := json.Marshal(tools[0].examples)
		if string(got) != want {
			t.Errorf("%s: input_examples %s, want %s", p, got, want)
		}
		if !strings.Contains(string(d.Tools), `"id":12345678901234567890`) {
			t.Errorf("%s: the example's number is not kept as written: %s", p, d.Tools)
		}
		if len(d.Warnings) != 2 || !strings.Contains(d.Warnings[0], `function "tag": example 1 is left out: required argument "id" is missing`) ||
			!strings.Contains(d.Warnings[1], `example 2 is left out: want a JSON object of arguments`) {
			t.Errorf("%s: warnings %q", p, d.Warnings)
		}
		if p == declare.AnthropicStrict {
			s := compileSchema(t, string(p), tools[0].params)
			ex, _ := json.Marshal(tools[0].examples[0])
			if err := valid(t, s, string(ex)); err != nil {
				t.Errorf("%s: the example does not match the strict schema: %v", p, err)
			}
		}
	}
	if d, err := declare.FunctionsWith(doc, declare.OpenAI, o); err != nil || strings.Contains(string(d.Tools), "example") {
		t.Errorf("openai with examples: %v %s", err, d.Tools)
	}
}
