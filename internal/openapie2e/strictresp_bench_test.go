package openapie2e

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime/rest"
	v32 "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-v32"
)

// BenchmarkStrictResponses measures a call whose response is a list of 100
// items (about 8 kB) over loopback, decoded as before (off) and checked
// against the document (on).
func BenchmarkStrictResponses(b *testing.B) {
	var items []string
	for i := range 100 {
		items = append(items, fmt.Sprintf(`{"id":"item-%d","status":"active","price":%d.5,"tags":["a","bb","ccc"]}`, i, i))
	}
	body := `{"items":[` + strings.Join(items, ",") + `],"next":"cursor"}`
	api := &recordingAPI{status: 200, response: body}
	srv := httptest.NewServer(api)
	defer srv.Close()
	for _, mode := range []string{"off", "on"} {
		var opts []v32.ClientOption
		if mode == "on" {
			opts = append(opts, rest.WithStrictResponses())
		}
		c := must(v32.NewClient(srv.URL, opts...))
		b.Run(mode, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.ListItems(b.Context(), v32.ListItemsArgs{}); err != nil {
					b.Fatal(err)
				}
				api.take()
			}
		})
	}
}
