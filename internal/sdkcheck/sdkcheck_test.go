package sdkcheck_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"google.golang.org/genai"

	"github.com/opentoolgen/opentoolgen/gen"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// canonical decodes JSON for comparison: numbers as float64 (an SDK may
// write 1e-9 as 1e-09).
func canonical(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v in %.200s", err, b)
	}
	return numbers(v)
}

func numbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		f, err := v.Float64()
		if err != nil {
			return v.String()
		}
		return f
	case map[string]any:
		for k, e := range v {
			v[k] = numbers(e)
		}
	case []any:
		for i, e := range v {
			v[i] = numbers(e)
		}
	}
	return v
}

// tool is what a check finds in the SDK's typed fields of one tool.
type tool struct {
	name, description string
	params            any
}

// roundTrip unmarshals a profile's tools member into the SDK's types,
// marshals them back and compares, and returns the functions the typed
// fields hold.
func roundTrip(t *testing.T, what string, p declare.Profile, raw []byte) []tool {
	t.Helper()
	var back []byte
	var tools []tool
	var err error
	switch p {
	case declare.OpenAI, declare.OpenAIStrict:
		var v []openai.ChatCompletionToolUnionParam
		if err = json.Unmarshal(raw, &v); err == nil {
			back, err = json.Marshal(v)
		}
		for _, u := range v {
			if f := u.OfFunction; f != nil {
				tools = append(tools, tool{f.Function.Name, f.Function.Description.Value, map[string]any(f.Function.Parameters)})
			}
		}
	case declare.OpenAIResponses, declare.OpenAIResponsesStrict:
		var v []responses.ToolUnionParam
		if err = json.Unmarshal(raw, &v); err == nil {
			back, err = json.Marshal(v)
		}
		for _, u := range v {
			switch {
			case u.OfFunction != nil:
				tools = append(tools, tool{u.OfFunction.Name, u.OfFunction.Description.Value, u.OfFunction.Parameters})
			case u.OfNamespace != nil:
				if u.OfNamespace.Name == "" || u.OfNamespace.Description == "" {
					t.Errorf("%s %s: a namespace without name or description: %+v", what, p, u.OfNamespace)
				}
				for _, n := range u.OfNamespace.Tools {
					if f := n.OfFunction; f != nil {
						tools = append(tools, tool{f.Name, f.Description.Value, f.Parameters})
					}
				}
			case u.OfToolSearch != nil:
			default:
				t.Errorf("%s %s: a tool the SDK reads as none of function, namespace, tool_search", what, p)
			}
		}
	case declare.Anthropic, declare.AnthropicStrict:
		var v []anthropic.ToolUnionParam
		if err = json.Unmarshal(raw, &v); err == nil {
			back, err = json.Marshal(v)
		}
		for _, u := range v {
			switch {
			case u.OfTool != nil:
				tools = append(tools, tool{u.OfTool.Name, u.OfTool.Description.Value, u.OfTool.InputSchema})
			case u.OfToolSearchToolBm25_20251119 != nil:
			default:
				t.Errorf("%s %s: a tool the SDK reads as neither a tool nor the search tool", what, p)
			}
		}
	case declare.Gemini, declare.GeminiOpenAPI:
		var v []*genai.Tool
		if err = json.Unmarshal(raw, &v); err == nil {
			back, err = json.Marshal(v)
		}
		for _, g := range v {
			for _, f := range g.FunctionDeclarations {
				var params any = f.ParametersJsonSchema
				if p == declare.GeminiOpenAPI {
					params = f.Parameters
					if f.ParametersJsonSchema != nil {
						t.Errorf("%s %s: %s has parametersJsonSchema", what, p, f.Name)
					}
				} else if f.Parameters != nil {
					t.Errorf("%s %s: %s has parameters beside parametersJsonSchema", what, p, f.Name)
				}
				tools = append(tools, tool{f.Name, f.Description, params})
			}
		}
	case declare.MCP:
		var v []*mcp.Tool
		if err = json.Unmarshal(raw, &v); err == nil {
			back, err = json.Marshal(v)
		}
		for _, m := range v {
			tools = append(tools, tool{m.Name, m.Description, m.InputSchema})
		}
	default:
		t.Fatalf("no SDK check for profile %s", p)
	}
	if err != nil {
		t.Fatalf("%s %s: %v", what, p, err)
	}
	if diff := dropped(t, raw, back); diff != "" {
		t.Errorf("%s %s: the SDK's types do not keep the declarations (-ours +SDK):\n%.3000s", what, p, diff)
	}
	return tools
}

// dropped compares our declarations with the SDK's marshalling of them: ""
// when they are the same JSON.
func dropped(t *testing.T, ours, sdk []byte) string {
	return cmp.Diff(canonical(t, ours), canonical(t, sdk))
}

// TestRoundTripDetectsDrops checks that the comparison fails where an SDK
// does not keep a member: a member the SDK's type lacks, and an OpenAI
// declaration in the other API's shape.
func TestRoundTripDetectsDrops(t *testing.T) {
	var a []anthropic.ToolUnionParam
	ours := []byte(`[{"name":"f","input_schema":{"type":"object","properties":{}},"namespace":"crm"}]`)
	if err := json.Unmarshal(ours, &a); err != nil {
		t.Fatal(err)
	}
	back, _ := json.Marshal(a)
	if dropped(t, ours, back) == "" {
		t.Errorf("a member Anthropic's ToolParam lacks is kept: %s", back)
	}
	var c []openai.ChatCompletionToolUnionParam
	ours = []byte(`[{"type":"function","name":"f","parameters":{"type":"object"},"strict":true}]`)
	if err := json.Unmarshal(ours, &c); err != nil {
		t.Fatal(err)
	}
	back, _ = json.Marshal(c)
	if dropped(t, ours, back) == "" {
		t.Errorf("a Responses declaration read as Chat Completions keeps its members: %s", back)
	}
}

// checkTools checks that the SDK's typed fields hold each function: a
// name, and a parameters schema where the document has parameters.
func checkTools(t *testing.T, what string, p declare.Profile, doc *document.OpenTool, tools []tool) {
	t.Helper()
	if len(tools) != len(doc.Functions) {
		t.Errorf("%s %s: the SDK reads %d functions, the document has %d", what, p, len(tools), len(doc.Functions))
		return
	}
	names := declare.Names(doc)
	byName := map[string]tool{}
	for _, tl := range tools {
		byName[tl.name] = tl // namespaces group functions out of document order
	}
	for _, f := range doc.Functions {
		got, ok := byName[names[f.Name]]
		if !ok || got.description != f.Description {
			t.Errorf("%s %s: function %q: found %v, description %.40q; want %.40q", what, p, names[f.Name], ok, got.description, f.Description)
		}
		empty := got.params == nil
		if s, ok := got.params.(*genai.Schema); ok {
			empty = s == nil
		}
		if empty && (len(f.Parameters) > 0 || (p != declare.Gemini && p != declare.GeminiOpenAPI)) {
			t.Errorf("%s %s: %s: no parameters schema in the SDK's fields", what, p, f.Name)
		}
	}
}

// goldenDocs are the served documents of the golden cases.
func goldenDocs(t *testing.T) map[string]*document.OpenTool {
	files, err := filepath.Glob("../../testdata/golden/*/opentool.gen.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden documents: %v", err)
	}
	docs := map[string]*document.OpenTool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc document.OpenTool
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		docs[filepath.Base(filepath.Dir(f))] = &doc
	}
	return docs
}

// searchOptions are the tool search options p takes: every function
// deferred, and for OpenAI grouped in namespaces by the first word of
// their names.
func searchOptions(doc *document.OpenTool, p declare.Profile) (declare.Options, bool) {
	switch p {
	case declare.Anthropic, declare.AnthropicStrict:
		return declare.Options{ToolSearch: true}, true
	case declare.OpenAIResponses, declare.OpenAIResponsesStrict:
		names := declare.Names(doc)
		top := map[string]bool{}
		ns := map[string]string{}
		for _, f := range doc.Functions {
			first, _, _ := strings.Cut(f.Name, "_")
			n := declare.NamespaceName("ns " + first)
			if n != "" && !top[n] {
				ns[f.Name] = n
			} else {
				top[names[f.Name]] = true
			}
		}
		return declare.Options{ToolSearch: true, Namespaces: ns}, true
	}
	return declare.Options{}, false
}

// declareChecked declares doc in p (with o) and checks the result against the SDK.
func declareChecked(t *testing.T, what string, doc *document.OpenTool, p declare.Profile, o declare.Options) {
	t.Helper()
	d, err := declare.FunctionsWith(doc, p, o)
	var le *declare.LimitError
	if err != nil && !errors.As(err, &le) {
		t.Fatalf("%s %s: %v", what, p, err)
	}
	checkTools(t, what, p, doc, roundTrip(t, what, p, d.Tools))
}

// TestGoldenDeclarations round-trips every golden case's declaration files
// and the golden documents declared in every profile, with tool search and
// namespaces where the profile has them, through the providers' SDK types.
func TestGoldenDeclarations(t *testing.T) {
	files, err := filepath.Glob("../../testdata/golden/*/declarations/*.gen.json")
	if err != nil || len(files) < len(declare.Profiles()) {
		t.Fatalf("golden declarations: %d, %v", len(files), err)
	}
	seen := map[declare.Profile]int{}
	for _, f := range files {
		p, err := declare.ParseProfile(strings.TrimSuffix(filepath.Base(f), ".gen.json"))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, f, p, raw)
		seen[p]++
	}
	for _, p := range declare.Profiles() {
		if seen[p] == 0 {
			t.Errorf("no golden declarations in profile %s", p)
		}
	}
	for name, doc := range goldenDocs(t) {
		for _, p := range declare.Profiles() {
			declareChecked(t, name, doc, p, declare.Options{})
			if o, ok := searchOptions(doc, p); ok {
				declareChecked(t, name+" (tool search)", doc, p, o)
			}
		}
	}
}

// TestInputExamplesAnthropic checks input_examples in the SDK's field,
// given in Options and from the document's function.
func TestInputExamplesAnthropic(t *testing.T) {
	doc := &document.OpenTool{Functions: []document.Function{{Name: "tag", Parameters: []document.Parameter{
		{Name: "labels", Schema: &document.Schema{Type: document.TypeObject, AdditionalProperties: &document.Schema{Type: document.TypeString}}, Required: true}}}}}
	ex := []json.RawMessage{json.RawMessage(`{"labels":{"env":"prod"}}`)}
	withDoc := &document.OpenTool{Functions: []document.Function{doc.Functions[0]}}
	withDoc.Functions[0].Examples = ex
	for _, tc := range []struct {
		doc *document.OpenTool
		o   declare.Options
	}{{doc, declare.Options{Examples: map[string][]json.RawMessage{"tag": ex}}}, {withDoc, declare.Options{}}} {
		testInputExamples(t, tc.doc, tc.o)
	}
}

func testInputExamples(t *testing.T, doc *document.OpenTool, o declare.Options) {
	t.Helper()
	for p, want := range map[declare.Profile]string{
		declare.Anthropic:       `[{"labels":{"env":"prod"}}]`,
		declare.AnthropicStrict: `[{"labels":[{"key":"env","value":"prod"}]}]`,
	} {
		d, err := declare.FunctionsWith(doc, p, o)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, "examples", p, d.Tools)
		var v []anthropic.ToolUnionParam
		if err := json.Unmarshal(d.Tools, &v); err != nil || v[0].OfTool == nil {
			t.Fatalf("%s: %v", p, err)
		}
		got, _ := json.Marshal(v[0].OfTool.InputExamples)
		if string(got) != want {
			t.Errorf("%s: the SDK's InputExamples %s, want %s", p, got, want)
		}
	}
}

// TestWrongOpenAIProfile shows why the Responses API has its own profile:
// Chat Completions declarations read as Responses tools have no names.
func TestWrongOpenAIProfile(t *testing.T) {
	doc := goldenDocs(t)["weather"]
	d, err := declare.Functions(doc, declare.OpenAI)
	if err != nil {
		t.Fatal(err)
	}
	var v []responses.ToolUnionParam
	if err := json.Unmarshal(d.Tools, &v); err != nil {
		t.Fatal(err)
	}
	if f := v[0].OfFunction; f == nil || f.Name != "" {
		t.Errorf("openai declarations as Responses tools: %+v, want a function without a name", f)
	}
}

// TestRealWorldDeclarations (opt-in: OPENTOOLGEN_REALWORLD=1) declares
// the large documents TestProfilesRealWorld uses in every profile, with
// tool search where the profile has it, and checks them against the SDKs.
func TestRealWorldDeclarations(t *testing.T) {
	if os.Getenv("OPENTOOLGEN_REALWORLD") == "" {
		t.Skip("set OPENTOOLGEN_REALWORLD=1 to check the public documents of the module cache")
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
			t.Fatal(err)
		}
		res, err := gen.Generate(path, data, gen.Options{Package: "p"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var doc document.OpenTool
		if err := json.Unmarshal(res.Document, &doc); err != nil {
			t.Fatal(err)
		}
		for _, p := range declare.Profiles() {
			declareChecked(t, name, &doc, p, declare.Options{})
			if o, ok := searchOptions(&doc, p); ok {
				declareChecked(t, name+" (tool search)", &doc, p, o)
			}
			t.Logf("%s %s: %d functions checked", name, p, len(doc.Functions))
		}
	}
}
