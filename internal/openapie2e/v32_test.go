package openapie2e

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	v32 "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-v32"
)

// wireRecord is one request as the API saw it.
type wireRecord struct {
	method, path, rawQuery, body, contentType, link string
}

// recordingAPI records every request and answers with a fixed status and
// body.
type recordingAPI struct {
	mu       sync.Mutex
	got      []wireRecord
	status   int
	response string
}

func (a *recordingAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	a.mu.Lock()
	a.got = append(a.got, wireRecord{r.Method, r.URL.Path, r.URL.RawQuery, string(b), r.Header.Get("Content-Type"), r.Header.Get("Link")})
	status, resp := a.status, a.response
	a.mu.Unlock()
	if resp != "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	io.WriteString(w, resp)
}

// take returns the requests recorded since the last take.
func (a *recordingAPI) take() []wireRecord {
	a.mu.Lock()
	defer a.mu.Unlock()
	got := a.got
	a.got = nil
	return got
}

func (a *recordingAPI) answer(status int, body string) {
	a.mu.Lock()
	a.status, a.response = status, body
	a.mu.Unlock()
}

// TestOpenAPI32Wire checks the exact requests of OpenAPI 3.2's additions: a
// QUERY with its body, additional operations sent with their own methods (one
// with a body), the querystring parameter as a form and as JSON, each the
// whole query string.
func TestOpenAPI32Wire(t *testing.T) {
	api := &recordingAPI{status: 200, response: `{"items":[{"id":"a","status":"active"}]}`}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := must(v32.NewClient(srv.URL))
	ctx := t.Context()

	check := func(name string, want wireRecord) {
		t.Helper()
		got := api.take()
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: the API got %+v, want %+v", name, got, want)
		}
	}

	list, err := c.QueryItems(ctx, v32.QueryItemsArgs{Text: "red shoes", Limit: ptr[int64](5)})
	if err != nil || len(list.Items) != 1 || list.Items[0].ID != "a" {
		t.Errorf("QueryItems: %+v, %v", list, err)
	}
	check("QueryItems", wireRecord{method: "QUERY", path: "/items", body: `{"text":"red shoes","limit":5}`, contentType: "application/json"})

	if _, err := c.ListItems(ctx, v32.ListItemsArgs{Filter: &v32.Filter{Color: ptr(v32.FilterColorRed), Size: []int64{40, 41}, Name: ptr("a&b c")}}); err != nil {
		t.Error(err)
	}
	check("ListItems", wireRecord{method: "GET", path: "/items", rawQuery: "color=red&size=40&size=41&name=a%26b%20c"})
	if _, err := c.ListItems(ctx, v32.ListItemsArgs{}); err != nil {
		t.Error(err)
	}
	check("ListItems without a filter", wireRecord{method: "GET", path: "/items"})

	if _, err := c.RawSearch(ctx, v32.RawSearchArgs{Q: v32.RawSearchQ{Terms: []string{"a b", "c"}, Exact: ptr(true)}}); err != nil {
		t.Error(err)
	}
	check("RawSearch", wireRecord{method: "GET", path: "/raw", rawQuery: "%7B%22terms%22%3A%5B%22a%20b%22%2C%22c%22%5D%2C%22exact%22%3Atrue%7D"})

	api.answer(204, "")
	if err := c.LinkItem(ctx, v32.LinkItemArgs{ID: "a/1", Link: "</items/b>; rel=\"related\""}); err != nil {
		t.Error(err)
	}
	check("LinkItem", wireRecord{method: "LINK", path: "/items/a/1", link: "</items/b>; rel=\"related\""})

	api.answer(202, `{"id":"a","status":"archived"}`)
	item, err := c.PurgeItem(ctx, v32.PurgeItemArgs{ID: "a", Reason: ptr("stale")})
	if err != nil || item.Status != v32.ItemStatusArchived {
		t.Errorf("PurgeItem: %+v, %v", item, err)
	}
	check("PurgeItem", wireRecord{method: "PURGE", path: "/items/a", body: `{"reason":"stale"}`, contentType: "application/json"})
}

// TestOpenAPI32Tool serves the 3.2 package as a tool: a querystring argument
// arrives from a tool call as the whole query string, QUERY is read-only, and
// the served document keeps the tags with their parent and kind.
func TestOpenAPI32Tool(t *testing.T) {
	api := &recordingAPI{status: 200, response: `{"items":[]}`}
	rs := httptest.NewServer(api)
	defer rs.Close()
	tool, err := v32.NewTool(must(v32.NewClient(rs.URL)))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(runtime.NewHandler(tool))
	defer srv.Close()
	oc := runtime.NewClient(srv.URL + "/opentool")
	ctx := t.Context()

	if _, err := oc.Call(ctx, runtime.FunctionCall{Name: "listItems", Arguments: json.RawMessage(`{"filter":{"name":"x","color":"blue"}}`)}); err != nil {
		t.Fatal(err)
	}
	// The members in the order of the Go struct, which is the schema's.
	if got := api.take(); len(got) != 1 || got[0].rawQuery != "color=blue&name=x" {
		t.Errorf("the API got %+v, want the query color=blue&name=x", got)
	}
	// The filter's enum is checked before anything is sent.
	if _, err := oc.Call(ctx, runtime.FunctionCall{Name: "listItems", Arguments: json.RawMessage(`{"filter":{"color":"pink"}}`)}); err == nil {
		t.Error("a color outside the enum was accepted")
	}
	if got := api.take(); len(got) != 0 {
		t.Errorf("an invalid call reached the API: %+v", got)
	}

	for name, readOnly := range map[string]bool{"queryItems": true, "listItems": true, "purgeItem": false, "linkItem": false} {
		h, ok := tool.Hints(name)
		if !ok || h.ReadOnly == nil || *h.ReadOnly != readOnly {
			t.Errorf("Hints(%s): ReadOnly %v, want %v", name, h.ReadOnly, readOnly)
		}
	}

	doc, err := oc.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []document.Tag{
		{Name: "catalog", Summary: "Catalog", Description: "Everything about the catalog.", Kind: "nav"},
		{Name: "search", Summary: "Search", Parent: "catalog", Kind: "nav"},
		{Name: "admin", Kind: "audience"},
	}
	if !slices.Equal(doc.Tags, want) {
		t.Errorf("the served tags are %+v, want %+v", doc.Tags, want)
	}
}
