package decode_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opentoolgen/opentoolgen/runtime/decode"
)

// decMapArgs has maps where generated code has them: an argument, a map of
// maps, and a map in the items of an array.
type decMapArgs struct {
	Labels map[string]int64           `json:"labels,omitempty"`
	Nested map[string]map[string]bool `json:"nested,omitempty"`
	Items  []map[string]string        `json:"items,omitempty"`
	After  string                     `json:"after,omitempty"`
}

// decMapArgsFn is written in the shape the generator emits for maps (Map).
func decMapArgsFn(d *decode.Decoder, v *decMapArgs) {
	if !d.Object() {
		return
	}
	for d.Next() {
		switch string(d.Key()) {
		case "labels":
			if d.Map() {
				v.Labels = map[string]int64{}
				for d.Next() {
					k := string(d.Key())
					e, _ := d.Int()
					v.Labels[k] = e
				}
			}
		case "nested":
			if d.Map() {
				v.Nested = map[string]map[string]bool{}
				for d.Next() {
					k := string(d.Key())
					var e map[string]bool
					if d.Map() {
						e = map[string]bool{}
						for d.Next() {
							k2 := string(d.Key())
							b, _ := d.Bool()
							e[k2] = b
						}
					}
					v.Nested[k] = e
				}
			}
		case "items":
			if d.Array() {
				v.Items = []map[string]string{}
				for d.NextItem() {
					var e map[string]string
					if d.Map() {
						e = map[string]string{}
						for d.Next() {
							k := string(d.Key())
							s, _ := d.String()
							e[k] = s
						}
					}
					v.Items = append(v.Items, e)
				}
			}
		case "after":
			v.After, _ = d.String()
		default:
			d.Skip()
		}
	}
}

// TestDecodeMapEntries checks that a map sent as the entries a strict
// declaration asks for decodes to the same value as the object form, at any
// depth, with the input after it read as before.
func TestDecodeMapEntries(t *testing.T) {
	object := `{"labels":{"a":1,"b\u00e9":2},"nested":{"x":{"on":true},"y":{}},"items":[{"k":"v"},{}],"after":"end"}`
	entries := `{"labels":[{"key":"a","value":1},{"value":2,"key":"b\u00e9"}],
		"nested":[{"key":"x","value":[{"key":"on","value":true}]},{"key":"y","value":[]}],
		"items":[[{"key":"k","value":"v"}],[]],"after":"end"}`
	mixed := `{"labels":{"a":1,"bé":2},"nested":[{"key":"x","value":{"on":true}},{"key":"y","value":{}}],"items":[{"k":"v"},[]],"after":"end"}`
	var want decMapArgs
	if err := decode.Value([]byte(object), &want, decMapArgsFn); err != nil {
		t.Fatal(err)
	}
	if want.After != "end" || want.Labels["bé"] != 2 || !want.Nested["x"]["on"] || want.Items[0]["k"] != "v" {
		t.Fatalf("object form: %+v", want)
	}
	for name, raw := range map[string]string{"entries": entries, "mixed": mixed} {
		var got decMapArgs
		if err := decode.Value([]byte(raw), &got, decMapArgsFn); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: decodes differently from the object form (-object +%s):\n%s", name, name, diff)
		}
	}
}

// TestDecodeMapEntriesNotInResponses checks that a response, checked
// against the document, must give a map as the object the document says:
// the entries form is for arguments only.
func TestDecodeMapEntriesNotInResponses(t *testing.T) {
	var got decMapArgs
	err := decode.Response([]byte(`{"labels":[{"key":"a","value":1}]}`), &got, decMapArgsFn)
	if err == nil || !strings.Contains(err.Error(), "/labels") {
		t.Fatalf("entries in a response: got %v (%+v), want an error naming /labels", err, got)
	}
	if err := decode.Response([]byte(`{"labels":{"a":1}}`), &got, decMapArgsFn); err != nil || got.Labels["a"] != 1 {
		t.Fatalf("object in a response: %v (%+v)", err, got)
	}
}

// TestDecodeMapEntriesInvalid checks the errors of a malformed entries form:
// each names the entry, all are reported at once.
func TestDecodeMapEntriesInvalid(t *testing.T) {
	tests := []struct {
		name, raw string
		want      decVs
	}{
		{"duplicate key", `{"labels":[{"key":"a","value":1},{"key":"a","value":2}]}`,
			decVs{{Path: "/labels/1/key", Message: `key "a" is also the key of entry 0: a map's keys are unique`}}},
		{"no key, no value, extra member", `{"labels":[{"value":1},{"key":"b"},{"key":"c","value":3,"v":4}]}`,
			decVs{{Path: "/labels/0/key", Message: "missing required member"}, {Path: "/labels/1/value", Message: "missing required member"},
				{Path: "/labels/2/v", Message: `unknown member: an entry of a map has only "key" and "value"`}}},
		{"entry not an object", `{"labels":[["a",1]]}`, decVs{{Path: "/labels/0", Message: "got array, want object"}}},
		{"key not a string", `{"labels":[{"key":1,"value":1}]}`, decVs{{Path: "/labels/0/key", Message: "got 1, want string"}}},
		{"value of the wrong type", `{"labels":[{"key":"a","value":"x"}],"after":"end"}`, decVs{{Path: "/labels/a", Message: `got "x", want integer`}}},
		{"a string where a map is", `{"labels":"a=1"}`, decVs{{Path: "/labels", Message: `got "a=1", want object`}}},
	}
	for _, tt := range tests {
		var got decMapArgs
		err := decode.Value([]byte(tt.raw), &got, decMapArgsFn)
		if diff := cmp.Diff(tt.want, decViolations(t, err)); diff != "" {
			t.Errorf("%s: violations (-want +got):\n%s", tt.name, diff)
		}
	}
	// An array where the schema says object (not a map) is still refused.
	var args decArgs
	vs := decViolations(t, decode.Value([]byte(`{"name":"p","where":[{"key":"lat","value":1}]}`), &args, decArgsFn))
	if len(vs) == 0 || vs[0].Path != "/where" {
		t.Errorf("entries for a struct: %v, want a violation at /where", vs)
	}
}
