package runtime_test

// The client's reading of how a stream ends and of a server without a streaming
// endpoint, against peers on real loopback HTTP.

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// streamResult is what a StreamCall yielded: the texts of its items and its error.
type streamResult struct {
	texts []string
	err   error
}

func collectStream(t *testing.T, client *runtime.Client, name string) streamResult {
	t.Helper()
	var r streamResult
	for ret, err := range client.StreamCall(context.Background(), runtime.FunctionCall{ID: "1", Name: name}) {
		if err != nil {
			if r.err != nil {
				t.Errorf("%s: a second error %v after %v", name, err, r.err)
			}
			r.err = err
			continue
		}
		var s string
		if err := ret.Decode("text", &s); err != nil {
			t.Errorf("%s: %s: %v", name, ret.Result, err)
		}
		r.texts = append(r.texts, s)
	}
	return r
}

// streamPeer serves /opentool/streamCall: each function name is a canned body,
// sent with the given X-Powered-By header ("" for none) and then ended cleanly
// (the response is complete: a terminated chunked body).
func streamPeer(t *testing.T, poweredBy string, bodies map[string]string) *runtime.Client {
	return fakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/opentool/streamCall" {
			http.NotFound(w, r)
			return
		}
		var req struct{ Method string }
		b, _ := io.ReadAll(r.Body)
		if err := jsonUnmarshal(b, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body, ok := bodies[req.Method]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if poweredBy != "" {
			w.Header().Set("X-Powered-By", poweredBy)
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, body)
		w.(http.Flusher).Flush() // chunked: the body ends with its terminating chunk
	})
}

const (
	evStart = "event:start\ndata:{\"start\":\"f\"}\n\n"
	evA     = "event:data\ndata:{\"jsonrpc\":\"2.0\",\"result\":{\"text\":\"a\"},\"error\":null,\"id\":\"1\"}\n\n"
	evB     = "event:data\ndata:{\"jsonrpc\":\"2.0\",\"result\":{\"text\":\"b\"},\"error\":null,\"id\":\"1\"}\n\n"
	evDone  = "event:done\ndata:{\"done\":\"f\"}\n\n"
)

// wantCutShort checks that err reports a stream that ended without done or error.
func wantCutShort(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, runtime.ErrNoAccess) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("%s: got %v, want ErrNoAccess wrapping io.ErrUnexpectedEOF", what, err)
		return
	}
	if e := asError(t, err); e.Code != runtime.CodeNoAccess || !strings.Contains(e.Message, "without a done or error event") {
		t.Errorf("%s: got %#v", what, e)
	}
}

// Item 6: a stream that ends cleanly between events, without done or error, was
// cut short: its items are yielded, then an error.
func TestStreamEndsWithoutDone(t *testing.T) {
	client := streamPeer(t, "", map[string]string{
		"items":   evStart + evA + evB,
		"nothing": evStart,
		"empty":   "",
		"done":    evStart + evA + evB + evDone,
	})
	r := collectStream(t, client, "items")
	if strings.Join(r.texts, ",") != "a,b" {
		t.Errorf("items: got %q", r.texts)
	}
	wantCutShort(t, "items", r.err)
	r = collectStream(t, client, "nothing")
	if len(r.texts) != 0 {
		t.Errorf("nothing: got %q", r.texts)
	}
	wantCutShort(t, "only start", r.err)
	wantCutShort(t, "empty body", collectStream(t, client, "empty").err)

	// The typed helper of generated clients reads streams the same way.
	var got []string
	var last error
	for v, err := range runtime.Stream[string](context.Background(), client, "items", nil, "text") {
		if err != nil {
			last = err
			continue
		}
		got = append(got, v)
	}
	if strings.Join(got, ",") != "a,b" {
		t.Errorf("Stream: got %q", got)
	}
	wantCutShort(t, "Stream", last)

	// With done, the stream is complete.
	if r := collectStream(t, client, "done"); r.err != nil || strings.Join(r.texts, ",") != "a,b" {
		t.Errorf("with done: %q %v", r.texts, r.err)
	}
}

// Our own server ends every stream with done or error, so a client of it never
// sees the new error on a stream that was not cut.
func TestStreamOwnServerComplete(t *testing.T) {
	_, client := serveMock(t, newMockTool())
	seedTexts(t, client, "a", "b")
	if r := collectStream(t, client, "sequentiallyRead"); r.err != nil || strings.Join(r.texts, ",") != "a,b" {
		t.Errorf("sequentiallyRead: %q %v", r.texts, r.err)
	}
}

// The Dart reference server (package:shelf, which says so in X-Powered-By) ended
// successful streams by closing them, without done, up to its commit 4ff5aa5; a
// client keeps reading those as complete, until the server has shown that it
// sends done.
func TestStreamDartEndsByClosing(t *testing.T) {
	const shelf = "Dart with package:shelf"
	client := streamPeer(t, shelf, map[string]string{
		"closed": evStart + evA + evB,
		"done":   evStart + evA + evDone,
	})
	if r := collectStream(t, client, "closed"); r.err != nil || strings.Join(r.texts, ",") != "a,b" {
		t.Errorf("Dart stream closed without done: %q %v", r.texts, r.err)
	}
	if r := collectStream(t, client, "done"); r.err != nil || strings.Join(r.texts, ",") != "a" {
		t.Errorf("Dart stream with done: %q %v", r.texts, r.err)
	}
	// This server sends done: from now on a stream of it without done was cut.
	r := collectStream(t, client, "closed")
	if strings.Join(r.texts, ",") != "a,b" {
		t.Errorf("after done: %q", r.texts)
	}
	wantCutShort(t, "Dart stream without done after one with done", r.err)

	// Another server that says it is Dart but is not: the header alone decides.
	other := streamPeer(t, "Express", map[string]string{"closed": evStart + evA})
	wantCutShort(t, "Express stream", collectStream(t, other, "closed").err)
}

// The Dart reference server's error event when the tool throws is not a JSON-RPC
// response but {"code":500,"message":…,"id":…}: it is a call error all the same.
func TestStreamDartThrownErrorEvent(t *testing.T) {
	client := streamPeer(t, "Dart with package:shelf", map[string]string{
		"throws": evStart + evA + "event:error\ndata:{\"code\":500,\"message\":\"Exception: disk gone\",\"id\":\"1\"}\n\n",
		"bare":   evStart + "event:error\ndata:{\"unexpected\":true}\n\n",
	})
	r := collectStream(t, client, "throws")
	if strings.Join(r.texts, ",") != "a" {
		t.Errorf("throws: %q", r.texts)
	}
	if e := asError(t, r.err); !errors.Is(r.err, runtime.ErrCall) || e.Code != 500 || e.Message != "Exception: disk gone" {
		t.Errorf("throws: got %#v (%v), want a call error 500 with the exception's message", e, r.err)
	}
	r = collectStream(t, client, "bare")
	if e := asError(t, r.err); !errors.Is(r.err, runtime.ErrCall) || !strings.Contains(e.Error(), "unexpected") {
		t.Errorf("bare error event: got %#v (%v)", e, r.err)
	}
}

// expressPeer behaves like the TypeScript reference server (Express): /version,
// /call and /load, and no /streamCall at all: Express answers its HTML 404 page.
func expressPeer(t *testing.T) *runtime.Client {
	return fakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Powered-By", "Express")
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/opentool/version":
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			io.WriteString(w, `{"version":"1.0.0"}`)
		case r.Method == http.MethodPost && r.URL.Path == "/opentool/call":
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			io.WriteString(w, `{"jsonrpc":"2.0.0","result":{"count":5},"id":"1"}`)
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Content-Security-Policy", "default-src 'none'")
			w.Header().Set("X-Content-Type-Options", "nosniff")
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot "+r.Method+" "+r.URL.Path+"</pre>\n</body>\n</html>\n")
		}
	})
}

// wantNoStreaming checks that err says the server does not stream.
func wantNoStreaming(t *testing.T, what string, err error) {
	t.Helper()
	if errors.Is(err, runtime.ErrNoAccess) || !errors.Is(err, runtime.ErrCall) {
		t.Errorf("%s: got %v, want a call error (the server is running)", what, err)
		return
	}
	if !errors.Is(err, runtime.ErrNoStreaming) {
		t.Errorf("%s: got %v, want ErrNoStreaming in its chain", what, err)
	}
	e := asError(t, err)
	if !strings.Contains(e.Message, "does not stream") || !strings.Contains(err.Error(), "Cannot POST /opentool/streamCall") {
		t.Errorf("%s: got %#v (%v)", what, e, err)
	}
}

// Item 7: a streaming call to a server without /streamCall (the TypeScript
// reference) is a call error saying so, not "check the server is running".
func TestStreamServerWithoutStreamCall(t *testing.T) {
	client := expressPeer(t)
	ctx := context.Background()
	// The server is there: /call works.
	if ret, err := client.Call(ctx, runtime.FunctionCall{ID: "1", Name: "count"}); err != nil || string(ret.Result) != `{"count":5}` {
		t.Fatalf("call: %s %v", ret.Result, err)
	}
	r := collectStream(t, client, "sequentiallyRead")
	if len(r.texts) != 0 {
		t.Errorf("items: %q", r.texts)
	}
	wantNoStreaming(t, "StreamCall", r.err)
	for _, err := range runtime.Stream[string](ctx, client, "sequentiallyRead", nil, "text") {
		wantNoStreaming(t, "Stream", err)
	}

	// A 404 on /call still means that the server is not where the client looks.
	other := runtime.NewClient(strings.TrimSuffix(client.BaseURL(), "/opentool") + "/elsewhere")
	if _, err := other.Call(ctx, runtime.FunctionCall{Name: "count"}); !errors.Is(err, runtime.ErrNoAccess) {
		t.Errorf("404 on /call: %v, want ErrNoAccess", err)
	}
}
