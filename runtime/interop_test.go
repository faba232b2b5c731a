package runtime_test

// Interoperability with the reference SDKs (DESIGN.md, "Known behaviour of the
// reference SDKs"): our server accepts what their clients send, our client
// understands what their servers answer.

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// The server accepts requests as the TypeScript and Dart clients send them and
// echoes the id exactly as sent.
func TestServerAcceptsReferenceRequests(t *testing.T) {
	srv, _ := serveMock(t, newMockTool())
	for _, c := range []struct{ req, id string }{
		{`{"jsonrpc":"2.0.0","method":"count","params":{},"id":"x"}`, `"x"`},
		{`{"jsonrpc":"2.0.0","method":"count","params":{},"id":1}`, `1`},
		{`{"jsonrpc":"2.0","method":"count","id":1.50}`, `1.50`},
		{`{"jsonrpc":"2.0","method":"count","id":-0}`, `-0`},
		{`{"jsonrpc":"2.0","method":"count","id":1e3}`, `1e3`},
		{`{"jsonrpc":"2.0","method":"count","id":123456789012345678901234567890}`, `123456789012345678901234567890`},
		{`{"jsonrpc":"2.0","method":"count","id":null}`, `null`},
		{`{"jsonrpc":"2.0","method":"count"}`, `null`},
		{`{"jsonrpc":"2.0","method":"count","id":""}`, `""`},
		{`{"jsonrpc":"2.0","method":"count","id":"\u00e9\"\\"}`, `"\u00e9\"\\"`},
		{`{"jsonrpc":"2.0","method":"count","id":"é<>&"}`, `"é<>&"`},
		{`{"method":"count","id":"no version"}`, `"no version"`},
		{`{"jsonrpc":2,"method":"count","id":"numeric version"}`, `"numeric version"`},
		{"\n\t{ \"id\" : 7 , \"method\" : \"count\" , \"jsonrpc\" : \"2.0.0\" }\n", `7`},
		{`{"jsonrpc":"2.0","method":"\u0063ount","id":"escaped method"}`, `"escaped method"`},
	} {
		t.Run(c.req, func(t *testing.T) {
			res := postJSON(t, srv.URL+"/opentool/call", c.req)
			want := `{"jsonrpc":"2.0","result":{"count":0},"error":null,"id":` + c.id + `}`
			if res.status != http.StatusOK || string(res.body) != want {
				t.Errorf("\n got %d %s\nwant 200 %s", res.status, res.body, want)
			}
		})
	}
	// The id is echoed in errors too, and on streams.
	res := postJSON(t, srv.URL+"/opentool/call", `{"jsonrpc":"2.0.0","method":"nope","id":1.50}`)
	wantRPCError(t, res, http.StatusOK, runtime.CodeMethodNotFound, `1.50`)
	res = postJSON(t, srv.URL+"/opentool/streamCall", `{"jsonrpc":"2.0.0","method":"failAfter","params":{"n":1},"id":1.50}`)
	for _, ev := range splitEvents(t, res.body)[1:] {
		if r, err := parseResponse([]byte(ev[1])); err != nil || string(r.ID) != "1.50" {
			t.Errorf("%s event %s: %v", ev[0], ev[1], err)
		}
	}
	// Headers the Dart client sends.
	res = do(t, http.MethodPost, srv.URL+"/opentool/call", "application/json", strings.NewReader(`{"jsonrpc":"2.0","method":"count","params":{},"id":"d"}`),
		"Accept", "application/json")
	if res.status != http.StatusOK {
		t.Errorf("Dart headers: %d %s", res.status, res.body)
	}
	res = do(t, http.MethodPost, srv.URL+"/opentool/streamCall", "application/json", strings.NewReader(`{"jsonrpc":"2.0","method":"sequentiallyRead","params":{},"id":"d"}`),
		"Accept", "text/event-stream")
	if evs := splitEvents(t, res.body); len(evs) != 2 || evs[1][0] != "done" {
		t.Errorf("Dart stream: %q", res.body)
	}
}

// referenceServer behaves like the TypeScript/Dart servers: "2.0.0", error after
// result and absent on success, id "" on errors, tool errors as JSON strings in
// message, 401 with {"error":…}, HTML error pages.
func referenceServer(t *testing.T) *runtime.Client {
	return fakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer key" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(401)
			io.WriteString(w, `{"error":"Unauthorized: invalid API key"}`)
			return
		}
		json := func(status int, body string) {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(status)
			io.WriteString(w, body)
		}
		html := func(status int, body string) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(status)
			io.WriteString(w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Error</title>\n</head>\n<body>\n<pre>"+body+"</pre>\n</body>\n</html>\n")
		}
		switch r.URL.Path {
		case "/opentool/version":
			json(200, `{"version":"1.0.0"}`)
			return
		case "/opentool/load":
			json(200, `{"code":404,"message":"Json Parser NOT implement"}`)
			return
		case "/opentool/streamCall":
			// The Dart reference server: shelf says so in every answer.
			w.Header().Set("X-Powered-By", "Dart with package:shelf")
			b, _ := io.ReadAll(r.Body)
			var req struct{ Method string }
			_ = jsonUnmarshal(b, &req)
			switch req.Method {
			case "sequentiallyRead": // Dart: no space after "data:", closed without done
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, "event:start\ndata:{\"start\":\"sequentiallyRead\"}\n\n"+
					"event:data\ndata:{\"jsonrpc\":\"2.0.0\",\"result\":{\"text\":\"a\"},\"id\":\"1\"}\n\n"+
					"event:data\ndata:{\"jsonrpc\":\"2.0.0\",\"result\":{\"text\":\"b\"},\"id\":\"1\"}\n\n")
			case "spaced": // the SSE standard's "data: " with CRLF, comments, multi-line data
				w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
				io.WriteString(w, ": keep-alive\r\n\r\nevent: start\r\ndata: {\"start\":\"spaced\"}\r\n\r\n"+
					"event: data\r\ndata: {\"jsonrpc\":\"2.0.0\",\r\ndata: \"result\":{\"text\":\"c\"},\"id\":\"1\"}\r\n\r\n"+
					"event: done\r\ndata: {\"done\":\"spaced\"}\r\n\r\n"+
					"event: data\r\ndata: {\"jsonrpc\":\"2.0.0\",\"result\":{\"text\":\"after done\"},\"id\":\"1\"}\r\n\r\n")
			case "failing": // Dart: a tool error as an error event
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, "event:start\ndata:{\"start\":\"failing\"}\n\n"+
					"event:data\ndata:{\"jsonrpc\":\"2.0\",\"result\":{\"text\":\"a\"},\"id\":\"1\"}\n\n"+
					"event:error\ndata:{\"jsonrpc\":\"2.0\",\"result\":{},\"error\":{\"code\":503,\"message\":\"device offline\"},\"id\":\"1\"}\n\n")
			case "truncated": // the connection drops mid-event
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, "event:data\ndata:{\"jsonrpc\":\"2.0\",\"res")
			default: // Dart: a fatal error is a plain-text 500
				w.Header().Set("Content-Type", "text/plain; charset=utf-8")
				w.WriteHeader(500)
				io.WriteString(w, "FormatException: Unexpected character")
			}
			return
		case "/opentool/call":
		default:
			html(404, "Cannot GET "+r.URL.Path)
			return
		}
		b, _ := io.ReadAll(r.Body)
		var req struct{ Method string }
		if err := jsonUnmarshal(b, &req); err != nil {
			html(400, "SyntaxError: Unexpected token in JSON at position 0")
			return
		}
		switch req.Method {
		case "count":
			json(200, `{"jsonrpc":"2.0.0","result":{"count":5},"id":"1"}`)
		case "unsupported": // the tool's own 405, inside error.message as a JSON string
			json(200, `{"jsonrpc":"2.0.0","result":{},"error":{"code":500,"message":"{\"code\":405,\"message\":\"Function Not Supported: unsupported\"}"},"id":""}`)
		case "unsupportedInResult": // the reference mock tool answers the 405 as its result
			json(200, `{"jsonrpc":"2.0.0","result":{"code":405,"message":"Function Not Supported: unsupportedInResult"},"id":"1"}`)
		case "throws":
			json(200, `{"jsonrpc":"2.0.0","result":{},"error":{"code":500,"message":"Error: something broke"},"id":""}`)
		case "badContentType": // TypeScript: 400 with a JSON-RPC body
			json(400, `{"jsonrpc":"2.0.0","result":{},"error":{"code":400,"message":"Invalid request body"},"id":""}`)
		case "dartContentType": // Dart: 400 with {"error": "…"}
			json(400, `{"error":"Content-Type must be application/json"}`)
		case "tooLarge":
			html(413, "PayloadTooLargeError: request entity too large")
		case "badJSON":
			html(400, "SyntaxError: Unexpected token } in JSON at position 10")
		case "nullResult":
			json(200, `{"jsonrpc":"2.0.0","result":null,"id":"1"}`)
		case "numberVersion":
			json(200, `{"jsonrpc":2.0,"result":{"ok":true},"id":1}`)
		default:
			json(200, `{"jsonrpc":"2.0.0","result":{},"error":{"code":500,"message":"unexpected"},"id":""}`)
		}
	}, runtime.WithAPIKey("key"))
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

func TestClientAgainstReferenceServer(t *testing.T) {
	client := referenceServer(t)
	ctx := context.Background()

	ret, err := client.Call(ctx, runtime.FunctionCall{ID: "1", Name: "count"})
	if err != nil || string(ret.Result) != `{"count":5}` {
		t.Fatalf("count: %s %v", ret.Result, err)
	}
	var n int
	if err := ret.Decode("Count", &n); err != nil || n != 5 {
		t.Errorf("Decode Count: %d %v", n, err)
	}
	if err := client.Invoke(ctx, "count", nil, "Count", &n); err != nil || n != 5 {
		t.Errorf("Invoke count: %d %v", n, err)
	}
	if ret, err := client.Call(ctx, runtime.FunctionCall{Name: "numberVersion"}); err != nil || string(ret.Result) != `{"ok":true}` {
		t.Errorf("numeric jsonrpc member: %s %v", ret.Result, err)
	}

	for _, c := range []struct {
		method string
		class  *runtime.Error
		code   int
		msg    string // a substring of the message
	}{
		{"unsupported", runtime.ErrCall, 405, "Function Not Supported: unsupported"},
		{"throws", runtime.ErrCall, 500, "Error: something broke"},
		{"badContentType", runtime.ErrCall, 400, "Invalid request body"},
		{"dartContentType", runtime.ErrCall, 400, "Content-Type must be application/json"},
		{"tooLarge", runtime.ErrErrorNull, 413, "Error is null"},
		{"badJSON", runtime.ErrErrorNull, 400, "Error is null"},
		{"nullResult", runtime.ErrResponseNull, 200, "Response is null"},
	} {
		t.Run(c.method, func(t *testing.T) {
			_, err := client.Call(ctx, runtime.FunctionCall{Name: c.method})
			e := asError(t, err)
			if !errors.Is(err, c.class) || e.Code != c.code || !strings.Contains(e.Message, c.msg) {
				t.Errorf("got %#v (%v), want class %s code %d message with %q", e, err, c.class.Class, c.code, c.msg)
			}
			if c.method == "unsupported" && e.Message != "Function Not Supported: unsupported" {
				t.Errorf("message %q", e.Message)
			}
		})
	}
	// A 405 inside result is the tool's result, not a protocol error.
	ret, err = client.Call(ctx, runtime.FunctionCall{Name: "unsupportedInResult"})
	if err != nil || !strings.Contains(string(ret.Result), `"code":405`) {
		t.Errorf("405 in result: %s %v", ret.Result, err)
	}

	if v, err := client.Version(ctx); err != nil || v.Version != "1.0.0" {
		t.Errorf("Version: %v %v", v, err)
	}
	// The reference servers answer an exception object when they have no document.
	if doc, err := client.Load(ctx); doc != nil || err != nil {
		t.Errorf("Load: %v %v, want nil, nil", doc, err)
	}

	// 401 with {"error":…}.
	bad := runtime.NewClient(client.BaseURL(), runtime.WithAPIKey("wrong"))
	_, err = bad.Call(ctx, runtime.FunctionCall{Name: "count"})
	if e := asError(t, err); !errors.Is(err, runtime.ErrUnauthorized) || e.Code != 401 || !strings.Contains(err.Error(), "invalid API key") {
		t.Errorf("401: %v", err)
	}
	if _, err := bad.Version(ctx); !errors.Is(err, runtime.ErrUnauthorized) {
		t.Errorf("401 on version: %v", err)
	}
	// Express's HTML 404: the server is not where the client looks.
	other := runtime.NewClient(strings.TrimSuffix(client.BaseURL(), "/opentool")+"/other", runtime.WithAPIKey("key"))
	if _, err := other.Call(ctx, runtime.FunctionCall{Name: "count"}); !errors.Is(err, runtime.ErrNoAccess) {
		t.Errorf("404: %v", err)
	}
}

func TestClientStreamAgainstReferenceServer(t *testing.T) {
	client := referenceServer(t)
	ctx := context.Background()
	collect := func(name string) ([]string, error) {
		var got []string
		var last error
		for ret, err := range client.StreamCall(ctx, runtime.FunctionCall{ID: "1", Name: name}) {
			if err != nil {
				if last != nil {
					t.Errorf("%s: a second error %v after %v", name, err, last)
				}
				last = err
				continue
			}
			var s string
			if err := ret.Decode("text", &s); err != nil {
				t.Errorf("%s: %s: %v", name, ret.Result, err)
			}
			got = append(got, s)
		}
		return got, last
	}

	got, err := collect("sequentiallyRead")
	if err != nil || strings.Join(got, ",") != "a,b" {
		t.Errorf("Dart stream without done: %q %v", got, err)
	}
	got, err = collect("spaced")
	if err != nil || strings.Join(got, ",") != "c" {
		t.Errorf("standard SSE: %q %v", got, err)
	}
	got, err = collect("failing")
	if e := asError(t, err); strings.Join(got, ",") != "a" || !errors.Is(err, runtime.ErrCall) || e.Code != 503 || e.Message != "device offline" {
		t.Errorf("error event: %q %v", got, err)
	}
	got, err = collect("truncated")
	if len(got) != 0 || !errors.Is(err, runtime.ErrResponseNull) {
		t.Errorf("truncated event: %q %v", got, err)
	}
	got, err = collect("fatal")
	if e := asError(t, err); len(got) != 0 || !errors.Is(err, runtime.ErrErrorNull) || e.Code != 500 {
		t.Errorf("plain-text 500: %q %v", got, err)
	}
}
