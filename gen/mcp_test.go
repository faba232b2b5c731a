package gen

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	yaml "github.com/oasdiff/yaml3"
)

const mcpGolden = goldenDir + "/mcp-tools/tools.json"

// withoutSource drops the lines of generated files that name the input file.
func withoutSource(files []File, source string) map[string]string {
	out := map[string]string{}
	for _, f := range files {
		var keep []string
		for _, line := range strings.Split(string(f.Content), "\n") {
			if !strings.Contains(line, source) {
				keep = append(keep, line)
			}
		}
		out[f.Name] = strings.Join(keep, "\n")
	}
	return out
}

// TestMCPSameAsOpenTool: a tools/list result generates the package its
// equivalent OpenTool document (what -document writes) generates, file for
// file: the MCP kind adds nothing but the reading.
func TestMCPSameAsOpenTool(t *testing.T) {
	data, err := os.ReadFile(mcpGolden)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate("tools.json", data, Options{Package: "mcptools"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := Generate("opentool.json", res.Document, Options{Package: "mcptools"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(res.Document, again.Document) {
		t.Errorf("the OpenTool document read again is not the same document")
	}
	if diff := cmp.Diff(withoutSource(res.Files, "tools.json"), withoutSource(again.Files, "opentool.json")); diff != "" {
		t.Errorf("the MCP input and its OpenTool document generate different packages (-mcp +opentool):\n%s", diff)
	}
}

// TestMCPForms: the same listing as a JSON-RPC response and as YAML generates
// the same package.
func TestMCPForms(t *testing.T) {
	data, err := os.ReadFile(mcpGolden)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Generate("tools.json", data, Options{Package: "mcptools"})
	if err != nil {
		t.Fatal(err)
	}
	response := append(append([]byte(`{"jsonrpc": "2.0", "id": 2, "result": `), data...), '}')
	var v yaml.Node // keeps the order of members
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	var block func(n *yaml.Node)
	block = func(n *yaml.Node) {
		n.Style &^= yaml.FlowStyle
		for _, c := range n.Content {
			block(c)
		}
	}
	block(&v)
	asYAML, err := yaml.Marshal(&v)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
	}{{"response.json", response}, {"tools.yaml", asYAML}} {
		if c.name == "tools.yaml" && !bytes.Contains(asYAML, []byte("\n    - \"name\": \"search_issues\"\n")) {
			t.Fatalf("not block-style YAML:\n%.300s", asYAML)
		}
		got, err := Generate(c.name, c.data, Options{Package: "mcptools"})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if diff := cmp.Diff(withoutSource(want.Files, "tools.json"), withoutSource(got.Files, c.name)); diff != "" {
			t.Errorf("%s: a different package (-tools.json +%s):\n%s", c.name, c.name, diff)
		}
	}
}

// TestMCPWarnings: what a tools/list result says that the OpenTool model
// cannot carry is read in a looser way, with a warning at its place, and the
// document is one the OpenTool loader accepts.
func TestMCPWarnings(t *testing.T) {
	doc := `{"tools": [
  {"name": "loose", "description": "Loosened.", "inputSchema": {
    "type": "object",
    "properties": {
      "n": {"type": "integer", "exclusiveMinimum": 0, "multipleOf": 2, "format": "int8"},
      "e": {"enum": ["a", 1]},
      "k": {"enum": [1, 2.5, null]},
      "s": {"type": "string", "enum": ["x", 2, "x"], "default": 3, "pattern": "(?=x)"},
      "r": {"$ref": "https://example.com/s.json"},
      "q": {"$ref": "#/$defs/Q", "default": 1},
      "a": {"type": "array"},
      "o": {"type": "object", "properties": {"p": {"type": "string"}}, "required": ["p", "missing"], "minimum": 5},
      "b": {"type": "number", "minimum": 5, "maximum": 1},
      "x": {"type": "number", "exclusiveMinimum": 5, "maximum": 5},
      "y": {"type": "integer", "minimum": 3, "exclusiveMaximum": true, "maximum": 3},
      "m": {"type": "object", "minProperties": 2, "maxProperties": 1},
      "f": false,
      "u": {"type": "object", "anyOf": [{"required": ["x"]}]},
      "t": {"type": "array", "items": [{"type": "string"}]},
      "z": {"type": "null"}
    },
    "required": ["n", "nope"],
    "$defs": {"Q": {"type": "string"}}
  }},
  {"name": "no_input"}
], "nextCursor": "page2"}`
	res, err := Generate("loose.json", []byte(doc), Options{Package: "loose"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range res.Warnings {
		if !w.Warning {
			t.Errorf("not a warning: %s", w)
		}
		got = append(got, w.String())
	}
	want := []string{
		`loose.json:5:82: warning: /tools/0/inputSchema/properties/n/format: ignored: the generated decoders do not check format "int8" of type integer (they check int32, int64)`,
		`loose.json:6:21: warning: /tools/0/inputSchema/properties/e/enum: values of several types and no type: read as any value`,
		`loose.json:8:45: warning: /tools/0/inputSchema/properties/s/enum/1: got number 2, want a string: ignored`,
		`loose.json:8:65: warning: /tools/0/inputSchema/properties/s/default: got number 3, want a string: ignored`,
		"loose.json:8:79: warning: /tools/0/inputSchema/properties/s/pattern: ignored: not a regular expression Go can use: error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
		`loose.json:9:21: warning: /tools/0/inputSchema/properties/r/$ref: got "https://example.com/s.json", not followed (only pointers into the tool's schema, "#/…", are): read as any value`,
		`loose.json:10:34: warning: /tools/0/inputSchema/properties/q/default: ignored next to $ref`,
		`loose.json:12:90: warning: /tools/0/inputSchema/properties/o/required/1: got "missing", want the name of a property: ignored`,
		`loose.json:13:56: warning: /tools/0/inputSchema/properties/b/maximum: got 1, less than minimum 5 (no value is valid): both ignored`,
		`loose.json:14:65: warning: /tools/0/inputSchema/properties/x/maximum: got 5, not above exclusiveMinimum 5 (no value is valid): both ignored`,
		`loose.json:15:83: warning: /tools/0/inputSchema/properties/y/maximum: got 3, not above minimum 3 (no value is valid): both ignored`,
		`loose.json:16:68: warning: /tools/0/inputSchema/properties/m/maxProperties: got 1, less than minProperties 2 (no value is valid): both ignored`,
		`loose.json:17:12: warning: /tools/0/inputSchema/properties/f: got false (no value is valid): read as any value`,
		`loose.json:18:31: warning: /tools/0/inputSchema/properties/u/anyOf: ignored next to "type": the OpenTool model has no anyOf besides a type`,
		`loose.json:19:39: warning: /tools/0/inputSchema/properties/t/items: a tuple (items as an array): read as an array of any values`,
		`loose.json:20:21: warning: /tools/0/inputSchema/properties/z/type: only null: read as any value (the OpenTool model has no null type)`,
		`loose.json:22:23: warning: /tools/0/inputSchema/required/1: got "nope", want the name of a property: ignored`,
		`loose.json:25:3: warning: /tools/1/inputSchema: missing, want an object schema of the arguments; read as no arguments`,
		`loose.json:26:18: warning: /nextCursor: the server has more tools than this page lists: only these are read (save every page's tools in one list)`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	checkPositions(t, "loose.json", []byte(doc), res.Warnings)
	var d struct {
		Functions []struct {
			Name       string
			Parameters []struct {
				Name   string
				Schema map[string]any
			}
		}
	}
	if err := json.Unmarshal(res.Document, &d); err != nil {
		t.Fatal(err)
	}
	schemas := map[string]string{}
	for _, p := range d.Functions[0].Parameters {
		b, _ := json.Marshal(p.Schema)
		schemas[p.Name] = string(b)
	}
	for name, want := range map[string]string{
		"e": `{}`,
		"n": `{"exclusiveMinimum":0,"multipleOf":2,"type":"integer"}`,
		"k": `{"enum":[1,2.5,null],"nullable":true,"type":"number"}`,
		"s": `{"enum":["x"],"type":"string"}`,
		"a": `{"items":{},"type":"array"}`,
		"o": `{"properties":{"p":{"type":"string"}},"required":["p"],"type":"object"}`,
		"b": `{"type":"number"}`,
		"x": `{"type":"number"}`,
		"y": `{"type":"integer"}`,
		"m": `{"type":"object"}`,
		"t": `{"items":{},"type":"array"}`,
	} {
		if schemas[name] != want {
			t.Errorf("%s: %s, want %s", name, schemas[name], want)
		}
	}
	checkDeclarations(t, res.Files)
}
