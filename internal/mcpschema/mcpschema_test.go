package mcpschema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

func convert(t *testing.T, tools string, strict bool) *Result {
	t.Helper()
	n, err := jsontree.Parse([]byte(tools))
	if err != nil {
		t.Fatal(err)
	}
	return Convert(document.Info{}, n, "/tools", Options{Strict: strict})
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMutualRecursion: two definitions that refer to each other are two
// schemas (they used to share the first one's name, their closures being the
// same set).
func TestMutualRecursion(t *testing.T) {
	for _, strict := range []bool{false, true} {
		res := convert(t, `[{"name": "walk", "inputSchema": {"type": "object",
		  "properties": {"root": {"$ref": "#/$defs/Folder"}},
		  "$defs": {
		    "Folder": {"type": "object", "properties": {"files": {"type": "array", "items": {"$ref": "#/$defs/File"}}}},
		    "File": {"type": "object", "properties": {"in": {"$ref": "#/$defs/Folder"}}}
		  }}}]`, strict)
		want := `{"Folder":{"type":"object","properties":{"files":{"type":"array","items":{"$ref":"#/schemas/File"}}}},` +
			`"File":{"type":"object","properties":{"in":{"$ref":"#/schemas/Folder"}}}}`
		if got := asJSON(t, res.Document.Schemas); got != want {
			t.Errorf("strict %v: schemas\n%s\nwant\n%s", strict, got, want)
		}
	}
}

// TestSharedDefinitions: a definition with the same JSON (and the same JSON
// below it) in two tools is one schema; one that differs gets the next
// number, whatever names are taken.
func TestSharedDefinitions(t *testing.T) {
	tool := func(name, color string) string {
		return fmt.Sprintf(`{"name": %q, "inputSchema": {"type": "object", "properties": {"c": {"$ref": "#/$defs/Color"}},
		  "$defs": {"Color": {"type": "string", "enum": [%q]}}}}`, name, color)
	}
	res := convert(t, `[`+strings.Join([]string{
		tool("a", "red"), tool("b", "red"), tool("c", "blue"), tool("d", "green"), tool("e", "blue"),
		`{"name": "f", "inputSchema": {"type": "object", "properties": {"c": {"$ref": "#/$defs/Color4"}}, "$defs": {"Color4": {"type": "integer"}}}}`,
		tool("g", "black"),
	}, ",")+`]`, true)
	var names []string
	for _, s := range res.Document.Schemas {
		names = append(names, s.Name)
	}
	if want := []string{"Color", "Color2", "Color3", "Color4", "Color5"}; !cmp.Equal(names, want) {
		t.Errorf("schemas %v, want %v", names, want)
	}
	var refs []string
	for _, f := range res.Document.Functions {
		refs = append(refs, f.Parameters[0].Schema.Ref)
	}
	want := []string{"#/schemas/Color", "#/schemas/Color", "#/schemas/Color2", "#/schemas/Color3", "#/schemas/Color2", "#/schemas/Color4", "#/schemas/Color5"}
	if !cmp.Equal(refs, want) {
		t.Errorf("references %v, want %v", refs, want)
	}
}

// TestRequiredOnce: a name listed twice in "required" is one parameter.
func TestRequiredOnce(t *testing.T) {
	res := convert(t, `[{"name": "f", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["b", "b", "a"]}}]`, false)
	want := `[{"name":"b","schema":{"type":"string"},"required":true},{"name":"a","schema":{"type":"string"},"required":true}]`
	if got := asJSON(t, res.Document.Functions[0].Parameters); got != want {
		t.Errorf("parameters %s, want %s", got, want)
	}
}

// TestLongChain: a chain of definitions each referring to the next one is
// converted (the closure keys take linear time), down to MaxDepth.
func TestLongChain(t *testing.T) {
	const n = 5000
	var b strings.Builder
	b.WriteString(`[{"name": "f", "inputSchema": {"type": "object", "properties": {"p": {"$ref": "#/$defs/D0"}}, "$defs": {`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"D%d": {"type": "object", "properties": {"next": {"$ref": "#/$defs/D%d"}}}`, i, (i+1)%n)
	}
	b.WriteString(`}}}]`)
	res := convert(t, b.String(), true)
	if len(res.Document.Schemas) < MaxDepth/2-1 || len(res.Document.Schemas) > MaxDepth {
		t.Errorf("%d schemas, want about %d (the chain cut at depth %d)", len(res.Document.Schemas), MaxDepth/2, MaxDepth)
	}
	found := false
	for _, p := range res.Problems {
		if strings.Contains(p.Message, "nested more than") && p.Warning {
			found = true
		}
	}
	if !found {
		t.Errorf("no warning where the chain is cut: %v", res.Problems)
	}
}

// TestStrictProblems: problems inside a definition reached through a
// reference are reported at the definition, and a cycle of references is an
// error that leaves the definition as any value.
func TestStrictProblems(t *testing.T) {
	res := convert(t, `[{"name": "f", "inputSchema": {"type": "object",
	  "properties": {"a": {"$ref": "#/$defs/A"}, "l": {"$ref": "#/$defs/L"}, "s": {"$ref": "#"}},
	  "$defs": {
	    "A": {"type": "object", "properties": {"x": {"type": 5}}},
	    "L": {"anyOf": [{"$ref": "#/$defs/M"}, {"type": "null"}]},
	    "M": {"$ref": "#/$defs/L"}
	  }}}]`, true)
	var got []string
	for _, p := range res.Problems {
		got = append(got, fmt.Sprintf("%s %v: %s", p.Path, p.Warning, p.Message))
	}
	want := []string{
		"/tools/0/inputSchema/$defs/A/properties/x/type false: got number 5, want a type name (null, boolean, integer, number, string, array, object) or an array of them",
		"/tools/0/inputSchema/$defs/L false: the references form a cycle that never reaches a schema; want a chain of references that ends at a schema with a type",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	schemas := asJSON(t, res.Document.Schemas)
	if !strings.Contains(schemas, `"L":{},"M":{"$ref":"#/schemas/L"}`) {
		t.Errorf("schemas %s: want L as any value", schemas)
	}
	if o := res.Schemas["A"]; o.Path != "/tools/0/inputSchema/$defs/A" {
		t.Errorf("the origin of A: %+v", o)
	}
	if p, _ := res.Place("/functions/0/parameters/0"); p != "/tools/0" {
		t.Errorf("Place of a function: %s", p)
	}
}

// TestAlternativeSchemasUnchecked: the constraints of a schema that anyOf
// or oneOf refers to (and of those it refers to) are not checked by the
// generated decoders, which do not type alternatives: dropped with a warning
// at their place; a schema used outside alternatives only keeps them.
func TestAlternativeSchemasUnchecked(t *testing.T) {
	res := convert(t, `[{"name": "f", "inputSchema": {"type": "object",
	  "properties": {"shape": {"anyOf": [{"$ref": "#/$defs/C"}, {"type": "string"}]}, "n": {"$ref": "#/$defs/N"}},
	  "$defs": {
	    "C": {"type": "object", "properties": {"r": {"type": "number", "minimum": 0}, "in": {"$ref": "#/$defs/In"}}},
	    "In": {"type": "string", "maxLength": 3},
	    "N": {"type": "integer", "maximum": 9}
	  }}}]`, true)
	var got []string
	for _, p := range res.Problems {
		got = append(got, fmt.Sprintf("%s %v: %s", p.Path, p.Warning, p.Message))
	}
	want := []string{
		"/tools/0/inputSchema/$defs/C/properties/r/minimum true: ignored: the generated decoders do not check minimum in a schema that oneOf or anyOf refers to",
		"/tools/0/inputSchema/$defs/In/maxLength true: ignored: the generated decoders do not check maxLength in a schema that oneOf or anyOf refers to",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	schemas := asJSON(t, res.Document.Schemas)
	if strings.Contains(schemas, "minimum") || strings.Contains(schemas, "maxLength") || !strings.Contains(schemas, `"maximum":9`) {
		t.Errorf("schemas %s: want no minimum nor maxLength, and N's maximum", schemas)
	}
}
