package openapie2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime/rest"
	paging "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-paging"
)

// pagingAPI serves the list operations of the openapi-paging golden case:
// total items x0, x1, … three a page, each operation in its own style, and
// records the query of every request.
type pagingAPI struct {
	total    int
	pageSize int
	mu       sync.Mutex
	log      []string                                                 // "path?query" of each request
	edit     func(n int, w http.ResponseWriter, r *http.Request) bool // answers request n itself when true
}

// size is the items a page (3 when 0).
func (a *pagingAPI) size() int {
	if a.pageSize == 0 {
		return 3
	}
	return a.pageSize
}

func (a *pagingAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	a.log = append(a.log, r.URL.Path+"?"+r.URL.RawQuery)
	n := len(a.log)
	a.mu.Unlock()
	if a.edit != nil && a.edit(n, w, r) {
		return
	}
	pageSize := a.size()
	q := r.URL.Query()
	num := func(k string, def int) int {
		if v, err := strconv.Atoi(q.Get(k)); err == nil {
			return v
		}
		return def
	}
	ids := func(from int) []string {
		out := []string{}
		for i := max(from, 0); i < from+pageSize && i < a.total; i++ {
			out = append(out, "x"+strconv.Itoa(i))
		}
		return out
	}
	objs := func(from int, key string) []map[string]any {
		out := []map[string]any{}
		for _, id := range ids(from) {
			out = append(out, map[string]any{key: id, "amount": 1, "number": 1, "title": id})
		}
		return out
	}
	after := func(id string) int { // the index after the item id
		if id == "" {
			return 0
		}
		i, _ := strconv.Atoi(strings.TrimPrefix(id, "x"))
		return i + 1
	}
	more := func(from int) bool { return from+pageSize < a.total }
	nextFrom := func(from int) string {
		if more(from) {
			return "x" + strconv.Itoa(from+pageSize-1)
		}
		return ""
	}
	var body any
	switch r.URL.Path {
	case "/repos/o/issues":
		p := num("page", 1)
		if more((p - 1) * pageSize) {
			w.Header().Set("Link", fmt.Sprintf(`<http://%s/repos/o/issues?page=%d&per_page=%d>; rel="next"`, r.Host, p+1, pageSize))
		}
		body = objs((p-1)*pageSize, "title")
	case "/events":
		from := after(q.Get("cursor"))
		m := map[string]any{"data": objs(from, "id"), "next_cursor": nil}
		if c := nextFrom(from); c != "" {
			m["next_cursor"] = c
		}
		body = m
	case "/charges":
		from := after(q.Get("starting_after"))
		body = map[string]any{"object": "list", "url": "/charges", "data": objs(from, "id"), "has_more": more(from)}
	case "/users":
		body = map[string]any{"users": objs((num("page", 1)-1)*pageSize, "login"), "total": a.total}
	case "/logs":
		body = map[string]any{"items": ids(num("offset", 0))}
	case "/books":
		from := after(q.Get("pageToken"))
		body = map[string]any{"books": objs(from, "name"), "nextPageToken": nextFrom(from)}
	case "/widgets":
		from := after(q.Get("after"))
		m := map[string]any{"items": objs(from, "id")}
		if c := nextFrom(from); c != "" {
			m["meta"] = map[string]any{"next": c}
		}
		body = m
	case "/gadgets":
		body = map[string]any{"data": objs(after(q.Get("since")), "id")}
	case "/tickets":
		body = map[string]any{"results": ids((num("p", 1) - 1) * pageSize)}
	case "/orders":
		from := after(q.Get("from"))
		body = map[string]any{"orders": ids(from), "next": nextFrom(from)}
	case "/invoices":
		from := num("start", 0)
		body = map[string]any{"invoices": ids(from), "more": more(from)}
	case "/vaults":
		p := num("page", 1)
		m := map[string]any{"value": ids((p - 1) * pageSize)}
		if more((p - 1) * pageSize) {
			m["nextLink"] = fmt.Sprintf("http://%s/vaults?page=%d", r.Host, p+1)
		}
		body = m
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(body)
}

func (a *pagingAPI) requests() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.log...)
}

// ids gathers the ids of a sequence's items (id of each item given by id).
func ids[T any](seq iter.Seq2[T, error], id func(T) string) ([]string, error) {
	var out []string
	for it, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, id(it))
	}
	return out, nil
}

func str(s string) string { return s }

// pagingStyles lists every list operation of the golden case with its
// iterator and the requests a walk over 8 items makes.
func pagingStyles(c *paging.Client, ctx context.Context) map[string]struct {
	walk func() ([]string, error)
	want []string // the requests
} {
	type style = struct {
		walk func() ([]string, error)
		want []string
	}
	return map[string]style{
		"link": {func() ([]string, error) {
			return ids(c.ListIssuesAll(ctx, paging.ListIssuesArgs{Owner: "o", PerPage: rest.Ptr(int64(3))}), func(i paging.Issue) string { return i.Title })
		}, []string{"/repos/o/issues?per_page=3", "/repos/o/issues?page=2&per_page=3", "/repos/o/issues?page=3&per_page=3"}},
		"cursor": {func() ([]string, error) {
			return ids(c.ListEventsAll(ctx, paging.ListEventsArgs{Limit: rest.Ptr(int64(3))}), func(e paging.Event) string { return e.ID })
		}, []string{"/events?limit=3", "/events?cursor=x2&limit=3", "/events?cursor=x5&limit=3"}},
		"has_more": {func() ([]string, error) {
			return ids(c.ListChargesAll(ctx, paging.ListChargesArgs{}), func(e paging.Charge) string { return e.ID })
		}, []string{"/charges?", "/charges?starting_after=x2", "/charges?starting_after=x5"}},
		"page": {func() ([]string, error) {
			return ids(c.ListUsersAll(ctx, paging.ListUsersArgs{}), func(u paging.User) string { return u.Login })
		}, []string{"/users?page=1", "/users?page=2", "/users?page=3", "/users?page=4"}},
		"offset": {func() ([]string, error) {
			return ids(c.ListLogsAll(ctx, paging.ListLogsArgs{}), str)
		}, []string{"/logs?offset=0", "/logs?offset=3", "/logs?offset=6", "/logs?offset=8"}},
		"pageToken": {func() ([]string, error) {
			return ids(c.ListBooksAll(ctx, paging.ListBooksArgs{}), func(b paging.Book) string { return b.Name })
		}, []string{"/books?", "/books?pageToken=x2", "/books?pageToken=x5"}},
		"x-speakeasy-pagination cursor": {func() ([]string, error) {
			return ids(c.ListWidgetsAll(ctx, paging.ListWidgetsArgs{}), func(w paging.Widget) string { return w.ID })
		}, []string{"/widgets?", "/widgets?after=x2", "/widgets?after=x5"}},
		"x-speakeasy-pagination last id": {func() ([]string, error) {
			return ids(c.ListGadgetsAll(ctx, paging.ListGadgetsArgs{}), func(w paging.Widget) string { return w.ID })
		}, []string{"/gadgets?", "/gadgets?since=x2", "/gadgets?since=x5", "/gadgets?since=x7"}},
		"x-speakeasy-pagination page": {func() ([]string, error) {
			return ids(c.ListTicketsAll(ctx, paging.ListTicketsArgs{}), str)
		}, []string{"/tickets?p=1", "/tickets?p=2", "/tickets?p=3", "/tickets?p=4"}},
		"x-fern-pagination cursor": {func() ([]string, error) {
			return ids(c.ListOrdersAll(ctx, paging.ListOrdersArgs{}), str)
		}, []string{"/orders?", "/orders?from=x2", "/orders?from=x5"}},
		"x-fern-pagination offset": {func() ([]string, error) {
			return ids(c.ListInvoicesAll(ctx, paging.ListInvoicesArgs{}), str)
		}, []string{"/invoices?start=0", "/invoices?start=3", "/invoices?start=6"}},
		"x-ms-pageable": {func() ([]string, error) {
			return ids(c.ListVaultsAll(ctx, paging.ListVaultsArgs{}), str)
		}, []string{"/vaults?", "/vaults?page=2", "/vaults?page=3"}},
	}
}

// Every style of the golden case walks 8 items over its pages, in order,
// with the requests its style makes.
func TestPagingStyles(t *testing.T) {
	for name := range pagingStyles(nil, nil) {
		t.Run(name, func(t *testing.T) {
			api := &pagingAPI{total: 8}
			srv := httptest.NewServer(api)
			defer srv.Close()
			st := pagingStyles(must(paging.NewClient(srv.URL)), context.Background())[name]
			got, err := st.walk()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, ",") != "x0,x1,x2,x3,x4,x5,x6,x7" {
				t.Errorf("items %v", got)
			}
			if reqs := api.requests(); strings.Join(reqs, " ") != strings.Join(st.want, " ") {
				t.Errorf("requests\n%q\nwant\n%q", reqs, st.want)
			}
		})
	}
}

// Breaking out of the loop stops the pages: on an API with a million
// items, five items cost two requests, whatever the style.
func TestPagingBreakOnEndlessAPI(t *testing.T) {
	api := &pagingAPI{total: 1 << 20}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := must(paging.NewClient(srv.URL))
	for it, err := range c.ListEventsAll(context.Background(), paging.ListEventsArgs{}) {
		if err != nil {
			t.Fatal(err)
		}
		if it.ID == "x4" {
			break
		}
	}
	for it, err := range c.ListIssuesAll(context.Background(), paging.ListIssuesArgs{Owner: "o"}) {
		if err != nil {
			t.Fatal(err)
		}
		if it.Title == "x4" {
			break
		}
	}
	if n := len(api.requests()); n != 4 {
		t.Fatalf("%d requests: %q", n, api.requests())
	}
}

// An API that gives the same cursor again, or the same Link, ends the
// iteration with rest.ErrPageRepeated instead of looping.
func TestPagingRepeatedCursor(t *testing.T) {
	api := &pagingAPI{total: 100}
	api.edit = func(n int, w http.ResponseWriter, r *http.Request) bool {
		switch r.URL.Path {
		case "/events":
			fmt.Fprint(w, `{"data":[{"id":"a"}],"next_cursor":"again"}`)
		case "/repos/o/issues":
			w.Header().Set("Link", `</repos/o/issues?page=2>; rel="next"`)
			fmt.Fprint(w, `[{"number":1,"title":"a"}]`)
		case "/users":
			fmt.Fprint(w, `{"users":[{"login":"a"},{"login":"b"}]}`) // ignores page
		default:
			return false
		}
		return true
	}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := must(paging.NewClient(srv.URL))
	ctx := context.Background()
	for name, walk := range map[string]func() ([]string, error){
		"cursor": func() ([]string, error) {
			return ids(c.ListEventsAll(ctx, paging.ListEventsArgs{}), func(e paging.Event) string { return e.ID })
		},
		"link": func() ([]string, error) {
			return ids(c.ListIssuesAll(ctx, paging.ListIssuesArgs{Owner: "o"}), func(i paging.Issue) string { return i.Title })
		},
		"page": func() ([]string, error) {
			return ids(c.ListUsersAll(ctx, paging.ListUsersArgs{}), func(u paging.User) string { return u.Login })
		},
	} {
		got, err := walk()
		if !errors.Is(err, rest.ErrPageRepeated) || len(got) == 0 || len(got) > 4 {
			t.Errorf("%s: %v, then %v", name, got, err)
		}
	}
	if n := len(api.requests()); n > 8 {
		t.Errorf("%d requests", n)
	}
}

// An API whose pages say more follow but are empty is followed a bounded
// number of pages.
func TestPagingNeverEndingEmptyPages(t *testing.T) {
	api := &pagingAPI{total: 0}
	api.edit = func(n int, w http.ResponseWriter, r *http.Request) bool {
		fmt.Fprintf(w, `{"data":[],"next_cursor":"c%d"}`, n)
		return true
	}
	srv := httptest.NewServer(api)
	defer srv.Close()
	got, err := ids(must(paging.NewClient(srv.URL)).ListEventsAll(context.Background(), paging.ListEventsArgs{}), func(e paging.Event) string { return e.ID })
	if err == nil || !strings.Contains(err.Error(), "empty pages in a row") || len(got) != 0 {
		t.Fatalf("%v, %v", got, err)
	}
	if n := len(api.requests()); n != rest.MaxEmptyPages+1 {
		t.Errorf("%d requests", n)
	}
}

// Cancelling the context ends the iteration with its error at the next
// page.
func TestPagingContextCancel(t *testing.T) {
	api := &pagingAPI{total: 100}
	srv := httptest.NewServer(api)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got []string
	var last error
	for it, err := range must(paging.NewClient(srv.URL)).ListChargesAll(ctx, paging.ListChargesArgs{}) {
		if err != nil {
			last = err
			break
		}
		got = append(got, it.ID)
		if it.ID == "x1" {
			cancel()
		}
	}
	if !errors.Is(last, context.Canceled) || len(got) != 3 || len(api.requests()) != 1 {
		t.Fatalf("%v, %v after %d requests", got, last, len(api.requests()))
	}
}

// A page that fails with a 503 is retried as any call (WithRetry); the
// iteration goes on.
func TestPagingRetriesFailedPage(t *testing.T) {
	api := &pagingAPI{total: 8}
	api.edit = func(n int, w http.ResponseWriter, r *http.Request) bool {
		if n == 2 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusServiceUnavailable)
			return true
		}
		return false
	}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := must(paging.NewClient(srv.URL, paging.WithRetry(rest.RetryPolicy{MinWait: time.Millisecond})))
	got, err := ids(c.ListIssuesAll(context.Background(), paging.ListIssuesArgs{Owner: "o"}), func(i paging.Issue) string { return i.Title })
	if err != nil || len(got) != 8 {
		t.Fatalf("%v, %v", got, err)
	}
	reqs := api.requests()
	if len(reqs) != 4 || reqs[1] != reqs[2] {
		t.Fatalf("requests %q", reqs)
	}
}

// The operations that declare an idempotency header send one key per call,
// the same on each retry of a POST (which is retried for it), a new one for
// the next call; the caller's own key wins.
func TestIdempotencyKeys(t *testing.T) {
	var mu sync.Mutex
	seen := map[string][]string{}
	fails := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		h := map[string]string{"/charges": "Idempotency-Key", "/refunds": "Idempotency-Key", "/payouts": "X-Fern-Idempotency"}[r.URL.Path]
		seen[r.URL.Path] = append(seen[r.URL.Path], r.Header.Get(h))
		if fails%2 == 0 {
			fails++
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fails++
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/charges" {
			fmt.Fprint(w, `{"id":"ch_1","amount":5}`)
			return
		}
		w.WriteHeader(http.StatusCreated)
	}))
	defer srv.Close()
	c := must(paging.NewClient(srv.URL, paging.WithRetry(rest.RetryPolicy{MinWait: time.Millisecond, MaxWait: 2 * time.Millisecond})))
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		if _, err := c.CreateCharge(ctx, paging.CreateChargeArgs{Amount: 5}); err != nil {
			t.Fatal(err)
		}
		if err := c.CreateRefund(ctx, paging.CreateRefundArgs{}); err != nil {
			t.Fatal(err)
		}
		if err := c.CreatePayout(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.CreateCharge(ctx, paging.CreateChargeArgs{Amount: 5, IdempotencyKey: rest.Ptr("mine")}); err != nil {
		t.Fatal(err)
	}
	for path, keys := range seen {
		if path == "/charges" {
			if len(keys) != 6 || keys[4] != "mine" || keys[5] != "mine" {
				t.Errorf("%s: %q", path, keys)
			}
			keys = keys[:4]
		}
		if len(keys) != 4 || keys[0] == "" || keys[0] != keys[1] || keys[2] != keys[3] || keys[0] == keys[2] {
			t.Errorf("%s: keys %q: want one per call, the same on its retry", path, keys)
		}
	}
	if len(seen) != 3 {
		t.Errorf("paths %v", seen)
	}
}

// As a tool, a list function gathers the items of its pages, at most
// max_items (default 100), into the last page's result; the pages after
// the bound are never fetched; a bound over the cap is refused.
func TestPagingToolMaxItems(t *testing.T) {
	api := &pagingAPI{total: 500}
	srv := httptest.NewServer(api)
	defer srv.Close()
	tool, err := paging.NewTool(must(paging.NewClient(srv.URL)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	call := func(name, args string) map[string]any {
		t.Helper()
		raw, err := tool.Call(ctx, name, json.RawMessage(args))
		if err != nil {
			t.Fatalf("%s %s: %v", name, args, err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	count := func(m map[string]any, key string) int { l, _ := m[key].([]any); return len(l) }

	before := len(api.requests())
	m := call("listEvents", `{"max_items":7}`)
	if count(m, "data") != 7 || len(api.requests())-before != 3 {
		t.Errorf("max_items 7: %d items in %d requests", count(m, "data"), len(api.requests())-before)
	}
	before = len(api.requests())
	m = call("listCharges", `{}`)
	if count(m, "data") != 100 || len(api.requests())-before != 34 || m["has_more"] != true {
		t.Errorf("default: %d items in %d requests, has_more %v", count(m, "data"), len(api.requests())-before, m["has_more"])
	}
	// A result that is the array travels as {"result": [...]}.
	m = call("listIssues", `{"owner":"o","max_items":4}`)
	if count(m, "result") != 4 {
		t.Errorf("listIssues: %v", m)
	}
	// Fewer items than the bound: all of them, the last page's cursor null.
	api.total = 5
	m = call("listEvents", `{"max_items":1000}`)
	if count(m, "data") != 5 || m["next_cursor"] != nil {
		t.Errorf("all: %v", m)
	}
	_, err = tool.Call(ctx, "listEvents", json.RawMessage(`{"max_items":5000}`))
	if err == nil || !strings.Contains(err.Error(), "max_items") {
		t.Errorf("max_items 5000: %v", err)
	}
}

// MaxItems set on the arguments stops FAll after that many items; the
// pages after are not fetched.
func TestPagingMaxItemsOnClient(t *testing.T) {
	api := &pagingAPI{total: 100}
	srv := httptest.NewServer(api)
	defer srv.Close()
	got, err := ids(must(paging.NewClient(srv.URL)).ListEventsAll(context.Background(), paging.ListEventsArgs{MaxItems: rest.Ptr(int64(7))}),
		func(e paging.Event) string { return e.ID })
	if err != nil || strings.Join(got, ",") != "x0,x1,x2,x3,x4,x5,x6" || len(api.requests()) != 3 {
		t.Fatalf("%v, %v after %d requests", got, err, len(api.requests()))
	}
	for _, r := range api.requests() {
		if strings.Contains(r, "max_items") {
			t.Errorf("max_items sent: %s", r)
		}
	}
}
