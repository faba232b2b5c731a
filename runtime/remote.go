package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// RemoteTool returns the Tool of the OpenTool server c calls (ours, or the
// Dart or TypeScript reference), so that it can be served again, listed for an
// LLM or wrapped, without generated code: Call and StreamCall forward each call
// as it came, and Load answers the server's document (GET /load, each time).
// Errors of the server's tool keep their codes; a server that cannot be
// reached, refuses the client's key or answers something that is not
// JSON-RPC is a 502 (Bad Gateway) *Error naming the server: the caller's
// request was not at fault.
//
// The Tool validates nothing itself: the server does. A generated package's
// typed *Client, served with its NewTool, gives a gateway that checks the
// arguments before they leave.
func RemoteTool(c *Client) StreamTool { return remoteTool{c} }

type remoteTool struct{ c *Client }

func (t remoteTool) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	result, err := t.c.call(ctx, name, args, t.c.NewID())
	if err != nil {
		return nil, t.upstream(err)
	}
	return result, nil
}

// upstream turns an error of the client that is not the tool's into a 502.
func (t remoteTool) upstream(err error) error {
	for _, class := range []*Error{ErrNoAccess, ErrUnauthorized, ErrResponseNull, ErrErrorNull} {
		if errors.Is(err, class) {
			return &Error{Code: http.StatusBadGateway, Message: "upstream OpenTool server " + t.c.BaseURL() + ": " + err.Error()}
		}
	}
	return err
}

func (t remoteTool) StreamCall(ctx context.Context, name string, args json.RawMessage, emit func(json.RawMessage) error) error {
	for raw, err := range t.c.stream(ctx, name, args, t.c.NewID()) {
		if err != nil {
			return t.upstream(err)
		}
		if err := emit(raw); err != nil {
			return err
		}
	}
	return nil
}

func (t remoteTool) Load(ctx context.Context) (*document.OpenTool, error) { return t.c.Load(ctx) }
