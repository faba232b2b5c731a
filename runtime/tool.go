package runtime

import (
	"context"
	"encoding/json"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// Tool is what an OpenTool server serves: it calls a function by name with the raw
// JSON object of its arguments (nil when the caller sent none) and returns the raw
// JSON object of the result (nil means {}), and it gives its OpenTool document
// (nil when it has none).
//
// Generated adapters implement Tool by decoding args straight into typed structs
// and encoding typed results once; nothing goes through map[string]any.
//
// An error returned by Call reaches the caller as the JSON-RPC error object: an
// *Error keeps its code, message and data; any other error becomes code 500 with
// its text. Call must be safe for concurrent use.
//
// The document Load returns is read by the server, concurrently and after Load
// returned, and its encodings for GET /load are kept while Load returns the
// same pointer: to change the document, return a new *OpenTool rather than
// modify one already returned.
type Tool interface {
	Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error)
	Load(ctx context.Context) (*document.OpenTool, error)
}

// StreamTool is a Tool with functions that emit a sequence of results. StreamCall
// calls emit once per result (a raw JSON object) and returns when the sequence
// ends; an error it returns ends the stream with an error event. emit returns an
// error when the caller has gone; StreamCall should then stop and return it.
type StreamTool interface {
	Tool
	StreamCall(ctx context.Context, name string, args json.RawMessage, emit func(result json.RawMessage) error) error
}

// HintTool is a Tool that knows hints of its functions. Hints returns the
// hints of the function named function, false when it has none (or serves no
// such function). The Tool of a package generated from an OpenAPI document is
// a HintTool: each operation's hints are document.MethodHints of its HTTP method.
type HintTool interface {
	Tool
	Hints(function string) (document.Hints, bool)
}

// HeaderTool is a Tool some of whose arguments are HTTP header parameters of
// the API behind it: HeaderParameters returns those of the function named
// function, argument name → header name (nil for none). The Tool of a
// package generated from an OpenAPI document with header parameters is
// one; mcpbridge marks such arguments with x-mcp-header (the 2026-07-28
// specification's SEP-2243), so that a client sends their values as
// Mcp-Param-NAME headers too, where HTTP intermediaries can read them.
type HeaderTool interface {
	Tool
	HeaderParameters(function string) map[string]string
}
