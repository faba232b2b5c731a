package checke2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/functions"
	constraints "github.com/opentoolgen/opentoolgen/testdata/golden/constraints"
	mcpserver "github.com/opentoolgen/opentoolgen/testdata/golden/mcp-server"
	mcptools "github.com/opentoolgen/opentoolgen/testdata/golden/mcp-tools"
	openapiconstraints "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-constraints"
)

// breach is an argument value that breaks one keyword of the schema of a
// parameter: the violation must be at path with a message holding want.
type breach struct {
	keyword string
	value   string // JSON
	path    string // below the parameter: "", "/0", "/name"…
	want    func(msg string) bool
}

func holds(part string) func(string) bool {
	return func(msg string) bool { return strings.Contains(msg, part) }
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// breaches returns, for every constraint keyword of the served schema s (its
// $refs resolved in doc, its items, properties and additional properties
// followed), a value that breaks it; t fails for a keyword it cannot break,
// so that no served keyword goes unaudited.
func breaches(t *testing.T, doc *document.OpenTool, s *document.Schema, where string, depth int) []breach {
	t.Helper()
	if s == nil || depth > 8 {
		return nil
	}
	if s.Ref != "" {
		name := strings.TrimPrefix(s.Ref, document.RefPrefix)
		for _, ns := range doc.Schemas {
			if ns.Name == name {
				return breaches(t, doc, ns.Schema, where, depth+1)
			}
		}
		t.Fatalf("%s: $ref %s names no schema", where, s.Ref)
	}
	var bs []breach
	add := func(kw, value string, want func(string) bool) {
		bs = append(bs, breach{keyword: kw, value: value, want: want})
	}
	integer := s.Type == document.TypeInteger
	if s.Minimum != nil {
		v := *s.Minimum - 1
		if integer {
			v = math.Ceil(*s.Minimum) - 1
		}
		add("minimum", num(v), holds("want ≥ "))
	}
	if s.ExclusiveMinimum != nil {
		v := *s.ExclusiveMinimum
		if integer {
			v = math.Floor(v)
		}
		add("exclusiveMinimum", num(v), holds("want > "))
	}
	if s.Maximum != nil {
		v := *s.Maximum + 1
		if integer {
			v = math.Floor(*s.Maximum) + 1
		}
		add("maximum", num(v), holds("want ≤ "))
	}
	if s.ExclusiveMaximum != nil {
		v := *s.ExclusiveMaximum
		if integer {
			v = math.Ceil(v)
		}
		add("exclusiveMaximum", num(v), holds("want < "))
	}
	if m := s.MultipleOf; m != nil {
		v := *m * 1.5
		if integer {
			if *m <= 1 {
				t.Errorf("%s: multipleOf %v of an integer: no integer breaks it", where, *m)
			}
			v = *m + 1
		}
		add("multipleOf", num(v), holds("want a multiple of "))
	}
	str := func(n int64) string { return strconv.Quote(strings.Repeat("a", int(n))) }
	if s.MinLength != nil {
		if *s.MinLength == 0 {
			t.Errorf("%s: minLength 0 served", where)
		}
		add("minLength", str(*s.MinLength-1), holds("characters, want at least "))
	}
	if s.MaxLength != nil {
		add("maxLength", str(*s.MaxLength+1), holds("characters, want at most "))
	}
	if s.Pattern != "" {
		re := regexp.MustCompile(s.Pattern)
		found := false
		for _, c := range []string{"", "a", "0", "~~", "ZZZZZZZZZZZZ", "a b"} {
			if !re.MatchString(c) {
				add("pattern", strconv.Quote(c), holds("want a string matching "))
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s: pattern %q: no test string breaks it", where, s.Pattern)
		}
	}
	if s.Format != "" {
		// "%%%" is none of the formats the decoders check; an enum
		// reports it as not listed too, which is not the check looked for.
		add("format "+s.Format, `"%%%"`, func(msg string) bool {
			return !strings.Contains(msg, "want one of") && (strings.Contains(msg, `"%%%"`) || strings.Contains(msg, "base64"))
		})
	}
	if len(s.Const) > 0 {
		var c any
		if err := json.Unmarshal(s.Const, &c); err != nil {
			t.Fatal(err)
		}
		other := `"not the const"`
		switch x := c.(type) {
		case bool:
			other = strconv.FormatBool(!x)
		case float64:
			other = num(x + 1)
		}
		add("const", other, holds(", want "+string(s.Const)))
	}
	item := func(i int) (string, bool) {
		if s.Items == nil {
			return "", false
		}
		it := s.Items
		if it.Ref != "" {
			return "", false
		}
		switch it.Type {
		case document.TypeString:
			return strconv.Quote("v" + strconv.Itoa(i)), true
		case document.TypeInteger, document.TypeNumber:
			return strconv.Itoa(i), true
		}
		return "", false
	}
	items := func(n int64) string {
		var parts []string
		for i := range n {
			v, ok := item(int(i))
			if !ok {
				t.Errorf("%s: items %+v: the test makes no items of that schema", where, s.Items)
			}
			parts = append(parts, v)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	if s.MinItems != nil {
		add("minItems", items(*s.MinItems-1), holds("elements, want at least "))
	}
	if s.MaxItems != nil {
		add("maxItems", items(*s.MaxItems+1), holds("elements, want at most "))
	}
	if s.UniqueItems {
		v := `{}`
		if it, ok := item(0); ok {
			v = it
		} else if s.Items != nil && s.Items.Ref != "" {
			v = `{"x":1,"y":2}` // the golden cases' only referenced items: Point
		}
		add("uniqueItems", "["+v+","+v+"]", holds("want unique elements"))
	}
	members := func(n int64) string {
		var parts []string
		for i := range n {
			name, value := "k"+strconv.Itoa(int(i)), `"v"`
			if int(i) < len(s.Properties) {
				p := s.Properties[i]
				name = p.Name
				switch p.Schema.Type {
				case document.TypeBoolean:
					value = "true"
				case document.TypeInteger, document.TypeNumber:
					value = "1"
				}
			}
			parts = append(parts, strconv.Quote(name)+":"+value)
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	if s.MinProperties != nil {
		add("minProperties", members(*s.MinProperties-1), holds("members, want at least "))
	}
	if s.MaxProperties != nil {
		add("maxProperties", members(*s.MaxProperties+1), holds("members, want at most "))
	}
	// What is below: each breach wrapped in its place.
	for _, b := range breaches(t, doc, s.Items, where+"/items", depth+1) {
		b.value, b.path = "["+b.value+"]", "/0"+b.path
		bs = append(bs, b)
	}
	for _, p := range s.Properties {
		for _, b := range breaches(t, doc, p.Schema, where+"/properties/"+p.Name, depth+1) {
			b.value, b.path = "{"+strconv.Quote(p.Name)+":"+b.value+"}", "/"+p.Name+b.path
			bs = append(bs, b)
		}
	}
	for _, b := range breaches(t, doc, s.AdditionalProperties, where+"/additionalProperties", depth+1) {
		b.value, b.path = `{"k":`+b.value+"}", "/k"+b.path
		bs = append(bs, b)
	}
	for _, alts := range [][]*document.Schema{s.OneOf, s.AnyOf} {
		for _, a := range alts {
			if len(breaches(t, doc, a, where+"/alternative", depth+1)) > 0 {
				t.Errorf("%s: an alternative of oneOf/anyOf serves constraint keywords: %+v", where, a)
			}
		}
	}
	return bs
}

// namedFront calls a function of a tool by name through one front.
type namedFront struct {
	name string
	call func(ctx context.Context, fn string, args json.RawMessage) (json.RawMessage, error)
}

func namedFronts(t *testing.T, tool runtime.Tool) []namedFront {
	t.Helper()
	srv := httptest.NewServer(runtime.NewHandler(tool))
	t.Cleanup(srv.Close)
	callerFront := func(name string, c runtime.Caller) namedFront {
		return namedFront{name, func(ctx context.Context, fn string, args json.RawMessage) (json.RawMessage, error) {
			return c.CallFunction(ctx, fn, args)
		}}
	}
	fns, err := functions.Load(context.Background(), tool)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*functions.Tool{}
	for _, f := range fns {
		byName[f.Name()] = f
	}
	return []namedFront{
		callerFront("http", runtime.NewClient(srv.URL+runtime.DefaultPrefix)),
		callerFront("local", runtime.Local(tool)),
		callerFront("mcp", runtime.Local(mcpTool(t, tool))),
		{"functions", func(ctx context.Context, fn string, args json.RawMessage) (json.RawMessage, error) {
			f := byName[fn]
			if f == nil {
				return nil, fmt.Errorf("Functions: no function %s", fn)
			}
			return f.Call(ctx, args)
		}},
	}
}

// unreachedTools and unreachedServer are Services of the MCP-listing cases
// whose methods must not run (nil: they would panic): every call the test
// makes breaks a constraint.
type (
	toolsService    = mcptools.Service
	serverService   = mcpserver.Service
	unreachedTools  struct{ toolsService }
	unreachedServer struct{ serverService }
)

// TestEveryServedKeywordRefused audits what generated packages serve: for
// every constraint keyword in the document a package serves (GET /load, MCP
// inputSchema, the declarations), an argument that breaks it is refused
// with -32602 at its path through every front, before the service runs. Its
// breaches are made from the served document, not from a list: a keyword
// served without a check fails it. The packages: the OpenTool case
// constraints, the OpenAPI case openapi-constraints (a REST client to a
// loopback upstream), whose document also holds what the OpenAPI loader
// must not serve (formats of unions, arrays, objects, booleans and untyped
// values; bounds that no value meets), and the MCP-listing cases mcp-tools
// and mcp-server.
func TestEveryServedKeywordRefused(t *testing.T) {
	var upstream atomic.Int64
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		upstream.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	}))
	t.Cleanup(api.Close)
	svc := &service{}
	ot, err := constraints.NewTool(svc)
	if err != nil {
		t.Fatal(err)
	}
	oa, err := openapiconstraints.NewTool(must(openapiconstraints.NewClient(api.URL)))
	if err != nil {
		t.Fatal(err)
	}
	mt, err := mcptools.NewTool(unreachedTools{})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := mcpserver.NewTool(unreachedServer{})
	if err != nil {
		t.Fatal(err)
	}
	none := func() int64 { return 0 }
	ctx := context.Background()
	for _, pkg := range []struct {
		name  string
		tool  runtime.Tool
		doc   *document.OpenTool
		calls func() int64
		valid string // a valid call of check, "" for none
		min   int    // breaches expected at least (the audit audits something)
	}{
		{"opentool", ot, ot.Document(), svc.calls.Load, valid, 30},
		{"openapi", oa, oa.Document(), upstream.Load, `{}`, 20},
		{"mcp-tools", mt, mt.Document(), none, "", 7},
		{"mcp-server", ms, ms.Document(), none, "", 3},
	} {
		t.Run(pkg.name, func(t *testing.T) {
			type call struct {
				fn, param string
				breach
			}
			var all []call
			for _, f := range pkg.doc.Functions {
				for _, p := range f.Parameters {
					for _, b := range breaches(t, pkg.doc, p.Schema, "/"+f.Name+"/"+p.Name, 0) {
						b.path = "/" + p.Name + b.path
						all = append(all, call{f.Name, p.Name, b})
					}
				}
			}
			if len(all) < pkg.min {
				t.Fatalf("%d breaches, want at least %d", len(all), pkg.min)
			}
			for _, f := range namedFronts(t, pkg.tool) {
				t.Run(f.name, func(t *testing.T) {
					before := pkg.calls()
					if pkg.valid != "" {
						if _, err := f.call(ctx, "check", json.RawMessage(pkg.valid)); err != nil {
							t.Fatalf("valid call: %v", err)
						}
					}
					for _, c := range all {
						// Other required arguments missing add violations
						// at their own paths.
						args := `{` + strconv.Quote(c.param) + `:` + c.value + `}`
						_, err := f.call(ctx, c.fn, json.RawMessage(args))
						var e *runtime.Error
						if !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams {
							t.Errorf("%s %s %s: %s: got %v, want -32602", c.fn, c.path, c.keyword, args, err)
							continue
						}
						found := false
						for _, v := range e.Violations() {
							found = found || v.Path == c.path && c.want(v.Message)
						}
						if !found {
							t.Errorf("%s %s %s: %s: violations %+v, want one at %s for %s", c.fn, c.path, c.keyword, args, e.Violations(), c.path, c.keyword)
						}
					}
					want := int64(0)
					if pkg.valid != "" {
						want = 1
					}
					if got := pkg.calls() - before; got != want {
						t.Errorf("the service ran %d times, want %d (the valid calls)", got, want)
					}
				})
			}
		})
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
