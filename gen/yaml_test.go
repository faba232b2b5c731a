package gen

import (
	"bytes"
	"errors"
	"fmt"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opentoolgen/opentoolgen/gen/source"
)

// twinYAML and twinJSON are the same OpenTool document; the YAML one uses
// anchors, aliases, merge keys, flow and block styles and block scalars.
const twinYAML = `# A weather tool, in YAML.
opentool: "1.0.0"
info:
  title: Weather (YAML)
  version: 1.0.0          # a string: not a number in YAML
  description: |
    Weather for a place.
    Two lines.
functions:
  - name: get_weather
    description: >
      Get the weather
      for a location.
    parameters:
      - name: location
        description: City and country
        schema: &str {type: string}
        required: true
      - name: unit
        schema:
          <<: &unit {type: string, enum: [celsius, fahrenheit]}
          description: Temperature unit
        required: false
      - name: days
        schema: {type: integer, minimum: 1, maximum: 16}
        required: false
    return:
      name: weather
      schema: {$ref: "#/schemas/Weather"}
  - name: list_units
    description: The units
    parameters: []
    return:
      name: units
      schema:
        type: array
        items: *unit
schemas:
  Weather:
    type: object
    properties:
      location: *str
      temperature: {type: number, minimum: -273.15}
      unit:
        description: the unit, overriding the merged one
        <<: *unit
        type: string
      answers: {type: string, enum: [yes, no, on, off, "true"]}
    required: [location, temperature]
`

const twinJSON = `{
  "opentool": "1.0.0",
  "info": {
    "title": "Weather (YAML)",
    "version": "1.0.0",
    "description": "Weather for a place.\nTwo lines.\n"
  },
  "functions": [
    {
      "name": "get_weather",
      "description": "Get the weather for a location.\n",
      "parameters": [
        {"name": "location", "description": "City and country", "schema": {"type": "string"}, "required": true},
        {"name": "unit", "schema": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Temperature unit"}, "required": false},
        {"name": "days", "schema": {"type": "integer", "minimum": 1, "maximum": 16}, "required": false}
      ],
      "return": {"name": "weather", "schema": {"$ref": "#/schemas/Weather"}}
    },
    {
      "name": "list_units",
      "description": "The units",
      "parameters": [],
      "return": {"name": "units", "schema": {"type": "array", "items": {"type": "string", "enum": ["celsius", "fahrenheit"]}}}
    }
  ],
  "schemas": {
    "Weather": {
      "type": "object",
      "properties": {
        "location": {"type": "string"},
        "temperature": {"type": "number", "minimum": -273.15},
        "unit": {"description": "the unit, overriding the merged one", "enum": ["celsius", "fahrenheit"], "type": "string"},
        "answers": {"type": "string", "enum": ["yes", "no", "on", "off", "true"]}
      },
      "required": ["location", "temperature"]
    }
  }
}
`

// TestYAMLTwin checks that a YAML document generates the same files as its
// JSON twin.
func TestYAMLTwin(t *testing.T) {
	y, err := Generate("weather.yaml", []byte(twinYAML), Options{Package: "weather"})
	if err != nil {
		t.Fatalf("YAML: %v", err)
	}
	j, err := Generate("weather.json", []byte(twinJSON), Options{Package: "weather"})
	if err != nil {
		t.Fatalf("JSON: %v", err)
	}
	if len(y.Files) != len(j.Files) || len(y.Files) == 0 {
		t.Fatalf("YAML made %d files, JSON %d", len(y.Files), len(j.Files))
	}
	for i := range y.Files {
		yf, jf := y.Files[i], j.Files[i]
		if yf.Name != jf.Name {
			t.Fatalf("file %d: %s from YAML, %s from JSON", i, yf.Name, jf.Name)
		}
		// The source's name is the only difference.
		want := strings.ReplaceAll(string(jf.Content), "weather.json", "weather.yaml")
		if diff := cmp.Diff(want, string(yf.Content)); diff != "" {
			t.Errorf("%s differs (-JSON +YAML):\n%s", yf.Name, diff)
		}
	}
	if diff := cmp.Diff(string(j.Document), string(y.Document)); diff != "" {
		t.Errorf("the OpenTool documents differ (-JSON +YAML):\n%s", diff)
	}
	if len(y.Warnings) != 0 || len(j.Warnings) != 0 {
		t.Errorf("warnings: YAML %v, JSON %v", y.Warnings, j.Warnings)
	}
	// yes, no, on and off are strings (YAML 1.2): constants of the enum.
	for _, f := range y.Files {
		if f.Name == "types.gen.go" {
			for _, c := range []string{`"yes"`, `"no"`, `"on"`, `"off"`, `"true"`} {
				if !bytes.Contains(f.Content, []byte(c)) {
					t.Errorf("types.gen.go lacks the enum value %s", c)
				}
			}
		}
	}
}

// yamlJSON returns the JSON form of a YAML document, or its error.
func yamlJSON(t *testing.T, doc string) (string, error) {
	t.Helper()
	s, err := source.ReadSource("t.yaml", []byte(doc))
	if err != nil {
		return "", err
	}
	return string(s.JSON), nil
}

// TestYAMLToJSON checks the conversion of YAML to JSON: aliases and merge keys
// expanded, scalars typed as YAML 1.2 says, and what JSON cannot hold refused.
func TestYAMLToJSON(t *testing.T) {
	for _, c := range []struct {
		name, yaml, json string
	}{
		{"alias", "a: &x {b: 1}\nc: *x\n", `{"a":{"b":1},"c":{"b":1}}`},
		{"alias of a scalar", "a: &x hello\nb: *x\n", `{"a":"hello","b":"hello"}`},
		{"alias of a sequence", "a: &x [1, 2]\nb: *x\n", `{"a":[1,2],"b":[1,2]}`},
		{"alias as key", "k: &k name\nm: {*k : v}\n", `{"k":"name","m":{"name":"v"}}`},
		{"merge", "base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  z: 3\n", `{"base":{"x":1,"y":2},"m":{"x":1,"y":2,"z":3}}`},
		{"own key after merge wins", "base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  x: 9\n", `{"base":{"x":1,"y":2},"m":{"y":2,"x":9}}`},
		{"own key before merge wins", "base: &b {x: 1, y: 2}\nm:\n  x: 9\n  <<: *b\n", `{"base":{"x":1,"y":2},"m":{"x":9,"y":2}}`},
		{"merge of a sequence: first wins", "a: &a {x: 1}\nb: &b {x: 2, y: 2}\nm: {<<: [*a, *b]}\n", `{"a":{"x":1},"b":{"x":2,"y":2},"m":{"x":1,"y":2}}`},
		{"merge of an inline mapping", "m: {<<: {x: 1}, y: 2}\n", `{"m":{"x":1,"y":2}}`},
		{"nested merges", "a: &a {x: 1}\nb: &b {<<: *a, y: 2}\nm: {<<: *b, z: 3}\n", `{"a":{"x":1},"b":{"x":1,"y":2},"m":{"x":1,"y":2,"z":3}}`},
		{"merge of an alias of a sequence", "a: &a {x: 1}\nl: &l [*a, {y: 2}]\nm: {<<: *l}\n", `{"a":{"x":1},"l":[{"x":1},{"y":2}],"m":{"x":1,"y":2}}`},
		{"YAML 1.2 booleans", "v: [true, false, True, FALSE]\n", `{"v":[true,false,true,false]}`},
		{"YAML 1.1 booleans are strings", "v: [yes, no, on, off, y, n, Yes, NO]\n", `{"v":["yes","no","on","off","y","n","Yes","NO"]}`},
		{"integers", "v: [0, -7, 0x1F, 0o17, 1_000, +5, 99999999999999999999]\n", `{"v":[0,-7,31,15,1000,5,99999999999999999999]}`},
		{"floats as written", "v: [1.0, -2.5e3, 1e3, .5, 6.02e+23]\n", `{"v":[1.0,-2.5e3,1e3,0.5,6.02e+23]}`},
		{"nulls", "v: [~, null, Null, ]\nw:\n", `{"v":[null,null,null],"w":null}`},
		{"strings", "v: ['1.0', \"yes\", 2024-01-01, 1.2.3, 0x, \"\\u00e9\\n\"]\n", `{"v":["1.0","yes","2024-01-01","1.2.3","0x","é\n"]}`},
		{"block scalars", "a: |\n  x\n  y\nb: >-\n  x\n  y\n", `{"a":"x\ny\n","b":"x y"}`},
		{"non-string keys", "1: a\ntrue: b\n1.5: c\n", `{"1":"a","true":"b","1.5":"c"}`},
		{"flow style", `{a: [1, {"b": null}]}`, `{"a":[1,{"b":null}]}`},
	} {
		got, err := yamlJSON(t, c.yaml)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got != c.json {
			t.Errorf("%s:\n%s\ngot  %s\nwant %s", c.name, c.yaml, got, c.json)
		}
	}
}

// TestYAMLErrors checks that what YAML has and JSON has not is refused, at
// its place, and that syntax errors are reported where the problem is (the
// YAML parser gives the line of the enclosing collection and no column).
func TestYAMLErrors(t *testing.T) {
	for _, c := range []struct{ name, yaml, want string }{
		{"infinity", "v: .inf\n", "t.yaml:1:4: /v: got .inf, want a finite number (JSON has no infinities or NaN)"},
		{"minus infinity", "a:\n  v: -.Inf\n", "t.yaml:2:6: /a/v: got -.Inf, want a finite number (JSON has no infinities or NaN)"},
		{"NaN", "v: [1, .NaN]\n", "t.yaml:1:8: /v/1: got .NaN, want a finite number (JSON has no infinities or NaN)"},
		{"mapping key", "a: {[1]: x}\n", "t.yaml:1:5: /a: mapping keys must be scalars"},
		{"merge of a scalar", "a: {<<: 1}\n", "t.yaml:1:9: /a: a YAML merge key must refer to a mapping or a sequence of mappings"},
		{"unknown anchor", "a: 1\nb: [2, *nope]\n", "t.yaml:2:8: unknown anchor 'nope' referenced"},
		{"syntax, scanner", "a: b: c\n", "t.yaml:1:5: mapping values are not allowed in this context"},
		{"syntax, parser", "a:\n  - x\n  y: 1\n", "t.yaml:3:3: did not find expected '-' indicator"},
		{"tab", "a:\n\tb: 1\n", "t.yaml:2:1: found character that cannot start any token"},
		{"key indented too little", "openapi: 3.0.3\npaths:\n  /a:\n    get:\n      summary: x\n      responses: {}\n     tags: [a]\n",
			"t.yaml:7:6: did not find expected key"},
		{"unterminated string", "info:\n  title: \"unterminated\n  version: 1\n", "t.yaml:2:10: found unexpected end of stream"},
		{"empty", "", "t.yaml:1:1: empty document"},
	} {
		_, err := yamlJSON(t, c.yaml)
		var ge *source.Error
		if !errors.As(err, &ge) {
			t.Errorf("%s: got %v, want an *Error", c.name, err)
			continue
		}
		if got := ge.Error(); got != c.want {
			t.Errorf("%s:\n%s\ngot  %s\nwant %s", c.name, c.yaml, got, c.want)
		}
	}
}

// TestYAMLPositions checks the positions recorded for the values of a YAML
// document: those written out at their place, those reached through an alias
// at the alias.
func TestYAMLPositions(t *testing.T) {
	doc := "a:\n  b: &x\n    c: 1\n  d: *x\nl:\n  - 1\n  -   two\n"
	s, err := source.ReadSource("t.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path      string
		line, col int
	}{
		{"", 1, 1},
		{"/a", 2, 3},
		{"/a/b", 2, 6}, // at its anchor
		{"/a/b/c", 3, 8},
		{"/a/d", 4, 6},
		{"/a/d/c", 4, 6}, // through the alias
		{"/l/1", 7, 7},
		{"/l/9", 6, 3}, // missing: the enclosing value
		{"/nope/deeper", 1, 1},
	} {
		if line, col := s.Position(c.path, -1); line != c.line || col != c.col {
			t.Errorf("position(%q) = %d:%d, want %d:%d", c.path, line, col, c.line, c.col)
		}
	}
}

// billionLaughs returns the alias bomb of levels levels of width aliases each.
func billionLaughs(levels, width int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 [lol")
	for range width - 1 {
		b.WriteString(", lol")
	}
	b.WriteString("]\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [", i, i)
		for j := range width {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// mergeBomb returns a chain of mappings each merging the previous one twice:
// little output, but exponential work if merges were expanded naively.
func mergeBomb(levels int) string {
	var b strings.Builder
	b.WriteString("m0: &m0 {a: 1}\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "m%d: &m%d {<<: [*m%d, *m%d], k%d: 1}\n", i, i, i-1, i-1, i)
	}
	return b.String()
}

// TestYAMLAliasBomb checks that documents that expand enormously through
// aliases are refused quickly, with a clear message, without using much memory.
func TestYAMLAliasBomb(t *testing.T) {
	for _, c := range []struct{ name, doc string }{
		{"billion laughs", billionLaughs(9, 9)},
		{"wide", billionLaughs(3, 1000)},
		{"deep", billionLaughs(40, 2)},
		{"merges", mergeBomb(40)},
	} {
		var before, after goruntime.MemStats
		goruntime.ReadMemStats(&before)
		start := time.Now()
		_, err := Generate("bomb.yaml", []byte(c.doc), Options{Package: "bomb"})
		elapsed := time.Since(start)
		goruntime.ReadMemStats(&after)
		var ge *source.Error
		if !errors.As(err, &ge) || len(ge.Diagnostics) != 1 {
			t.Errorf("%s: got %v, want one diagnostic", c.name, err)
			continue
		}
		d := ge.Diagnostics[0]
		if !strings.Contains(d.Message, "YAML aliases expand the document to more than") || d.Line == 0 {
			t.Errorf("%s: %s", c.name, d)
		}
		if elapsed > 5*time.Second {
			t.Errorf("%s: took %v", c.name, elapsed)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 100<<20 {
			t.Errorf("%s: allocated %d MB", c.name, alloc>>20)
		}
	}

	// Aliases within the limit are fine: one schema used by 2000 parameters.
	var b strings.Builder
	b.WriteString("opentool: 1.0.0\ninfo: {title: t, version: '1'}\nfunctions:\n  - name: f\n    description: d\n    parameters:\n")
	b.WriteString("      - {name: p0, schema: &s {type: object, properties: {a: {type: string}, b: {type: integer}}}, required: true}\n")
	for i := 1; i < 2000; i++ {
		fmt.Fprintf(&b, "      - {name: p%d, schema: *s, required: true}\n", i)
	}
	if _, err := source.ReadSource("many.yaml", []byte(b.String())); err != nil {
		t.Errorf("2000 aliases: %v", err)
	}
}

// TestYAMLGenerateErrors checks that Generate reports problems of a YAML
// document at its YAML lines, for values written out and values reached
// through an alias or a merge.
func TestYAMLGenerateErrors(t *testing.T) {
	doc := `opentool: 1.0.0
info: {title: t, version: "1"}
functions:
  - name: f
    description: d
    parameters:
      - name: a
        schema: &int {type: integer, enum: [1, 2.5]}
        required: true
      - name: b
        schema: *int
        required: no
`
	_, err := Generate("t.yaml", []byte(doc), Options{Package: "p"})
	var ge *source.Error
	if !errors.As(err, &ge) {
		t.Fatalf("got %v, want an *Error", err)
	}
	want := []string{
		"t.yaml:8:48: /functions/0/parameters/0/schema/enum/1: got number 2.5, want an integer",
		"t.yaml:11:17: /functions/0/parameters/1/schema/enum/1: got number 2.5, want an integer",
		`t.yaml:12:19: /functions/0/parameters/1/required: got string "no", want a boolean`,
	}
	var got []string
	for _, d := range ge.Diagnostics {
		got = append(got, d.String())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}
