package runtime

import (
	"context"
	"encoding/json"
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
	Load(ctx context.Context) (*OpenTool, error)
}

// StreamTool is a Tool with functions that emit a sequence of results. StreamCall
// calls emit once per result (a raw JSON object) and returns when the sequence
// ends; an error it returns ends the stream with an error event. emit returns an
// error when the caller has gone; StreamCall should then stop and return it.
type StreamTool interface {
	Tool
	StreamCall(ctx context.Context, name string, args json.RawMessage, emit func(result json.RawMessage) error) error
}
