package jsontree

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	data := []byte(` {"a": [1, -2.5e3, "x\u00e9\n"], "b": {"c": true, "d": null}, "e": false, "~/": {}} `)
	n, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if n.Kind != Object || n.Offset != 1 || n.End != int64(len(data)-1) {
		t.Fatalf("root: got kind %v offset %d end %d", n.Kind, n.Offset, n.End)
	}
	var keys []string
	for _, m := range n.Members {
		keys = append(keys, m.Key)
	}
	if want := []string{"a", "b", "e", "~/"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("keys: got %q, want %q", keys, want)
	}
	if m := n.Members[1]; m.KeyOffset != int64(bytes.Index(data, []byte(`"b"`))) {
		t.Errorf("KeyOffset of b: got %d", m.KeyOffset)
	}
	a := n.Get("a")
	if a.Kind != Array || len(a.Items) != 3 {
		t.Fatalf("a: got %v with %d items", a.Kind, len(a.Items))
	}
	if got := a.Items[1]; got.Kind != Number || got.Str != "-2.5e3" || string(data[got.Offset:got.End]) != "-2.5e3" {
		t.Errorf("a/1: got %v %q [%d:%d]", got.Kind, got.Str, got.Offset, got.End)
	}
	if got := a.Items[2].Str; got != "x\u00e9\n" {
		t.Errorf("a/2: got %q", got)
	}
	if got := n.Find("/b/c"); got == nil || got.Kind != Bool || !got.Bool {
		t.Errorf("/b/c: got %+v", got)
	}
	if got := n.Find("/b/d"); got == nil || got.Kind != Null || got.KindName() != "null" {
		t.Errorf("/b/d: got %+v", got)
	}
	if got := n.Find("/e"); got == nil || got.Kind != Bool || got.Bool {
		t.Errorf("/e: got %+v", got)
	}
	if got := n.Find(Pointer("~/")); got == nil || got.Kind != Object {
		t.Errorf("/~0~1: got %+v", got)
	}
	if got := n.Find(""); got != n {
		t.Errorf(`Find(""): got %p, want the root`, got)
	}
	for _, ptr := range []string{"a", "/a/3", "/a/01", "/a/-", "/a/1/x", "/zz", "/~2", "/~", "/b/c/d", "/a/99999999999999999999"} {
		if got := n.Find(ptr); got != nil {
			t.Errorf("Find(%q): got %+v, want nil", ptr, got)
		}
	}
	var nilNode *Node
	if nilNode.Get("a") != nil || a.Get("a") != nil {
		t.Error("Get on nil or a non-object: want nil")
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int64
		msg    string
		path   string
	}{
		{``, 0, "unexpected end of JSON input", ""},
		{`   `, 3, "unexpected end of JSON input", ""},
		{`{"a":1,"a":2}`, 7, `duplicate key "a"`, "/a"},
		{`{"a":{"b":[0,{"x/y":1,"x\/y":2}]}}`, 22, `duplicate key "x/y"`, "/a/b/1/x~1y"},
		{`{"a":1} x`, 8, "invalid character 'x' after top-level value", ""},
		{`{"a":1}{}`, 7, "invalid character '{' after top-level value", ""},
		{`[1,]`, 3, "invalid character ']' looking for beginning of value", "/1"},
		{`{"a":1,}`, 7, "invalid character '}' looking for beginning of object key string", ""},
		{`{"a" 1}`, 5, "invalid character '1' after object key", ""},
		{`{"a":1 "b":2}`, 7, "invalid character '\"' after object key:value pair", ""},
		{`[1 2]`, 3, "invalid character '2' after array element", ""},
		{`{"a":[1,{"b":tru}]}`, 16, "invalid character '}' in literal true (expecting 'e')", "/a/1/b"},
		{`nul`, 3, "unexpected end of JSON input", ""},
		{`01`, 1, "invalid character '1' after top-level value", ""},
		{`-`, 1, "unexpected end of JSON input", ""},
		{`-a`, 1, "invalid character 'a' in numeric literal", ""},
		{`1.`, 2, "unexpected end of JSON input", ""},
		{`1.e`, 2, "invalid character 'e' after decimal point in numeric literal", ""},
		{`1e+`, 3, "unexpected end of JSON input", ""},
		{`1ex`, 2, "invalid character 'x' in exponent of numeric literal", ""},
		{`"a` + "\t" + `"`, 2, `invalid character '\t' in string literal`, ""},
		{`"\x"`, 2, `invalid character 'x' in string escape code`, ""},
		{`"\u12g4"`, 5, `invalid character 'g' in \u hexadecimal character escape`, ""},
		{`"abc`, 4, "unexpected end of JSON input", ""},
		{"\ufeff{}", 0, "invalid character 'ï' looking for beginning of value", ""},
		{`'a'`, 0, `invalid character '\'' looking for beginning of value`, ""},
		{strings.Repeat("[", MaxDepth+1), MaxDepth, "exceeded max depth", Pointer(slices0(MaxDepth)...)},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%.40q): got error %v, want a *SyntaxError", tt.in, err)
			continue
		}
		if se.Offset != tt.offset || se.Msg != tt.msg || se.Path != tt.path {
			t.Errorf("Parse(%.40q):\ngot  %d %q %.80q\nwant %d %q %.80q", tt.in, se.Offset, se.Msg, se.Path, tt.offset, tt.msg, tt.path)
		}
		if json.Valid([]byte(tt.in)) && !strings.HasPrefix(tt.msg, "duplicate") {
			t.Errorf("Parse(%.40q): encoding/json accepts it", tt.in)
		}
	}
}

// slices0 returns n tokens "0".
func slices0(n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = "0"
	}
	return s
}

func TestMaxDepth(t *testing.T) {
	for _, depth := range []int{MaxDepth, MaxDepth + 1} {
		for _, open := range []string{"[", `{"":`} {
			closer := map[string]string{"[": "]", `{"":`: "}"}[open]
			in := []byte(strings.Repeat(open, depth) + "1" + strings.Repeat(closer, depth))
			_, err := Parse(in)
			if (err == nil) != json.Valid(in) {
				t.Errorf("depth %d %s: Parse error %v, json.Valid %v", depth, open, err, json.Valid(in))
			}
		}
	}
}

func TestStrings(t *testing.T) {
	tests := []string{
		`"plain"`, `"\"\\\/\b\f\n\r\t"`, `"\u0041\u00e9\u4e2d"`, `"\ud83d\ude00"`,
		`"\ud83d"`, `"\ud83dx"`, `"\ud83d\u0041"`, `"\ude00\ud83d"`, `"\ud83d\ud83d\ude00"`,
		"\"\xff\xfe\"", "\"a\xc3\"", "\"\xed\xa0\x80\"", "\"é中😀\"", `"\u0000"`,
	}
	for _, in := range tests {
		n, err := Parse([]byte(in))
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		var want string
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		if n.Str != want {
			t.Errorf("Parse(%q): got %q, want %q (as encoding/json)", in, n.Str, want)
		}
	}
}

func TestPointer(t *testing.T) {
	tests := []struct {
		tokens []string
		want   string
	}{
		{nil, ""},
		{[]string{""}, "/"},
		{[]string{"functions", "0", "name"}, "/functions/0/name"},
		{[]string{"a/b", "m~n", "~/~"}, "/a~1b/m~0n/~0~1~0"},
	}
	for _, tt := range tests {
		if got := Pointer(tt.tokens...); got != tt.want {
			t.Errorf("Pointer(%q): got %q, want %q", tt.tokens, got, tt.want)
		}
	}
}

func TestLineCol(t *testing.T) {
	data := []byte("ab\ncd\r\n\nxyz")
	tests := []struct {
		off       int64
		line, col int
	}{
		{-5, 1, 1}, {0, 1, 1}, {1, 1, 2}, {2, 1, 3}, {3, 2, 1}, {4, 2, 2}, {7, 3, 1}, {8, 4, 1}, {10, 4, 3}, {11, 4, 4}, {99, 4, 4},
	}
	for _, tt := range tests {
		if l, c := LineCol(data, tt.off); l != tt.line || c != tt.col {
			t.Errorf("LineCol(%d): got %d:%d, want %d:%d", tt.off, l, c, tt.line, tt.col)
		}
		if l, c := NewLines(data).LineCol(tt.off); l != tt.line || c != tt.col {
			t.Errorf("Lines.LineCol(%d): got %d:%d, want %d:%d", tt.off, l, c, tt.line, tt.col)
		}
	}
	// The index answers as LineCol does at every offset of these texts.
	for _, text := range []string{"", "\n", "\n\n", "a", "a\n", "\na", "ab\n\ncd\n", strings.Repeat("x\ny", 50)} {
		lines := NewLines([]byte(text))
		for off := int64(-1); off <= int64(len(text))+1; off++ {
			l1, c1 := LineCol([]byte(text), off)
			if l2, c2 := lines.LineCol(off); l1 != l2 || c1 != c2 {
				t.Errorf("%q at %d: Lines.LineCol %d:%d, LineCol %d:%d", text, off, l2, c2, l1, c1)
			}
		}
	}
}

func TestKindString(t *testing.T) {
	want := []string{"null", "boolean", "number", "string", "array", "object", "Kind(6)"}
	for k := range Kind(7) {
		if got := k.String(); got != want[k] {
			t.Errorf("Kind(%d): got %q, want %q", k, got, want[k])
		}
	}
}

// toAny converts a tree to what encoding/json's Unmarshal with UseNumber gives.
func toAny(n *Node) any {
	switch n.Kind {
	case Null:
		return nil
	case Bool:
		return n.Bool
	case Number:
		return json.Number(n.Str)
	case String:
		return n.Str
	case Array:
		s := make([]any, len(n.Items))
		for i, it := range n.Items {
			s[i] = toAny(it)
		}
		return s
	default:
		m := make(map[string]any, len(n.Members))
		for _, mb := range n.Members {
			m[mb.Key] = toAny(mb.Value)
		}
		return m
	}
}

// hasDuplicateKeys reports whether valid JSON data has an object with two
// members of the same name, using encoding/json's tokenizer.
func hasDuplicateKeys(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		obj    bool
		keys   map[string]bool
		expKey bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return false
		}
		if err != nil {
			panic(fmt.Sprintf("Token on valid JSON: %v", err))
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].obj {
				stack[len(stack)-1].expKey = true
			}
			continue
		}
		if top != nil && top.obj && top.expKey {
			k := tok.(string)
			if top.keys[k] {
				return true
			}
			top.keys[k] = true
			top.expKey = false
			continue
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, &frame{obj: d == '{', keys: map[string]bool{}, expKey: d == '{'})
			continue
		}
		if top != nil && top.obj {
			top.expKey = true
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `null`, `true`, `-0.5e-7`, `"\ud83d\ude00"`, `{"a":1,"a":2}`, `{"a":1,"\u0061":2}`,
		`{"a":[1,{"b":null}],"c":"d"}`, "\"\xff\"", `[1,]`, ` 1 `, `1 2`, `{"a" :1 , "b":[ ] }`,
		`{"1":1,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"11":11,"12":12,"13":13,"14":14,"15":15,"16":16,"17":17,"3":0}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Parse(data)
		valid := json.Valid(data)
		if valid && hasDuplicateKeys(data) {
			var se *SyntaxError
			if !errors.As(err, &se) || !strings.HasPrefix(se.Msg, "duplicate key ") {
				t.Fatalf("duplicate keys: got error %v, want a duplicate key error", err)
			}
			return
		}
		if valid != (err == nil) {
			t.Fatalf("json.Valid %v, Parse error %v", valid, err)
		}
		if err != nil {
			se := err.(*SyntaxError)
			if se.Offset < 0 || se.Offset > int64(len(data)) {
				t.Fatalf("error offset %d out of range", se.Offset)
			}
			return
		}
		var want any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if got := toAny(n); !reflect.DeepEqual(got, want) {
			t.Fatalf("tree differs from encoding/json:\ngot  %#v\nwant %#v", got, want)
		}
		checkOffsets(t, data, n)
	})
}

// checkOffsets checks that every node's bytes are a valid JSON value that
// decodes as the node does.
func checkOffsets(t *testing.T, data []byte, n *Node) {
	raw := data[n.Offset:n.End]
	if !json.Valid(raw) {
		t.Fatalf("node at [%d:%d] %q is not valid JSON", n.Offset, n.End, raw)
	}
	for _, it := range n.Items {
		checkOffsets(t, data, it)
	}
	for _, m := range n.Members {
		if data[m.KeyOffset] != '"' {
			t.Fatalf("key %q at %d: no quote there", m.Key, m.KeyOffset)
		}
		checkOffsets(t, data, m.Value)
	}
}

func BenchmarkParse(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"functions":[`)
	for i := range 200 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"name":"f%d","description":"does thing number %d","parameters":[{"name":"x","schema":{"type":"string","enum":["a","b\u00e9"]},"required":true}],"return":{"name":"r","schema":{"type":"number"}}}`, i, i)
	}
	sb.WriteString(`]}`)
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	b.Run("jsontree", func(b *testing.B) {
		for b.Loop() {
			if _, err := Parse(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json-any", func(b *testing.B) {
		for b.Loop() {
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestAppendJSON(t *testing.T) {
	in := `{"b": [1.50, -2e3, true, null], "a": {"z": "q\"\u00e9<", "y": {}}, "": []}`
	n, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"b":[1.50,-2e3,true,null],"a":{"z":"q\"é\u003c","y":{}},"":[]}`
	if got := string(AppendJSON(nil, n)); got != want {
		t.Errorf("AppendJSON = %s, want %s", got, want)
	}
}

// TestParseLenient: duplicate keys keep the last value in the first
// member's place, as encoding/json reads them, and are reported with their
// paths and key offsets; one inside a value a later member replaced is not.
func TestParseLenient(t *testing.T) {
	in := `{"a":1,"b":{"x":[{"k":1,"k":2}]},"a":{"y":true},"c":{"d":{"e":1,"e":2},"d":3}}`
	n, dups, err := ParseLenient([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(AppendJSON(nil, n)); got != `{"a":{"y":true},"b":{"x":[{"k":2}]},"c":{"d":3}}` {
		t.Errorf("tree: %s", got)
	}
	want := []Duplicate{
		{Path: "/b/x/0/k", Offset: int64(strings.Index(in, `"k":2`)), First: int64(strings.Index(in, `"k":1`))},
		{Path: "/a", Offset: int64(strings.LastIndex(in, `"a"`)), First: 1},
		{Path: "/c/d", Offset: int64(strings.LastIndex(in, `"d"`)), First: int64(strings.Index(in, `"d"`))},
	}
	if !reflect.DeepEqual(want, dups) {
		t.Errorf("duplicates: got %+v, want %+v", dups, want)
	}
	if a := n.Get("a"); a.Offset != int64(strings.Index(in, `{"y"`)) || n.Members[0].KeyOffset != want[1].Offset {
		t.Errorf("the member a is the last one's: offset %d, key at %d", a.Offset, n.Members[0].KeyOffset)
	}
	// Large objects (a map of the names seen) and more than two of a name.
	var b strings.Builder
	b.WriteString("{")
	for i := range 40 {
		fmt.Fprintf(&b, `"m%d":%d,`, i%20, i)
	}
	b.WriteString(`"m3":"last"}`)
	n, dups, err = ParseLenient([]byte(b.String()))
	if err != nil || len(n.Members) != 20 || len(dups) != 21 || n.Get("m3").Str != "last" || n.Get("m19").Str != "39" || n.Members[3].Key != "m3" {
		t.Errorf("large object: %d members, %d duplicates, m3 %q, %v", len(n.Members), len(dups), n.Get("m3").Str, err)
	}
	// Without duplicates, nothing; Parse still refuses them.
	if _, dups, err := ParseLenient([]byte(`{"a":[1,{"b":2}]}`)); dups != nil || err != nil {
		t.Errorf("no duplicates: %v, %v", dups, err)
	}
	if _, err := Parse([]byte(in)); err == nil {
		t.Error("Parse accepted duplicate keys")
	}
	if _, _, err := ParseLenient([]byte(`{"a":1,"a":}`)); err == nil {
		t.Error("ParseLenient accepted a syntax error")
	}
}
