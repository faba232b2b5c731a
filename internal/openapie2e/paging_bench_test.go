package openapie2e

import (
	"context"
	"net/http/httptest"
	"testing"

	paging "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-paging"
)

// BenchmarkPaging fetches 10,000 items over 100 pages (100 a page) from
// the same httptest API, with the generated iterator (All) and with
// hand-written calls of the page method (ByHand), side by side.
//
//	go test ./internal/openapie2e -run '^$' -bench BenchmarkPaging -benchtime 20x -count 5
func BenchmarkPaging(b *testing.B) {
	api := &pagingAPI{total: 10000, pageSize: 100}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := must(paging.NewClient(srv.URL))
	ctx := context.Background()
	limit := int64(100)
	b.Run("All", func(b *testing.B) {
		for b.Loop() {
			n := 0
			for _, err := range c.ListEventsAll(ctx, paging.ListEventsArgs{Limit: &limit}) {
				if err != nil {
					b.Fatal(err)
				}
				n++
			}
			if n != 10000 {
				b.Fatal(n)
			}
			api.mu.Lock()
			api.log = api.log[:0]
			api.mu.Unlock()
		}
	})
	b.Run("ByHand", func(b *testing.B) {
		for b.Loop() {
			n := 0
			args := paging.ListEventsArgs{Limit: &limit}
			for {
				page, err := c.ListEvents(ctx, args)
				if err != nil {
					b.Fatal(err)
				}
				n += len(page.Data)
				if page.NextCursor == nil || *page.NextCursor == "" {
					break
				}
				args.Cursor = page.NextCursor
			}
			if n != 10000 {
				b.Fatal(n)
			}
			api.mu.Lock()
			api.log = api.log[:0]
			api.mu.Unlock()
		}
	})
}
