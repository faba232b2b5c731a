package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/gen/emit"
	otload "github.com/opentoolgen/opentoolgen/gen/load/opentool"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// Hostile documents: one parameter whose schema nests inline objects n levels
// deep ({"type":"object","properties":{"a":{"type":"object",…}}}). 4,900
// levels of the OpenTool one are 181 KB.

// deepObject writes the nested schema, innermost a string.
func deepObject(b *strings.Builder, n int, required bool) {
	req := ""
	if required {
		req = `,"required":["a"]`
	}
	for range n {
		b.WriteString(`{"type":"object","properties":{"a":`)
	}
	b.WriteString(`{"type":"string"}`)
	for range n {
		b.WriteString(`}` + req + `}`)
	}
}

// deepOpenTool is an OpenTool document whose one function's parameter nests n levels.
func deepOpenTool(n int, required bool) []byte {
	var b strings.Builder
	b.WriteString(`{"opentool":"1.0.0","info":{"title":"Deep","version":"1.0.0"},"functions":[{"name":"f","description":"deep","parameters":[{"name":"p","required":true,"schema":`)
	deepObject(&b, n, required)
	b.WriteString(`}]}]}`)
	return []byte(b.String())
}

// deepOpenAPI is an OpenAPI document whose one operation's JSON body nests n levels.
func deepOpenAPI(n int, required bool) []byte {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"Deep","version":"1.0.0"},"paths":{"/f":{"post":{"operationId":"f","requestBody":{"content":{"application/json":{"schema":{"type":"object","properties":{"p":`)
	deepObject(&b, n, required)
	b.WriteString(`}}}}},"responses":{"200":{"description":"ok"}}}}}}`)
	return []byte(b.String())
}

// deepOpenDyn is an OpenDyn document with a named schema nesting n levels
// beside a C function.
func deepOpenDyn(n int, required bool) []byte {
	var b strings.Builder
	b.WriteString(`{"opendyn":"1.0.0","info":{"title":"Deep","version":"1.0.0"},"functions":[{"name":"f","parameters":[{"name":"x","schema":{"type":"integer","cType":{"type":"int"}},"isIn":true}]}],"schemas":{"Deep":`)
	deepObject(&b, n, required)
	b.WriteString(`}}`)
	return []byte(b.String())
}

// deepMCP is an MCP tools/list result whose one tool's parameter nests n
// levels (converted down to mcpschema.MaxDepth levels, any value below).
func deepMCP(n int, required bool) []byte {
	var b strings.Builder
	b.WriteString(`{"tools":[{"name":"f","description":"deep","inputSchema":{"type":"object","properties":{"p":`)
	deepObject(&b, n, required)
	b.WriteString(`}}}]}`)
	return []byte(b.String())
}

var deepKinds = []struct {
	name  string
	doc   func(n int, required bool) []byte
	sizes []int
}{
	{"opentool", deepOpenTool, []int{1000, 2000, 4900}},
	{"opendyn", deepOpenDyn, []int{1000, 2000, 4900}},
	// OpenAPI documents nest at most maxOpenAPIDepth levels (2 a schema).
	{"openapi", deepOpenAPI, []int{120, 240, 490}},
}

// outputBytes is the size of everything Generate produced.
func outputBytes(res *Result) int {
	n := len(res.Document)
	for _, f := range res.Files {
		n += len(f.Content)
	}
	return n
}

// BenchmarkDeepNesting generates the hostile nested documents; out-bytes is
// the size of the generated files and the equivalent document. An OpenAPI
// document nested deeper than maxOpenAPIDepth is refused (openapi-refused).
func BenchmarkDeepNesting(b *testing.B) {
	for _, k := range deepKinds {
		for _, n := range k.sizes {
			b.Run(fmt.Sprintf("%s/levels=%d", k.name, n), func(b *testing.B) {
				data := k.doc(n, false)
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				var out int
				for b.Loop() {
					res, err := Generate("deep.json", data, Options{Package: "deep"})
					if err != nil {
						b.Fatal(err)
					}
					out = outputBytes(res)
				}
				b.ReportMetric(float64(out), "out-bytes")
				b.ReportMetric(float64(out)/float64(len(data)), "out/in")
			})
		}
	}
	b.Run("openapi-refused/levels=4900", func(b *testing.B) {
		data := deepOpenAPI(4900, false)
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Generate("deep.json", data, Options{Package: "deep"}); err == nil {
				b.Fatal("not refused")
			}
		}
	})
}

// deepArrays is an OpenTool document whose parameter is an array of arrays
// n levels deep of objects, each with an enum and a map of objects.
func deepArrays(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"opentool":"1.0.0","info":{"title":"Deep","version":"1.0.0"},"functions":[{"name":"f","description":"deep","parameters":[{"name":"p","required":true,"schema":`)
	for range n {
		b.WriteString(`{"type":"array","items":`)
	}
	b.WriteString(`{"type":"object","properties":{"e":{"type":"string","enum":["x","y"]},"m":{"type":"object","additionalProperties":{"type":"object","properties":{"s":{"type":"string"}}}}}}`)
	for range n {
		b.WriteString(`}`)
	}
	b.WriteString(`}]}]}`)
	return []byte(b.String())
}

// TestDeepNestingLinear checks that the generated code grows linearly with
// the depth of nesting of inline types: names of nested types are bounded,
// and so are the comments that say where a type comes from.
func TestDeepNestingLinear(t *testing.T) {
	cases := []struct {
		name string
		doc  func(n int) []byte
	}{
		{"opentool", func(n int) []byte { return deepOpenTool(n, false) }},
		{"opentool-required", func(n int) []byte { return deepOpenTool(n, true) }},
		{"opendyn", func(n int) []byte { return deepOpenDyn(n, false) }},
		{"arrays", deepArrays},
		{"mcp", func(n int) []byte { return deepMCP(n, true) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := map[int]int{}
			for _, n := range []int{1000, 2000, 4900} {
				data := c.doc(n)
				res, err := Generate("deep.json", data, Options{Package: "deep"})
				if err != nil {
					t.Fatalf("%d levels: %v", n, err)
				}
				out[n] = outputBytes(res)
				if n == 4900 && out[n] >= 20*len(data) {
					t.Errorf("%d levels: %d bytes of output for %d of input, want under 20 times", n, out[n], len(data))
				}
				for _, f := range res.Files {
					if f.Name == emit.DocumentFile {
						continue // compact JSON when deep (ResultDocument)
					}
					for _, line := range strings.Split(string(f.Content), "\n") {
						if len(line) > 400 {
							t.Fatalf("%d levels: %s has a line of %d bytes: %.200s…", n, f.Name, len(line), line)
						}
					}
				}
			}
			if r := float64(out[2000]) / float64(out[1000]); r >= 2.5 {
				t.Errorf("output for 2,000 levels is %.2f times that for 1,000, want under 2.5", r)
			}
		})
	}
}

// TestDeepNestingCompiles vets the packages of deeply nested documents: past
// the bound on names (nested types named after their member, numbered) and
// on anonymous slices (named element types).
func TestDeepNestingCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping go vet of generated packages")
	}
	dir, err := os.MkdirTemp("../testdata", "tmp-deep-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	docs := map[string][]byte{
		"deepobj": deepOpenTool(300, false),
		"deepreq": deepOpenTool(300, true),
		"deeparr": deepArrays(40),
		"deepdyn": deepOpenDyn(300, false),
		"deepoa":  deepOpenAPI(100, true),
		"deepoaa": deepOpenAPIArrays(40),
	}
	var pkgs []string
	for name, data := range docs {
		res, err := Generate(name+".json", data, Options{Package: name})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pdir := filepath.Join(dir, name)
		if err := os.MkdirAll(pdir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Files {
			if err := os.WriteFile(filepath.Join(pdir, f.Name), f.Content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		pkgs = append(pkgs, "./testdata/"+filepath.Base(dir)+"/"+name)
	}
	sort.Strings(pkgs)
	goTool(t, nil, append([]string{"vet"}, pkgs...)...)
}

// TestMarshalDocument checks that marshalDocument writes what json.Marshal
// writes, and indentedSize predicts json.Indent, for the equivalent documents
// of the golden cases, deep documents and values encoding/json escapes.
func TestMarshalDocument(t *testing.T) {
	var docs []*document.OpenTool
	var inputs [][]byte
	for _, c := range goldenCases(t) {
		inputs = append(inputs, generateCase(t, c)["opentool.gen.json"])
	}
	inputs = append(inputs, deepOpenTool(50, true), deepArrays(20))
	for i, data := range inputs {
		doc, err := otload.LoadOpenTool(data)
		if err != nil {
			t.Fatalf("document %d: %v", i, err)
		}
		docs = append(docs, doc)
	}
	one := 1.5
	docs = append(docs, &document.OpenTool{
		OpenTool: "1.0.0",
		Info:     document.Info{Title: "<&>\u2028\\", Version: "1", Description: "a\x00b\xff \"{q}\", [x]: \\\""},
		Functions: []document.Function{{Name: "f", Parameters: []document.Parameter{{Name: "p<>",
			Schema: &document.Schema{Type: "string", Enum: []any{"x", 1.5, nil, true, json.Number("7")}, Default: json.RawMessage(`{"a" : [1, 2]}`)}}},
			Stream: map[string]*document.Return{"data": {Name: "d", Schema: &document.Schema{Ref: "#/schemas/S"}}, "b": {Name: "b"}}}},
		Schemas: document.Schemas{{Name: "S", Schema: &document.Schema{Type: "object", Properties: document.Schemas{
			{Name: "é", Schema: &document.Schema{Type: "array", Items: &document.Schema{Type: "number", Minimum: &one}, OneOf: []*document.Schema{nil, {}}}},
			{Name: "empty", Schema: &document.Schema{Type: "object", Properties: document.Schemas{}}},
			{Name: "nil", Schema: nil},
		}}}},
	})
	for i, doc := range docs {
		want, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := emit.MarshalDocument(doc)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("document %d: marshalDocument differs from json.Marshal:\n got %s\nwant %s", i, got, want)
		}
		var ind bytes.Buffer
		if err := json.Indent(&ind, want, "", "  "); err != nil {
			t.Fatal(err)
		}
		if n := emit.IndentedSize(want); n != ind.Len() {
			t.Errorf("document %d: indentedSize says %d bytes, json.Indent writes %d", i, n, ind.Len())
		}
		if res := emit.ResultDocument(want); len(want) <= 256<<10 && !bytes.Equal(res, append(ind.Bytes(), '\n')) {
			t.Errorf("document %d: ResultDocument differs from json.Indent:\n got %s\nwant %s", i, res, ind.Bytes())
		}
	}
}

// TestScopeTakeNumbers: a base taken again and again gets the smallest free
// number each time, names taken in between included.
func TestScopeTakeNumbers(t *testing.T) {
	s := model.NewScope("A2")
	var got []string
	for _, base := range []string{"A", "A", "A4", "A", "A", "B", "A"} {
		got = append(got, s.Take(base))
	}
	want := "A A3 A4 A5 A6 B A7"
	if strings.Join(got, " ") != want {
		t.Errorf("got %s, want %s", strings.Join(got, " "), want)
	}
}

// deepYAML is deepOpenTool in YAML flow style.
func deepYAML(n int) []byte {
	var b strings.Builder
	b.WriteString("opentool: 1.0.0\ninfo: {title: Deep, version: 1.0.0}\nfunctions:\n- name: f\n  description: deep\n  parameters:\n  - name: p\n    required: true\n    schema: ")
	for range n {
		b.WriteString(`{type: object, properties: {a: `)
	}
	b.WriteString(`{type: strin}`)
	for range n {
		b.WriteString(`}}`)
	}
	b.WriteString("\n")
	return []byte(b.String())
}

// TestDeepErrorsReadable: problems deep in a document are reported on a line
// of readable length that still shows where: file, line and column, and both
// ends of the path.
func TestDeepErrorsReadable(t *testing.T) {
	badType := strings.Replace(string(deepOpenTool(4000, false)), `{"type":"string"}`, `{"type":"strin"}`, 1)
	for _, c := range []struct {
		name, file string
		doc        []byte
		want       []string // in the message
	}{
		{"json depth", "deep.json", deepOpenTool(5000, false),
			[]string{"deep.json:1:175085: /functions/0/parameters/0/…(9,992 more)…/a/properties/a/properties: exceeded max depth"}},
		{"deep problem", "deep.json", []byte(badType),
			[]string{"deep.json:1:140168: /functions/0/parameters/0/…(7,998 more)…/a/properties/a/type: got \"strin\", want one of"}},
		{"yaml depth", "deep.yaml", deepYAML(5000), // the YAML parser's own limit
			[]string{"deep.yaml:9:1: exceeded max depth of 10000"}},
		{"yaml problem", "deep.yaml", deepYAML(3000),
			[]string{"deep.yaml:9:93020: /functions/0/parameters/0/…(5,998 more)…/a/properties/a/type: got \"strin\", want one of"}},
		{"long value", "dyn.json", []byte(`{"opendyn":"1.0.0","info":{"title":"t","version":"1","callingConvention":"` + strings.Repeat("x", 100000) + `"},"functions":[]}`),
			[]string{`dyn.json:1:74: /info/callingConvention: got "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…", want "cdecl" or "stdcall"`}},
		{"openapi depth", "deep.json", deepOpenAPI(4900, false),
			[]string{"deep.json:1:17548: /paths/~1f/post/requestBody/…(992 more)…/a/properties/a/properties: nested more than 1000 levels deep"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Generate(c.file, c.doc, Options{Package: "deep"})
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || len(msg) > 300 {
				t.Errorf("want one line of at most 300 bytes, got %d bytes: %.500s", len(msg), msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
		})
	}
}

// TestYAMLKeyPosition: a problem the loader places at a member's key is
// reported at the key in the YAML text, as in JSON (positions are kept by
// offset in the JSON form, keys included).
func TestYAMLKeyPosition(t *testing.T) {
	doc := `opentool: 1.0.0
info: {title: t, version: "1"}
functions:
- name: f
  description: d
  parameters:
  - name: p
    required: true
    schema:
      $ref: "#/schemas/S"
      format: x
schemas:
  S: {type: string}
`
	res, err := Generate("t.yaml", []byte(doc), Options{Package: "t"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range res.Warnings {
		got = append(got, w.String())
	}
	want := "t.yaml:11:7: warning: /functions/0/parameters/0/schema/format: ignored next to $ref"
	if strings.Join(got, "\n") != want {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

// TestYAMLAliasBombPosition: a document whose aliases expand too much is
// refused at an alias (or merge key), where the expansion is written.
func TestYAMLAliasBombPosition(t *testing.T) {
	for _, doc := range []string{billionLaughs(9, 9), billionLaughs(40, 2), mergeBomb(40)} {
		_, err := Generate("bomb.yaml", []byte(doc), Options{Package: "bomb"})
		var ge *source.Error
		if !errors.As(err, &ge) || len(ge.Diagnostics) != 1 {
			t.Fatalf("got %v, want one diagnostic", err)
		}
		d := ge.Diagnostics[0]
		lines := strings.Split(doc, "\n")
		if d.Line < 1 || d.Line > len(lines) || d.Col < 1 || d.Col > len(lines[d.Line-1]) {
			t.Fatalf("%s: not a place in the document", d)
		}
		if at := lines[d.Line-1][d.Col-1:]; !strings.HasPrefix(at, "*") && !strings.Contains(at, "{<<") {
			t.Errorf("%s: at %.20q, want an alias or a merging mapping", d, at)
		}
	}
}

// deepOpenAPIArrays is an OpenAPI document whose body member is an array of
// arrays n levels deep of objects.
func deepOpenAPIArrays(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"Deep","version":"1.0.0"},"paths":{"/f":{"post":{"operationId":"f","requestBody":{"content":{"application/json":{"schema":{"type":"object","properties":{"p":`)
	for range n {
		b.WriteString(`{"type":"array","items":`)
	}
	b.WriteString(`{"type":"object","properties":{"e":{"type":"string","enum":["x","y"]}}}`)
	for range n {
		b.WriteString(`}`)
	}
	b.WriteString(`}}}}},"responses":{"200":{"description":"ok"}}}}}}`)
	return []byte(b.String())
}

// TestDeepOpenAPILinear is TestDeepNestingLinear for OpenAPI documents, as
// deep as they may be.
func TestDeepOpenAPILinear(t *testing.T) {
	for _, c := range []struct {
		name string
		doc  func(n int) []byte
		n    int
	}{
		{"objects", func(n int) []byte { return deepOpenAPI(n, false) }, 240},
		{"required", func(n int) []byte { return deepOpenAPI(n, true) }, 240},
		{"arrays", deepOpenAPIArrays, 480},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out [2]int
			for i, n := range []int{c.n, 2 * c.n} {
				data := c.doc(n)
				res, err := Generate("deep.json", data, Options{Package: "deep"})
				if err != nil {
					t.Fatalf("%d levels: %v", n, err)
				}
				out[i] = outputBytes(res)
				if out[i] >= 20*len(data) {
					t.Errorf("%d levels: %d bytes of output for %d of input, want under 20 times", n, out[i], len(data))
				}
			}
			if r := float64(out[1]) / float64(out[0]); r >= 2.5 {
				t.Errorf("output for %d levels is %.2f times that for %d, want under 2.5", 2*c.n, r, c.n)
			}
		})
	}
}
