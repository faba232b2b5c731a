package openapie2e

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime/rest"
	opservers "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-opservers"
	relative "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-relative"
	wild "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-wild"
)

// TestRelativeServer: a document whose server is a relative URL
// (/api/{version}) is called at that path under the base URL given, with
// the variables the options set, and so is an operation's own relative
// server; a base URL that has the path already is not doubled. Given no
// base URL, NewClient returns a *rest.RelativeServerError that names the
// server and the fix.
func TestRelativeServer(t *testing.T) {
	ctx := context.Background()
	f, srv := newFake(t)

	c := must(relative.NewClient(srv.URL))
	f.expect(exchange{method: "GET", path: "/api/v3/pets", status: 200, response: `["rex"]`})
	if got, err := c.ListPets(ctx); err != nil || len(got) != 1 || got[0] != "rex" {
		t.Errorf("ListPets: %v, %v", got, err)
	}
	f.expect(exchange{method: "POST", path: "/upload/v4/files", body: `{"name":"a"}`, contentType: "application/json", status: 204})
	if err := must(relative.NewClient(srv.URL+"/", relative.WithServerVersion(relative.ServerVersionV4))).UploadFile(ctx, relative.UploadFileArgs{Name: ptr("a")}); err != nil {
		t.Error(err)
	}
	f.expect(exchange{method: "GET", path: "/api/v4/pets", status: 200, response: `[]`})
	if _, err := must(relative.NewClient(srv.URL+"/api/v4", relative.WithServerVersion("v4"))).ListPets(ctx); err != nil {
		t.Error(err)
	}

	bad, err := relative.NewClient("")
	var rel *rest.RelativeServerError
	if bad != nil || !errors.As(err, &rel) || rel.Server != "/api/v3" || !strings.Contains(err.Error(), `give the API's base URL (base URL "https://host" calls "https://host/api/v3")`) {
		t.Errorf("NewClient(\"\"): %v, %v", bad, err)
	}
	if _, err := relative.NewClient("", relative.WithServerVersion(relative.ServerVersionV4)); !errors.As(err, &rel) || rel.Server != "/api/v4" {
		t.Errorf("NewClient(\"\", WithServerVersion(v4)): %v", err)
	}
}

// TestNoServer: the client of a document without servers needs a base URL:
// NewClient("") returns rest.ErrNoBaseURL, and one that is not an absolute
// URL an error naming it; unless every operation has a server of its own,
// which it then calls.
func TestNoServer(t *testing.T) {
	if c, err := wild.NewClient(""); c != nil || !errors.Is(err, rest.ErrNoBaseURL) {
		t.Errorf("NewClient(\"\"): %v, %v; want rest.ErrNoBaseURL", c, err)
	}
	if _, err := wild.NewClient("api.example.com/v1"); err == nil || !strings.Contains(err.Error(), `base URL "api.example.com/v1": got no scheme and host`) {
		t.Errorf("a base URL without scheme: %v", err)
	}
	var sent []string
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		sent = append(sent, r.URL.String())
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("{}")), Request: r}, nil
	})}
	c, err := opservers.NewClient("", opservers.WithHTTPClient(hc))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.Status(ctx); err != nil {
		t.Error(err)
	}
	if _, err := c.ListItems(ctx); err == nil { // {} is not a list
		t.Error("ListItems decoded {} as a list")
	}
	if want := []string{"https://status.example.com/v1/status", "https://items.example.com/v2/items"}; strings.Join(sent, " ") != strings.Join(want, " ") {
		t.Errorf("sent to %q, want %q", sent, want)
	}
}
