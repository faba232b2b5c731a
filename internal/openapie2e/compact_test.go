package openapie2e

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/rest"
	compact "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-compact"
)

// compactAPI answers testdata/golden/openapi-compact's operations with a
// status and a body, and records the query, the X-Trace header and the
// cookies of each request.
type compactAPI struct {
	mu       sync.Mutex
	got      []string
	status   int
	response string
	next     string // the @odata.nextLink of the first page, when set
}

func (a *compactAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.got = append(a.got, r.Method+" "+r.URL.Path+"?"+r.URL.RawQuery+" trace="+strings.Join(r.Header.Values("X-Trace"), ",")+" cookie="+r.Header.Get("Cookie"))
	body := a.response
	if a.next != "" && r.URL.Query().Get("page") == "" {
		body = `{"value":[{"id":"a"}],"@odata.nextLink":"` + a.next + `"}`
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(a.status)
	w.Write([]byte(body))
}

func (a *compactAPI) take() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	got := a.got
	a.got = nil
	return got
}

// TestCompactClient: the short forms of generated code do what the long
// ones did on the wire. An optional query, header or cookie argument passed
// as it is sends nothing when nil and itself when set (a zero too); the
// response cases 4XX and 5XX, one case of the switch, each give the typed
// API error with their own status, a success decodes, and a status no case
// takes is unexpected; the iterator follows the next link.
func TestCompactClient(t *testing.T) {
	api := &compactAPI{status: 200, response: `{"value":[{"id":"a","name":"n","rank":2,"tags":["red"]}]}`}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := must(compact.NewClient(srv.URL))
	ctx := context.Background()

	out, err := c.ListItems(ctx, compact.ListItemsArgs{})
	if err != nil || len(out.Value) != 1 || out.Value[0].ID != "a" || *out.Value[0].Rank != 2 {
		t.Fatalf("ListItems: %+v, %v", out, err)
	}
	zero, trace, session := int64(0), "t-1", "s 1"
	_, err = c.ListItems(ctx, compact.ListItemsArgs{Top: &zero, Select: []compact.ListItemsSelectItem{"id", "name"}, XTrace: &trace, Session: &session})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"GET /items? trace= cookie=",
		"GET /items?%24top=0&%24select=id,name trace=t-1 cookie=session=s%201",
	}
	if got := api.take(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	for _, status := range []int{404, 503} {
		api.status, api.response = status, `{"code":"c","message":"m"}`
		_, err := c.ListItems(ctx, compact.ListItemsArgs{})
		var ae *rest.APIError[compact.Error]
		if !errors.As(err, &ae) || ae.StatusCode != status || *ae.Body.Message != "m" {
			t.Errorf("ListItems answered %d: %v, want an *APIError[Error] with that status", status, err)
		}
		err = c.DeleteItem(ctx, compact.DeleteItemArgs{ID: "x"})
		if !errors.As(err, &ae) || ae.StatusCode != status {
			t.Errorf("DeleteItem answered %d: %v, want an *APIError[Error] with that status", status, err)
		}
	}
	api.status, api.response = 304, ""
	_, err = c.ListItems(ctx, compact.ListItemsArgs{})
	var se *rest.StatusError
	if !errors.As(err, &se) || se.StatusCode != 304 {
		t.Errorf("ListItems answered 304: %v, want a *StatusError", err)
	}
	api.status, api.response = 204, ""
	if err := c.DeleteItem(ctx, compact.DeleteItemArgs{ID: "x"}); err != nil {
		t.Errorf("DeleteItem answered 204: %v", err)
	}
	api.take()

	api.status, api.response, api.next = 200, `{"value":[{"id":"b"}]}`, srv.URL+"/items?page=2"
	var ids []string
	for it, err := range c.ListItemsAll(ctx, compact.ListItemsArgs{}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, it.ID)
	}
	if strings.Join(ids, ",") != "a,b" {
		t.Errorf("ListItemsAll: %v, want a,b", ids)
	}
}

// TestCompactTool: a tool call decodes its optional arguments with the
// runtime's helpers (null is absent, a wrong type or a value out of bounds
// is -32602 at its path), and a list function gathers its pages.
func TestCompactTool(t *testing.T) {
	api := &compactAPI{status: 200, response: `{"value":[{"id":"a","owner":{"name":"o"},"created":"2026-11-26T10:00:00Z"}]}`}
	srv := httptest.NewServer(api)
	defer srv.Close()
	tool, err := compact.NewTool(must(compact.NewClient(srv.URL)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := tool.Call(ctx, "listItems", json.RawMessage(`{"$top":null,"$select":null,"X-Trace":null}`))
	if err != nil || !strings.Contains(string(res), `"owner":{"name":"o"}`) {
		t.Fatalf("listItems: %s, %v", res, err)
	}
	if got := api.take(); len(got) != 1 || got[0] != "GET /items? trace= cookie=" {
		t.Errorf("requests %q, want one with nothing but the path", got)
	}
	_, err = tool.Call(ctx, "listItems", json.RawMessage(`{"$top":-1,"$select":["id","id"],"max_items":"x"}`))
	var e *runtime.Error
	want := `invalid params: /$top: got -1, want ≥ 0; /$select: got element 1 equal to element 0, want unique elements; /max_items: got "x", want integer`
	if !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams || e.Message != want {
		t.Errorf("listItems with bad arguments: %v\nwant %s", err, want)
	}
	if got := api.take(); len(got) != 0 {
		t.Errorf("requests %q, want none", got)
	}
	api.status, api.response = 503, `{"message":"down"}`
	_, err = tool.Call(ctx, "deleteItem", json.RawMessage(`{"id":"x"}`))
	if !errors.As(err, &e) || e.Code != 503 || string(e.Data) != `{"message":"down"}` {
		t.Errorf("deleteItem answered 503: %v, want code 503 with the body", err)
	}
}
