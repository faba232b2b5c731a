package jsonrpc

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Parse reads what encoding/json reads into the request struct, for
// any valid JSON object without repeated members.
func FuzzEnvelope(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"count","params":{},"id":"1"}`,
		` { "Method" : "a\"b" , "PARAMS" : { "x" : [1, "}" , {"y":"\\"}]} , "iD" : -1.5e3 } `,
		`{"x":{"method":1},"method":"m","z":[{"id":2}],"id":null}`,
		`{"\u006dethod":"a","param\u017f":{"a":"b"},"i\u0064":"\ud83d\ude00"}`,
		`{"method":"a","METHOD":"b"}`,
		`{"ıd":1,"jſonrpc":2,"meth\u212aod":3}`,
		`{}`,
		`{"params":[],"id":true,"method":{"a":{}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		body = bytes.TrimLeft(body, " \t\r\n")
		if !json.Valid(body) || len(body) == 0 || body[0] != '{' {
			return
		}
		env := Parse(body)
		var req struct {
			JSONRPC, Method, Params, ID json.RawMessage
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatalf("%q: %v", body, err)
		}
		if env.Repeated != "" {
			return // rejected; encoding/json takes the last
		}
		if !bytes.Equal(env.Method, req.Method) || !bytes.Equal(env.Params, req.Params) || !bytes.Equal(env.ID, req.ID) {
			t.Fatalf("%q:\nenvelope method %q params %q id %q\nencoding/json method %q params %q id %q",
				body, env.Method, env.Params, env.ID, req.Method, req.Params, req.ID)
		}
		if m, ok := Method(env.Method); ok {
			var want string
			if err := json.Unmarshal(env.Method, &want); err != nil || want != m {
				t.Fatalf("method %q decoded as %q, want %q", env.Method, m, want)
			}
		}
	})
}

// An id re-encoded for invalid UTF-8 or a lone surrogate decodes to what the
// id as sent decodes to; other ids are kept as sent.
func TestCanonicalID(t *testing.T) {
	for _, c := range []struct {
		id   string
		same bool
	}{
		{`"abc"`, true}, {`12`, true}, {`"\u00e9"`, true}, {`"é"`, true}, {`"\ud83d\ude00"`, true}, {`"a\\ud800"`, true},
		{`"\ud800"`, false}, {`"\udc00x"`, false}, {`"\ud800\u0041"`, false}, {"\"\xff\"", false}, {`"\ud83d"`, false},
	} {
		got := CanonicalID([]byte(c.id))
		if (string(got) == c.id) != c.same {
			t.Errorf("%s: got %s", c.id, got)
		}
		var sent, echoed any
		json.Unmarshal([]byte(c.id), &sent)
		if err := json.Unmarshal(got, &echoed); err != nil || sent != echoed {
			t.Errorf("%s: re-encoded as %s, which decodes to %v, want %v", c.id, got, echoed, sent)
		}
	}
}
