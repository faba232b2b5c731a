package openapie2e

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	params "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-params"
)

// TestWildRequests calls, through the Tool adapter as an agent does, the
// operations of two bugs a validating mock found: a path parameter the path
// template lacks was asked for and dropped (Superset's select_star), and a
// member required without a property, or required by an allOf part of its
// own, was not an argument, so the body went without it (currency).
func TestWildRequests(t *testing.T) {
	ctx := context.Background()
	f, api := newFake(t)
	tool, err := params.NewTool(must(params.NewClient(api.URL)))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(runtime.NewHandler(tool))
	defer srv.Close()
	oc := runtime.NewClient(srv.URL + "/opentool")

	doc, err := oc.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"selectStarTable": {"pk", "table_name"},
		"selectStar":      {"pk", "table_name", "schema_name"},
		"setBalance":      {"balance", "currency"},
		"charge":          {"amount", "currency"},
	}
	for _, fn := range doc.Functions {
		w, ok := want[fn.Name]
		if !ok {
			continue
		}
		var req []string
		for _, p := range fn.Parameters {
			if p.Required {
				req = append(req, p.Name)
			}
		}
		if len(req) != len(w) {
			t.Errorf("%s: required parameters %v, want %v", fn.Name, req, w)
			continue
		}
		for i := range w {
			if req[i] != w[i] {
				t.Errorf("%s: required parameters %v, want %v", fn.Name, req, w)
				break
			}
		}
		delete(want, fn.Name)
	}
	if len(want) > 0 {
		t.Errorf("not declared: %v", want)
	}

	f.expect(exchange{method: "GET", path: "/database/1/select_star/users/", status: 204})
	if err := oc.Invoke(ctx, "selectStarTable", map[string]any{"pk": 1, "table_name": "users"}, "", nil); err != nil {
		t.Error(err)
	}
	f.expect(exchange{method: "GET", path: "/database/1/select_star/users/public/", status: 204})
	if err := oc.Invoke(ctx, "selectStar", map[string]any{"pk": 1, "table_name": "users", "schema_name": "public"}, "", nil); err != nil {
		t.Error(err)
	}
	f.expect(exchange{method: "POST", path: "/balance", body: `{"balance":2.5,"currency":"RUB"}`, contentType: "application/json", status: 204})
	if err := oc.Invoke(ctx, "setBalance", map[string]any{"balance": 2.5, "currency": "RUB"}, "", nil); err != nil {
		t.Error(err)
	}
	f.expect(exchange{method: "POST", path: "/charges", body: `{"amount":100,"currency":"EUR"}`, contentType: "application/json", status: 204})
	if err := oc.Invoke(ctx, "charge", map[string]any{"amount": 100, "currency": "EUR"}, "", nil); err != nil {
		t.Error(err)
	}
	// Without the required member, the call is refused before any request.
	if err := oc.Invoke(ctx, "charge", map[string]any{"amount": 100}, "", nil); err == nil {
		t.Error("charge without currency: no error")
	}
}
