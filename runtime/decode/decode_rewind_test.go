package decode_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/decode"
)

// twoPass is what a generated decoder of arguments that embed their request
// body does: the parameters' members first, then, from Mark, the body's.
type twoPass struct{ param, member string }

func decodeTwoPass(d *decode.Decoder, x *twoPass) {
	mark := d.Mark()
	if !d.Object() {
		return
	}
	var seen [1]uint64
	for d.Next() {
		if string(d.Key()) == "param" {
			seen[0] |= 1
			x.param, _ = d.String()
		} else {
			d.Skip()
		}
	}
	d.Required(seen[:], "param")
	if !d.Rewind(mark) || !d.Object() {
		return
	}
	seen[0] = 0
	for d.Next() {
		if string(d.Key()) == "member" {
			seen[0] |= 1
			x.member, _ = d.String()
		} else {
			d.Skip()
		}
	}
	d.Required(seen[:], "member")
}

func violations(t *testing.T, err error) []runtime.Violation {
	t.Helper()
	var re *runtime.Error
	if !errors.As(err, &re) {
		t.Fatalf("got %v, want a *runtime.Error", err)
	}
	var vs []runtime.Violation
	if err := json.Unmarshal(re.Data, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestDecoderRewind reads one object twice, each pass its own members; the
// violations of both passes are reported together, and a syntax error or a
// value of the wrong type once.
func TestDecoderRewind(t *testing.T) {
	var v twoPass
	if err := decode.Value([]byte(` {"member": "m", "param": "p"} `), &v, decodeTwoPass); err != nil || v != (twoPass{"p", "m"}) {
		t.Fatalf("got %+v, %v", v, err)
	}
	if vs := violations(t, decode.Value([]byte(`{"other": 1}`), &v, decodeTwoPass)); len(vs) != 2 {
		t.Errorf("both members missing: got %v, want 2 violations", vs)
	}
	if vs := violations(t, decode.Value([]byte(`{"param": "p", "member": `), &v, decodeTwoPass)); len(vs) != 1 {
		t.Errorf("syntax error: got %v, want it once", vs)
	}
	if vs := violations(t, decode.Value([]byte(`[1]`), &v, decodeTwoPass)); len(vs) != 1 {
		t.Errorf("an array: got %v, want one violation", vs)
	}
	// A mark past where the decoder is, or before the input, is refused.
	decode.Value([]byte(`{}`), &v, func(d *decode.Decoder, _ *twoPass) {
		if d.Rewind(d.Mark()+1) || d.Rewind(-1) {
			t.Error("Rewind took a mark it never passed")
		}
		d.Skip()
	})
}

// TestDecoderSlice decodes arrays with an element decoder: an empty array
// is an empty slice, an element's violation is at its index, and a value
// that is not an array is one violation.
func TestDecoderSlice(t *testing.T) {
	elem := func(d *decode.Decoder, x *string) {
		if v, ok := d.String(); ok {
			if v == "" {
				d.Invalid("empty")
			}
			*x = v
		}
	}
	list := func(d *decode.Decoder, x *[]string) {
		if !decode.Slice(d, x, elem) {
			*x = append(*x, "not an array")
		}
	}
	var got []string
	if err := decode.Value([]byte(`["a", "b"]`), &got, list); err != nil || len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf(`["a", "b"]: got %q, %v`, got, err)
	}
	got = nil
	if err := decode.Value([]byte(`[]`), &got, list); err != nil || got == nil || len(got) != 0 {
		t.Errorf("[]: got %#v, %v; want an empty slice", got, err)
	}
	vs := violations(t, decode.Value([]byte(`["a", "", 3]`), &got, list))
	if len(vs) != 2 || vs[0].Path != "/1" || vs[1].Path != "/2" {
		t.Errorf(`["a", "", 3]: got %+v, want violations at /1 and /2`, vs)
	}
	got = nil
	vs = violations(t, decode.Value([]byte(`{"a": 1}`), &got, list))
	if len(vs) != 1 || len(got) != 1 || got[0] != "not an array" {
		t.Errorf("an object: got %q, %+v", got, vs)
	}
}
