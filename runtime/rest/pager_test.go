package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

type item struct {
	ID string `json:"id"`
	N  int    `json:"n"`
}

// listAPI serves total items, size a page, in every style of pagination;
// hits counts the requests it answered.
type listAPI struct {
	total, size int
	hits        atomic.Int64
	fail        func(n int64, w http.ResponseWriter) bool // answers request n itself when it returns true
}

func (a *listAPI) items(from int) []item {
	var out []item
	for i := from; i < from+a.size && i < a.total; i++ {
		out = append(out, item{ID: "it" + strconv.Itoa(i), N: i})
	}
	return out
}

func (a *listAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := a.hits.Add(1)
	if a.fail != nil && a.fail(n, w) {
		return
	}
	q := r.URL.Query()
	num := func(k string, def int) int {
		if v, err := strconv.Atoi(q.Get(k)); err == nil {
			return v
		}
		return def
	}
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	switch r.URL.Path {
	case "/cursor": // the cursor is the index of the next item
		from := num("cursor", 0)
		next := ""
		if from+a.size < a.total {
			next = strconv.Itoa(from + a.size)
		}
		enc.Encode(map[string]any{"data": a.items(from), "next_cursor": next})
	case "/stripe": // starting_after the id of the last item
		from := 0
		if s := q.Get("starting_after"); s != "" {
			from, _ = strconv.Atoi(strings.TrimPrefix(s, "it"))
			from++
		}
		enc.Encode(map[string]any{"data": a.items(from), "has_more": from+a.size < a.total})
	case "/pages":
		enc.Encode(a.items((num("page", 1) - 1) * a.size))
	case "/offset":
		enc.Encode(map[string]any{"items": a.items(num("offset", 0))})
	case "/link":
		p := num("page", 1)
		if p*a.size < a.total {
			w.Header().Set("Link", fmt.Sprintf(`</link?page=%d>; rel="next", </link?page=1>; rel="first"`, p+1))
		}
		enc.Encode(a.items((p - 1) * a.size))
	case "/nextlink":
		p := num("page", 1)
		next := ""
		if p*a.size < a.total {
			next = "http://" + r.Host + "/nextlink?page=" + strconv.Itoa(p+1)
		}
		enc.Encode(map[string]any{"value": a.items((p - 1) * a.size), "nextLink": next})
	}
}

// The fetch functions below are what generated FAll methods hold: one
// ordinary request per page.

type cursorPage struct {
	Data       []item `json:"data"`
	NextCursor string `json:"next_cursor"`
}

func cursorFetch(c *Client) func(ctx context.Context, cursor string) (Page[item], error) {
	return func(ctx context.Context, cursor string) (Page[item], error) {
		r := c.NewRequest("GET", "/cursor")
		if cursor != "" {
			r.Query("cursor", cursor)
		}
		var out cursorPage
		resp, err := r.Send(ctx)
		if err == nil {
			if !resp.Success() {
				err = resp.Unexpected()
			} else {
				err = resp.Decode(&out)
			}
		}
		return Page[item]{Items: out.Data, Next: Text(out.NextCursor)}, err
	}
}

func getJSON(ctx context.Context, r *Request, out any) error {
	resp, err := r.Send(ctx)
	if err != nil {
		return err
	}
	if !resp.Success() {
		return resp.Unexpected()
	}
	return resp.Decode(out)
}

func pagerStyles(c *Client) map[string]func(ctx context.Context) func(func(item, error) bool) {
	return map[string]func(ctx context.Context) func(func(item, error) bool){
		"cursor": func(ctx context.Context) func(func(item, error) bool) {
			return Cursors(ctx, cursorFetch(c))
		},
		"has_more": func(ctx context.Context) func(func(item, error) bool) {
			return Cursors(ctx, func(ctx context.Context, cursor string) (Page[item], error) {
				r := c.NewRequest("GET", "/stripe")
				if cursor != "" {
					r.Query("starting_after", cursor)
				}
				var out struct {
					Data    []item `json:"data"`
					HasMore *bool  `json:"has_more"`
				}
				err := getJSON(ctx, r, &out)
				p := Page[item]{Items: out.Data, HasMore: Bool(out.HasMore)}
				if len(out.Data) > 0 {
					p.Next = Text(out.Data[len(out.Data)-1].ID)
				}
				return p, err
			})
		},
		"page": func(ctx context.Context) func(func(item, error) bool) {
			return PageNumbers(ctx, 1, func(ctx context.Context, page int64) (Page[item], error) {
				r := c.NewRequest("GET", "/pages")
				r.Query("page", page)
				var out []item
				err := getJSON(ctx, r, &out)
				return Page[item]{Items: out}, err
			})
		},
		"offset": func(ctx context.Context) func(func(item, error) bool) {
			return Offsets(ctx, 0, func(ctx context.Context, offset int64) (Page[item], error) {
				r := c.NewRequest("GET", "/offset")
				r.Query("offset", offset)
				var out struct {
					Items []item `json:"items"`
				}
				err := getJSON(ctx, r, &out)
				return Page[item]{Items: out.Items}, err
			})
		},
		"link": func(ctx context.Context) func(func(item, error) bool) {
			return Links(ctx, func(ctx context.Context) (Page[item], error) {
				var out []item
				err := getJSON(ctx, c.NewRequest("GET", "/link"), &out)
				return Page[item]{Items: out}, err
			})
		},
		"nextlink": func(ctx context.Context) func(func(item, error) bool) {
			return Links(ctx, func(ctx context.Context) (Page[item], error) {
				var out struct {
					Value    []item `json:"value"`
					NextLink string `json:"nextLink"`
				}
				err := getJSON(ctx, c.NewRequest("GET", "/nextlink"), &out)
				return Page[item]{Items: out.Value, Next: out.NextLink}, err
			})
		},
	}
}

// Every style walks every page, in order, with one request a page (the
// counters one more, the empty page that ends them).
func TestPagerStyles(t *testing.T) {
	for name := range pagerStyles(nil) {
		t.Run(name, func(t *testing.T) {
			for _, total := range []int{0, 7, 25, 30} {
				api := &listAPI{total: total, size: 10}
				srv := httptest.NewServer(api)
				defer srv.Close()
				var got []int
				for it, err := range pagerStyles(NewClient(srv.URL))[name](context.Background()) {
					if err != nil {
						t.Fatalf("total %d: %v", total, err)
					}
					got = append(got, it.N)
				}
				if len(got) != total {
					t.Fatalf("total %d: got %d items: %v", total, len(got), got)
				}
				for i, n := range got {
					if n != i {
						t.Fatalf("total %d: item %d is %d", total, i, n)
					}
				}
				want := max((total+9)/10, 1)
				if name == "page" || name == "offset" {
					want = (total+9)/10 + 1 // and the empty page that ends them
				}
				if h := api.hits.Load(); int(h) != want {
					t.Errorf("total %d: %d requests, want %d", total, h, want)
				}
			}
		})
	}
}

// Breaking out of the loop stops the requests: the pages are fetched
// lazily, on a server that never ends.
func TestPagerBreakOnEndlessServer(t *testing.T) {
	api := &listAPI{total: 1 << 30, size: 10}
	srv := httptest.NewServer(api)
	defer srv.Close()
	for name, pages := range pagerStyles(NewClient(srv.URL)) {
		api.hits.Store(0)
		n := 0
		for _, err := range pages(context.Background()) {
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			n++
			if n == 35 {
				break
			}
		}
		if h := api.hits.Load(); h != 4 {
			t.Errorf("%s: %d requests for 35 items, want 4", name, h)
		}
	}
}

// A server that repeats its cursor (or link, or page) ends the iteration
// with ErrPageRepeated after the items it gave once.
func TestPagerRepeatedCursor(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/cursor":
			fmt.Fprint(w, `{"data":[{"id":"a","n":1}],"next_cursor":"same"}`)
		case "/link":
			w.Header().Set("Link", `</link?page=2>; rel="next"`)
			fmt.Fprint(w, `[{"id":"a","n":1}]`)
		case "/pages", "/offset": // ignores the page parameter
			fmt.Fprint(w, `[{"id":"a","n":1},{"id":"b","n":2}]`)
		}
	}))
	defer srv.Close()
	c := NewClient(srv.URL)
	cases := map[string]func(func(item, error) bool){
		"cursor": Cursors(context.Background(), cursorFetch(c)),
		"link": Links(context.Background(), func(ctx context.Context) (Page[item], error) {
			var out []item
			return Page[item]{Items: out}, getJSON(ctx, c.NewRequest("GET", "/link"), &out)
		}),
		"page": PageNumbers(context.Background(), 1, func(ctx context.Context, p int64) (Page[item], error) {
			var out []item
			err := getJSON(ctx, c.NewRequest("GET", "/pages"), &out)
			return Page[item]{Items: out}, err
		}),
	}
	for name, seq := range cases {
		var items int
		var last error
		for _, err := range seq {
			if err != nil {
				last = err
				continue
			}
			items++
		}
		if !errors.Is(last, ErrPageRepeated) {
			t.Errorf("%s: ended with %v, want ErrPageRepeated", name, last)
		}
		if items > 4 {
			t.Errorf("%s: %d items before the error", name, items)
		}
	}
}

// A server that says more follow with empty pages forever is followed
// MaxEmptyPages pages, not forever; has_more with an empty page and no
// cursor ends at once.
func TestPagerEmptyPagesForever(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := hits.Add(1)
		if r.URL.Path == "/stripe" {
			fmt.Fprint(w, `{"data":[],"has_more":true}`)
			return
		}
		fmt.Fprintf(w, `{"data":[],"next_cursor":"c%d"}`, n)
	}))
	defer srv.Close()
	c := NewClient(srv.URL)
	var last error
	for _, err := range Cursors(context.Background(), cursorFetch(c)) {
		last = err
	}
	if last == nil || !strings.Contains(last.Error(), "empty pages in a row") {
		t.Fatalf("got %v", last)
	}
	if h := hits.Load(); h != MaxEmptyPages+1 {
		t.Errorf("%d requests, want %d", h, MaxEmptyPages+1)
	}
	hits.Store(0)
	last = nil
	for _, err := range pagerStyles(c)["has_more"](context.Background()) {
		last = err
	}
	if last == nil || !strings.Contains(last.Error(), "gives no cursor") || hits.Load() != 1 {
		t.Fatalf("has_more with an empty page: %v after %d requests", last, hits.Load())
	}
}

// Cancelling the context ends the iteration with the context's error
// before the next page is asked for.
func TestPagerContextCancel(t *testing.T) {
	api := &listAPI{total: 1000, size: 10}
	srv := httptest.NewServer(api)
	defer srv.Close()
	for name, pages := range pagerStyles(NewClient(srv.URL)) {
		api.hits.Store(0)
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		var last error
		for _, err := range pages(ctx) {
			if err != nil {
				last = err
				continue
			}
			n++
			if n == 15 {
				cancel()
			}
		}
		cancel()
		if !errors.Is(last, context.Canceled) || n != 20 {
			t.Errorf("%s: %d items, ended with %v; want 20 and context.Canceled", name, n, last)
		}
		if h := api.hits.Load(); h != 2 {
			t.Errorf("%s: %d requests, want 2", name, h)
		}
	}
}

// A page that fails is retried as any call is (here a 503 then the page);
// a page that keeps failing ends the iteration with its error.
func TestPagerRetriesFailedPage(t *testing.T) {
	api := &listAPI{total: 30, size: 10, fail: func(n int64, w http.ResponseWriter) bool {
		if n == 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return true
		}
		return false
	}}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := NewClient(srv.URL)
	c.Retry = &RetryPolicy{MinWait: time.Millisecond, MaxWait: 5 * time.Millisecond}
	n := 0
	for _, err := range Cursors(context.Background(), cursorFetch(c)) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 30 || api.hits.Load() != 4 {
		t.Fatalf("%d items in %d requests, want 30 in 4", n, api.hits.Load())
	}
	api.hits.Store(0)
	api.fail = func(n int64, w http.ResponseWriter) bool {
		if n >= 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		return n >= 2
	}
	n = 0
	var last error
	for _, err := range Cursors(context.Background(), cursorFetch(c)) {
		if err != nil {
			last = err
			continue
		}
		n++
	}
	var se *StatusError
	if n != 10 || !errors.As(last, &se) || se.StatusCode != 503 || api.hits.Load() != 4 {
		t.Fatalf("%d items, %v after %d requests; want 10, HTTP 503 after 4", n, last, api.hits.Load())
	}
}

// A next link to another origin is not followed (it would carry the
// client's credentials there); query credentials are kept on same-origin
// links.
func TestPagerLinkOrigin(t *testing.T) {
	var other atomic.Int64
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { other.Add(1) }))
	defer elsewhere.Close()
	var keys []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		keys = append(keys, r.URL.Query().Get("api_key"))
		switch r.URL.Query().Get("page") {
		case "":
			w.Header().Set("Link", `</link?page=2>; rel="next"`)
		case "2":
			w.Header().Set("Link", `<`+elsewhere.URL+`/link?page=3>; rel="next"`)
		}
		fmt.Fprint(w, `[{"id":"a","n":1}]`)
	}))
	defer srv.Close()
	c := NewClient(srv.URL)
	c.SetCredential("key", APIKeyCredential("query", "api_key", "s3cret"))
	var last error
	n := 0
	for _, err := range Links(context.Background(), func(ctx context.Context) (Page[item], error) {
		var out []item
		r := c.NewRequest("GET", "/link")
		r.Security("key")
		err := getJSON(ctx, r, &out)
		return Page[item]{Items: out}, err
	}) {
		if err != nil {
			last = err
			continue
		}
		n++
	}
	if last == nil || !strings.Contains(last.Error(), "another origin") || other.Load() != 0 || n != 2 {
		t.Fatalf("%d items, %v; the other origin had %d requests", n, last, other.Load())
	}
	if strings.Join(keys, ",") != "s3cret,s3cret" {
		t.Errorf("the keys sent: %q", keys)
	}
}

func TestNextLink(t *testing.T) {
	for h, want := range map[string]string{
		`<https://api.github.com/repositories/1/issues?page=2>; rel="next", <https://api.github.com/repositories/1/issues?page=9>; rel="last"`: "https://api.github.com/repositories/1/issues?page=2",
		`<https://x/a?page=1>; rel="prev", <https://x/a?page=3>; rel="next"`:                                                                   "https://x/a?page=3",
		`<https://x/a?b=1,2>; title="a, b"; rel="last next"`:                                                                                   "https://x/a?b=1,2",
		`<https://x/a>; rel="last"`: "",
		``:                          "",
		`garbage`:                   "",
		`<https://x/a`:              "",
	} {
		if got := nextLink(h); got != want {
			t.Errorf("nextLink(%q) = %q, want %q", h, got, want)
		}
	}
}

// Gather and Take stop at the bound, so the page after it is never
// fetched; an error ends them with the items before it.
func TestGatherAndTake(t *testing.T) {
	api := &listAPI{total: 100, size: 10}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := NewClient(srv.URL)
	ctx := context.Background()
	for _, tc := range []struct{ max, items, hits int }{{0, 0, 0}, {1, 1, 1}, {10, 10, 1}, {11, 11, 2}, {1000, 100, 10}} {
		api.hits.Store(0)
		got, err := Gather(Cursors(ctx, cursorFetch(c)), tc.max)
		if err != nil || len(got) != tc.items || got == nil || int(api.hits.Load()) != tc.hits {
			t.Errorf("Gather %d: %d items, %v, %d requests; want %d in %d", tc.max, len(got), err, api.hits.Load(), tc.items, tc.hits)
		}
		api.hits.Store(0)
		n := 0
		for _, err := range Take(Cursors(ctx, cursorFetch(c)), tc.max) {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		if n != tc.items || int(api.hits.Load()) != tc.hits {
			t.Errorf("Take %d: %d items in %d requests; want %d in %d", tc.max, n, api.hits.Load(), tc.items, tc.hits)
		}
	}
	api.fail = func(n int64, w http.ResponseWriter) bool {
		if n == 2 {
			w.WriteHeader(http.StatusBadGateway)
		}
		return n == 2
	}
	api.hits.Store(0)
	got, err := Gather(Cursors(ctx, cursorFetch(c)), 50)
	var se *StatusError
	if len(got) != 10 || !errors.As(err, &se) || se.StatusCode != http.StatusBadGateway {
		t.Errorf("Gather over a failing page: %d items, %v", len(got), err)
	}
}

// TestLimitAndTakeAtMost: the max_items argument of a list function bounds
// what the Tool gathers (its default when absent) and what the iterator
// yields (every item when absent), fetching no page past the bound.
func TestLimitAndTakeAtMost(t *testing.T) {
	if got := Limit(nil, 100); got != 100 {
		t.Errorf("Limit(nil, 100) = %d, want 100", got)
	}
	seven := int64(7)
	if got := Limit(&seven, 100); got != 7 {
		t.Errorf("Limit(7, 100) = %d, want 7", got)
	}
	api := &listAPI{total: 100, size: 10}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := NewClient(srv.URL)
	ctx := context.Background()
	eleven, zero := int64(11), int64(0)
	for _, tc := range []struct {
		max         *int64
		items, hits int
	}{{nil, 100, 10}, {&eleven, 11, 2}, {&zero, 0, 0}} {
		api.hits.Store(0)
		n := 0
		for _, err := range TakeAtMost(Cursors(ctx, cursorFetch(c)), tc.max) {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		if n != tc.items || int(api.hits.Load()) != tc.hits {
			t.Errorf("TakeAtMost %v: %d items in %d requests; want %d in %d", tc.max, n, api.hits.Load(), tc.items, tc.hits)
		}
	}
}
