package decode_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/decode"
)

type optItem struct{ A string }

func decodeOptItem(d *decode.Decoder, x *optItem) {
	if !d.Object() {
		return
	}
	for d.Next() {
		switch string(d.Key()) {
		case "a":
			x.A, _ = d.String()
		default:
			d.Skip()
		}
	}
}

// optArgs has an optional member of each form the helpers of optional
// members read.
type optArgs struct {
	N    *int64
	F    *float64
	S    *string
	Item *optItem
	When *time.Time
	List []optItem
	Set  []string
}

type optTag string

func decodeOptTag(d *decode.Decoder, x *optTag) {
	v, _ := d.String()
	*x = optTag(v)
}

// decodeOptBefore is the decoder opentoolgen generated before the helpers,
// word for word (but for Set, whose elements are of a named type there).
func decodeOptBefore(d *decode.Decoder, x *optArgs) {
	if !d.Object() {
		return
	}
	for d.Next() {
		switch string(d.Key()) {
		case "n":
			if !d.IsNull() {
				var v int64
				if v1, ok := d.Int(); ok {
					v = v1
					decode.CheckMin(d, float64(v1), 1.0, false)
				}
				x.N = &v
			}
		case "f":
			if !d.IsNull() {
				var v float64
				if v1, ok := d.Float(); ok {
					v = v1
					decode.CheckMax(d, float64(v1), 1.5, true)
				}
				x.F = &v
			}
		case "s":
			if !d.IsNull() {
				var v string
				if v1, ok := d.String(); ok {
					v = v1
					decode.CheckLength(d, v1, 2, 3)
				}
				x.S = &v
			}
		case "item":
			if !d.IsNull() {
				var v optItem
				decodeOptItem(d, &v)
				x.Item = &v
			}
		case "when":
			if !d.IsNull() {
				var v time.Time
				decode.Time(d, &v)
				x.When = &v
			}
		case "list":
			if !d.IsNull() {
				decode.Slice(d, &x.List, decodeOptItem)
			}
		case "set":
			if !d.IsNull() {
				var tags []optTag
				if decode.Slice(d, &tags, decodeOptTag) {
					decode.CheckUnique(d, tags)
				}
				if tags != nil {
					x.Set = make([]string, len(tags))
					for i, t := range tags {
						x.Set[i] = string(t)
					}
				}
			}
		default:
			d.Skip()
		}
	}
}

// decodeOptAfter is the same decoder with the helpers.
func decodeOptAfter(d *decode.Decoder, x *optArgs) {
	if !d.Object() {
		return
	}
	for d.Next() {
		switch string(d.Key()) {
		case "n":
			if v, ok := d.OptInt(&x.N); ok {
				decode.CheckMin(d, float64(v), 1.0, false)
			}
		case "f":
			if v, ok := d.OptFloat(&x.F); ok {
				decode.CheckMax(d, float64(v), 1.5, true)
			}
		case "s":
			if v, ok := d.OptString(&x.S); ok {
				decode.CheckLength(d, v, 2, 3)
			}
		case "item":
			decode.Ptr(d, &x.Item, decodeOptItem)
		case "when":
			decode.Ptr(d, &x.When, decode.Time)
		case "list":
			decode.OptionalSlice(d, &x.List, decodeOptItem)
		case "set":
			var tags []optTag
			if decode.OptionalSlice(d, &tags, decodeOptTag) {
				decode.CheckUnique(d, tags)
			}
			if tags != nil {
				x.Set = make([]string, len(tags))
				for i, t := range tags {
					x.Set[i] = string(t)
				}
			}
		default:
			d.Skip()
		}
	}
}

// TestOptionalHelpers: the helpers of optional members decode every input
// as the code they replace did, to the same values and the same violations
// at the same paths: null (absent; it leaves a value read before it),
// values, values of the wrong type (a pointer to the zero value), values
// that fail their checks, and broken JSON.
func TestOptionalHelpers(t *testing.T) {
	for _, in := range []string{
		`{}`,
		`{"n":null,"f":null,"s":null,"item":null,"when":null,"list":null,"set":null}`,
		`{"n":5,"f":1.25,"s":"ab","item":{"a":"x"},"when":"2026-11-26T10:00:00Z","list":[{"a":"y"}],"set":["p","q"]}`,
		`{"n":5,"n":null,"s":"ab","s":null,"item":{"a":"x"},"item":null,"list":[],"list":null}`,
		`{"n":"five","f":true,"s":7,"item":[1],"when":"yesterday","list":{"a":"y"},"set":"p"}`,
		`{"n":0,"f":1.5,"s":"abcd","set":["p","p"],"list":[{"a":1}]}`,
		`{"n":1.5,"f":"x"}`,
		`{"n":99999999999999999999}`,
		`{"n":5,"item":{"a":"x"`,
		`{"when":nul}`,
		`[]`,
	} {
		var before, after optArgs
		errBefore := decode.Value([]byte(in), &before, decodeOptBefore)
		errAfter := decode.Value([]byte(in), &after, decodeOptAfter)
		if diff := cmp.Diff(before, after); diff != "" {
			t.Errorf("%s: decoded values differ (-before +after):\n%s", in, diff)
		}
		if diff := cmp.Diff(optViolations(errBefore), optViolations(errAfter)); diff != "" {
			t.Errorf("%s: violations differ (-before +after):\n%s", in, diff)
		}
		if (errBefore == nil) != (errAfter == nil) || errBefore != nil && errBefore.Error() != errAfter.Error() {
			t.Errorf("%s: error %v, want %v", in, errAfter, errBefore)
		}
	}
}

func optViolations(err error) []runtime.Violation {
	var e *runtime.Error
	if errors.As(err, &e) {
		return e.Violations()
	}
	return nil
}

// TestOptionalHelpersValues pins what the helpers give, beside agreeing with
// the code before them: null keeps a value read before, a wrong type is a
// pointer to the zero value with its violation, and checks run only on a
// value of the right type.
func TestOptionalHelpersValues(t *testing.T) {
	var x optArgs
	err := decode.Value([]byte(`{"n":3,"n":null,"s":7,"f":2,"item":null,"list":null}`), &x, decodeOptAfter)
	if x.N == nil || *x.N != 3 {
		t.Errorf("n: %v, want 3 (null after 3 leaves it)", x.N)
	}
	if x.S == nil || *x.S != "" {
		t.Errorf("s: %v, want a pointer to \"\" (the wrong type)", x.S)
	}
	if x.Item != nil || x.List != nil {
		t.Errorf("item %v, list %v: want nil for null", x.Item, x.List)
	}
	want := []runtime.Violation{{Path: "/s", Message: "got 7, want string"}, {Path: "/f", Message: "got 2, want < 1.5"}}
	if diff := cmp.Diff(want, optViolations(err)); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

// BenchmarkOptionalHelpers decodes the same members with the code the
// helpers replace (before) and with the helpers (after).
func BenchmarkOptionalHelpers(b *testing.B) {
	in := []byte(`{"n":5,"f":1.25,"s":"ab","item":{"a":"x"},"when":"2026-11-26T10:00:00Z","list":[{"a":"y"},{"a":"z"}],"set":["p","q"]}`)
	for _, c := range []struct {
		name string
		fn   func(*decode.Decoder, *optArgs)
	}{{"before", decodeOptBefore}, {"after", decodeOptAfter}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var x optArgs
				if err := decode.Value(in, &x, c.fn); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestVariantPtr: a union's variant held by pointer is set only when the
// value is a valid one; a value that is not leaves the field alone and
// records its violations only when asked to report them.
func TestVariantPtr(t *testing.T) {
	decodeUnion := func(report bool) func(*decode.Decoder, **optItem) {
		return func(d *decode.Decoder, p **optItem) {
			raw := d.Raw()
			if !decode.VariantPtr(d, raw, p, decodeOptItem, report) {
				d.Invalid("not an item")
			}
		}
	}
	var p *optItem
	if err := decode.Value([]byte(`{"a":"x"}`), &p, decodeUnion(false)); err != nil || p == nil || p.A != "x" {
		t.Errorf("a valid variant: %+v, %v", p, err)
	}
	for _, in := range []string{`[1]`, `"s"`, `{"a":1}`} {
		p = nil
		err := decode.Value([]byte(in), &p, decodeUnion(false))
		if p != nil || err == nil || err.Error() != `opentool: code -32602: invalid params: not an item (data: [{"path":"","message":"not an item"}])` {
			t.Errorf("%s: %+v, %v; want nil and the union's violation alone", in, p, err)
		}
	}
	p = nil
	err := decode.Value([]byte(`{"a":1}`), &p, decodeUnion(true))
	want := []runtime.Violation{{Path: "/a", Message: "got 1, want string"}, {Path: "", Message: "not an item"}}
	if diff := cmp.Diff(want, optViolations(err)); p != nil || diff != "" {
		t.Errorf("reported: %+v; violations (-want +got):\n%s", p, diff)
	}
}
