package openapie2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	wild "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-wild"
)

// echoAPI answers a POST with the value its JSON body holds under the one
// member it has (the body itself when it has more), and keeps each body.
type echoAPI struct {
	mu     sync.Mutex
	bodies [][]byte
}

func (e *echoAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	e.mu.Lock()
	e.bodies = append(e.bodies, body)
	e.mu.Unlock()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		http.Error(w, "want an object", http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if len(m) != 1 {
		w.Write(body)
		return
	}
	for _, v := range m {
		w.Write(v)
	}
}

func (e *echoAPI) last() []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.bodies) == 0 {
		return nil
	}
	return e.bodies[len(e.bodies)-1]
}

// declaredVariants returns the variants of the union the items of the array
// argument arg of function fn are, as the declaration of profile p says.
func declaredVariants(t *testing.T, tool *wild.Tool, p declare.Profile, fn, arg string) []map[string]any {
	t.Helper()
	d, err := declare.Functions(tool.Document(), p)
	if err != nil {
		t.Fatal(err)
	}
	var tools []map[string]any
	if err := json.Unmarshal(d.Tools, &tools); err != nil {
		t.Fatal(err)
	}
	if p == declare.Gemini || p == declare.GeminiOpenAPI {
		var fns []map[string]any
		for _, x := range tools {
			for _, f := range x["functionDeclarations"].([]any) {
				fns = append(fns, f.(map[string]any))
			}
		}
		tools = fns
	}
	for _, x := range tools {
		if f, ok := x["function"].(map[string]any); ok {
			x = f
		}
		if x["name"] != fn {
			continue
		}
		var params map[string]any
		for _, k := range []string{"parameters", "parametersJsonSchema", "input_schema", "inputSchema"} {
			if m, ok := x[k].(map[string]any); ok {
				params = m
			}
		}
		defs := asMap(params["$defs"])
		items := asMap(asMap(asMap(params["properties"])[arg])["items"])
		if ref, ok := items["$ref"].(string); ok {
			items = asMap(defs[strings.TrimPrefix(ref, "#/$defs/")])
		}
		alts, _ := items["oneOf"].([]any)
		if alts == nil {
			alts, _ = items["anyOf"].([]any)
		}
		var out []map[string]any
		for _, a := range alts {
			out = append(out, asMap(a))
		}
		return out
	}
	t.Fatalf("%s: no declaration of %s", p, fn)
	return nil
}

// samples makes, for a declared variant, one value per value of its
// discriminator member: every required member set (the first value of an
// enum, null where null is allowed, else a string).
func samples(variant map[string]any, disc string) []map[string]any {
	props := asMap(variant["properties"])
	var tags []any
	if e, ok := asMap(props[disc])["enum"].([]any); ok {
		tags = e
	}
	var out []map[string]any
	for _, tag := range tags {
		v := map[string]any{}
		req, _ := variant["required"].([]any)
		for _, r := range req {
			name := r.(string)
			p := asMap(props[name])
			switch {
			case name == disc:
				v[name] = tag
			case asMap(p)["enum"] != nil:
				v[name] = p["enum"].([]any)[0]
			case strings.Contains(strings.ToLower(string(mustJSON(p["type"]))), "null"):
				v[name] = nil
			default:
				v[name] = "x-" + name
			}
		}
		out = append(out, v)
	}
	return out
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

// withoutNulls is v without its null members: what an absent optional
// argument sends.
func withoutNulls(v map[string]any) map[string]any {
	out := map[string]any{}
	for k, x := range v {
		if x != nil {
			out[k] = x
		}
	}
	return out
}

// TestSharedDiscriminator: in every profile, the arguments a model makes from
// each declared variant of a union whose discriminator values several
// variants share (Telegram's InlineQueryResult, whose "audio" is
// InlineQueryResultAudio's and InlineQueryResultCachedAudio's; its
// PassportElementError, whose mapping's values its variants exclude) are
// valid for the declaration, decode as that variant through the Tool
// adapter, reach the REST API as they were, and come back decoded as the
// same variant; a value that is none of the variants sharing its value is
// refused with each variant's first problem.
func TestSharedDiscriminator(t *testing.T) {
	api := &echoAPI{}
	rest := httptest.NewServer(api)
	defer rest.Close()
	tool, err := wild.NewTool(must(wild.NewClient(rest.URL)))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(runtime.NewHandler(tool))
	defer srv.Close()
	oc := runtime.NewClient(srv.URL + "/opentool")
	ctx := t.Context()

	// Which Go variant a value decodes as.
	variantOf := func(fn string, raw []byte) string {
		switch fn {
		case "answerQuery":
			var r wild.Result
			if err := json.Unmarshal(raw, &r); err != nil {
				return err.Error()
			}
			switch {
			case r.CachedAudio != nil:
				return "CachedAudio"
			case r.Audio != nil:
				return "Audio"
			case r.Article != nil:
				return "Article"
			}
		case "setErrors":
			var e wild.PassportError
			if err := json.Unmarshal(raw, &e); err != nil {
				return err.Error()
			}
			switch {
			case e.DataFieldError != nil:
				return "DataFieldError"
			case e.FileError != nil:
				return "FileError"
			}
		}
		return "none"
	}
	cases := []struct {
		fn, arg  string
		variants []string // in document order
		values   int      // the samples made from all variants
	}{
		{"answerQuery", "results", []string{"CachedAudio", "Audio", "Article"}, 3},
		{"setErrors", "errors", []string{"DataFieldError", "FileError"}, 4},
	}
	for _, p := range declare.Profiles() {
		for _, c := range cases {
			alts := declaredVariants(t, tool, p, c.fn, c.arg)
			if len(alts) != len(c.variants) {
				t.Fatalf("%s %s: %d variants declared, want %d", p, c.fn, len(alts), len(c.variants))
			}
			n := 0
			for i, alt := range alts {
				for _, v := range samples(alt, "type") {
					n++
					args := map[string]any{c.arg: []any{v}}
					raw, _ := json.Marshal(args)
					if p != declare.GeminiOpenAPI { // the OpenAPI subset is not JSON Schema
						d, _ := declare.Functions(tool.Document(), p)
						checkValid(t, string(p)+" "+c.fn, parametersOf(t, d.Tools, c.fn), raw)
					}
					var got []json.RawMessage
					if err := oc.Invoke(ctx, c.fn, args, "result", &got); err != nil {
						t.Errorf("%s %s(%s): %v", p, c.fn, raw, err)
						continue
					}
					sent, _ := json.Marshal(withoutNulls(v))
					var body map[string][]json.RawMessage
					if err := json.Unmarshal(api.last(), &body); err != nil || len(body[c.arg]) != 1 || !jsonEqual(body[c.arg][0], sent) {
						t.Errorf("%s %s: the API got %s, want %s", p, c.fn, api.last(), sent)
						continue
					}
					if len(got) != 1 || !jsonEqual(got[0], sent) {
						t.Errorf("%s %s: the result is %s, want [%s]", p, c.fn, got, sent)
					}
					if w, g := c.variants[i], variantOf(c.fn, sent); g != w {
						t.Errorf("%s %s: %s decodes as %s, want %s", p, c.fn, sent, g, w)
					}
				}
			}
			if n != c.values {
				t.Errorf("%s %s: %d values made from the declaration, want %d", p, c.fn, n, c.values)
			}
		}
	}

	// A value that is none of the variants its "type" names: each one's
	// first problem, at the value's place.
	for _, tc := range []struct{ fn, arg, value, want string }{
		{"answerQuery", "results", `{"type":"audio","id":"a1"}`,
			`/results/0: got "type" "audio", which CachedAudio and Audio share, and a value that is none of them: CachedAudio (/audio_file_id: missing required member), Audio (/audio_url: missing required member)`},
		{"setErrors", "errors", `{"source":"x","type":"passport","file_hash":7}`,
			`/errors/0: got "type" "passport", which DataFieldError and FileError share, and a value that is none of them: DataFieldError (/field_name: missing required member), FileError (/file_hash: got 7, want string)`},
		// The mapping's value, which the variant's own enum excludes, picks nothing.
		{"setErrors", "errors", `{"source":"data","type":"data","field_name":"f"}`,
			`/errors/0: got a value whose "type" names no variant, want one of "address", "passport", "utility_bill"`},
	} {
		args := json.RawMessage(`{"` + tc.arg + `":[` + tc.value + `]}`)
		before := len(api.bodies)
		err := oc.Invoke(ctx, tc.fn, args, "result", nil)
		var e *runtime.Error
		if !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams {
			t.Errorf("%s(%s): got %v, want invalid params", tc.fn, tc.value, err)
			continue
		}
		var msgs []string
		for _, v := range e.Violations() {
			msgs = append(msgs, v.String())
		}
		if len(msgs) != 1 || msgs[0] != tc.want {
			t.Errorf("%s(%s): violations\n%q\nwant\n%q", tc.fn, tc.value, msgs, tc.want)
		}
		if len(api.bodies) != before {
			t.Errorf("%s(%s): a refused call reached the API", tc.fn, tc.value)
		}
	}

	// A Go caller: the typed client sends the variant that is set and
	// decodes the answer as the variant it is.
	c := must(wild.NewClient(rest.URL))
	res, err := c.AnswerQuery(ctx, wild.AnswerQueryArgs{Results: []wild.Result{
		{CachedAudio: &wild.CachedAudio{Type: "audio", ID: "c", AudioFileID: "f"}},
		{Audio: &wild.Audio{Type: "audio", ID: "a", AudioURL: "https://example.com/a.mp3"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[0].CachedAudio == nil || res[0].CachedAudio.AudioFileID != "f" || res[1].Audio == nil || res[1].Audio.AudioURL != "https://example.com/a.mp3" {
		t.Errorf("AnswerQuery: %+v", res)
	}
}

// parametersOf returns the parameters schema of function fn in a
// declaration's tools.
func parametersOf(t *testing.T, tools []byte, fn string) []byte {
	t.Helper()
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(tools, &list); err != nil {
		t.Fatal(err)
	}
	if len(list) == 1 && list[0]["functionDeclarations"] != nil { // Gemini's one tool
		raw := list[0]["functionDeclarations"]
		list = nil
		if err := json.Unmarshal(raw, &list); err != nil {
			t.Fatal(err)
		}
	}
	for _, x := range list {
		if f, ok := x["function"]; ok {
			json.Unmarshal(f, &x)
		}
		var name string
		json.Unmarshal(x["name"], &name)
		if name != fn {
			continue
		}
		for _, k := range []string{"parameters", "parametersJsonSchema", "input_schema", "inputSchema"} {
			if s, ok := x[k]; ok {
				return s
			}
		}
	}
	t.Fatalf("no parameters of %s", fn)
	return nil
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}
