package gen

import (
	"strings"
	"testing"
)

// TestRelativeServerWarned: a relative server (OpenAPI's servers, Swagger
// 2.0's basePath without a host) is a warning at its own line, and the
// generated NewClient resolves it against the base URL it is given
// (rc.SetServer whatever the base URL).
func TestRelativeServerWarned(t *testing.T) {
	for _, c := range []struct{ name, doc, warning, set string }{
		{"swagger.json", `{"swagger": "2.0", "info": {"title": "d", "version": "1"},
  "basePath": "/v1.51",
  "paths": {"/c": {"get": {"operationId": "list", "responses": {"200": {"description": "ok"}}}}}}`,
			`swagger.json:2:15: warning: /basePath: the basePath, with no host, "/v1.51" is relative: the client resolves it against the base URL given to NewClient (NewClient("https://host") calls "https://host/v1.51"); NewClient("") returns an error that says so`, `rc.SetServer("/v1.51")`},
		{"oa.yaml", "openapi: 3.0.3\ninfo: {title: r, version: \"1\"}\nservers:\n  - url: /api/v3\npaths:\n  /p:\n    get:\n      operationId: p\n      responses: {\"200\": {description: ok}}\n",
			`oa.yaml:4:10: warning: /servers/0/url: the first server's URL "/api/v3" is relative`, `rc.SetServer("/api/v3")`},
	} {
		res, err := Generate(c.name, []byte(c.doc), Options{Package: "p"})
		if err != nil {
			t.Fatal(err)
		}
		var ws []string
		for _, w := range res.Warnings {
			ws = append(ws, w.String())
		}
		if !strings.Contains(strings.Join(ws, "\n"), c.warning) {
			t.Errorf("%s: warnings %q, want %s…", c.name, ws, c.warning)
		}
		var client string
		for _, f := range res.Files {
			if f.Name == "client.gen.go" {
				client = string(f.Content)
			}
		}
		if !strings.Contains(client, "\trc := rest.NewClient(baseURL)\n\t"+c.set+"\n") {
			t.Errorf("%s: NewClient does not resolve the server:\n%s", c.name, client)
		}
	}
}
