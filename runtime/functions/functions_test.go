package functions_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/functions"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
	mocktool "github.com/opentoolgen/opentoolgen/testdata/golden/mocktool"
	petstore "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-petstore"
	weather "github.com/opentoolgen/opentoolgen/testdata/golden/weather"
)

// manusTool is the Tool interface of OpenManus-Go (seed 002), declared here as
// a user of that framework has it: FunctionTool must satisfy it as it is.
type manusTool interface {
	Name() string
	Description() string
	InputSchema() map[string]any
	OutputSchema() map[string]any
	Invoke(ctx context.Context, args map[string]any) (map[string]any, error)
}

var _ manusTool = (*functions.Tool)(nil)

// texts implements mocktool.Service: texts by id.
type texts struct {
	mu         sync.Mutex
	byID       map[mocktool.ID]mocktool.Text
	failStream bool
}

var errBroken = errors.New("the store broke down")

func newTexts(ts ...mocktool.Text) *texts {
	s := &texts{byID: map[mocktool.ID]mocktool.Text{}}
	for i, t := range ts {
		s.byID[mocktool.ID(i)] = t
	}
	return s
}

func (s *texts) Count(context.Context) (mocktool.Count, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return mocktool.Count(len(s.byID)), nil
}

func (s *texts) Create(_ context.Context, a mocktool.CreateArgs) (mocktool.ID, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := mocktool.ID(len(s.byID))
	s.byID[id] = mocktool.Text(a.Text)
	return id, nil
}

func (s *texts) Read(_ context.Context, a mocktool.ReadArgs) (mocktool.Text, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.byID[a.ID]
	if !ok {
		return "", errBroken
	}
	return t, nil
}

func (s *texts) SequentiallyRead(_ context.Context, emit func(mocktool.Text) error) error {
	s.mu.Lock()
	var all []mocktool.Text
	for _, id := range slices.Sorted(maps.Keys(s.byID)) {
		all = append(all, s.byID[id])
	}
	fail := s.failStream
	s.mu.Unlock()
	for _, t := range all {
		if err := emit(t); err != nil {
			return err
		}
	}
	if fail {
		return errBroken
	}
	return nil
}

func (s *texts) Update(_ context.Context, a mocktool.UpdateArgs) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byID[a.ID] = a.Text
	return nil
}

func (s *texts) Delete(_ context.Context, a mocktool.DeleteArgs) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.byID, a.ID)
	return nil
}

func (s *texts) Run(context.Context) error { return nil }

// byName returns the functions by name.
func byName[T manusTool](fs []T) map[string]T {
	m := map[string]T{}
	for _, f := range fs {
		m[f.Name()] = f
	}
	return m
}

// toJSON returns v as a JSON value decoded into any, for comparisons.
func toJSON(t *testing.T, v any) any {
	t.Helper()
	var b []byte
	switch v := v.(type) {
	case string:
		b = []byte(v)
	case json.RawMessage:
		b = v
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return out
}

// conforms checks that v is valid against the JSON Schema schema.
func conforms(t *testing.T, what string, schema map[string]any, v any) {
	t.Helper()
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem:///s.json", toJSON(t, schema)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem:///s.json")
	if err != nil {
		t.Fatalf("%s: the schema does not compile: %v", what, err)
	}
	if err := s.Validate(toJSON(t, v)); err != nil {
		t.Errorf("%s: %s does not match its schema: %v", what, toJSON(t, v), err)
	}
}

// TestFunctionsAsManusTools uses a generated package's functions through the
// OpenManus-Go Tool interface: names, descriptions and schemas as the served
// document declares them, and calls with their results and errors.
func TestFunctionsAsManusTools(t *testing.T) {
	ctx := context.Background()
	store := newTexts("Hello", "World")
	tool, err := mocktool.NewTool(store)
	if err != nil {
		t.Fatal(err)
	}
	var tools []manusTool
	for _, f := range tool.Functions() {
		tools = append(tools, f)
	}
	decls := declare.Plain(tool.Document())
	if len(tools) != len(decls) {
		t.Fatalf("got %d functions, want %d", len(tools), len(decls))
	}
	for i, d := range decls {
		f := tools[i]
		if f.Name() != d.Name || f.Description() != d.Description {
			t.Errorf("function %d: got %q %q, want %q %q", i, f.Name(), f.Description(), d.Name, d.Description)
		}
		if diff := cmp.Diff(toJSON(t, d.Parameters), toJSON(t, f.InputSchema())); diff != "" {
			t.Errorf("%s: InputSchema differs from the declaration's parameters (-want +got):\n%s", d.Name, diff)
		}
	}
	fs := byName(tools)
	for name, want := range map[string]string{
		// a scalar return R named N is {"N": R}
		"count": `{"type":"object","properties":{"Count":{"$ref":"#/$defs/Count","description":"Storage size"}},"required":["Count"],
			"$defs":{"Count":{"type":"integer"}}}`,
		// no return: {}
		"run": `{"type":"object"}`,
		// a stream: every item
		"sequentiallyRead": `{"type":"object","required":["items"],"properties":{"items":{"type":"array","items":
			{"type":"object","properties":{"text":{"$ref":"#/$defs/Text","description":"Text in storage"}},"required":["text"]}}},
			"$defs":{"Text":{"type":"string"}}}`,
	} {
		if diff := cmp.Diff(toJSON(t, want), toJSON(t, fs[name].OutputSchema())); diff != "" {
			t.Errorf("%s: OutputSchema (-want +got):\n%s", name, diff)
		}
	}

	for _, c := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"create", map[string]any{"text": "again"}, `{"Id":2}`},
		{"read", map[string]any{"id": 1}, `{"text":"World"}`},
		{"read", map[string]any{"id": json.Number("2")}, `{"text":"again"}`},
		{"count", nil, `{"Count":3}`},
		{"update", map[string]any{"id": 0, "text": "Hi"}, `{}`},
		{"sequentiallyRead", map[string]any{}, `{"items":[{"text":"Hi"},{"text":"World"},{"text":"again"}]}`},
	} {
		f := fs[c.name]
		if c.args != nil {
			conforms(t, c.name+" arguments", f.InputSchema(), c.args)
		}
		got, err := f.Invoke(ctx, c.args)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if diff := cmp.Diff(toJSON(t, c.want), toJSON(t, got)); diff != "" {
			t.Errorf("%s %v (-want +got):\n%s", c.name, c.args, diff)
		}
		conforms(t, c.name+" result", f.OutputSchema(), got)
	}
	// Numbers are json.Number: integers keep every digit.
	got, err := fs["count"].Invoke(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := got["Count"].(json.Number); !ok || n != "3" {
		t.Errorf("count: Count is %T %v, want json.Number 3", got["Count"], got["Count"])
	}

	// Argument violations: the tool's -32602 error with every JSON path.
	_, err = fs["update"].Invoke(ctx, map[string]any{"id": "one", "text": 2})
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams {
		t.Fatalf("update with bad arguments: got %v, want a -32602 *Error", err)
	}
	var paths []string
	for _, v := range e.Violations() {
		paths = append(paths, v.Path)
	}
	if want := []string{"/id", "/text"}; !slices.Equal(paths, want) {
		t.Errorf("violations at %v, want %v (%v)", paths, want, err)
	}
	// The tool's own errors, unchanged.
	if _, err := fs["read"].Invoke(ctx, map[string]any{"id": 99}); err != errBroken {
		t.Errorf("read of a missing text: got %v, want the Service's error itself", err)
	}
	store.failStream = true
	if _, err := fs["sequentiallyRead"].Invoke(ctx, nil); err != errBroken {
		t.Errorf("a stream that fails: got %v, want the Service's error itself", err)
	}
	// Arguments JSON cannot encode.
	if _, err := fs["create"].Invoke(ctx, map[string]any{"text": make(chan int)}); !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams {
		t.Errorf("arguments JSON cannot encode: got %v, want a -32602 *Error", err)
	}
}

// TestFunctionsCall calls functions with raw JSON, and through the adapter to
// tRPC-Agent-Go's CallableTool.
func TestFunctionsCall(t *testing.T) {
	ctx := context.Background()
	tool, err := mocktool.NewTool(newTexts("Hello", "World"))
	if err != nil {
		t.Fatal(err)
	}
	fs := byName(tool.Functions())
	for _, c := range []struct{ name, args, want string }{
		{"read", `{"id":1}`, `{"text":"World"}`},
		{"count", ``, `{"Count":2}`},
		{"count", `null`, `{"Count":2}`},
		{"delete", `{"id":0}`, `{}`},
		{"sequentiallyRead", `{}`, `{"items":[{"text":"World"}]}`},
	} {
		got, err := fs[c.name].Call(ctx, json.RawMessage(c.args))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if string(got) != c.want {
			t.Errorf("%s %s: got %s, want %s", c.name, c.args, got, c.want)
		}
	}
	var ct callableTool = trpcTool{fs["read"]}
	v, err := ct.Call(ctx, []byte(`{"id":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if b, err := json.Marshal(v); err != nil || string(b) != `{"text":"World"}` {
		t.Errorf("through tRPC-Agent-Go's Call: got %s (%v), want {\"text\":\"World\"}", b, err)
	}
	if v, err := ct.Call(ctx, []byte(`{"id":true}`)); v != nil || err == nil || !strings.Contains(err.Error(), `/id: got true, want integer`) {
		t.Errorf("through tRPC-Agent-Go's Call with bad arguments: got %v, %v", v, err)
	}
}

// TestFunctionsServed: the functions are those the tool serves, with its
// options applied.
func TestFunctionsServed(t *testing.T) {
	ctx := context.Background()
	store := newTexts("Hello")
	tool, err := mocktool.NewTool(store,
		toolopt.WithFunctions("create", "read", "update"),
		toolopt.WithFixed("create", map[string]any{"text": "fixed"}),
		toolopt.WithEnvs("update", map[string]string{"text": "TEXT"}),
		toolopt.WithLookupEnv(func(string) (string, bool) { return "from env", true }),
		toolopt.WithDefaults("read", map[string]any{"id": 0}))
	if err != nil {
		t.Fatal(err)
	}
	fs := byName(tool.Functions())
	if len(fs) != 3 || fs["create"] == nil || fs["read"] == nil || fs["update"] == nil {
		t.Fatalf("functions %v, want create, read and update", slices.Sorted(maps.Keys(fs)))
	}
	for name, want := range map[string]string{
		"create": `{"type":"object","properties":{}}`,
		"read":   `{"type":"object","properties":{"id":{"$ref":"#/$defs/Id","description":"Text Id in storage"}},"$defs":{"Id":{"type":"integer"}}}`,
		"update": `{"type":"object","properties":{"id":{"$ref":"#/$defs/Id","description":"Text Id in storage."}},"required":["id"],"$defs":{"Id":{"type":"integer"}}}`,
	} {
		if diff := cmp.Diff(toJSON(t, want), toJSON(t, fs[name].InputSchema())); diff != "" {
			t.Errorf("%s: InputSchema (-want +got):\n%s", name, diff)
		}
	}
	if _, err := fs["create"].Invoke(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := fs["update"].Invoke(ctx, map[string]any{"id": 0}); err != nil {
		t.Fatal(err)
	}
	got, err := fs["read"].Invoke(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(toJSON(t, `{"text":"from env"}`), toJSON(t, got)); diff != "" {
		t.Errorf("read with the default id (-want +got):\n%s", diff)
	}
	if store.byID[1] != "fixed" {
		t.Errorf("create with the fixed text stored %q, want \"fixed\"", store.byID[1])
	}
}

// TestFunctionsSchemasAreFresh: a caller that changes the maps it got does not
// change the tool's schemas, nor its hints.
func TestFunctionsSchemasAreFresh(t *testing.T) {
	tool, err := weather.NewTool(weather.NewClient(nil)) // a Service never called
	if err != nil {
		t.Fatal(err)
	}
	f := tool.Functions()[0]
	in, out := f.InputSchema(), f.OutputSchema()
	wantIn, wantOut := toJSON(t, in), toJSON(t, out)
	in["properties"].(map[string]any)["currentWeatherInfo"].(map[string]any)["type"] = "string"
	delete(in, "required")
	out["properties"] = nil
	f.InputSchemaJSON()[0] = '['
	if diff := cmp.Diff(wantIn, toJSON(t, f.InputSchema())); diff != "" {
		t.Errorf("InputSchema changed with the caller's map (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantOut, toJSON(t, f.OutputSchema())); diff != "" {
		t.Errorf("OutputSchema changed with the caller's map (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(toJSON(t, `{"type":"object","properties":{"currentWeather":{"type":"string"}},"required":["currentWeather"]}`), toJSON(t, f.OutputSchemaJSON())); diff != "" {
		t.Errorf("OutputSchemaJSON (-want +got):\n%s", diff)
	}
	if _, ok := f.Hints(); ok {
		t.Errorf("a tool generated from an OpenTool document has hints")
	}

	ps, err := petstore.NewTool(must(petstore.NewClient("")))
	if err != nil {
		t.Fatal(err)
	}
	list := byName(ps.Functions())["listPets"]
	h, ok := list.Hints()
	if !ok || h.ReadOnly == nil || !*h.ReadOnly {
		t.Fatalf("listPets: hints %+v, %v, want read-only", h, ok)
	}
	*h.ReadOnly = false
	if h, _ := list.Hints(); !*h.ReadOnly {
		t.Errorf("listPets: the caller changed its hints")
	}
}

// TestFunctionsHints: the functions of a package generated from OpenAPI have
// the hints of their HTTP methods; functions not served have none.
func TestFunctionsHints(t *testing.T) {
	tool, err := petstore.NewTool(must(petstore.NewClient("")), toolopt.WithFunctions("listPets", "deletePet", "createPet"))
	if err != nil {
		t.Fatal(err)
	}
	for name, method := range map[string]string{"listPets": "GET", "deletePet": "DELETE", "createPet": "POST"} {
		f := byName(tool.Functions())[name]
		h, ok := f.Hints()
		if !ok {
			t.Fatalf("%s: no hints", name)
		}
		if diff := cmp.Diff(document.MethodHints(method), h); diff != "" {
			t.Errorf("%s: hints are not those of %s (-want +got):\n%s", name, method, diff)
		}
	}
	if _, ok := tool.Hints("updatePet"); ok {
		t.Errorf("updatePet is not served, yet has hints")
	}
	if _, ok := tool.Hints("nope"); ok {
		t.Errorf("a function the document lacks has hints")
	}
}

func TestMethodHints(t *testing.T) {
	show := func(h document.Hints) string {
		s := func(b *bool) string {
			if b == nil {
				return "-"
			}
			return fmt.Sprint(*b)
		}
		return fmt.Sprintf("readOnly=%s destructive=%s idempotent=%s openWorld=%s", s(h.ReadOnly), s(h.Destructive), s(h.Idempotent), s(h.OpenWorld))
	}
	for method, want := range map[string]string{
		"GET":     "readOnly=true destructive=- idempotent=- openWorld=true",
		"HEAD":    "readOnly=true destructive=- idempotent=- openWorld=true",
		"OPTIONS": "readOnly=true destructive=- idempotent=- openWorld=true",
		"TRACE":   "readOnly=true destructive=- idempotent=- openWorld=true",
		"DELETE":  "readOnly=false destructive=true idempotent=true openWorld=true",
		"PUT":     "readOnly=false destructive=- idempotent=true openWorld=true",
		"POST":    "readOnly=false destructive=- idempotent=false openWorld=true",
		"PATCH":   "readOnly=false destructive=- idempotent=false openWorld=true",
		"QUERY":   "readOnly=true destructive=- idempotent=- openWorld=true", // safe (OpenAPI 3.2)
		"LINK":    "readOnly=false destructive=- idempotent=false openWorld=true",
	} {
		if got := show(document.MethodHints(method)); got != want {
			t.Errorf("%s: got %s, want %s", method, got, want)
		}
	}
	a, b := document.MethodHints("GET"), document.MethodHints("GET")
	*a.ReadOnly = false
	if !*b.ReadOnly {
		t.Errorf("MethodHints values share their pointers")
	}
}

// TestFunctionsRemote: any Tool has functions, here a RemoteTool calling our
// server over loopback, streaming included.
func TestFunctionsRemote(t *testing.T) {
	ctx := context.Background()
	tool, err := mocktool.NewTool(newTexts("Hello", "World"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(runtime.NewHandler(tool))
	defer srv.Close()
	remote := runtime.RemoteTool(runtime.NewClient(srv.URL + "/opentool"))
	list, err := functions.Load(ctx, remote)
	if err != nil {
		t.Fatal(err)
	}
	local := tool.Functions()
	if len(list) != len(local) {
		t.Fatalf("got %d functions, want %d", len(list), len(local))
	}
	for i, f := range list {
		if f.Name() != local[i].Name() {
			t.Errorf("function %d: %s, want %s", i, f.Name(), local[i].Name())
		}
		if diff := cmp.Diff(toJSON(t, local[i].InputSchema()), toJSON(t, f.InputSchema())); diff != "" {
			t.Errorf("%s: InputSchema (-local +remote):\n%s", f.Name(), diff)
		}
		if diff := cmp.Diff(toJSON(t, local[i].OutputSchema()), toJSON(t, f.OutputSchema())); diff != "" {
			t.Errorf("%s: OutputSchema (-local +remote):\n%s", f.Name(), diff)
		}
	}
	fs := byName(list)
	got, err := fs["sequentiallyRead"].Invoke(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(toJSON(t, `{"items":[{"text":"Hello"},{"text":"World"}]}`), toJSON(t, got)); diff != "" {
		t.Errorf("sequentiallyRead (-want +got):\n%s", diff)
	}
	_, err = fs["read"].Invoke(ctx, map[string]any{"id": -1.5})
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams || len(e.Violations()) != 1 || e.Violations()[0].Path != "/id" {
		t.Errorf("read with a bad id through the server: got %v, want -32602 at /id", err)
	}
}

// tool is a hand-written Tool for the cases generated code cannot produce.
type tool struct {
	doc    *document.OpenTool
	load   error
	result json.RawMessage
}

func (t *tool) Load(context.Context) (*document.OpenTool, error) { return t.doc, t.load }

func (t *tool) Call(context.Context, string, json.RawMessage) (json.RawMessage, error) {
	return t.result, nil
}

func TestFunctionsErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := functions.Load(ctx, nil); err == nil {
		t.Error("Functions of a nil tool: no error")
	}
	if _, err := functions.Load(ctx, &tool{load: errBroken}); !errors.Is(err, errBroken) {
		t.Errorf("Functions of a tool whose Load fails: got %v, want its error", err)
	}
	if fs, err := functions.Load(ctx, &tool{}); err != nil || fs == nil || len(fs) != 0 {
		t.Errorf("Functions of a tool without document: got %v, %v, want none", fs, err)
	}
	doc := &document.OpenTool{Functions: []document.Function{
		{Name: "f"},
		{Name: "s", Stream: map[string]*document.Return{"data": {Name: "x", Schema: &document.Schema{Type: document.TypeString}}}},
	}}
	if _, err := functions.Load(ctx, &tool{doc: doc}); err == nil || !strings.Contains(err.Error(), `"s" streams its results`) {
		t.Errorf("Functions of a tool that streams but is no StreamTool: got %v", err)
	}
	fs := functions.Of(&tool{doc: doc, result: json.RawMessage(`[1]`)}, doc)
	var e *runtime.Error
	if _, err := fs[0].Invoke(ctx, nil); !errors.As(err, &e) || e.Code != runtime.CodeInternalError {
		t.Errorf("a result that is not an object: got %v, want a -32603 *Error", err)
	}
	if _, err := fs[1].Call(ctx, nil); !errors.As(err, &e) || e.Code != runtime.CodeMethodNotFound {
		t.Errorf("a stream of a tool that is no StreamTool: got %v, want a -32601 *Error", err)
	}
	fs = functions.Of(&tool{doc: doc}, doc)
	if got, err := fs[0].Call(ctx, nil); err != nil || string(got) != "{}" {
		t.Errorf("no result: got %s, %v, want {}", got, err)
	}
}

// TestFunctionsConcurrent calls one FunctionTool from many goroutines (run
// with -race).
func TestFunctionsConcurrent(t *testing.T) {
	tool, err := mocktool.NewTool(newTexts("Hello", "World"))
	if err != nil {
		t.Fatal(err)
	}
	fs := byName(tool.Functions())
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			f := fs[[]string{"read", "sequentiallyRead"}[i%2]]
			_ = f.InputSchema()
			_ = f.OutputSchema()
			if _, err := f.Invoke(context.Background(), map[string]any{"id": 1}); err != nil && f.Name() == "read" {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

// TestLoadFunctions: LoadFunctions returns the document the tool loads with
// one FunctionTool per function of it, in its order.
func TestLoadFunctions(t *testing.T) {
	tool, err := mocktool.NewTool(newTexts("Hello"))
	if err != nil {
		t.Fatal(err)
	}
	doc, fts, err := functions.LoadDocument(context.Background(), tool)
	if err != nil {
		t.Fatal(err)
	}
	if doc == nil || len(fts) != len(doc.Functions) || len(fts) == 0 {
		t.Fatalf("document %v with %d functions", doc, len(fts))
	}
	for i, ft := range fts {
		if ft.Name() != doc.Functions[i].Name {
			t.Errorf("function %d: %s, want %s", i, ft.Name(), doc.Functions[i].Name)
		}
	}
	if _, _, err := functions.LoadDocument(context.Background(), nil); err == nil {
		t.Errorf("LoadFunctions of a nil tool: no error")
	}
}

// must is v, or a panic with err: the client of a test whose base URL is
// right (NewClient returns an error only for a client that cannot call).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
