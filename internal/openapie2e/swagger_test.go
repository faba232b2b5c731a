package openapie2e

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime/rest"
	swagger "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-swagger"
)

// TestSwaggerClient exercises a Swagger 2.0 document converted by openapi2conv:
// collection formats, an API key in the query, alternative security
// requirements, form and multipart bodies.
func TestSwaggerClient(t *testing.T) {
	ctx := context.Background()
	if swagger.DefaultBaseURL != "https://store.example.com/api" {
		t.Errorf("DefaultBaseURL = %q", swagger.DefaultBaseURL)
	}
	f, srv := newFake(t)
	c := must(swagger.NewClient(srv.URL+"/api", swagger.WithKey("k&y"), swagger.WithBasic("me", "pw"), swagger.WithOAuth("tok")))

	f.expect(exchange{method: "GET", path: "/api/orders", query: "status=placed,shipped&ids=1&ids=2&tags=a|b&limit=5&api_key=k%26y",
		status: 200, response: `[{"id":1,"item":"pen","quantity":2,"shipDate":"2024-02-03T04:05:06Z","extras":{"gift":1.5}}]`})
	orders, err := c.FindOrders(ctx, swagger.FindOrdersArgs{
		Status: []swagger.OrderStatus{swagger.OrderStatusPlaced, swagger.OrderStatusShipped},
		IDs:    []int64{1, 2}, Tags: []string{"a", "b"}, Limit: ptr[int32](5),
	})
	if err != nil || len(orders) != 1 || *orders[0].ID != 1 || orders[0].Extras["gift"] != 1.5 || orders[0].ShipDate.Year() != 2024 {
		t.Errorf("FindOrders: %+v, %v", orders, err)
	}
	f.expect(exchange{method: "GET", path: "/api/orders", query: "api_key=k%26y", status: 400, response: `{"title":"bad"}`})
	_, err = c.FindOrders(ctx, swagger.FindOrdersArgs{})
	var apiErr *rest.APIError[swagger.Problem]
	if !errors.As(err, &apiErr) || *apiErr.Body.Title != "bad" {
		t.Errorf("FindOrders 400: %v", err)
	}

	// The first alternative the client has credentials for: basic.
	f.expect(exchange{method: "POST", path: "/api/orders", body: `{"item":"pen","quantity":2}`, contentType: "application/json",
		header: map[string]string{"Authorization": "Basic bWU6cHc=", "X-Trace": "t1"}, status: 201, response: `{"item":"pen","quantity":2}`})
	if _, err := c.PlaceOrder(ctx, swagger.PlaceOrderArgs{Item: "pen", Quantity: 2, XTrace: ptr("t1")}); err != nil {
		t.Error(err)
	}
	// Without basic credentials, the OAuth token.
	c2 := must(swagger.NewClient(srv.URL+"/api", swagger.WithOAuth("tok")))
	f.expect(exchange{method: "POST", path: "/api/orders", body: `{"item":"pen","quantity":2}`, contentType: "application/json",
		header: map[string]string{"Authorization": "Bearer tok"}, status: 201, response: `{"item":"pen","quantity":2}`})
	if _, err := c2.PlaceOrder(ctx, swagger.PlaceOrderArgs{Item: "pen", Quantity: 2}); err != nil {
		t.Error(err)
	}

	f.expect(exchange{method: "POST", path: "/api/orders/o%2F1/note", query: "api_key=k%26y", body: "text=hello%20world&urgent=true",
		contentType: "application/x-www-form-urlencoded", status: 204})
	if err := c.AddNote(ctx, swagger.AddNoteArgs{OrderID: "o/1", Text: "hello world", Urgent: ptr(true)}); err != nil {
		t.Error(err)
	}

	f.expect(exchange{method: "POST", path: "/api/orders/o1/receipt", query: "api_key=k%26y", status: 204, inspect: func(t *testing.T, r *http.Request, _ []byte) {
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			t.Error(err)
			return
		}
		file, hdr, err := r.FormFile("file")
		if err != nil {
			t.Error(err)
			return
		}
		b, _ := io.ReadAll(file)
		if string(b) != "%PDF" || hdr.Header.Get("Content-Type") != "application/octet-stream" || r.FormValue("comment") != "paid" {
			t.Errorf("multipart: %q %q %q", b, hdr.Header.Get("Content-Type"), r.FormValue("comment"))
		}
	}})
	if err := c.UploadReceipt(ctx, swagger.UploadReceiptArgs{OrderID: "o1", File: []byte("%PDF"), Comment: ptr("paid")}); err != nil {
		t.Error(err)
	}
}
