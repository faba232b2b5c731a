package toolopt

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

func argsDoc() *document.OpenTool {
	return &document.OpenTool{OpenTool: "1.0.0", Info: document.Info{Title: "t", Version: "1"}, Functions: []document.Function{
		{Name: "search", Parameters: []document.Parameter{
			{Name: "q", Schema: &document.Schema{Type: document.TypeString}, Required: true},
			{Name: "limit", Schema: &document.Schema{Type: document.TypeInteger}},
			{Name: "key", Schema: &document.Schema{Ref: "#/schemas/Key"}},
			{Name: "session", Schema: &document.Schema{Type: document.TypeString}},
		}},
		{Name: "other", Parameters: []document.Parameter{{Name: "key", Schema: &document.Schema{Type: document.TypeString}}}},
	}, Schemas: document.Schemas{{Name: "Key", Schema: &document.Schema{Type: document.TypeString}}}}
}

func apply(t *testing.T, a *Args, function, args string) json.RawMessage {
	t.Helper()
	out, err := a.Apply(context.Background(), function, json.RawMessage(args))
	if err != nil {
		t.Fatalf("Apply(%s, %s): %v", function, args, err)
	}
	return out
}

func TestArgsApply(t *testing.T) {
	env := map[string]string{"KEY": "k-123", "LIMIT": "7"}
	a, err := NewArgs(argsDoc(),
		WithDefaults("search", map[string]any{"limit": 10, "session": "s"}),
		WithFixed("search", map[string]any{"q": "fixed"}),
		WithEnvs("", map[string]string{"key": "KEY"}),
		WithLookupEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok }),
	)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, want string }{
		{``, `{"key":"k-123","limit":10,"q":"fixed","session":"s"}`},
		// An explicit null is a value: the default does not apply (seed 001: 显式传 null 视为已提供).
		{`{"q":"mine","limit":null,"session":"t"}`, `{"key":"k-123","limit":null,"q":"fixed","session":"t"}`},
		{`{"key":"caller's"}`, `{"key":"k-123","limit":10,"q":"fixed","session":"s"}`},
		{`[1]`, `[1]`},
	} {
		if got := string(apply(t, a, "search", tc.in)); got != tc.want {
			t.Errorf("Apply(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if got := string(apply(t, a, "other", "")); got != `{"key":"k-123"}` {
		t.Errorf("other: %s", got)
	}
	delete(env, "KEY")
	if got := string(apply(t, a, "other", `{"key":"x"}`)); got != `{}` {
		t.Errorf("unset env: %s", got)
	}
	// The declared document hides fixed and environment arguments.
	doc := a.Document()
	var names []string
	for _, p := range doc.Functions[0].Parameters {
		names = append(names, p.Name)
	}
	if strings.Join(names, ",") != "limit,session" || len(doc.Functions[1].Parameters) != 0 {
		t.Errorf("declared: %v, %v", names, doc.Functions[1].Parameters)
	}
}

func TestArgsEnvTypes(t *testing.T) {
	a, err := NewArgs(argsDoc(), WithEnvs("search", map[string]string{"limit": "LIMIT", "q": "Q"}),
		WithLookupEnv(func(k string) (string, bool) { return map[string]string{"LIMIT": "7", "Q": "42"}[k], true }))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(apply(t, a, "search", "")); got != `{"limit":7,"q":"42"}` {
		t.Errorf("got %s", got)
	}
}

func TestArgsRedact(t *testing.T) {
	a, err := NewArgs(argsDoc(), WithEnvs("search", map[string]string{"limit": "LIMIT"}),
		WithLookupEnv(func(string) (string, bool) { return "s3cr3t", true }))
	if err != nil {
		t.Fatal(err)
	}
	in := runtime.InvalidParams(runtime.Violation{Path: "/limit", Message: `got "s3cr3t", want integer`}, runtime.Violation{Path: "/q", Message: "missing required member"})
	err = a.Redact("search", in)
	var e *runtime.Error
	if !errors.As(err, &e) || strings.Contains(err.Error(), "s3cr3t") || !strings.Contains(err.Error(), "environment variable LIMIT is invalid") || !strings.Contains(err.Error(), "/q: missing") {
		t.Errorf("got %v", err)
	}
}

func TestArgsErrors(t *testing.T) {
	for _, tc := range []struct {
		opt  Option
		want string
	}{
		{WithFixed("nope", map[string]any{"q": 1}), `fixed: no function "nope"`},
		{WithFixed("search", map[string]any{"nope": 1}), `fixed: function "search" has no argument "nope"`},
		{WithDefaults("", map[string]any{"nope": 1}), `defaults: no function has an argument "nope"`},
		{WithFixed("search", map[string]any{"limit": "ten"}), `fixed: search.limit: got string, want integer`},
		{WithDefaults("search", map[string]any{"key": 5}), `defaults: search.key: got integer, want string`},
	} {
		_, err := NewArgs(argsDoc(), tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}

func TestArgsFunctions(t *testing.T) {
	a, err := NewArgs(argsDoc(), WithFunctions("other"), WithFixed("", map[string]any{"key": "k"}))
	if err != nil {
		t.Fatal(err)
	}
	if a.Serves("search") || !a.Serves("other") {
		t.Errorf("Serves: search %v, other %v; want false, true", a.Serves("search"), a.Serves("other"))
	}
	doc := a.Served()
	if len(doc.Functions) != 1 || doc.Functions[0].Name != "other" || len(doc.Functions[0].Parameters) != 0 {
		t.Errorf("served document: %+v", doc.Functions)
	}
	if a.Served() != doc {
		t.Error("Served returns a new document each call")
	}
	all, err := NewArgs(argsDoc())
	if err != nil || !all.Serves("search") || len(all.Served().Functions) != 2 {
		t.Errorf("without WithFunctions: %v, %+v", err, all)
	}
	// Unknown functions are named, every one.
	_, err = NewArgs(argsDoc(), WithFunctions("search", "nope", "nada"))
	if err == nil || !strings.Contains(err.Error(), `no function "nope"`) || !strings.Contains(err.Error(), `no function "nada"`) {
		t.Errorf("WithFunctions(nope, nada): got %v", err)
	}
}

func TestArgsDefaultsNotRequired(t *testing.T) {
	a, err := NewArgs(argsDoc(), WithDefaults("search", map[string]any{"q": "everything"}))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range a.Document().Functions[0].Parameters {
		if p.Name == "q" && p.Required {
			t.Error("a defaulted argument is still required in the served document")
		}
	}
	if !argsDoc().Functions[0].Parameters[0].Required {
		t.Fatal("the test document changed: q must be required")
	}
}

func TestTemplates(t *testing.T) {
	known := []string{"trace_id", "step_id"}
	for _, tc := range []struct{ in, err string }{
		{"plain", ""},
		{"{trace_id}", ""},
		{"a {trace_id} b {step_id}", ""},
		{"{{not a placeholder}}", ""},
		{"{nope}", "unknown placeholder {nope}"},
		{"{trace_id", "unclosed placeholder at byte 0"},
		{"x}", "a } without { at byte 1"},
		{"{}", "unknown placeholder {}"},
	} {
		tm, err := parseTemplate(tc.in, known)
		if (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("parseTemplate(%q): %v, want %q", tc.in, err, tc.err)
			continue
		}
		if err != nil || tm == nil {
			continue
		}
		got, err := tm.fill(map[string]string{"trace_id": "T", "step_id": `"S"`})
		want := map[string]string{"{trace_id}": `"T"`, "a {trace_id} b {step_id}": `"a T b \"S\""`, "{{not a placeholder}}": `"{not a placeholder}"`}[tc.in]
		if err != nil || string(got) != want {
			t.Errorf("fill(%q) = %s, %v, want %s", tc.in, got, err, want)
		}
	}
	tm, _ := parseTemplate("{trace_id}", known)
	for _, values := range []map[string]string{nil, {"trace_id": ""}} {
		if _, err := tm.fill(values); err == nil || !strings.Contains(err.Error(), "{trace_id} has no value") {
			t.Errorf("fill with %v: %v", values, err)
		}
	}
}
