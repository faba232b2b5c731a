package decode_test

import (
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime/decode"
)

// pair is a variant with required members, decoded as generated code does.
type pair struct{ A, B string }

// decodePair requires the members names[0] and names[1], both strings.
func decodePair(names ...string) func(*decode.Decoder, *pair) {
	return func(d *decode.Decoder, x *pair) {
		if !d.Object() {
			return
		}
		var seen [1]uint64
		for d.Next() {
			switch string(d.Key()) {
			case names[0]:
				seen[0] |= 1
				x.A, _ = d.String()
			case names[1]:
				seen[0] |= 2
				x.B, _ = d.String()
			default:
				d.Skip()
			}
		}
		d.Required(seen[:], names...)
	}
}

// TestDecodeShared: the first candidate the value is valid for is taken, in
// order; when none, one violation at the union's place names every candidate
// with its first three problems.
func TestDecodeShared(t *testing.T) {
	union := func(raw string) (int, pair, pair, error) {
		var first, second pair
		pick := -2
		err := decode.Value([]byte(`{"u":`+raw+`}`), &first, func(d *decode.Decoder, _ *pair) {
			if !d.Object() {
				return
			}
			for d.Next() {
				d.Push("u")
				r := d.Raw()
				pick = decode.Shared(d, r, "type", decode.UnionTag(r, "type"),
					decode.Try("First", &first, decodePair("type", "a")),
					decode.Try("Second", &second, decodePair("type", "b")))
				d.Pop()
			}
		})
		return pick, first, second, err
	}
	if pick, first, _, err := union(`{"type":"t","a":"x","b":"y"}`); err != nil || pick != 0 || first.B != "x" {
		t.Errorf("valid for both: picked %d (%+v), %v; want the first", pick, first, err)
	}
	if pick, _, second, err := union(`{"type":"t","b":"y"}`); err != nil || pick != 1 || second.B != "y" {
		t.Errorf("valid for the second: picked %d (%+v), %v", pick, second, err)
	}
	pick, _, _, err := union(`{"type":"t","a":1,"b":2}`)
	want := `/u: got "type" "t", which First and Second share, and a value that is none of them: First (/a: got 1, want string), Second (/b: got 2, want string)`
	if pick != -1 || err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("valid for neither: picked %d, %v\nwant %s", pick, err, want)
	}
	if pick, _, _, err := union(`null`); pick != -1 || err == nil || !strings.Contains(err.Error(), "/u: got null, want a value") {
		t.Errorf("null: picked %d, %v", pick, err)
	}
	// At most three problems of each candidate are quoted.
	var a, b pair
	err = decode.Value([]byte(`{"type":"t"}`), &a, func(d *decode.Decoder, _ *pair) {
		decode.Shared(d, d.Raw(), "type", "t",
			decode.Try("Wide", &a, func(d *decode.Decoder, x *pair) {
				if d.Object() {
					for d.Next() {
						d.Skip()
					}
					d.Required([]uint64{0}, "w", "x", "y", "z")
				}
			}),
			decode.Try("Narrow", &b, decodePair("type", "n")))
	})
	want = `got "type" "t", which Wide and Narrow share, and a value that is none of them: Wide (/w: missing required member; /x: missing required member; /y: missing required member; …), Narrow (/n: missing required member)`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("many problems: %v\nwant %s", err, want)
	}
}
