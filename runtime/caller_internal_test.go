//go:build !race

package runtime

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// cannedTransport answers every request in the process, with no goroutine and
// no network, so that allocation counts are exact.
type cannedTransport struct{ call, stream string }

func (c cannedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		io.Copy(io.Discard, req.Body)
		req.Body.Close()
	}
	body, ct := c.call, "application/json"
	if strings.HasSuffix(req.URL.Path, "/streamCall") {
		body, ct = c.stream, "text/event-stream"
	}
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": {ct}},
		Body:       io.NopCloser(strings.NewReader(body)),
		Request:    req,
	}, nil
}

type allocArgs struct {
	Text string `json:"text"`
}

// The Caller interface costs no allocation: a typed call through a *Client
// as a Caller allocates what the client's own call did before there was one
// (marshalArgs, call, DecodeResult: the body (*Client).Invoke had). The race
// detector changes allocation counts: this file is left out of -race builds.
func TestCallerAllocations(t *testing.T) {
	c := NewClient("http://tool.example/opentool", WithHTTPClient(&http.Client{Transport: cannedTransport{
		call:   `{"jsonrpc":"2.0","result":{"count":5},"error":null,"id":"1"}`,
		stream: "event:start\ndata:{}\n\nevent:data\ndata:{\"jsonrpc\":\"2.0\",\"result\":{\"count\":1},\"id\":\"1\"}\n\nevent:data\ndata:{\"jsonrpc\":\"2.0\",\"result\":{\"count\":2},\"id\":\"1\"}\n\nevent:done\ndata:{}\n\n",
	}}))
	ctx := context.Background()
	args := allocArgs{Text: "hello"}
	direct := testing.AllocsPerRun(200, func() {
		params, err := marshalArgs(&args)
		if err != nil {
			t.Fatal(err)
		}
		result, err := c.call(ctx, "count", params, c.NewID())
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := DecodeResult(result, "count", &n); err != nil || n != 5 {
			t.Fatal(n, err)
		}
	})
	var caller Caller = c
	typed := testing.AllocsPerRun(200, func() {
		var n int
		if err := Invoke(ctx, caller, "count", &args, "count", &n); err != nil || n != 5 {
			t.Fatal(n, err)
		}
	})
	if typed != direct {
		t.Errorf("Invoke through a Caller: %v allocations per call, the client's own call: %v", typed, direct)
	}

	directStream := testing.AllocsPerRun(200, func() {
		params, err := marshalArgs(&args)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for raw, err := range c.stream(ctx, "count", params, c.NewID()) {
			var v int
			if err != nil || DecodeResult(raw, "count", &v) != nil {
				t.Fatal(err)
			}
			n += v
		}
		if n != 3 {
			t.Fatal(n)
		}
	})
	typedStream := testing.AllocsPerRun(200, func() {
		n := 0
		for v, err := range InvokeStream[int](ctx, caller, "count", &args, "count") {
			if err != nil {
				t.Fatal(err)
			}
			n += v
		}
		if n != 3 {
			t.Fatal(n)
		}
	})
	if typedStream != directStream {
		t.Errorf("InvokeStream through a Caller: %v allocations per stream, the client's own stream: %v", typedStream, directStream)
	}
	t.Logf("allocations per call: %v (typed), %v (direct); per stream of 2: %v (typed), %v (direct)", typed, direct, typedStream, directStream)
}
