// Package runtime is the OpenTool client–server protocol in Go: the JSON-RPC 2.0
// over HTTP server handler and client, Server-Sent-Events streaming, the errors of
// the protocol, and the OpenTool document model with its loader. Code generated
// by opentoolgen imports it; it can also be used by hand.
//
// Generated typed clients call through a [Caller]: a [*Client] over HTTP, or
// [Local] for a [Tool] in the same process, which answers as that tool served
// over HTTP would.
//
// It also holds the tool options generated packages share ([WithDefaults],
// [WithFixed], [WithEnvs], [WithFunctions]) and the functions' [Hints].
//
// Calls run through [Interceptor]s on either side and on every front
// ([WithInterceptors], [Intercept], [InterceptCaller], and
// rest.Client.Interceptors), which see the function, the arguments, the
// outcome and the call's [Metadata]; a [Propagator] ([SetPropagator])
// carries W3C trace context across every front. Without either, nothing of
// it runs. docs/telemetry.md has the whole picture; package otelbridge turns
// them into OpenTelemetry spans and metrics.
//
// Beside it, one package per other job, never imported by it: runtime/content
// (the content items and progress of an answer, beside its result),
// runtime/decode (the argument decoders and checks of
// generated packages), runtime/declare (declarations: plain, and in the form
// each LLM provider takes), runtime/functions (each function as a tool of
// agent frameworks), runtime/rest (the REST client of generated OpenAPI
// packages: requests, credentials, retries, redirects, event streams) and
// runtime/dynlib (the dynamic libraries of generated OpenDyn packages).
//
// It uses the standard library only.
package runtime

import (
	"bytes"
	"encoding/json"
	"strings"
)

// JSONRPCVersion is the protocol version this package sends. Any version string a
// peer sends is accepted (the reference SDKs send "2.0.0").
const JSONRPCVersion = "2.0"

// DefaultPrefix is the path under which the server answers and the client calls.
const DefaultPrefix = "/opentool"

// RuntimeVersion is the version of this package; generated code checks it at
// compile time through IsAtLeastVersion constants.
const RuntimeVersion = "0.4.0"

// IsAtLeastVersion0_1_0 exists so that generated code fails to compile against a
// runtime older than the one it was generated for.
const IsAtLeastVersion0_1_0 = true

// IsAtLeastVersion0_2_0 is what code generated since 0.2.0 checks: it calls
// through Caller, declares with profiles, decodes with the call's context.
const IsAtLeastVersion0_2_0 = true

// IsAtLeastVersion0_3_0 is what code generated since 0.3.0 checks: its
// decoders try the variants a discriminator value shares (DecodeShared),
// its REST clients reconnect event streams (Reconnect), read events of
// several shapes (StreamSSEEvents, DecodeText) and choose among servers.
const IsAtLeastVersion0_3_0 = true

// IsAtLeastVersion0_4_0 is what code generated since 0.4.0 checks: it imports
// runtime unaliased beside runtime/rest, runtime/declare and runtime/dynlib,
// and its REST clients pass parameter serialisations as rest.Style values
// (r.Query("ids", args.IDs, rest.NoExplode)).
const IsAtLeastVersion0_4_0 = true

// Version is the body of GET /version.
type Version struct {
	Version string `json:"version"`
}

// FunctionCall is a call of one function of a tool, as the agent makes it.
// Arguments is the raw JSON object of the arguments; nil or empty means none.
// Build it from a Go value with [NewFunctionCall].
type FunctionCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// NewFunctionCall returns a call of name with args encoded as JSON. args may be
// nil, a struct, a map or a json.RawMessage.
func NewFunctionCall(id, name string, args any) (FunctionCall, error) {
	raw, err := marshalArgs(args)
	if err != nil {
		return FunctionCall{}, err
	}
	return FunctionCall{ID: id, Name: name, Arguments: raw}, nil
}

// ToolReturn is what a call returned: the call's id and the result object.
type ToolReturn struct {
	ID     string          `json:"id"`
	Result json.RawMessage `json:"result"`
}

// Decode decodes the result into v. name is the name of the function's return
// value: for a scalar or array return the value travels as {name: value}, and
// Decode finds it liberally (exact key, then case-insensitive key, then the only
// key of a one-key object). With name == "" the whole result object is decoded.
func (r ToolReturn) Decode(name string, v any) error {
	return DecodeResult(r.Result, name, v)
}

// DecodeResult is [ToolReturn.Decode] on a raw result object.
func DecodeResult(result json.RawMessage, name string, v any) error {
	if name == "" {
		if len(result) == 0 {
			result = emptyObject
		}
		return json.Unmarshal(result, v)
	}
	raw, err := resultMember(result, name)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, v)
}

func resultMember(result json.RawMessage, name string) (json.RawMessage, error) {
	if raw, ok := onlyMember(result, name); ok {
		return raw, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(result, &m); err != nil {
		return nil, &Error{Class: ClassResponseNull, Message: "result is not a JSON object", cause: err}
	}
	if raw, ok := m[name]; ok {
		return raw, nil
	}
	var found json.RawMessage
	n := 0
	for k, raw := range m {
		if strings.EqualFold(k, name) {
			found = raw
			n++
		}
	}
	if n == 1 {
		return found, nil
	}
	if len(m) == 1 {
		for _, raw := range m {
			return raw, nil
		}
	}
	return nil, &Error{Class: ClassResponseNull, Message: "result has no member " + quote(name)}
}

// onlyMember is the fast path of resultMember, without a map: result is exactly
// {"<name>":<value>} (no spaces), the shape servers send for a scalar or array
// return, and name needs no escaping. The value must be valid JSON; then result is
// an object whose one member is name, and the answer is the one the map gives.
func onlyMember(result []byte, name string) (json.RawMessage, bool) {
	n := len(name)
	if len(result) < n+6 || result[0] != '{' || result[1] != '"' || string(result[2:2+n]) != name ||
		result[2+n] != '"' || result[3+n] != ':' || result[len(result)-1] != '}' {
		return nil, false
	}
	for i := 0; i < n; i++ {
		if c := name[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return nil, false
		}
	}
	v := result[4+n : len(result)-1]
	if jsonWS(v[0]) || jsonWS(v[len(v)-1]) || !json.Valid(v) {
		return nil, false
	}
	return v, true
}

func jsonWS(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

var emptyObject = json.RawMessage("{}")

// marshalArgs encodes call arguments; nil becomes nothing (no params).
func marshalArgs(args any) (json.RawMessage, error) {
	switch a := args.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return a, nil
	case []byte:
		return a, nil
	}
	return json.Marshal(args)
}

// request is the JSON-RPC request body as received. Fields are raw so that the
// arguments reach the tool undecoded and the id is echoed exactly as sent.
type request struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params"`
	ID      json.RawMessage `json:"id"`
}

// response is the JSON-RPC response body as received by the client.
type response struct {
	JSONRPC json.RawMessage `json:"jsonrpc"` // not checked: peers send "2.0", "2.0.0", …
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
	ID      json.RawMessage `json:"id"`
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// isJSONObject reports whether raw (already known to be valid JSON) is an object.
func isJSONObject(raw []byte) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == '{'
}

func isNull(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}
