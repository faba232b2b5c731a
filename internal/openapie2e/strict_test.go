package openapie2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/opentoolgen/opentoolgen/internal/prisme2e"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	hostile "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-hostile"
	params "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-params"
	petstore "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-petstore"
	schemas "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-schemas"
	swagger "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-swagger"
)

// recorder is a REST API that answers every request 200 {} and keeps it.
type recorder struct {
	mu   sync.Mutex
	reqs []recorded
}

type recorded struct {
	query url.Values
	body  []byte
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.reqs = append(r.reqs, recorded{req.URL.Query(), body})
	r.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{}`))
}

func (r *recorder) last() (recorded, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.reqs) == 0 {
		return recorded{}, false
	}
	return r.reqs[len(r.reqs)-1], true
}

// TestStrictRoundTrip: for every function of the OpenAPI goldens declared in
// OpenAI's strict mode, the arguments a strict model sends (every optional
// one null, the others as the schema allows) decode — the call reaches the
// REST API — and the optional ones arrive there as absent, not as null.
func TestStrictRoundTrip(t *testing.T) {
	api := &recorder{}
	srv := httptest.NewServer(api)
	defer srv.Close()
	tools := map[string]func() (runtime.Tool, error){
		"petstore": func() (runtime.Tool, error) { return petstore.NewTool(must(petstore.NewClient(srv.URL))) },
		"params":   func() (runtime.Tool, error) { return params.NewTool(must(params.NewClient(srv.URL))) },
		"schemas":  func() (runtime.Tool, error) { return schemas.NewTool(must(schemas.NewClient(srv.URL))) },
		"swagger":  func() (runtime.Tool, error) { return swagger.NewTool(must(swagger.NewClient(srv.URL))) },
		"hostile":  func() (runtime.Tool, error) { return hostile.NewTool(must(hostile.NewClient(srv.URL))) },
	}
	called := 0
	for name, newTool := range tools {
		tool, err := newTool()
		if err != nil {
			t.Fatal(err)
		}
		doc, err := tool.Load(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		d, err := declare.Functions(doc, declare.OpenAIStrict)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var decls []struct {
			Function struct {
				Name       string          `json:"name"`
				Parameters json.RawMessage `json:"parameters"`
				Strict     bool            `json:"strict"`
			} `json:"function"`
		}
		if err := json.Unmarshal(d.Tools, &decls); err != nil {
			t.Fatal(err)
		}
		for i, decl := range decls {
			f := &doc.Functions[i]
			if !decl.Function.Strict {
				continue
			}
			var s map[string]any
			json.Unmarshal(decl.Function.Parameters, &s)
			g := &sampler{defs: asMap(s["$defs"])}
			args, ok := g.value(s)
			if !ok {
				t.Logf("%s %s: no sample for its schema (a pattern): not called", name, f.Name)
				continue
			}
			raw, _ := json.Marshal(args)
			checkValid(t, name+" "+f.Name, decl.Function.Parameters, raw)
			before := len(api.reqs)
			_, err := tool.Call(t.Context(), decl.Function.Name, raw)
			var e *runtime.Error
			if errors.As(err, &e) && e.Code == runtime.CodeInvalidParams {
				t.Errorf("%s %s(%s): %v", name, f.Name, raw, err)
				continue
			}
			rec, ok := api.last()
			if !ok || len(api.reqs) == before {
				t.Errorf("%s %s(%s): no request reached the API (%v)", name, f.Name, raw, err)
				continue
			}
			called++
			for _, p := range f.Parameters {
				if p.Required {
					continue
				}
				if rec.query.Has(p.Name) {
					t.Errorf("%s %s: optional %q sent as null reached the API in the query: %s", name, f.Name, p.Name, rec.query.Encode())
				}
			}
			if bytes.Contains(rec.body, []byte("null")) {
				t.Errorf("%s %s: the body holds a null: %s", name, f.Name, rec.body)
			}
		}
	}
	if called < 20 {
		t.Errorf("only %d functions called", called)
	}
}

func checkValid(t *testing.T, what string, schema, value []byte) {
	t.Helper()
	sd, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("mem:///s.json", sd); err != nil {
		t.Fatal(err)
	}
	cs, err := c.Compile("mem:///s.json")
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(value))
	if err := cs.Validate(v); err != nil {
		t.Fatalf("%s: the sample %s is not valid for its own declaration: %v", what, value, err)
	}
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }

// sampler makes the smallest value a strict declaration allows: null where
// null is allowed, else the first enum value, the minimum, minItems items.
type sampler struct {
	defs  map[string]any
	depth int
}

func (g *sampler) value(s map[string]any) (any, bool) {
	if g.depth > 40 {
		return nil, false
	}
	g.depth++
	defer func() { g.depth-- }()
	if ref, ok := s["$ref"].(string); ok {
		name, _ := url.PathUnescape(strings.TrimPrefix(ref, "#/$defs/"))
		name = strings.NewReplacer("~1", "/", "~0", "~").Replace(name)
		return g.value(asMap(g.defs[name]))
	}
	if alts, ok := s["anyOf"].([]any); ok {
		for _, a := range alts {
			if asMap(a)["type"] == "null" {
				return nil, true
			}
		}
		return g.value(asMap(alts[0]))
	}
	types := []string{}
	switch ty := s["type"].(type) {
	case string:
		types = append(types, ty)
	case []any:
		for _, x := range ty {
			types = append(types, x.(string))
		}
	}
	for _, ty := range types {
		if ty == "null" {
			return nil, true
		}
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0], true
	}
	if len(types) == 0 {
		return nil, false
	}
	num := func(k string) (float64, bool) { f, ok := s[k].(float64); return f, ok }
	switch types[0] {
	case "string":
		v := prisme2e.FormatSample(s["format"])
		if p, ok := s["pattern"].(string); ok {
			if re, err := regexp.Compile(p); err != nil || !re.MatchString(v) {
				return nil, false
			}
		}
		return v, true
	case "integer", "number":
		if m, ok := num("minimum"); ok {
			return m, true
		}
		if m, ok := num("maximum"); ok && m < 0 {
			return m, true
		}
		return 0, true
	case "boolean":
		return false, true
	case "array":
		n, _ := num("minItems")
		out := []any{}
		for range int(n) {
			v, ok := g.value(asMap(s["items"]))
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	case "object":
		out := map[string]any{}
		for k, p := range asMap(s["properties"]) {
			v, ok := g.value(asMap(p))
			if !ok {
				return nil, false
			}
			out[k] = v
		}
		return out, true
	}
	return nil, false
}
