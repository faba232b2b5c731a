package openapie2e

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	servers "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-servers"
)

// hostPort splits the address of a test server.
func hostPort(t *testing.T, raw string) (string, string) {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	h, p, err := net.SplitHostPort(u.Host)
	if err != nil {
		t.Fatal(err)
	}
	return h, p
}

// TestServerVariables calls the document's servers: the client's URL with
// the variables the options set, the servers of a path and of an operation
// with the client's values of their variables, and every operation at a
// base URL given explicitly.
func TestServerVariables(t *testing.T) {
	ctx := context.Background()
	f, srv := newFake(t)
	host, port := hostPort(t, srv.URL)
	c := must(servers.NewClient("", servers.WithServerHost(host), servers.WithServerPort(port), servers.WithServerVersion(servers.ServerVersionV2)))

	f.expect(exchange{method: "GET", path: "/v2/items", status: 200, response: "[]"})
	if _, err := c.ListItems(ctx, servers.ListItemsArgs{}); err != nil {
		t.Error(err)
	}
	// The path's own server: /upload, not /v2.
	f.expect(exchange{method: "POST", path: "/upload/uploads", body: "data", contentType: "text/plain", status: 204})
	if err := c.Upload(ctx, servers.UploadArgs{Body: "data"}); err != nil {
		t.Error(err)
	}
	// The operation's own server.
	f.expect(exchange{method: "GET", path: "/status-api/status", status: 200, response: `{"ok":true}`})
	if st, err := c.Status(ctx); err != nil || st.Ok == nil || !*st.Ok {
		t.Errorf("Status: %+v, %v", st, err)
	}

	// A base URL given is used for every operation, its own servers too.
	c = must(servers.NewClient(srv.URL+"/base", servers.WithServerVersion("v2")))
	f.expect(exchange{method: "GET", path: "/base/items", status: 200, response: "[]"},
		exchange{method: "POST", path: "/base/uploads", body: "x", contentType: "text/plain", status: 204},
		exchange{method: "GET", path: "/base/status", status: 200, response: `{}`})
	if _, err := c.ListItems(ctx, servers.ListItemsArgs{}); err != nil {
		t.Error(err)
	}
	if err := c.Upload(ctx, servers.UploadArgs{Body: "x"}); err != nil {
		t.Error(err)
	}
	if _, err := c.Status(ctx); err != nil {
		t.Error(err)
	}

	// The defaults: DefaultBaseURL, which no test server answers; the
	// request is not sent when a variable is outside its enum.
	if servers.DefaultBaseURL != "http://localhost:8080/v1" {
		t.Errorf("DefaultBaseURL = %q", servers.DefaultBaseURL)
	}
	bad, err := servers.NewClient("", servers.WithServerHost(host), servers.WithServerPort(port), servers.WithServerVersion("v4"))
	if bad != nil || err == nil || err.Error() != `rest: server variable "version": got "v4", want one of "v1", "v2", "v3"` {
		t.Errorf("a version outside the enum: got %v, %v", bad, err)
	}
	// A base URL given does not hide a bad variable, and one that is not
	// an absolute URL fails too.
	if _, err := servers.NewClient(srv.URL, servers.WithServerVersion("v4")); err == nil {
		t.Error("a version outside the enum with a base URL: no error")
	}
	if _, err := servers.NewClient("localhost:8080"); err == nil || !strings.Contains(err.Error(), `base URL "localhost:8080": got no scheme and host`) {
		t.Errorf("a base URL without scheme: %v", err)
	}
	if servers.ServerVersion("v4").Valid() || !servers.ServerVersionV3.Valid() {
		t.Error("ServerVersion.Valid does not say what the enum allows")
	}
}

// TestChooseServer calls the document's other servers: WithServer with a
// constant named after the server's description (or its URL), the server's
// own defaults for the variables no option sets; operations with servers of
// their own keep them; a base URL given wins; a value that names no server
// fails every call.
func TestChooseServer(t *testing.T) {
	ctx := context.Background()
	f, srv := newFake(t)
	host, port := hostPort(t, srv.URL)
	// The sandbox's version defaults to v2, not the first server's v1.
	c := must(servers.NewClient("", servers.WithServer(servers.ServerSandbox), servers.WithServerHost(host), servers.WithServerPort(port)))
	f.expect(exchange{method: "GET", path: "/sandbox/v2/items", status: 200, response: "[]"})
	if _, err := c.ListItems(ctx, servers.ListItemsArgs{}); err != nil {
		t.Error(err)
	}
	// The options in any order; the variables the options set are kept.
	c = must(servers.NewClient("", servers.WithServerVersion(servers.ServerVersionV3), servers.WithServerHost(host), servers.WithServerPort(port), servers.WithServer(servers.ServerSandbox)))
	f.expect(exchange{method: "GET", path: "/sandbox/v3/items", status: 200, response: "[]"},
		exchange{method: "GET", path: "/status-api/status", status: 200, response: `{}`})
	if _, err := c.ListItems(ctx, servers.ListItemsArgs{}); err != nil {
		t.Error(err)
	}
	if _, err := c.Status(ctx); err != nil { // the operation's own server
		t.Error(err)
	}
	// Back to the first server, by its constant or by its index.
	for _, s := range []servers.Server{servers.ServerLocal, 0} {
		c = must(servers.NewClient("", servers.WithServer(servers.ServerSandbox), servers.WithServer(s), servers.WithServerHost(host), servers.WithServerPort(port)))
		f.expect(exchange{method: "GET", path: "/v1/items", status: 200, response: "[]"})
		if _, err := c.ListItems(ctx, servers.ListItemsArgs{}); err != nil {
			t.Error(err)
		}
	}
	// A base URL given is used instead.
	c = must(servers.NewClient(srv.URL+"/base", servers.WithServer(servers.ServerAPIExampleComV1)))
	f.expect(exchange{method: "GET", path: "/base/items", status: 200, response: "[]"})
	if _, err := c.ListItems(ctx, servers.ListItemsArgs{}); err != nil {
		t.Error(err)
	}
	// The production server without variables: its URL as it is.
	var sent string
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		sent = r.URL.String()
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("[]")), Request: r}, nil
	})}
	if _, err := must(servers.NewClient("", servers.WithServer(servers.ServerAPIExampleComV1), servers.WithHTTPClient(hc))).ListItems(ctx, servers.ListItemsArgs{}); err != nil || sent != "https://api.example.com/v1/items" {
		t.Errorf("production URL: %q, %v", sent, err)
	}
	if bad, err := servers.NewClient("", servers.WithServer(7)); bad != nil || err == nil ||
		err.Error() != "WithServer(7): got no server of the document, want one of the constants of Server" {
		t.Errorf("an unknown server: %v, %v", bad, err)
	}
}

// roundTripFunc is an http.RoundTripper.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestJSONContentParameters checks parameters declared with a JSON content:
// their JSON text in the query and in a header.
func TestJSONContentParameters(t *testing.T) {
	ctx := context.Background()
	f, srv := newFake(t)
	c := must(servers.NewClient(srv.URL))
	f.expect(exchange{method: "GET", path: "/items",
		query:  "filter=%7B%22color%22%3A%22red%22%2C%22size%22%3A2%7D&limit=3",
		header: map[string]string{"X-Trace": `["a","b c"]`},
		status: 200, response: `[{"id":1,"name":"one"}]`})
	items, err := c.ListItems(ctx, servers.ListItemsArgs{
		Filter: &servers.ListItemsFilter{Color: ptr("red"), Size: ptr[int64](2)},
		XTrace: []string{"a", "b c"}, Limit: ptr[int64](3)})
	if err != nil || len(items) != 1 || items[0].Name != "one" {
		t.Errorf("ListItems: %+v, %v", items, err)
	}
}

// TestResponseHeaders reads the headers a response declares into the typed
// result, and refuses one that is not of its type.
func TestResponseHeaders(t *testing.T) {
	ctx := context.Background()
	f, srv := newFake(t)
	c := must(servers.NewClient(srv.URL))
	f.expect(exchange{method: "GET", path: "/items", status: 200, response: `[{"name":"one"}]`,
		responseHeader: map[string]string{"X-RateLimit-Remaining": "41", "X-Next-Cursor": "c2"}})
	res, err := c.ListItemsWithHeaders(ctx, servers.ListItemsArgs{})
	if err != nil || len(res.Body) != 1 || res.Body[0].Name != "one" ||
		res.XRateLimitRemaining == nil || *res.XRateLimitRemaining != 41 || res.XNextCursor == nil || *res.XNextCursor != "c2" {
		t.Errorf("ListItemsWithHeaders: %+v, %v", res, err)
	}
	// Absent headers stay nil.
	f.expect(exchange{method: "GET", path: "/items", status: 200, response: `[]`})
	if res, err := c.ListItemsWithHeaders(ctx, servers.ListItemsArgs{}); err != nil || res.XRateLimitRemaining != nil || res.XNextCursor != nil {
		t.Errorf("no headers: %+v, %v", res, err)
	}
	f.expect(exchange{method: "POST", path: "/items", body: `{"name":"two"}`, contentType: "application/json",
		status: 201, response: `{"id":2,"name":"two"}`, responseHeader: map[string]string{"Location": "/items/2"}})
	created, err := c.CreateItemWithHeaders(ctx, servers.CreateItemArgs{Item: servers.Item{Name: "two"}})
	if err != nil || created.Location != "/items/2" || created.Body.ID == nil || *created.Body.ID != 2 {
		t.Errorf("CreateItemWithHeaders: %+v, %v", created, err)
	}
	// The plain method returns the body alone.
	f.expect(exchange{method: "POST", path: "/items", body: `{"name":"three"}`, contentType: "application/json",
		status: 201, response: `{"name":"three"}`, responseHeader: map[string]string{"Location": "/items/3"}})
	if item, err := c.CreateItem(ctx, servers.CreateItemArgs{Item: servers.Item{Name: "three"}}); err != nil || item.Name != "three" {
		t.Errorf("CreateItem: %+v, %v", item, err)
	}
	// A header that is not what the document says is an error of the API.
	f.expect(exchange{method: "GET", path: "/items", status: 200, response: `[]`,
		responseHeader: map[string]string{"X-RateLimit-Remaining": "many"}})
	_, err = c.ListItemsWithHeaders(ctx, servers.ListItemsArgs{})
	if err == nil || !strings.Contains(err.Error(), `header X-RateLimit-Remaining is "many", not an integer`) {
		t.Errorf("a bad header: got %v", err)
	}
}

// TestExplicitNull sends null for an optional nullable member of the body
// from the typed client (NoteNull), and leaves it out when it is absent; a
// null argument of a tool call stays absent (strict-mode models send null for
// every optional argument they leave out).
func TestExplicitNull(t *testing.T) {
	ctx := context.Background()
	f, api := newFake(t)
	c := must(servers.NewClient(api.URL))
	f.expect(exchange{method: "PATCH", path: "/items/4", body: `{"note":null}`, contentType: "application/json", status: 204},
		exchange{method: "PATCH", path: "/items/4", body: `{"name":"n"}`, contentType: "application/json", status: 204},
		exchange{method: "PATCH", path: "/items/4", body: `{"note":"x"}`, contentType: "application/json", status: 204})
	if err := c.UpdateItem(ctx, servers.UpdateItemArgs{ID: 4, NoteNull: true}); err != nil {
		t.Error(err)
	}
	if err := c.UpdateItem(ctx, servers.UpdateItemArgs{ID: 4, Name: ptr("n")}); err != nil {
		t.Error(err)
	}
	// A value wins over the flag.
	if err := c.UpdateItem(ctx, servers.UpdateItemArgs{ID: 4, Note: ptr("x"), NoteNull: true}); err != nil {
		t.Error(err)
	}

	tool, err := servers.NewTool(c)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(runtime.NewHandler(tool))
	defer srv.Close()
	oc := runtime.NewClient(srv.URL + "/opentool")
	f.expect(exchange{method: "PATCH", path: "/items/5", body: `{"name":"m"}`, contentType: "application/json", status: 204},
		exchange{method: "PATCH", path: "/items/5", body: `{"name":"m"}`, contentType: "application/json", status: 204})
	if err := oc.Invoke(ctx, "updateItem", map[string]any{"id": 5, "name": "m", "note": nil}, "", nil); err != nil {
		t.Error(err)
	}
	if err := oc.Invoke(ctx, "updateItem", map[string]any{"id": 5, "name": "m"}, "", nil); err != nil {
		t.Error(err)
	}
}
