package declaree2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	constraints "github.com/opentoolgen/opentoolgen/testdata/golden/constraints"
	hostile "github.com/opentoolgen/opentoolgen/testdata/golden/hostile"
)

// recorder keeps the arguments of the last call.
type recorder struct{ args constraints.CheckArgs }

func (r *recorder) Check(_ context.Context, a constraints.CheckArgs) (string, error) {
	r.args = a
	return "ok", nil
}

// checkCall is a call of the constraints golden's check that keeps every
// constraint, with its map argument attrs as MAP.
const checkCall = `{"text":"abc","code":"ABC","email":"ann@example.com","when":"2024-05-01T10:00:00.5+02:00",
"day":"2024-02-29","since":"2024-03-01","days":["2024-01-01","2024-12-31"],"at":"10:00:00Z","site":"https://example.com/x?y=1","id":"0b5e2c1a-3d4f-4e6a-8b7c-9d0e1f2a3b4c",
"ip4":"10.0.0.255","ip6":"2001:db8::1","host":"api.example.com","count":10,"ratio":0.5,"above":1e-9,"step":-15,
"half":2.5,"tags":["a","b","c"],"points":[{"x":1,"y":2},{"x":2,"y":1}],"attrs":MAP,"opts":{"b":true},
"mode":"fast","version":2,"flag":true,"level":2}`

// TestStrictMapEntriesCall declares the constraints golden strictly (its
// map argument attrs as entries), checks that a strict model's call — attrs
// as entries — matches the declared schema, and that it decodes, through
// OpenTool HTTP and runtime.Local, to the same typed arguments as the call
// with attrs as an object; malformed entries are refused naming the entry.
func TestStrictMapEntriesCall(t *testing.T) {
	rec := &recorder{}
	tool, err := constraints.NewTool(rec)
	if err != nil {
		t.Fatal(err)
	}
	objectCall := strings.Replace(checkCall, "MAP", `{"a":"1","b":"2"}`, 1)
	entriesCall := strings.Replace(checkCall, "MAP", `[{"key":"a","value":"1"},{"key":"b","value":"2"}]`, 1)
	for _, p := range []declare.Profile{declare.OpenAIStrict, declare.OpenAIResponsesStrict, declare.AnthropicStrict} {
		d, err := tool.Declarations(p)
		var le *declare.LimitError
		if err != nil && !(p == declare.AnthropicStrict && errors.As(err, &le)) {
			// The golden has 27 optional arguments: three more than Anthropic's
			// strict tools take in all, which does not matter here.
			t.Fatalf("%s: %v", p, err)
		}
		if len(d.Warnings) != 0 {
			t.Errorf("%s: warnings %q", p, d.Warnings)
		}
		schema := strictParams(t, p, d.Tools)
		for name, call := range map[string]string{"entries": entriesCall, "object": objectCall} {
			if p != declare.AnthropicStrict {
				// OpenAI's strict mode: every member, null for the optional ones.
				call = strings.Replace(call, `"opts":{"b":true}`, `"opts":{"a":null,"b":true}`, 1)
			}
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(call))
			if err != nil {
				t.Fatal(err)
			}
			err = schema.Validate(inst)
			if (err == nil) != (name == "entries") {
				t.Errorf("%s: the %s call against the declared schema: %v", p, name, err)
			}
		}
	}
	srv := httptest.NewServer(runtime.NewHandler(tool))
	defer srv.Close()
	for _, c := range []struct {
		name   string
		caller runtime.Caller
	}{{"http", runtime.NewClient(srv.URL + runtime.DefaultPrefix)}, {"local", runtime.Local(tool)}} {
		ctx := context.Background()
		if _, err := c.caller.CallFunction(ctx, "check", json.RawMessage(objectCall)); err != nil {
			t.Fatalf("%s: the object call: %v", c.name, err)
		}
		want := rec.args
		rec.args = constraints.CheckArgs{}
		if _, err := c.caller.CallFunction(ctx, "check", json.RawMessage(entriesCall)); err != nil {
			t.Fatalf("%s: the entries call: %v", c.name, err)
		}
		if diff := cmp.Diff(want, rec.args); diff != "" || len(want.Attrs) != 2 {
			t.Errorf("%s: the entries call decodes to other arguments (-object +entries):\n%s", c.name, diff)
		}
		// The map's own checks hold in the entries form; a duplicate key is refused.
		for bad, wantMsg := range map[string]string{
			`[{"key":"a","value":"1"},{"key":"b","value":"2"},{"key":"c","value":"3"}]`: `/attrs: got 3 members, want at most 2`,
			`[{"key":"a","value":"1"},{"key":"a","value":"2"}]`:                         `/attrs/1/key: key "a" is also the key of entry 0`,
		} {
			_, err := c.caller.CallFunction(ctx, "check", json.RawMessage(strings.Replace(checkCall, "MAP", bad, 1)))
			if err == nil || !strings.Contains(err.Error(), wantMsg) {
				t.Errorf("%s: %s: %v, want %q", c.name, bad, err, wantMsg)
			}
		}
	}
}

// strictParams returns the compiled parameters schema of the strict tool
// "check" in p's tools member.
func strictParams(t *testing.T, p declare.Profile, tools json.RawMessage) *jsonschema.Schema {
	t.Helper()
	var list []map[string]any
	if err := json.Unmarshal(tools, &list); err != nil || len(list) != 1 {
		t.Fatalf("%s: %v %s", p, err, tools)
	}
	e := list[0]
	if f, ok := e["function"].(map[string]any); ok {
		e = f
	}
	params, _ := e["parameters"].(map[string]any)
	if params == nil {
		params, _ = e["input_schema"].(map[string]any)
	}
	if e["strict"] != true || params == nil {
		t.Fatalf("%s: check is not strict: %s", p, tools)
	}
	attrs := params["properties"].(map[string]any)["attrs"].(map[string]any)
	if !strings.Contains(strings.ToLower(attrs["description"].(string)), "a map, as its entries") {
		t.Errorf("%s: attrs %v", p, attrs)
	}
	b, _ := json.Marshal(params)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem:///p.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem:///p.json")
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return s
}

// TestStrictFreeFormEntriesCall: the hostile golden's 2fa takes a free-form
// object (map[string]any), which strict profiles declare as entries of
// scalar values; a strict model's entries call reaches the service as the
// same map as the object call.
func TestStrictFreeFormEntriesCall(t *testing.T) {
	tool, err := hostile.NewTool(svc{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := tool.Declarations(declare.OpenAIStrict)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(d.Warnings, "\n"), `"2fa"`) || !strings.Contains(string(d.Tools), `"string","number","boolean","null"`) {
		t.Errorf("2fa is not strict with entries of scalars: %q\n%s", d.Warnings, d.Tools)
	}
	object, err := tool.Call(t.Context(), "_2fa", json.RawMessage(`{"map":{"k":1,"s":"x","n":null,"b":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := tool.Call(t.Context(), "_2fa", json.RawMessage(`{"map":[{"key":"k","value":1},{"key":"s","value":"x"},{"key":"n","value":null},{"key":"b","value":true}]}`))
	if err != nil || string(entries) != string(object) {
		t.Errorf("entries call: %s, %v; object call: %s", entries, err, object)
	}
}
