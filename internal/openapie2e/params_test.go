package openapie2e

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	params "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-params"
)

// TestParameterStyles checks the serialisation of every parameter style and
// every request body type against the exact bytes on the wire.
func TestParameterStyles(t *testing.T) {
	ctx := context.Background()
	f, srv := newFake(t)
	c := must(params.NewClient(srv.URL))

	f.expect(exchange{method: "GET", path: "/paths/a%20b%2Fc/1,2/x=1,y=2/.x.y/;matrix=m,n/;x=1;y=2", status: 204})
	if err := c.PathStyles(ctx, params.PathStylesArgs{
		Simple: "a b/c", SimpleArr: []int64{1, 2}, SimpleObj: params.Point{X: 1, Y: 2},
		Label: []string{"x", "y"}, Matrix: []string{"m", "n"}, MatrixObj: params.Point{X: 1, Y: 2},
	}); err != nil {
		t.Error(err)
	}

	when := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	f.expect(exchange{method: "GET", path: "/query",
		query: "q=a%20b%26c%3Dd%2F%C3%A9&ids=1,2,3&tags=t1&tags=t2&space=a%20b&pipe=a|b&filter%5Bcolor%5D=red&filter%5Bsize%5D=10" +
			"&x=1&y=2&pointFlat=x,3,y,4&path=/a/b?c&when=2024-01-02T03%3A04%3A05Z",
		status: 204})
	if err := c.QueryStyles(ctx, params.QueryStylesArgs{
		Q: ptr("a b&c=d/é"), IDs: []int64{1, 2, 3}, Tags: []string{"t1", "t2"}, Space: []string{"a", "b"}, Pipe: []string{"a", "b"},
		Filter: &params.QueryStylesFilter{Color: ptr("red"), Size: ptr[int64](10)},
		Point:  &params.Point{X: 1, Y: 2}, PointFlat: &params.Point{X: 3, Y: 4}, Path: ptr("/a/b?c"), When: &when,
	}); err != nil {
		t.Error(err)
	}
	// Nothing optional: no query at all.
	f.expect(exchange{method: "GET", path: "/query", status: 204})
	if err := c.QueryStyles(ctx, params.QueryStylesArgs{}); err != nil {
		t.Error(err)
	}

	f.expect(exchange{method: "GET", path: "/headers", header: map[string]string{"X-Ids": "1,2", "X-Point": "x=1,y=2"},
		cookie: "session=s%20id; prefs=a,b", status: 204})
	if err := c.HeaderAndCookieStyles(ctx, params.HeaderAndCookieStylesArgs{XIDs: []int64{1, 2}, XPoint: &params.Point{X: 1, Y: 2}, Session: "s id", Prefs: []string{"a", "b"}}); err != nil {
		t.Error(err)
	}

	f.expect(exchange{method: "POST", path: "/json-array", body: `["a","b"]`, contentType: "application/json", status: 200, response: "2"})
	if n, err := c.JSONArrayBody(ctx, params.JSONArrayBodyArgs{Body: []string{"a", "b"}}); err != nil || n != 2 {
		t.Errorf("JSONArrayBody: %v, %v", n, err)
	}

	f.expect(exchange{method: "POST", path: "/form", body: "name=R%C3%A9x&tags=a&tags=b&meta%5Ba%5D=x%26y&meta%5Bb%5D=2",
		contentType: "application/x-www-form-urlencoded", status: 204})
	if err := c.FormBody(ctx, params.FormBodyArgs{Name: "Réx", Tags: []string{"a", "b"}, Meta: &params.FormBodyMeta{A: ptr("x&y"), B: ptr[int64](2)}}); err != nil {
		t.Error(err)
	}

	f.expect(exchange{method: "POST", path: "/upload", status: 204, inspect: func(t *testing.T, r *http.Request, _ []byte) {
		mr, err := r.MultipartReader()
		if err != nil {
			t.Error(err)
			return
		}
		var got []string
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Error(err)
				return
			}
			b, _ := io.ReadAll(p)
			got = append(got, p.FormName()+"|"+p.FileName()+"|"+p.Header.Get("Content-Type")+"|"+string(b))
		}
		want := []string{"file|file|image/png|\x89PNG", "description||| a photo", "count|||3", `meta||application/json|{"x":1,"y":2}`}
		if len(got) != len(want) {
			t.Errorf("multipart parts: got %q, want %q", got, want)
			return
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("part %d: got %q, want %q", i, got[i], want[i])
			}
		}
	}})
	if err := c.MultipartBody(ctx, params.MultipartBodyArgs{File: []byte("\x89PNG"), Description: ptr(" a photo"), Count: ptr[int64](3), Meta: &params.Point{X: 1, Y: 2}}); err != nil {
		t.Error(err)
	}

	f.expect(exchange{method: "PUT", path: "/raw", body: "\x00\x01\x02", contentType: "application/octet-stream", status: 204})
	if err := c.OctetBody(ctx, params.OctetBodyArgs{Body: []byte{0, 1, 2}}); err != nil {
		t.Error(err)
	}

	f.expect(exchange{method: "POST", path: "/text", body: "hello", contentType: "text/plain", status: 200, response: "HELLO", responseType: "text/plain"})
	if s, err := c.TextBody(ctx, params.TextBodyArgs{Body: ptr("hello")}); err != nil || s != "HELLO" {
		t.Errorf("TextBody: %q, %v", s, err)
	}

	f.expect(exchange{method: "PATCH", path: "/merge/3", body: `{"name":"x"}`, contentType: "application/merge-patch+json", status: 204})
	if err := c.MergePatch(ctx, params.MergePatchArgs{ID: 3, Name: ptr("x")}); err != nil {
		t.Error(err)
	}

	f.expect(exchange{method: "GET", path: "/download", status: 200, response: "\x00bin", responseType: "application/octet-stream"})
	if b, err := c.Download(ctx); err != nil || string(b) != "\x00bin" {
		t.Errorf("Download: %q, %v", b, err)
	}
}
