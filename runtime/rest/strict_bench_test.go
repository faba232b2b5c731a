package rest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime/decode"
)

// benchItem and its decoder are what opentoolgen generates for an object
// with a required enum, a bounded number and an array of bounded strings
// (testdata/golden/openapi-v32's Item).
type benchItem struct {
	ID     string   `json:"id"`
	Status string   `json:"status"`
	Price  *float64 `json:"price,omitzero"`
	Tags   []string `json:"tags,omitzero"`
}

type benchList struct {
	Items []benchItem `json:"items"`
	Next  *string     `json:"next,omitzero"`
}

func decodeBenchItem(d *decode.Decoder, x *benchItem) {
	if !d.Object() {
		return
	}
	var seen [1]uint64
	for d.Next() {
		switch string(d.Key()) {
		case "id":
			seen[0] |= 1 << 0
			x.ID, _ = d.String()
		case "status":
			seen[0] |= 1 << 1
			if v, ok := d.String(); ok {
				x.Status = v
				if v != "active" && v != "archived" {
					d.NotInEnum(v, `"active", "archived"`)
				}
			}
		case "price":
			if !d.IsNull() {
				var v float64
				if v1, ok := d.Float(); ok {
					v = v1
					decode.CheckMin(d, v1, 0.0, false)
				}
				x.Price = &v
			}
		case "tags":
			if !d.IsNull() && d.Array() {
				x.Tags = []string{}
				for d.NextItem() {
					var e string
					if v, ok := d.String(); ok {
						e = v
						decode.CheckLength(d, v, -1, 8)
					}
					x.Tags = append(x.Tags, e)
				}
			}
		default:
			d.Skip()
		}
	}
	d.Required(seen[:], "id", "status")
}

func decodeBenchList(d *decode.Decoder, x *benchList) {
	if !d.Object() {
		return
	}
	var seen [1]uint64
	for d.Next() {
		switch string(d.Key()) {
		case "items":
			seen[0] |= 1 << 0
			if d.Array() {
				x.Items = []benchItem{}
				for d.NextItem() {
					var e benchItem
					decodeBenchItem(d, &e)
					x.Items = append(x.Items, e)
				}
			}
		case "next":
			x.Next = d.StringPtr()
		default:
			d.Skip()
		}
	}
	d.Required(seen[:], "items")
}

// BenchmarkDecodeChecked decodes a 100-item response body (about 8 kB):
// off is encoding/json as before, on checks every value with the decoder.
func BenchmarkDecodeChecked(b *testing.B) {
	var items []string
	for i := range 100 {
		items = append(items, fmt.Sprintf(`{"id":"item-%d","status":"active","price":%d.5,"tags":["a","bb","ccc"]}`, i, i))
	}
	body := []byte(`{"items":[` + strings.Join(items, ",") + `],"next":"cursor"}`)
	for _, strict := range []bool{false, true} {
		name := map[bool]string{false: "off", true: "on"}[strict]
		b.Run(name, func(b *testing.B) {
			r := &Response{StatusCode: 200, Body: body, method: "GET", path: "/items", strict: strict}
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				var out benchList
				if err := DecodeChecked(r, &out, decodeBenchList); err != nil || len(out.Items) != 100 {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDecodeCheckedBench: the benchmark's decoder reports what the generated
// ones do, so that it measures real checks.
func TestDecodeCheckedBench(t *testing.T) {
	r := &Response{StatusCode: 200, Body: []byte(`{"items":[{"id":"a","status":"x","tags":["123456789"]}]}`), method: "GET", path: "/items", strict: true}
	var out benchList
	err := DecodeChecked(r, &out, decodeBenchList)
	want := `GET /items: HTTP 200: the response does not match the document: /items/0/status: got "x", want one of "active", "archived"; /items/0/tags/0: got 9 characters, want at most 8`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %s", err, want)
	}
	r.strict = false
	if err := DecodeChecked(r, &out, decodeBenchList); err != nil {
		t.Errorf("off: %v", err)
	}
}
