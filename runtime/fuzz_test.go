package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// FuzzCallHandler posts arbitrary bodies to POST /call: the handler never
// panics and always answers a JSON-RPC response object with an allowed status.
//
//	go test -run='^$' -fuzz=FuzzCallHandler -fuzztime=30s ./runtime
func FuzzCallHandler(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","method":"count","params":{},"id":"1"}`,
		`{"jsonrpc":"2.0.0","method":"create","params":{"text":"a"},"id":1.50}`,
		`{"jsonrpc":"2.0","method":"read","params":{"id":0},"id":null}`,
		`{"jsonrpc":"2.0","method":"echo","params":{"a":[1,{"b":null}]}}`,
		`{"jsonrpc":"2.0","method":"count"`,
		``,
		`"count"`,
		`42`,
		`null`,
		`[{"jsonrpc":"2.0","method":"count","id":1}]`,
		`[]`,
		`{"jsonrpc":"2.0","params":{},"id":"a"}`,
		`{"jsonrpc":"2.0","method":"","id":7}`,
		`{"jsonrpc":"2.0","method":5,"id":7}`,
		`{"jsonrpc":"2.0","method":"echo","params":[1,2],"id":"p"}`,
		`{"jsonrpc":"2.0","method":"echo","params":"text","id":"p"}`,
		`{"jsonrpc":"2.0","method":"nope","id":"u"}`,
		`{"jsonrpc":"2.0","method":"count","id":{}}`,
		`{"jsonrpc":"2.0","method":"panic","id":1}`,
		`{"jsonrpc":"2.0","method":"block","id":1}`,
		`{"jsonrpc":"2.0","method":"fail","id":1}`,
		`{"jsonrpc":"2.0","method":"nilError","id":1}`,
		`{"jsonrpc":"2.0","method":"badJSON","id":1}`,
		`{"jsonrpc":"2.0","method":"array","id":1}`,
		`{"jsonrpc":"2.0","method":"pretty","id":1}`,
		`{"jsonrpc":"2.0","method":"a\u0000\"<\ud800>","id":"\ud800"}`,
		"{\"method\":\"echo\",\"id\":\"\xff\",\"params\":{\"\xfe\":1}}",
		`{"jsonrpc":"2.0","method":"echo","params":{"s":"` + strings.Repeat("x", 300) + `"},"id":1}`, // over the limit
	} {
		f.Add([]byte(seed))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the "block" function returns at once
	f.Fuzz(func(t *testing.T, body []byte) {
		h := runtime.NewHandler(newMockTool(), runtime.WithLogger(quietLogger(nil)), runtime.WithMaxBodyBytes(256))
		req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/opentool/call", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)

		switch rec.Code {
		case http.StatusOK, http.StatusBadRequest, http.StatusRequestEntityTooLarge:
		default:
			t.Fatalf("status %d for %q", rec.Code, body)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
			t.Fatalf("Content-Type %q", ct)
		}
		r, err := parseResponse(rec.Body.Bytes())
		if err != nil {
			t.Fatalf("%v (request %q)", err, body)
		}
		if rec.Code != http.StatusOK && r.Error == nil {
			t.Fatalf("status %d without an error: %s", rec.Code, rec.Body)
		}
		if r.Error != nil {
			if r.Error.Code == 0 || r.Error.Message == "" {
				t.Fatalf("error without code or message: %s", rec.Body)
			}
			switch r.Error.Code {
			case runtime.CodeParseError, runtime.CodeInvalidRequest:
				if rec.Code == http.StatusOK {
					t.Fatalf("protocol error %d with status 200: %s", r.Error.Code, rec.Body)
				}
			}
		}
		if !utf8.Valid(rec.Body.Bytes()) {
			t.Fatalf("the answer is not valid UTF-8: %q (request %q)", rec.Body, body)
		}
		// The id is echoed exactly as sent when the request is a JSON object with a
		// valid id; an id string that is not valid UTF-8 (or escapes a lone
		// surrogate: it decodes with U+FFFD) is echoed as the string it decodes to.
		if rec.Code == http.StatusOK {
			var req struct{ ID json.RawMessage }
			if json.Unmarshal(body, &req) == nil && len(req.ID) > 0 && !bytes.Equal(req.ID, r.ID) {
				var sent, echoed string
				if json.Unmarshal(req.ID, &sent) != nil || json.Unmarshal(r.ID, &echoed) != nil || sent != echoed ||
					(utf8.Valid(req.ID) && !strings.ContainsRune(sent, utf8.RuneError)) {
					t.Fatalf("id %s echoed as %s", req.ID, r.ID)
				}
			}
		}
	})
}
