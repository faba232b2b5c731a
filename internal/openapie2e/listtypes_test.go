package openapie2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	listtypes "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-listtypes"
)

// listTypesAPI serves the list operations of the openapi-listtypes golden
// case: total items x0, x1, … three a page, each in its own shape (a named
// array type, an object whose data is one, one behind pointers, a plain
// array), and counts the requests.
type listTypesAPI struct {
	total int
	mu    sync.Mutex
	log   []string
}

func (a *listTypesAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	a.log = append(a.log, r.URL.Path+"?"+r.URL.RawQuery)
	a.mu.Unlock()
	q := r.URL.Query()
	num := func(k string, def int) int {
		if v, err := strconv.Atoi(q.Get(k)); err == nil {
			return v
		}
		return def
	}
	page := func(from int, key string) []map[string]any {
		out := []map[string]any{}
		for i := max(from, 0); i < from+3 && i < a.total; i++ {
			out = append(out, map[string]any{key: "x" + strconv.Itoa(i)})
		}
		return out
	}
	var body any
	switch r.URL.Path {
	case "/blocks", "/spam":
		body = page(num("offset", 0), "email")
	case "/builds":
		from := 0
		if c := q.Get("cursor"); c != "" {
			from, _ = strconv.Atoi(c)
		}
		m := map[string]any{"data": page(from, "id"), "next_cursor": nil}
		if from+3 < a.total {
			m["next_cursor"] = strconv.Itoa(from + 3)
		}
		body = m
	case "/reports":
		body = map[string]any{"page": map[string]any{"items": page((num("page", 1)-1)*3, "id")}}
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(body)
}

func (a *listTypesAPI) requests() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.log)
}

// A list operation whose result is a named array type (type BlocksResponse
// []Block), or whose items are one (in the result, behind pointers), pages
// as a plain array does: the client's iterator walks every item in order,
// and the Tool gathers max_items of them into the last page's result.
func TestListNamedArrayTypes(t *testing.T) {
	api := &listTypesAPI{total: 8}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := must(listtypes.NewClient(srv.URL))
	ctx := context.Background()
	const all = "x0,x1,x2,x3,x4,x5,x6,x7"
	walks := map[string]func() ([]string, error){
		"named array result": func() ([]string, error) {
			return ids(c.ListBlocksAll(ctx, listtypes.ListBlocksArgs{}), func(b listtypes.Block) string { return b.Email })
		},
		"named array member": func() ([]string, error) {
			return ids(c.ListBuildsAll(ctx, listtypes.ListBuildsArgs{}), func(b listtypes.Build) string { return b.ID })
		},
		"named array behind pointers": func() ([]string, error) {
			return ids(c.ListReportsAll(ctx, listtypes.ListReportsArgs{}), func(r listtypes.Report) string { return r.ID })
		},
		"plain array": func() ([]string, error) {
			return ids(c.ListSpamAll(ctx, listtypes.ListSpamArgs{}), func(b listtypes.Block) string { return b.Email })
		},
	}
	for name, walk := range walks {
		got, err := walk()
		if err != nil || strings.Join(got, ",") != all {
			t.Errorf("%s: %v, %v", name, got, err)
		}
	}

	tool, err := listtypes.NewTool(c)
	if err != nil {
		t.Fatal(err)
	}
	// The Tool gathers 5 of the 8 items (two pages of three) into the last
	// page's result, wherever the result keeps them.
	for _, tc := range []struct {
		name string
		path func(m map[string]any) any
		key  string
	}{
		{"listBlocks", func(m map[string]any) any { return m["result"] }, "email"},
		{"listBuilds", func(m map[string]any) any { return m["data"] }, "id"},
		{"listReports", func(m map[string]any) any { p, _ := m["page"].(map[string]any); return p["items"] }, "id"},
		{"listSpam", func(m map[string]any) any { return m["result"] }, "email"},
	} {
		before := api.requests()
		raw, err := tool.Call(ctx, tc.name, json.RawMessage(`{"max_items":5}`))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		items, _ := tc.path(m).([]any)
		var got []string
		for _, it := range items {
			got = append(got, fmt.Sprint(it.(map[string]any)[tc.key]))
		}
		if strings.Join(got, ",") != "x0,x1,x2,x3,x4" || api.requests()-before != 2 {
			t.Errorf("%s: %s after %d requests", tc.name, raw, api.requests()-before)
		}
	}
}
