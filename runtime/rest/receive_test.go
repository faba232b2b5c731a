package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/decode"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
)

// statusAPI answers each request with the status and body its query asks
// for (?status=404&body=…).
func statusAPI(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		status, _ := strconv.Atoi(r.URL.Query().Get("status"))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(r.URL.Query().Get("body")))
	}))
	t.Cleanup(srv.Close)
	return srv
}

type apiError struct {
	Message string `json:"message"`
}

type otherError struct {
	Code int `json:"code"`
}

// switchReceive is the switch a generated method held before Receive, for
// the failures of spec: "unexpected" (none), "4XX,5XX" (the default case
// rest.ErrorFor[apiError] of those), "404;4XX,5XX" (a case of its own for
// the apiError of 404, then the default rest.ErrorFor[otherError] of 4XX and
// 5XX).
func switchReceive(ctx context.Context, r *Request, ok string, out *benchItem, decode func(*decode.Decoder, *benchItem), spec string) error {
	resp, err := r.Send(ctx)
	if err != nil {
		return err
	}
	first, last, two := strings.Cut(spec, ";")
	switch {
	case resp.Is(ok) && decode == nil:
		err = resp.Decode(out)
	case resp.Is(ok):
		err = DecodeChecked(resp, out, decode)
	case two && slices.ContainsFunc(strings.Split(first, ","), resp.Is):
		err = NewAPIError[apiError](resp)
	case resp.Success():
	default:
		switch {
		case spec == "unexpected":
			err = resp.Unexpected()
		case two:
			err = ErrorFor[otherError](resp, strings.Split(last, ",")...)
		default:
			err = ErrorFor[apiError](resp, strings.Split(spec, ",")...)
		}
	}
	return err
}

// failures are the Failures of spec (see switchReceive).
func failures(spec string) []Failure {
	first, last, two := strings.Cut(spec, ";")
	switch {
	case spec == "unexpected":
		return nil
	case two:
		return []Failure{APIErrors[apiError](strings.Split(first, ",")...), APIErrors[otherError](strings.Split(last, ",")...)}
	}
	return []Failure{APIErrors[apiError](strings.Split(spec, ",")...)}
}

// describe is what a test compares of an error: its type, text, and the
// code and data of a *runtime.Error, the status and body of the others.
func describe(err error) string {
	var re *runtime.Error
	var ae *APIError[apiError]
	var se *StatusError
	switch {
	case err == nil:
		return "nil"
	case errors.As(err, &re):
		return fmt.Sprintf("runtime.Error %d %q %s", re.Code, re.Message, re.Data)
	case errors.As(err, &ae):
		return fmt.Sprintf("APIError %d %q %+v %v %s", ae.StatusCode, ae.Raw, ae.Body, ae.DecodeErr, ae.Operation)
	case errors.As(err, new(*APIError[otherError])):
		var oe *APIError[otherError]
		errors.As(err, &oe)
		return fmt.Sprintf("APIError[otherError] %d %q %+v %v %s", oe.StatusCode, oe.Raw, oe.Body, oe.DecodeErr, oe.Operation)
	case errors.As(err, &se):
		return fmt.Sprintf("StatusError %d %q %s", se.StatusCode, se.Body, se.Operation)
	}
	return fmt.Sprintf("%T %v", err, err)
}

// TestReceiveAsSwitch: Receive answers what the switch it replaces in a
// generated method answers, error and result, for every status class, a
// success it decodes and one it does not, empty, invalid and out-of-schema
// bodies, strict or not, each failure, and a request that never gets a
// response.
func TestReceiveAsSwitch(t *testing.T) {
	srv := statusAPI(t)
	bodies := []string{"", `{"id":"a","status":"active"}`, `{"id":"a","status":"gone"}`, `{"id":1}`, `not json`, `{"message":"m","code":7}`}
	statuses := []int{200, 201, 204, 302, 304, 400, 404, 422, 500, 503}
	n := 0
	for _, strict := range []bool{false, true} {
		c := NewClient(srv.URL)
		c.StrictResponses = strict
		for _, ok := range []string{"200", "2XX"} {
			for _, fail := range []string{"unexpected", "4XX,5XX", "404", "default", "404;4XX,5XX", "400,404;default"} {
				for _, withDecoder := range []bool{true, false} {
					decode := decodeBenchItem
					if !withDecoder {
						decode = nil
					}
					for _, status := range statuses {
						for _, body := range bodies {
							if status == 204 || status == 304 {
								body = ""
							}
							req := func() *Request {
								r := c.NewRequest("GET", "/x")
								r.Query("status", status)
								r.Query("body", body)
								return r
							}
							ctx := context.Background()
							var want, got benchItem
							wantErr := describe(switchReceive(ctx, req(), ok, &want, decode, fail))
							gotErr := describe(Receive(ctx, req(), ok, &got, decode, failures(fail)...))
							if gotErr != wantErr || !reflect.DeepEqual(got, want) {
								t.Errorf("strict %v, ok %s, fail %s, decoder %v, %d %q:\n got %+v, %s\nwant %+v, %s", strict, ok, fail, withDecoder, status, body, got, gotErr, want, wantErr)
							}
							n++
						}
					}
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d cases", n)
	}
}

// TestReceive: what Receive answers, case by case.
func TestReceive(t *testing.T) {
	srv := statusAPI(t)
	ctx := context.Background()
	get := func(c *Client, status int, body string) *Request {
		r := c.NewRequest("GET", "/items/{id}")
		r.Path("id", "x")
		r.Query("status", status)
		r.Query("body", body)
		return r
	}
	c := NewClient(srv.URL)
	fail := APIErrors[apiError]("4XX", "5XX")

	var out benchItem
	if err := Receive(ctx, get(c, 200, `{"id":"a","status":"gone"}`), "200", &out, decodeBenchItem, fail); err != nil || out.ID != "a" || out.Status != "gone" {
		t.Errorf("200: %+v, %v, want it decoded, unchecked", out, err)
	}
	out = benchItem{ID: "kept"}
	if err := Receive(ctx, get(c, 201, `{"id":"b","status":"active"}`), "200", &out, decodeBenchItem, fail); err != nil || out.ID != "kept" {
		t.Errorf("201 after ok 200: %+v, %v, want success, out left alone", out, err)
	}
	if err := Receive(ctx, get(c, 200, ``), "2XX", &out, decodeBenchItem, fail); err != nil || out.ID != "kept" {
		t.Errorf("empty 200: %+v, %v, want success, out left alone", out, err)
	}
	err := Receive(ctx, get(c, 404, `{"message":"no"}`), "2XX", &out, decodeBenchItem, fail)
	var ae *APIError[apiError]
	if !errors.As(err, &ae) || ae.StatusCode != 404 || ae.Body.Message != "no" || ae.Operation != "GET /items/{id}" {
		t.Errorf("404: %v, want an *APIError[apiError] with the body", err)
	}
	err = Receive(ctx, get(c, 302, `{"message":"no"}`), "2XX", &out, decodeBenchItem, fail)
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != 302 {
		t.Errorf("302 (a redirect without Location): %v, want a *StatusError", err)
	}
	err = Receive(ctx, get(c, 500, `{"message":"no"}`), "2XX", &out, decodeBenchItem)
	if !errors.As(err, &se) || se.StatusCode != 500 || string(se.Body) != `{"message":"no"}` {
		t.Errorf("500, no Failure: %v, want a *StatusError with the body", err)
	}
	err = Receive(ctx, get(c, 200, `{"id":`), "2XX", &out, decodeBenchItem, fail)
	var re *runtime.Error
	if !errors.As(err, &re) || re.Code != http.StatusBadGateway {
		t.Errorf("undecodable 200: %v, want a 502", err)
	}

	strict := NewClient(srv.URL)
	WithStrictResponses()(strict)
	out = benchItem{}
	err = Receive(ctx, get(strict, 200, `{"id":"a","status":"gone"}`), "2XX", &out, decodeBenchItem, fail)
	if !errors.As(err, &re) || re.Code != http.StatusBadGateway || !strings.Contains(re.Message, "/status: got \"gone\"") || !strings.Contains(string(re.Data), `"path":"/status"`) {
		t.Errorf("strict 200 out of the document: %v, want a 502 naming /status", err)
	}
	err = Receive(ctx, get(c, 200, `{"id":"a","status":"gone"}`), "2XX", &out, decodeBenchItem, fail)
	if err != nil {
		t.Errorf("the same, not strict: %v", err)
	}
	err = Receive(toolopt.ContextWithStrictResponses(ctx), get(c, 200, `{"id":"a","status":"gone"}`), "2XX", &out, decodeBenchItem, fail)
	if !errors.As(err, &re) || re.Code != http.StatusBadGateway {
		t.Errorf("strict by the context: %v, want a 502", err)
	}
	var raw json.RawMessage
	err = Receive(ctx, get(strict, 200, `{"any":"thing"}`), "2XX", &raw, nil, fail)
	if err != nil || string(raw) != `{"any":"thing"}` {
		t.Errorf("strict with no decoder: %s, %v, want the body as it is", raw, err)
	}

	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	out = benchItem{ID: "kept"}
	err = Receive(ctx, NewClient(down.URL).NewRequest("GET", "/x"), "2XX", &out, decodeBenchItem, fail)
	if err == nil || out.ID != "kept" || errors.As(err, &se) || errors.As(err, &ae) {
		t.Errorf("no server: %+v, %v, want the error of the request", out, err)
	}
	resp, err := ReceiveResponse(ctx, NewClient(down.URL).NewRequest("GET", "/x"), "2XX", &out, decodeBenchItem, fail)
	if err == nil || resp != nil {
		t.Errorf("ReceiveResponse, no server: %v, %v, want no response and the error", resp, err)
	}
}

// TestReceiveResponse: ReceiveResponse answers as Receive, with the
// response whose headers a method reads.
func TestReceiveResponse(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		status, _ := strconv.Atoi(r.URL.Query().Get("status"))
		w.Header().Set("Link", `</x?page=2>; rel="next"`)
		w.Header().Set("X-Count", r.URL.Query().Get("count"))
		w.WriteHeader(status)
		w.Write([]byte(r.URL.Query().Get("body")))
	}))
	defer srv.Close()
	c := NewClient(srv.URL)
	get := func(status int, count, body string) *Request {
		r := c.NewRequest("GET", "/x")
		r.Query("status", status)
		r.Query("count", count)
		r.Query("body", body)
		return r
	}
	ctx := context.Background()
	var out struct {
		Body  benchItem
		Link  string
		Count *int64
	}
	// What a generated FWithHeaders method does.
	call := func(r *Request) error {
		resp, err := ReceiveResponse(ctx, r, "200", &out.Body, decodeBenchItem, APIErrors[apiError]("404"))
		if err == nil {
			err = resp.HeaderValue("Link", &out.Link)
		}
		if err == nil {
			err = resp.HeaderValue("X-Count", &out.Count)
		}
		return err
	}
	if err := call(get(200, "3", `{"id":"a","status":"active"}`)); err != nil || out.Body.ID != "a" || out.Link != `</x?page=2>; rel="next"` || out.Count == nil || *out.Count != 3 {
		t.Errorf("200: %+v, %v, want the body and both headers", out, err)
	}
	out.Link, out.Count = "", nil
	if err := call(get(204, "4", ``)); err != nil || out.Link == "" || *out.Count != 4 {
		t.Errorf("204: %+v, %v, want the headers", out, err)
	}
	out.Link, out.Count = "", nil
	var ae *APIError[apiError]
	if err := call(get(404, "5", `{"message":"m"}`)); !errors.As(err, &ae) || out.Link != "" || out.Count != nil {
		t.Errorf("404: %+v, %v, want the API error, no headers read", out, err)
	}
	var re *runtime.Error
	if err := call(get(200, "x", `{}`)); !errors.As(err, &re) || re.Code != http.StatusBadGateway || !strings.Contains(re.Message, "X-Count") {
		t.Errorf("200 with a bad header: %v, want a 502 naming it", err)
	}
}

// TestReceiveBody: a text or binary result is the body as it came, for
// the status it is documented for; other 2xx leave it alone, other
// statuses fail as for Receive.
func TestReceiveBody(t *testing.T) {
	srv := statusAPI(t)
	ctx := context.Background()
	c := NewClient(srv.URL)
	WithStrictResponses()(c)
	get := func(status int, body string) *Request {
		r := c.NewRequest("GET", "/file")
		r.Query("status", status)
		r.Query("body", body)
		return r
	}
	var text string
	if err := ReceiveBody(ctx, get(200, "not json"), "200", &text); err != nil || text != "not json" {
		t.Errorf("text 200: %q, %v", text, err)
	}
	var bin []byte
	if err := ReceiveBody(ctx, get(200, "\x00\xff"), "2XX", &bin); err != nil || string(bin) != "\x00\xff" {
		t.Errorf("binary 200: %q, %v", bin, err)
	}
	if err := ReceiveBody(ctx, get(200, ""), "200", &text); err != nil || text != "" {
		t.Errorf("empty 200: %q, %v, want the empty body", text, err)
	}
	text = "kept"
	if err := ReceiveBody(ctx, get(202, "other"), "200", &text); err != nil || text != "kept" {
		t.Errorf("202 after ok 200: %q, %v, want success, out left alone", text, err)
	}
	var ae *APIError[apiError]
	if err := ReceiveBody(ctx, get(404, `{"message":"m"}`), "200", &text, APIErrors[apiError]("4XX")); !errors.As(err, &ae) || ae.StatusCode != 404 || text != "kept" {
		t.Errorf("404: %q, %v, want the API error", text, err)
	}
	var se *StatusError
	if err := ReceiveBody(ctx, get(500, `oops`), "200", &bin, APIErrors[apiError]("4XX")); !errors.As(err, &se) || se.StatusCode != 500 {
		t.Errorf("500: %v, want a *StatusError", err)
	}
}

// TestDo: a method with no result succeeds on any 2xx whatever its body,
// and fails as its Failure says on any other status.
func TestDo(t *testing.T) {
	srv := statusAPI(t)
	ctx := context.Background()
	del := func(c *Client, status int, body string) *Request {
		r := c.NewRequest("DELETE", "/items")
		r.Query("status", status)
		r.Query("body", body)
		return r
	}
	c := NewClient(srv.URL)
	WithStrictResponses()(c)
	fail := APIErrors[apiError]("404")
	for _, tc := range []struct {
		status int
		body   string
	}{{204, ""}, {200, `not json`}, {202, `{"id":1}`}} {
		if err := Do(ctx, del(c, tc.status, tc.body), fail); err != nil {
			t.Errorf("%d %q: %v, want success", tc.status, tc.body, err)
		}
	}
	var ae *APIError[apiError]
	if err := Do(ctx, del(c, 404, `{"message":"gone"}`), fail); !errors.As(err, &ae) || ae.StatusCode != 404 || ae.Body.Message != "gone" || ae.Operation != "DELETE /items" {
		t.Errorf("404: %v, want an *APIError[apiError] with the body", err)
	}
	var se *StatusError
	if err := Do(ctx, del(c, 409, `{"message":"busy"}`), fail); !errors.As(err, &se) || se.StatusCode != 409 {
		t.Errorf("409, not one of the failure's statuses: %v, want a *StatusError", err)
	}
	if err := Do(ctx, del(c, 500, ``)); !errors.As(err, &se) || se.StatusCode != 500 {
		t.Errorf("500, no Failure: %v, want a *StatusError", err)
	}
	two := []Failure{APIErrors[apiError]("404"), APIErrors[otherError]("4XX")}
	var oe *APIError[otherError]
	if err := Do(ctx, del(c, 404, `{"message":"m"}`), two...); !errors.As(err, &ae) || ae.StatusCode != 404 {
		t.Errorf("404 with two Failures: %v, want the first's *APIError[apiError]", err)
	}
	if err := Do(ctx, del(c, 409, `{"code":7}`), two...); !errors.As(err, &oe) || oe.StatusCode != 409 || oe.Body.Code != 7 {
		t.Errorf("409 with two Failures: %v, want the second's *APIError[otherError]", err)
	}
	if err := Do(ctx, del(c, 503, `{"message":"m"}`), APIErrors[apiError]("default")); !errors.As(err, &ae) || ae.StatusCode != 503 {
		t.Errorf("503, a default error body: %v, want an *APIError[apiError]", err)
	}
	r := c.NewRequest("DELETE", "/items/{id}")
	r.Path("id", []chan int{nil}) // a value no style serialises
	if err := Do(ctx, r, fail); err == nil || errors.As(err, &se) {
		t.Errorf("a request that cannot be built: %v, want its error", err)
	}
}

// TestGatherInto: the items of every page go into the last page's result,
// at most max of them; on an error the last page's result comes back
// without them.
func TestGatherInto(t *testing.T) {
	api := &listAPI{total: 25, size: 10}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := NewClient(srv.URL)
	ctx := context.Background()
	gather := func(max int) (cursorPage, error) {
		var last cursorPage
		fetch := func(ctx context.Context, cursor string) (Page[item], error) {
			r := c.NewRequest("GET", "/cursor")
			if cursor != "" {
				r.Query("cursor", cursor)
			}
			var out cursorPage
			err := Receive(ctx, r, "2XX", &out, nil)
			last = out
			return Page[item]{Items: out.Data, Next: Text(out.NextCursor)}, err
		}
		err := GatherInto(&last.Data, Cursors(ctx, fetch), max)
		return last, err
	}
	res, err := gather(100)
	if err != nil || len(res.Data) != 25 || res.Data[24].N != 24 || res.NextCursor != "" || api.hits.Load() != 3 {
		t.Fatalf("all: %d items, next %q, %d requests, %v; want 25 in 3 requests", len(res.Data), res.NextCursor, api.hits.Load(), err)
	}
	api.hits.Store(0)
	res, err = gather(12)
	if err != nil || len(res.Data) != 12 || res.Data[11].N != 11 || res.NextCursor != "20" || api.hits.Load() != 2 {
		t.Errorf("at most 12: %d items, next %q, %d requests, %v; want 12 in 2 requests, the second page's cursor", len(res.Data), res.NextCursor, api.hits.Load(), err)
	}
	api.hits.Store(0)
	res, err = gather(0)
	if err != nil || res.Data == nil || len(res.Data) != 0 || api.hits.Load() != 0 {
		t.Errorf("at most 0: %+v, %v, %d requests; want no request, an empty list", res, err, api.hits.Load())
	}

	api.hits.Store(0)
	api.fail = func(n int64, w http.ResponseWriter) bool {
		if n == 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return true
		}
		return false
	}
	res, err = gather(100)
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != 503 || res.Data != nil || res.NextCursor != "" {
		t.Errorf("second page 503: %+v, %v, want the (empty) result of the failed page and its error", res, err)
	}
}
