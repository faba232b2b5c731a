package rest

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/decode"
)

// Strict responses: a client made with WithStrictResponses (or called with a
// context marked by toolopt.ContextWithStrictResponses, as a Tool made with
// toolopt.WithStrictResponses marks it) checks the JSON body of every
// success response against the document with the checks a tool's arguments
// get: JSON types, required members, enums, bounds, lengths, patterns,
// formats, item and property counts. Off, nothing is checked beyond what
// encoding/json does, and nothing is spent on it.

// WithStrictResponses returns a client option (a generated package's
// ClientOption takes it: NewClient(url, rest.WithStrictResponses())) that
// makes the client check every success response's JSON body against the
// document ([DecodeChecked]): a value the document does not allow (an enum
// value it does not list, a number out of its bounds, a missing required
// member…) fails the call with a 502 [runtime.Error] that names its JSON
// path. Off by default: an API that sends what its document does not say yet
// keeps working.
func WithStrictResponses() func(*Client) {
	return func(c *Client) { c.StrictResponses = true }
}

// DecodeChecked decodes the JSON body of r into v as [Response.Decode]
// does, unless the response is to be checked (the client's
// StrictResponses, or a context marked with
// toolopt.ContextWithStrictResponses): then fn, the generated decoder of
// v's type, decodes it and checks every value, and the violations it finds
// make a 502 [runtime.Error] whose message names each JSON path ("GET
// /items: HTTP 200: the response does not match the document:
// /items/0/status: …") and whose Data lists them as [runtime.Violation]s,
// as an undecodable response is a 502. An empty body leaves v alone.
func DecodeChecked[T any](r *Response, v *T, fn func(*decode.Decoder, *T)) error {
	if !r.strict {
		return r.Decode(v)
	}
	if len(bytes.TrimSpace(r.Body)) == 0 {
		return nil
	}
	err := decode.Response(r.Body, v, fn)
	if err == nil {
		return nil
	}
	var re *runtime.Error
	if !errors.As(err, &re) || re.Code != runtime.CodeInvalidParams {
		return &runtime.Error{Code: http.StatusBadGateway, Message: fmt.Sprintf("%s %s: HTTP %d: the response does not match the document: %v", r.method, r.path, r.StatusCode, err)}
	}
	vs := re.Violations()
	texts := make([]string, len(vs))
	for i, x := range vs {
		texts[i] = x.String()
	}
	return &runtime.Error{Code: http.StatusBadGateway, Data: re.Data,
		Message: fmt.Sprintf("%s %s: HTTP %d: the response does not match the document: %s", r.method, r.path, r.StatusCode, strings.Join(texts, "; "))}
}
