package decode_test

// Tests of the argument Decoder, driven the way generated adapters drive it: the
// decoders below are written by hand in the shape the generator emits.

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/decode"
)

// decArgs exercises every shape a generated argument struct has.
type decArgs struct {
	Name  string         `json:"name"`            // required
	Count *int64         `json:"count,omitempty"` // optional
	Unit  string         `json:"unit,omitempty"`  // enum "celsius", "fahrenheit"
	Where decCoords      `json:"where"`           // required nested object
	Stops []decStop      `json:"stops,omitempty"` // array of objects
	Extra map[string]any `json:"extra,omitempty"` // free-form object
	Tree  *decNode       `json:"tree,omitempty"`  // recursive type
}

type decCoords struct {
	Lat float64 `json:"lat"` // required
	Lon float64 `json:"lon"` // required
}

type decStop struct {
	Name  string `json:"name"` // required
	Order int64  `json:"order,omitempty"`
}

type decNode struct {
	Value    int64      `json:"value,omitempty"`
	Next     *decNode   `json:"next,omitempty"`
	Children []*decNode `json:"children,omitempty"`
}

const decUnits = `"celsius", "fahrenheit"`

func decArgsFn(d *decode.Decoder, v *decArgs) {
	if !d.Object() {
		return
	}
	var hasName, hasWhere bool
	for d.Next() {
		switch string(d.Key()) {
		case "name":
			hasName = true
			if s, ok := d.String(); ok {
				v.Name = s
			}
		case "count":
			if d.IsNull() {
				v.Count = nil
			} else if n, ok := d.Int(); ok {
				v.Count = &n
			}
		case "unit":
			if s, ok := d.String(); ok {
				switch s {
				case "celsius", "fahrenheit":
					v.Unit = s
				default:
					d.NotInEnum(s, decUnits)
				}
			}
		case "where":
			hasWhere = true
			v.Where = decCoords{}
			decCoordsFn(d, &v.Where)
		case "stops":
			v.Stops = nil
			if !d.IsNull() && d.Array() {
				v.Stops = []decStop{}
				for i := 0; d.NextItem(); i++ {
					var s decStop
					decStopFn(d, &s)
					v.Stops = append(v.Stops, s)
				}
			}
		case "extra":
			v.Extra = nil
			d.Any(&v.Extra)
		case "tree":
			v.Tree = nil
			if !d.IsNull() {
				v.Tree = new(decNode)
				decNodeFn(d, v.Tree)
			}
		default:
			d.Skip()
		}
	}
	if !hasName {
		d.Missing("name")
	}
	if !hasWhere {
		d.Missing("where")
	}
}

func decCoordsFn(d *decode.Decoder, v *decCoords) {
	if !d.Object() {
		return
	}
	var hasLat, hasLon bool
	for d.Next() {
		switch string(d.Key()) {
		case "lat":
			hasLat = true
			if f, ok := d.Float(); ok {
				v.Lat = f
			}
		case "lon":
			hasLon = true
			if f, ok := d.Float(); ok {
				v.Lon = f
			}
		default:
			d.Skip()
		}
	}
	if !hasLat {
		d.Missing("lat")
	}
	if !hasLon {
		d.Missing("lon")
	}
}

func decStopFn(d *decode.Decoder, v *decStop) {
	if !d.Object() {
		return
	}
	var hasName bool
	for d.Next() {
		switch string(d.Key()) {
		case "name":
			hasName = true
			if s, ok := d.String(); ok {
				v.Name = s
			}
		case "order":
			if n, ok := d.IntRange(0, 100); ok {
				v.Order = n
			}
		default:
			d.Skip()
		}
	}
	if !hasName {
		d.Missing("name")
	}
}

func decNodeFn(d *decode.Decoder, v *decNode) {
	if !d.Object() {
		return
	}
	for d.Next() {
		switch string(d.Key()) {
		case "value":
			if n, ok := d.Int(); ok {
				v.Value = n
			}
		case "next":
			v.Next = nil
			if !d.IsNull() {
				v.Next = new(decNode)
				decNodeFn(d, v.Next)
			}
		case "children":
			v.Children = nil
			if !d.IsNull() && d.Array() {
				for i := 0; d.NextItem(); i++ {
					var c *decNode
					if !d.IsNull() {
						c = new(decNode)
						decNodeFn(d, c)
					}
					v.Children = append(v.Children, c)
				}
			}
		default:
			d.Skip()
		}
	}
}

func decPtr[T any](v T) *T { return &v }

// decViolations returns the violations err carries, failing the test when err is
// not an invalid-params error.
func decViolations(t *testing.T, err error) []runtime.Violation {
	t.Helper()
	if err == nil {
		return nil
	}
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams {
		t.Fatalf("error %v: want an invalid-params *runtime.Error", err)
	}
	list := e.Violations()
	if len(list) == 0 {
		t.Fatalf("error %v carries no violations", err)
	}
	return list
}

type decVs = []runtime.Violation

func TestDecodeValid(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want decArgs
	}{
		{"minimal", `{"name":"Paris","where":{"lat":48.85,"lon":2.35}}`,
			decArgs{Name: "Paris", Where: decCoords{48.85, 2.35}}},
		{"everything", `{
			"name": "Paris",
			"count": 3,
			"unit": "celsius",
			"where": {"lat": -1e-2, "lon": 0},
			"stops": [{"name": "a"}, {"name": "b", "order": 2}],
			"extra": {"k": [1, "x", null, true], "o": {}},
			"tree": {"value": 1, "next": {"value": 2, "next": null}, "children": [{"value": 3}, null]}
		}`, decArgs{
			Name: "Paris", Count: decPtr[int64](3), Unit: "celsius", Where: decCoords{-0.01, 0},
			Stops: []decStop{{Name: "a"}, {Name: "b", Order: 2}},
			Extra: map[string]any{"k": []any{1.0, "x", nil, true}, "o": map[string]any{}},
			Tree:  &decNode{Value: 1, Next: &decNode{Value: 2}, Children: []*decNode{{Value: 3}, nil}},
		}},
		{"nulls for optional members", `{"name":"x","where":{"lat":1,"lon":2},"count":null,"stops":null,"extra":null,"tree":null}`,
			decArgs{Name: "x", Where: decCoords{1, 2}}},
		{"empty array", `{"name":"x","where":{"lat":1,"lon":2},"stops":[ ]}`,
			decArgs{Name: "x", Where: decCoords{1, 2}, Stops: []decStop{}}},
		{"whitespace everywhere", " \t\r\n{ \"name\" \n: \"x\" , \"where\" :{ \"lat\" : 1 , \"lon\" : 2 } , \"stops\" : [ { \"name\" : \"s\" } , { \"name\" : \"t\" } ] } \n",
			decArgs{Name: "x", Where: decCoords{1, 2}, Stops: []decStop{{Name: "s"}, {Name: "t"}}}},
		{"unknown members skipped", `{"zz":{"a":[1,{"b":[[],{}]},"s\"}"],"c":null},"name":"x","yy":[{"name":5}],
			"where":{"lat":1,"alt":{"deep":[true,false,-1.5e-3]},"lon":2},"xx":"\u00e9","stops":[{"name":"s","zz":[{}]}],"ww":0}`,
			decArgs{Name: "x", Where: decCoords{1, 2}, Stops: []decStop{{Name: "s"}}}},
		{"duplicate keys: last wins", `{"name":"a","where":{"lat":1,"lon":2,"lat":3},"name":"b","count":1,"count":2,
			"stops":[{"name":"x"}],"stops":[{"name":"y","name":"z"}],"extra":{"a":1},"extra":{"b":2},"unit":"celsius","unit":"fahrenheit"}`,
			decArgs{Name: "b", Count: decPtr[int64](2), Unit: "fahrenheit", Where: decCoords{3, 2},
				Stops: []decStop{{Name: "z"}}, Extra: map[string]any{"b": 2.0}}},
		{"escaped keys", `{"\u006eame":"x","wh\u0065re":{"l\u0061t":1,"lon":2}}`,
			decArgs{Name: "x", Where: decCoords{1, 2}}},
		{"integral numbers", `{"name":"x","where":{"lat":1,"lon":2},"count":1e3,"stops":[{"name":"a","order":5.0},{"name":"b","order":-0},{"name":"c","order":0.5e2}]}`,
			decArgs{Name: "x", Where: decCoords{1, 2}, Count: decPtr[int64](1000),
				Stops: []decStop{{Name: "a", Order: 5}, {Name: "b"}, {Name: "c", Order: 50}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got decArgs
			if err := decode.Value([]byte(tt.raw), &got, decArgsFn); err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Decode (-want +got):\n%s", diff)
			}
			if tt.name == "integral numbers" {
				return // encoding/json rejects 1e3 for an int64
			}
			// The Decoder agrees with encoding/json on valid input.
			var std decArgs
			if err := json.Unmarshal([]byte(tt.raw), &std); err != nil {
				t.Fatalf("json.Unmarshal: %v", err)
			}
			if tt.name == "duplicate keys: last wins" {
				std.Stops = []decStop{{Name: "z"}} // encoding/json merges into the array it decoded first
				std.Extra = map[string]any{"b": 2.0}
			}
			if diff := cmp.Diff(std, got); diff != "" {
				t.Errorf("Decode and json.Unmarshal differ (-json +Decode):\n%s", diff)
			}
		})
	}
}

func TestDecodeEmptyArguments(t *testing.T) {
	for _, raw := range []string{"", "null", " \n\tnull\r ", "  ", "{}", " { } "} {
		var got decArgs
		err := decode.Value([]byte(raw), &got, decArgsFn)
		want := decVs{{Path: "/name", Message: "missing required member"}, {Path: "/where", Message: "missing required member"}}
		if diff := cmp.Diff(want, decViolations(t, err)); diff != "" {
			t.Errorf("Decode(%q) violations (-want +got):\n%s", raw, diff)
		}
	}
	// A decoder with nothing required accepts them all.
	for _, raw := range []string{"", "null", " null ", "{}"} {
		var n decNode
		if err := decode.Value([]byte(raw), &n, decNodeFn); err != nil || !cmp.Equal(n, decNode{}) {
			t.Errorf("Decode(%q) = %v, %+v; want nil, zero", raw, err, n)
		}
	}
	// Only JSON whitespace counts.
	var n decNode
	err := decode.Value([]byte("\u00a0null"), &n, decNodeFn)
	if len(decViolations(t, err)) != 1 {
		t.Errorf("Decode(NBSP null) = %v, want a syntax violation", err)
	}
}

func TestDecodeViolations(t *testing.T) {
	const ok = `"name":"x","where":{"lat":1,"lon":2}`
	tests := []struct {
		name string
		raw  string
		want decVs
	}{
		{"missing nested", `{"name":"x","where":{"lat":1}}`, decVs{{Path: "/where/lon", Message: "missing required member"}}},
		{"missing in array element", `{` + ok + `,"stops":[{"name":"a"},{"order":1}]}`, decVs{{Path: "/stops/1/name", Message: "missing required member"}}},
		{"enum", `{` + ok + `,"unit":"kelvin"}`, decVs{{Path: "/unit", Message: `got "kelvin", want one of "celsius", "fahrenheit"`}}},
		{"enum not HTML-escaped", `{` + ok + `,"unit":"<&>"}`, decVs{{Path: "/unit", Message: `got "<&>", want one of "celsius", "fahrenheit"`}}},
		{"string for integer", `{` + ok + `,"count":"5"}`, decVs{{Path: "/count", Message: `got "5", want integer`}}},
		{"fraction for integer", `{` + ok + `,"count":1.5}`, decVs{{Path: "/count", Message: `got 1.5, want integer`}}},
		{"small fraction for integer", `{` + ok + `,"count":1e-400}`, decVs{{Path: "/count", Message: `got 1e-400, want integer`}}},
		{"int64 overflow", `{` + ok + `,"count":9223372036854775808}`, decVs{{Path: "/count", Message: `got 9223372036854775808, want an integer within the range of int64`}}},
		{"int64 underflow", `{` + ok + `,"count":-9223372036854775809}`, decVs{{Path: "/count", Message: `got -9223372036854775809, want an integer within the range of int64`}}},
		{"huge exponent", `{` + ok + `,"count":1e400}`, decVs{{Path: "/count", Message: `got 1e400, want an integer within the range of int64`}}},
		{"range", `{` + ok + `,"stops":[{"name":"a","order":101}]}`, decVs{{Path: "/stops/0/order", Message: `got 101, want an integer from 0 to 100`}}},
		{"null for string", `{"name":null,"where":{"lat":1,"lon":2}}`, decVs{{Path: "/name", Message: `got null, want string`}}},
		{"boolean for string", `{"name":true,"where":{"lat":1,"lon":2}}`, decVs{{Path: "/name", Message: `got true, want string`}}},
		{"number for string", `{"name":-12.5e3,"where":{"lat":1,"lon":2}}`, decVs{{Path: "/name", Message: `got -12.5e3, want string`}}},
		{"array for object", `{"name":"x","where":[1,2]}`, decVs{{Path: "/where", Message: `got array, want object`}}},
		{"object for array", `{` + ok + `,"stops":{"name":"a"}}`, decVs{{Path: "/stops", Message: `got object, want array`}}},
		{"object for string", `{"name":{"a":[{}]},"where":{"lat":1,"lon":2}}`, decVs{{Path: "/name", Message: `got object, want string`}}},
		{"string for object", `{"name":"x","where":"here"}`, decVs{{Path: "/where", Message: `got "here", want object`}}},
		{"long literal shortened", `{"name":"x","where":"` + strings.Repeat("a", 50) + `"}`, decVs{{Path: "/where", Message: `got string, want object`}}},
		{"string for number", `{"name":"x","where":{"lat":"1","lon":2}}`, decVs{{Path: "/where/lat", Message: `got "1", want number`}}},
		{"float64 overflow", `{"name":"x","where":{"lat":1e999,"lon":2}}`, decVs{{Path: "/where/lat", Message: `got 1e999, want a number within the range of float64`}}},
		{"wrong type in recursive type", `{` + ok + `,"tree":{"next":{"next":{"value":"1"}}}}`, decVs{{Path: "/tree/next/next/value", Message: `got "1", want integer`}}},
		{"free-form object", `{` + ok + `,"extra":[1]}`, decVs{{Path: "/extra", Message: `json: cannot unmarshal array into Go value of type map[string]interface {}`}}},
		{"array for arguments", `[1,2]`, decVs{{Path: "", Message: `got array, want object`}}},
		{"string for arguments", `"x"`, decVs{{Path: "", Message: `got "x", want object`}}},
		{"pointer escaping", `{"name":"x","where":{"lat":1,"lon":2},"tree":{"a/b~c":1,"children":[{"value":true}]}}`, decVs{{Path: "/tree/children/0/value", Message: `got true, want integer`}}},
		{"several, in document order", `{"count":"1","where":{"lon":[]},"unit":"k","stops":[{"name":1,"order":-1},{}],"tree":{"value":0.5}}`, decVs{
			{Path: "/count", Message: `got "1", want integer`},
			{Path: "/where/lon", Message: `got array, want number`},
			{Path: "/where/lat", Message: "missing required member"},
			{Path: "/unit", Message: `got "k", want one of "celsius", "fahrenheit"`},
			{Path: "/stops/0/name", Message: `got 1, want string`},
			{Path: "/stops/0/order", Message: `got -1, want an integer from 0 to 100`},
			{Path: "/stops/1/name", Message: "missing required member"},
			{Path: "/tree/value", Message: `got 0.5, want integer`},
			{Path: "/name", Message: "missing required member"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got decArgs
			err := decode.Value([]byte(tt.raw), &got, decArgsFn)
			if diff := cmp.Diff(tt.want, decViolations(t, err)); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
			if !errors.Is(err, &runtime.Error{Code: runtime.CodeInvalidParams}) {
				t.Errorf("error %v is not -32602", err)
			}
		})
	}
}

func TestDecodeSyntaxErrors(t *testing.T) {
	const ok = `"name":"x","where":{"lat":1,"lon":2}`
	tests := []struct {
		name string
		raw  string
		want decVs // a violation before the syntax error, then the syntax error
	}{
		{"trailing garbage", `{` + ok + `} x`, decVs{{Path: "", Message: "invalid JSON at offset 39: unexpected data after the arguments object"}}},
		{"two objects", `{` + ok + `}{}`, decVs{{Path: "", Message: "invalid JSON at offset 38: unexpected data after the arguments object"}}},
		{"truncated", `{` + ok, decVs{{Path: "", Message: "invalid JSON at offset 37: unexpected end of input in an object"}}},
		{"truncated value", `{"name":`, decVs{{Path: "/name", Message: "invalid JSON at offset 8: unexpected end of input"}}},
		{"missing comma between members", `{"name":"x" "where":{"lat":1,"lon":2}}`, decVs{{Path: "", Message: "invalid JSON at offset 12: want ',' or '}' after an object member"}}},
		{"missing comma in nested object", `{"name":"x","where":{"lat":1 "lon":2}}`, decVs{{Path: "/where", Message: "invalid JSON at offset 29: want ',' or '}' after an object member"}}},
		{"leading comma", `{,` + ok + `}`, decVs{{Path: "", Message: "invalid JSON at offset 1: want a member name"}}},
		{"trailing comma", `{` + ok + `,}`, decVs{{Path: "", Message: "invalid JSON at offset 38: want a member name"}}},
		{"double comma", `{"name":"x",,"where":{}}`, decVs{{Path: "", Message: "invalid JSON at offset 12: want a member name"}}},
		{"missing colon", `{"name" "x"}`, decVs{{Path: "", Message: "invalid JSON at offset 8: want ':' after a member name"}}},
		{"unquoted key", `{name:"x"}`, decVs{{Path: "", Message: "invalid JSON at offset 1: want a member name"}}},
		{"missing comma in array", `{` + ok + `,"stops":[{"name":"a"} {"name":"b"}]}`, decVs{{Path: "/stops", Message: "invalid JSON at offset 60: want ',' or ']' after an array element"}}},
		{"leading comma in array", `{` + ok + `,"stops":[,{"name":"a"}]}`, decVs{{Path: "/stops/0", Message: "invalid JSON at offset 47: want a value"}}},
		{"trailing comma in array", `{` + ok + `,"stops":[{"name":"a"},]}`, decVs{{Path: "/stops", Message: "invalid JSON at offset 60: want a value"}}},
		{"leading zero", `{` + ok + `,"count":012}`, nil},
		{"bad literal", `{"name":nul,"where":{}}`, decVs{{Path: "/name", Message: "invalid JSON at offset 8: invalid literal"}}},
		{"NUL byte", "{\"name\":\x00}", decVs{{Path: "/name", Message: "invalid JSON at offset 8: want a value"}}},
		{"violation then syntax error", `{"name":1,"where":{"lat":1,"lon":2},}`, decVs{
			{Path: "/name", Message: "got 1, want string"},
			{Path: "", Message: "invalid JSON at offset 36: want a member name"},
		}},
		{"bad escape in skipped member", `{` + ok + `,"zz":"\x"}`, decVs{{Path: "/zz", Message: "invalid JSON at offset 45: invalid escape in a string"}}},
		{"control character", "{\"name\":\"a\tb\"}", decVs{{Path: "/name", Message: "invalid JSON at offset 10: control character in a string"}}},
		{"unterminated string", `{"name":"abc`, decVs{{Path: "/name", Message: "invalid JSON at offset 12: unterminated string"}}},
		{"unterminated key", `{"na`, decVs{{Path: "", Message: "invalid JSON at offset 4: unterminated string"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v decArgs
			err := decode.Value([]byte(tt.raw), &v, decArgsFn)
			got := decViolations(t, err)
			if json.Valid([]byte(tt.raw)) {
				t.Fatalf("test input %s is valid JSON", tt.raw)
			}
			if tt.want == nil {
				// Only the presence of a syntax error matters.
				if len(got) != 1 || !strings.HasPrefix(got[0].Message, "invalid JSON at offset ") {
					t.Errorf("violations %v: want one syntax error", got)
				}
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
		})
	}
}

// decStringFn decodes a JSON value that must be a string.
func decStringFn(d *decode.Decoder, s *string) { *s, _ = d.String() }

func TestDecodeStrings(t *testing.T) {
	inputs := []string{
		`""`, `"plain ascii"`, `"\"\\\/\b\f\n\r\t"`,
		`"\u0000\u001f\u0041\u00e9\u20ac\uFFFF\uffFe"`,
		`"\ud83d\ude00 surrogate pair"`, `"\uD834\uDD1E"`,
		`"\ud800"`, `"\udc00"`, `"\ud800x"`, `"\ud800\u0041"`, `"\udc00\ud800"`, `"\ud800\ud800\udc00"`,
		`"\ud800\n"`, `"\ud800\\"`, `"\ud800\u"`, `"\ud800\u00"`, `"\ud800\uzzzz"`, // the last three are invalid
		"\"raw UTF-8: é € 😀 \u2028\"",
		"\"invalid UTF-8: \xff \xc3 \xe2\x82 \xed\xa0\x80 \xf4\x90\x80\x80\"",
		"\"\x7f DEL\"", `"a` + strings.Repeat(`\n`, 100) + `z"`, `"` + strings.Repeat("é", 100) + `"`,
	}
	for _, in := range inputs {
		var want string
		wantErr := json.Unmarshal([]byte(in), &want)
		var got string
		err := decode.Value([]byte(in), &got, decStringFn)
		if (err != nil) != (wantErr != nil) {
			t.Errorf("Decode(%q) = %v; json.Unmarshal: %v", in, err, wantErr)
			continue
		}
		if got != want {
			t.Errorf("Decode(%q) = %q, want %q", in, got, want)
		}
	}
}

// decIntFn decodes a JSON value that must be an int64, decUintFn a uint64 and
// decFloatFn a float64.
func decIntFn(d *decode.Decoder, n *int64)     { *n, _ = d.Int() }
func decUintFn(d *decode.Decoder, n *uint64)   { *n, _ = d.Uint() }
func decFloatFn(d *decode.Decoder, f *float64) { *f, _ = d.Float() }

func TestDecodeNumbers(t *testing.T) {
	ints := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"-0", 0, true}, {"7", 7, true}, {"-7", -7, true},
		{"1e3", 1000, true}, {"1E3", 1000, true}, {"1e+3", 1000, true}, {"5.0", 5, true}, {"-5.000", -5, true},
		{"0.5e1", 5, true}, {"12.50e1", 125, true}, {"1500e-3", 0, false}, {"1500e-2", 15, true},
		{"0e999999999999999999999", 0, true}, {"0.0e-5", 0, true}, {"-0.0", 0, true},
		{"9223372036854775807", math.MaxInt64, true}, {"-9223372036854775808", math.MinInt64, true},
		{"9223372036854775807.0", math.MaxInt64, true}, {"9223372036854775.807e3", math.MaxInt64, true},
		{"-922337203685477580.8e1", math.MinInt64, true},
		{"9007199254740993.0", 9007199254740993, true}, // not representable as a float64
		{"00000", 0, false}, {"01", 0, false}, {"-01", 0, false}, {"1.", 0, false}, {".5", 0, false},
		{"+1", 0, false}, {"-", 0, false}, {"1e", 0, false}, {"1e+", 0, false}, {"0x10", 0, false},
		{"1.5", 0, false}, {"1e-1", 0, false}, {"9223372036854775808", 0, false}, {"1e19", 0, false},
		{"18446744073709551616", 0, false}, {"1" + strings.Repeat("0", 30), 0, false},
		{"1e9999999999999999", 0, false}, {"1e-9999999999999999", 0, false}, {"NaN", 0, false}, {"Infinity", 0, false},
	}
	for _, tt := range ints {
		var got int64
		err := decode.Value([]byte(tt.in), &got, decIntFn)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("Int(%s) = %d, %v; want %d, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
	uints := []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"0", 0, true}, {"-0", 0, true}, {"-0.0e7", 0, true}, {"18446744073709551615", math.MaxUint64, true},
		{"1844674407370955161.5e1", math.MaxUint64, true}, {"1e19", 1e19, true},
		{"18446744073709551616", 0, false}, {"-1", 0, false}, {"1e20", 0, false}, {"0.1", 0, false},
	}
	for _, tt := range uints {
		var got uint64
		err := decode.Value([]byte(tt.in), &got, decUintFn)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("Uint(%s) = %d, %v; want %d, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
	for _, in := range []string{"0", "-0", "1.5", "-1e-400", "1e308", "123456789.123456789e-5", "4.9e-324", "2.5e-324"} {
		var got, want float64
		if err := decode.Value([]byte(in), &got, decFloatFn); err != nil {
			t.Errorf("Float(%s): %v", in, err)
		}
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		if got != want || math.Signbit(got) != math.Signbit(want) {
			t.Errorf("Float(%s) = %v, want %v", in, got, want)
		}
	}
}

// decSkipFn checks the syntax of any JSON value and keeps nothing.
func decSkipFn(d *decode.Decoder, _ *struct{}) { d.Skip() }

func TestDecodeDeepNesting(t *testing.T) {
	// Skip is iterative: with a small maximum stack a recursive one would die.
	defer debug.SetMaxStack(debug.SetMaxStack(1 << 20))

	shapes := map[string]func(n int) string{
		"arrays":            func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) },
		"objects":           func(n int) string { return strings.Repeat(`{"a":`, n-1) + "{}" + strings.Repeat("}", n-1) },
		"mixed":             func(n int) string { return strings.Repeat(`[{"a":`, n/2) + "1" + strings.Repeat("}]", n/2) },
		"arrays, unclosed":  func(n int) string { return strings.Repeat("[", n) },
		"objects, unclosed": func(n int) string { return strings.Repeat(`{"a":`, n) },
		"mismatched":        func(n int) string { return strings.Repeat("[", n) + strings.Repeat("}", n) },
	}
	const prefix = `{"name":"x","where":{"lat":1,"lon":2},"zz":`
	for name, shape := range shapes {
		// Like encoding/json, the Decoder accepts up to 10000 levels; the
		// arguments object is one of them.
		for _, n := range []int{10, 9998, 9999, 10000, 10001, 100000} {
			raw := prefix + shape(n) + "}"
			var got decArgs
			err := decode.Value([]byte(raw), &got, decArgsFn)
			if valid := json.Valid([]byte(raw)); valid != (err == nil) {
				t.Errorf("%s, %d levels, in an unknown member: Decode: %.200v; json.Valid: %v", name, n, err, valid)
			}
			if err == nil && got.Name != "x" {
				t.Errorf("%s, %d levels: Name = %q", name, n, got.Name)
			}
			if n == 100000 {
				want := decVs{{Path: "/zz", Message: "arguments nested deeper than 10000 levels"}} // at the unknown member
				if diff := cmp.Diff(want, decViolations(t, err)); diff != "" {
					t.Errorf("%s, %d levels: violations (-want +got):\n%s", name, n, diff)
				}
			}
			var s struct{}
			err = decode.Value([]byte(shape(n)), &s, decSkipFn)
			if valid := json.Valid([]byte(shape(n))); valid != (err == nil) {
				t.Errorf("%s, %d levels: Skip: %.200v; json.Valid: %v", name, n, err, valid)
			}
		}
	}
}

func TestDecodeRecursionLimit(t *testing.T) {
	const maxDepth = 1000 // runtime's maxDepth
	for _, tt := range []struct {
		name  string
		raw   string
		path  string // the violation's path
		depth int    // deepest value decoded
	}{
		{"next", `{"name":"x","where":{"lat":1,"lon":2},"tree":` + strings.Repeat(`{"next":`, 100000) + "null" + strings.Repeat("}", 100000) + "}",
			"/tree" + strings.Repeat("/next", maxDepth), maxDepth},
		{"children", `{"name":"x","where":{"lat":1,"lon":2},"tree":` + strings.Repeat(`{"children":[`, 100000) + strings.Repeat("]}", 100000) + "}",
			"/tree" + strings.Repeat("/children/0", maxDepth/2), maxDepth / 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got decArgs
			err := decode.Value([]byte(tt.raw), &got, decArgsFn)
			want := decVs{{Path: tt.path, Message: "arguments nested deeper than " + strconv.Itoa(maxDepth) + " levels"}}
			if diff := cmp.Diff(want, decViolations(t, err)); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff[:min(len(diff), 2000)])
			}
			depth := 0
			for n := got.Tree; n != nil; depth++ {
				if n.Next != nil {
					n = n.Next
				} else if len(n.Children) > 0 {
					n = n.Children[0]
				} else {
					break
				}
			}
			if depth != tt.depth {
				t.Errorf("decoded %d levels, want %d", depth, tt.depth)
			}
		})
	}
	// Just within the limit is fine.
	raw := `{"name":"x","where":{"lat":1,"lon":2},"tree":` + strings.Repeat(`{"next":`, maxDepth-1) + "null" + strings.Repeat("}", maxDepth-1) + "}"
	var got decArgs
	if err := decode.Value([]byte(raw), &got, decArgsFn); err != nil {
		t.Errorf("%d levels: %v", maxDepth, err)
	}
}

func TestDecodePoolIsClean(t *testing.T) {
	bad := []string{
		`{"name":1,"where":{"lat":"x"},"stops":[{"name":"` + strings.Repeat("\\u00e9", 30000) + `"}, 1`, // broken deep inside
		`{"count":1.5,"tree":` + strings.Repeat(`{"next":`, 2000),                                       // too deep
		`{"zz":` + strings.Repeat("[", 100000),                                                          // unclosed in Skip
		`{"\u00e9\u00e9":1,"name":"a"} trailing`,
		`[]`,
	}
	const good = `{"name":"ok","where":{"lat":1,"lon":2},"stops":[{"name":"s"}]}`
	want := decArgs{Name: "ok", Where: decCoords{1, 2}, Stops: []decStop{{Name: "s"}}}
	for i := 0; i < 3; i++ {
		for _, b := range bad {
			var v decArgs
			if err := decode.Value([]byte(b), &v, decArgsFn); err == nil {
				t.Fatalf("Decode(%.40q) succeeded", b)
			}
			var got decArgs
			if err := decode.Value([]byte(good), &got, decArgsFn); err != nil {
				t.Fatalf("after %.40q: Decode(good): %v", b, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("after %.40q: Decode(good) (-want +got):\n%s", b, diff)
			}
		}
	}
}

func TestDecodeRawAndAny(t *testing.T) {
	type rawArgs struct {
		Raw json.RawMessage
		N   int
	}
	fn := func(d *decode.Decoder, v *rawArgs) {
		if !d.Object() {
			return
		}
		for d.Next() {
			switch string(d.Key()) {
			case "raw":
				v.Raw = d.Raw()
			case "n":
				d.Any(&v.N)
			default:
				d.Skip()
			}
		}
	}
	raw := []byte(`{"raw": {"a" : [1, "x"]} ,"n":3}`)
	var got rawArgs
	if err := decode.Value(raw, &got, fn); err != nil {
		t.Fatal(err)
	}
	if string(got.Raw) != `{"a" : [1, "x"]}` || got.N != 3 {
		t.Errorf("got %s, %d", got.Raw, got.N)
	}
	raw[10] = 'X' // Raw is a copy
	if string(got.Raw) != `{"a" : [1, "x"]}` {
		t.Errorf("Raw aliases the input: %s", got.Raw)
	}
	err := decode.Value([]byte(`{"n":"x"}`), &got, fn)
	want := decVs{{Path: "/n", Message: "json: cannot unmarshal string into Go value of type int"}}
	if diff := cmp.Diff(want, decViolations(t, err)); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

// decWalker decodes any JSON value into the types encoding/json gives it
// (map[string]any, []any, string, float64, bool, nil) with Object/Next/Key,
// Array/NextItem, String, Float, Bool and IsNull, the way generated decoders do.
// The Decoder has no way to look at the next value's type, so the walker follows
// the tokens of encoding/json's Decoder: on valid input they are the values in
// document order; on invalid input they stop at the first syntax error, and from
// there on the walker skips.
type decWalker struct {
	toks []json.Token
	i    int
}

func newDecWalker(data []byte) *decWalker {
	w := &decWalker{}
	dec := json.NewDecoder(bytes.NewReader(data))
	for len(w.toks) < 1<<16 {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		w.toks = append(w.toks, tok)
	}
	return w
}

func (w *decWalker) next() (json.Token, bool) {
	if w.i >= len(w.toks) {
		return nil, false
	}
	w.i++
	return w.toks[w.i-1], true
}

func (w *decWalker) value(d *decode.Decoder) any {
	tok, ok := w.next()
	if !ok {
		d.Skip()
		return nil
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			if !d.Object() {
				return nil
			}
			m := map[string]any{}
			for d.Next() {
				k := string(d.Key())
				w.next() // the key
				m[k] = w.value(d)
			}
			w.next() // '}'
			return m
		case '[':
			if !d.Array() {
				return nil
			}
			a := []any{}
			for d.NextItem() {
				a = append(a, w.value(d))
			}
			w.next() // ']'
			return a
		}
	case string:
		s, _ := d.String()
		return s
	case float64:
		f, _ := d.Float()
		return f
	case bool:
		b, _ := d.Bool()
		return b
	case nil:
		if !d.IsNull() {
			d.Invalid("the walker is out of step")
		}
		return nil
	}
	d.Invalid("the walker is out of step")
	return nil
}

// FuzzDecoderSkip checks that a Decoder that skips the whole input accepts
// exactly what encoding/json accepts (empty input and null count as {}), and so
// does one that walks the input with Object/Next, Array/NextItem and the scalar
// readers, decoding the same values as json.Unmarshal.
func FuzzDecoderSkip(f *testing.F) {
	for _, s := range []string{
		``, ` `, `null`, `{}`, `[]`, `0`, `-0`, `1e3`, `1.5E-7`, `"x"`, `true`, `false`,
		`{"a":1,"b":[1,2,{"c":null}],"d":"\u00e9\ud83d\ude00"}`, `[1,2,]`, `[,1]`, `{"a":1 "b":2}`,
		`{,"a":1}`, `{"a":1,}`, `[1 2]`, `01`, `1.`, `.1`, `+1`, `"\x"`, `"\u12"`, "\"\x01\"", "\xef\xbb\xbf{}",
		`[[[[[[]]]]]]`, `{"a":{"a":{"a":{}}}}`, `[}`, `{]`, `nul`, `truex`, `{"a"}`, `{"a":}`, "\x00", "[\x00]",
		"\"\xff\"", ` [ 1 , { "a" : [ ] } ] `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v struct{}
		err := decode.Value(data, &v, decSkipFn)
		if decIsSpaceOrNull(data) {
			if err != nil {
				t.Fatalf("Decode(%q): %v; want it to count as {}", data, err)
			}
			return
		}
		valid := json.Valid(data)
		if valid != (err == nil) {
			t.Fatalf("Decode(%q) with Skip: %v; json.Valid: %v", data, err, valid)
		}
		if err != nil && len(decViolations(t, err)) != 1 {
			t.Fatalf("Decode(%q) with Skip: %v; want one violation", data, err)
		}

		var got any
		err = decode.Value(data, &got, func(d *decode.Decoder, v *any) { *v = newDecWalker(data).value(d) })
		if !valid {
			if err == nil {
				t.Fatalf("Decode(%q) with the walker = %#v; want an error", data, got)
			}
			return
		}
		var want any
		if json.Unmarshal(data, &want) != nil {
			return // valid, but encoding/json cannot decode it (1e999)
		}
		if err != nil {
			t.Fatalf("Decode(%q) with the walker: %v; json.Unmarshal: %#v", data, err, want)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Decode(%q) with the walker = %#v; json.Unmarshal: %#v", data, got, want)
		}
	})
}

func decIsSpaceOrNull(b []byte) bool {
	s := strings.Trim(string(b), " \t\r\n")
	return s == "" || s == "null"
}

// FuzzDecoderString checks that String decodes every string literal that
// encoding/json accepts to the same Go string.
func FuzzDecoderString(f *testing.F) {
	for _, s := range []string{
		`""`, `"abc"`, `"\"\\\/\b\f\n\r\t"`, `"\u0041\u00e9\u20ac"`, `"\ud83d\ude00"`, `"\ud800"`, `"\udc00\ud800"`,
		`"\ud800\u0041"`, `"\ud800\ud800\udc00"`, "\"\xff\xfe\"", "\"\xed\xa0\x80\"", "\"é😀\"", `"\uD800\uDBFF"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want string
		if json.Unmarshal(data, &want) != nil {
			return
		}
		trimmed := strings.Trim(string(data), " \t\r\n")
		if trimmed == "null" || trimmed == "" {
			return // counts as {} for Decode
		}
		var got string
		if err := decode.Value(data, &got, decStringFn); err != nil {
			t.Fatalf("Decode(%q): %v; json.Unmarshal: %q", data, err, want)
		}
		if got != want {
			t.Fatalf("Decode(%q) = %q, want %q", data, got, want)
		}
		if !utf8.ValidString(got) {
			t.Fatalf("Decode(%q) = %q: invalid UTF-8", data, got)
		}
	})
}

// decWeatherArgs are the arguments of a typical function call.
type decWeatherArgs struct {
	Location string     `json:"location"`
	Unit     string     `json:"unit,omitempty"`
	Days     *int64     `json:"days,omitempty"`
	Hourly   bool       `json:"hourly,omitempty"`
	Coords   *decCoords `json:"coords,omitempty"`
	Fields   []string   `json:"fields,omitempty"`
}

func decWeatherFn(d *decode.Decoder, v *decWeatherArgs) {
	if !d.Object() {
		return
	}
	var hasLocation bool
	for d.Next() {
		switch string(d.Key()) {
		case "location":
			hasLocation = true
			if s, ok := d.String(); ok {
				v.Location = s
			}
		case "unit":
			if s, ok := d.String(); ok {
				switch s {
				case "celsius":
					v.Unit = "celsius"
				case "fahrenheit":
					v.Unit = "fahrenheit"
				default:
					d.NotInEnum(s, decUnits)
				}
			}
		case "days":
			if d.IsNull() {
				v.Days = nil
			} else if n, ok := d.IntRange(1, 16); ok {
				v.Days = &n
			}
		case "hourly":
			if b, ok := d.Bool(); ok {
				v.Hourly = b
			}
		case "coords":
			if d.IsNull() {
				v.Coords = nil
			} else {
				v.Coords = new(decCoords)
				decCoordsFn(d, v.Coords)
			}
		case "fields":
			v.Fields = nil
			if !d.IsNull() && d.Array() {
				v.Fields = []string{}
				for i := 0; d.NextItem(); i++ {
					s, _ := d.String()
					v.Fields = append(v.Fields, s)
				}
			}
		default:
			d.Skip()
		}
	}
	if !hasLocation {
		d.Missing("location")
	}
}

const decWeatherJSON = `{"location":"San Francisco, CA","unit":"celsius","days":5,"hourly":true,"coords":{"lat":37.7749,"lon":-122.4194},"fields":["temperature","precipitation","wind_speed"]}`

func TestDecodeWeather(t *testing.T) {
	var got, want decWeatherArgs
	if err := decode.Value([]byte(decWeatherJSON), &got, decWeatherFn); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(decWeatherJSON), &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Decode (-json +Decode):\n%s", diff)
	}
}

// BenchmarkDecode compares the Decoder with encoding/json on the arguments of a
// typical call.
func BenchmarkDecode(b *testing.B) {
	raw := []byte(decWeatherJSON)
	b.Run("Decoder", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			var v decWeatherArgs
			if err := decode.Value(raw, &v, decWeatherFn); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("UnmarshalStruct", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			var v decWeatherArgs
			if err := json.Unmarshal(raw, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("UnmarshalMap", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			var v map[string]any
			if err := json.Unmarshal(raw, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestDecodeFloat32Range(t *testing.T) {
	type f32 struct{ V float32 }
	dec := func(d *decode.Decoder, x *f32) {
		if !d.Object() {
			return
		}
		for d.Next() {
			if v, ok := d.Float32(); ok {
				x.V = float32(v)
			}
		}
	}
	var got f32
	if err := decode.Value([]byte(`{"v": 3.4e38}`), &got, dec); err != nil || got.V != 3.4e38 {
		t.Errorf("3.4e38: got %v, %v", got.V, err)
	}
	// float32's extremes as encoding/json writes them (shortest form, a little
	// beyond the exact value) decode to them.
	for _, want := range []float32{math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32} {
		raw, _ := json.Marshal(struct{ V float32 }{want})
		if err := decode.Value(raw, &got, dec); err != nil || got.V != want {
			t.Errorf("%s: got %v, %v; want %v", raw, got.V, err, want)
		}
	}
	for _, raw := range []string{`{"v":1e39}`, `{"v": -1e39}`, `{"v": 3.40282357e38}`} {
		err := decode.Value([]byte(raw), &got, dec)
		var e *runtime.Error
		if !errors.As(err, &e) || len(e.Violations()) != 1 || !strings.HasSuffix(e.Violations()[0].Message, "want a number within the range of float32") || e.Violations()[0].Path != "/v" {
			t.Errorf("%s: got %v, want one violation at /v: out of the range of float32", raw, err)
		}
	}
}
