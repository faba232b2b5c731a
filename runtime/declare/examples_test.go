package declare_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// examplesDoc has a function whose document gives examples: seven that
// validate against its schema, and five that do not, in between.
const examplesDoc = `{"opentool":"1.0.0","info":{"title":"t","version":"1"},"functions":[{"name":"find","description":"Finds.","parameters":[
	{"name":"q","schema":{"type":"string","pattern":"^[a-z]+$"},"required":true},
	{"name":"limit","schema":{"type":"integer","maximum":100},"required":false},
	{"name":"filter","schema":{"$ref":"#/schemas/Filter"},"required":false}
],"examples":[
	{"q":"cats"},
	{"q":"dogs","limit":10},
	{"q":"birds","limit":"10"},
	{"q":"fish","limit":1000},
	{"q":"Ants"},
	{"q":"owls","filter":{"status":"lost"}},
	{"q":"bees","filter":{"status":"open","colour":"red"}},
	{"q":"mice","filter":{"status":"open"}},
	{"q":"rats","limit":2.5},
	{"q":"elks","limit":3},
	{"q":"yaks"},
	{"q":"gnus"}
]}],"schemas":{"Filter":{"type":"object","properties":{"status":{"type":"string","enum":["open","closed"]}},"required":["status"]}}}`

// TestDocumentExamples checks the input_examples Anthropic's profiles take
// from a function's Examples: each checked against the function's schema
// (one that does not validate left out with a warning naming the function
// and the place), at most five kept (a warning says so), every one kept
// valid against the declared schema; Options.Examples replaces the
// document's; other profiles write none.
func TestDocumentExamples(t *testing.T) {
	doc := loadDoc(t, examplesDoc)
	for p, wantKept := range map[declare.Profile]string{
		// In strict mode the object is closed: "colour" makes example 6 invalid.
		declare.Anthropic:       `[{"q":"cats"},{"limit":10,"q":"dogs"},{"filter":{"colour":"red","status":"open"},"q":"bees"},{"filter":{"status":"open"},"q":"mice"},{"limit":3,"q":"elks"}]`,
		declare.AnthropicStrict: `[{"q":"cats"},{"limit":10,"q":"dogs"},{"filter":{"status":"open"},"q":"mice"},{"limit":3,"q":"elks"},{"q":"yaks"}]`,
	} {
		d, err := declare.FunctionsWith(doc, p, declare.Options{})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		tools := toolsOf(t, p, d.Tools)
		got, _ := json.Marshal(tools[0].examples) // keys sorted
		if string(got) != wantKept {
			t.Errorf("%s: input_examples\n got %s\nwant %s", p, got, wantKept)
		}
		s := compileSchema(t, string(p), tools[0].params)
		for i, ex := range tools[0].examples {
			b, _ := json.Marshal(ex)
			if err := valid(t, s, string(b)); err != nil {
				t.Errorf("%s: example %d kept but invalid against the declared schema: %v", p, i, err)
			}
		}
		want := []string{
			`function "find": example 2 is left out: /limit: got "10", want a number`,
			`function "find": example 3 is left out: /limit: got 1000, want a number within the schema's bounds`,
			`function "find": example 4 is left out: /q: got "Ants", want a string matching "^[a-z]+$"`,
			`function "find": example 5 is left out: /filter/status: got "lost", want one of "open", "closed"`,
		}
		if p == declare.AnthropicStrict {
			want = append(want, `function "find": example 6 is left out: /filter: member "colour" is not in the schema, whose object strict mode closes`)
		}
		want = append(want, `function "find": example 8 is left out: /limit: got 2.5, want an integer`)
		kept := 7
		if p == declare.AnthropicStrict {
			kept = 6
		}
		want = append(want, fmt.Sprintf(`function "find": %d examples, Anthropic takes at most 5: the first 5 are kept`, kept))
		if len(d.Warnings) != len(want) {
			t.Fatalf("%s: warnings\n%s\nwant\n%s", p, strings.Join(d.Warnings, "\n"), strings.Join(want, "\n"))
		}
		for i, w := range want {
			if d.Warnings[i] != string(p)+": "+w {
				t.Errorf("%s: warning %d\n got %s\nwant %s: %s", p, i, d.Warnings[i], p, w)
			}
		}
	}
	// Options.Examples replaces the document's examples of a function.
	d, err := declare.FunctionsWith(doc, declare.Anthropic, declare.Options{Examples: map[string][]json.RawMessage{"find": {json.RawMessage(`{"q":"given"}`)}}})
	if err != nil || len(d.Warnings) != 0 {
		t.Fatalf("with Options.Examples: %v %q", err, d.Warnings)
	}
	if got, _ := json.Marshal(toolsOf(t, declare.Anthropic, d.Tools)[0].examples); string(got) != `[{"q":"given"}]` {
		t.Errorf("with Options.Examples: %s", got)
	}
	for _, p := range []declare.Profile{declare.OpenAI, declare.OpenAIResponsesStrict, declare.Gemini, declare.GeminiOpenAPI, declare.MCP} {
		if d, err := declare.Functions(doc, p); err != nil || strings.Contains(string(d.Tools), "example") {
			t.Errorf("%s: %v %s", p, err, d.Tools)
		}
	}
}

// TestStrictDepthFallback checks that a function whose strict schema is
// deeper than strict mode's 10 levels (a map's entries add one: six of
// Kubernetes' CronJob operations) is declared without strict mode, as
// openai declares it, with a warning naming it and no limit error, while
// the functions beside it stay strict.
func TestStrictDepthFallback(t *testing.T) {
	nested := func(k int) *document.Schema {
		s := &document.Schema{Type: document.TypeObject, AdditionalProperties: &document.Schema{Type: document.TypeString}} // labels
		for range k {
			s = &document.Schema{Type: document.TypeObject, Properties: document.Schemas{{Name: "spec", Schema: s}}, Required: []string{"spec"}}
		}
		return s
	}
	doc := &document.OpenTool{Functions: []document.Function{
		{Name: "create_cron_job", Parameters: []document.Parameter{{Name: "body", Schema: nested(9), Required: true}}},
		{Name: "create_pod", Parameters: []document.Parameter{{Name: "body", Schema: nested(2), Required: true}}},
	}}
	plain, err := declare.Functions(doc, declare.OpenAI)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []declare.Profile{declare.OpenAIStrict, declare.OpenAIResponsesStrict} {
		d, err := declare.Functions(doc, p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		want := string(p) + `: function "create_cron_job" is declared without strict mode: 11 levels of nesting, where strict mode takes at most 10`
		if len(d.Warnings) != 1 || d.Warnings[0] != want {
			t.Errorf("%s: warnings %q\nwant %s", p, d.Warnings, want)
		}
		tools := toolsOf(t, p, d.Tools)
		if len(tools) != 2 || tools[0].strict || !tools[1].strict {
			t.Fatalf("%s: %s", p, d.Tools)
		}
		if got, want := jsonText(tools[0].params), jsonText(toolsOf(t, declare.OpenAI, plain.Tools)[0].params); got != want {
			t.Errorf("%s: the fallback's parameters\n got %s\nwant %s", p, got, want)
		}
		if !strings.Contains(jsonText(tools[1].params), `"items"`) {
			t.Errorf("%s: create_pod's map is not declared as its entries: %s", p, jsonText(tools[1].params))
		}
	}
	// Anthropic documents no depth limit: strict there.
	d, err := declare.Functions(doc, declare.AnthropicStrict)
	if err != nil || len(d.Warnings) != 0 || !toolsOf(t, declare.AnthropicStrict, d.Tools)[0].strict {
		t.Errorf("anthropic-strict: %v %q", err, d.Warnings)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
