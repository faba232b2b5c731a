package openapie2e

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime/rest"
	relative "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-relative"
)

// TestRelativeServer: a document whose server is a relative URL
// (/api/{version}) is called at that path under the base URL given, with
// the variables the options set, and so is an operation's own relative
// server; a base URL that has the path already is not doubled. Given no
// base URL, every call fails with a *rest.RelativeServerError that names
// the server and the fix, before any request is sent.
func TestRelativeServer(t *testing.T) {
	ctx := context.Background()
	f, srv := newFake(t)

	c := relative.NewClient(srv.URL)
	f.expect(exchange{method: "GET", path: "/api/v3/pets", status: 200, response: `["rex"]`})
	if got, err := c.ListPets(ctx); err != nil || len(got) != 1 || got[0] != "rex" {
		t.Errorf("ListPets: %v, %v", got, err)
	}
	f.expect(exchange{method: "POST", path: "/upload/v4/files", body: `{"name":"a"}`, contentType: "application/json", status: 204})
	if err := relative.NewClient(srv.URL+"/", relative.WithServerVersion(relative.ServerVersionV4)).UploadFile(ctx, relative.UploadFileArgs{Name: ptr("a")}); err != nil {
		t.Error(err)
	}
	f.expect(exchange{method: "GET", path: "/api/v4/pets", status: 200, response: `[]`})
	if _, err := relative.NewClient(srv.URL+"/api/v4", relative.WithServerVersion("v4")).ListPets(ctx); err != nil {
		t.Error(err)
	}

	_, err := relative.NewClient("").ListPets(ctx)
	var rel *rest.RelativeServerError
	if !errors.As(err, &rel) || rel.Server != "/api/v3" || !strings.Contains(err.Error(), "give NewClient the API's base URL") {
		t.Errorf("NewClient(\"\"): %v", err)
	}
	if err := relative.NewClient("").UploadFile(ctx, relative.UploadFileArgs{}); !errors.As(err, &rel) || rel.Server != "/upload/v3" {
		t.Errorf("NewClient(\"\") UploadFile: %v", err)
	}
}
