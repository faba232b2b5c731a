package mcpbridge

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/content"
)

// Content and progress, both ways.
//
// A Tool puts every content item of a result (text, image, audio,
// resource_link, resource), in order, on the destination of the call's
// context (content.With): a typed client over runtime.Local(tool) gets
// them beside its typed result. The result object then leaves them out (no
// "content" member). A server of this package gives each call's context such
// a destination: the content its tool put there is the content of the
// answer, as it came (the result object stays its structuredContent), so that
// a gateway re-serves an MCP server's images as images.
//
// A Tool whose call has a progress function (content.WithProgress) sends a
// progress token and hands each notifications/progress of the server to it
// (when its session's client is one of NewClient: CommandTool and HTTPTool
// make such clients). A server of this package gives the context of a call
// whose client sent a progress token a progress function that sends
// notifications/progress to the client (content.ReportProgress), except for
// a streaming function, whose notifications carry its items.

// toContent converts the content of an MCP result to the runtime's.
func toContent(mc []mcp.Content) ([]content.Item, error) {
	out := make([]content.Item, 0, len(mc))
	for _, c := range mc {
		b, err := json.Marshal(c)
		if err != nil {
			return nil, err
		}
		var rc content.Item
		if err := json.Unmarshal(b, &rc); err != nil {
			return nil, err
		}
		out = append(out, rc)
	}
	return out, nil
}

// fromContent converts content a tool gave to MCP content, with the SDK's
// own decoding (which knows every content type of the protocol).
func fromContent(items []content.Item) ([]mcp.Content, error) {
	b, err := json.Marshal(struct {
		Content []content.Item `json:"content"`
	}{items})
	if err != nil {
		return nil, err
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(b, &res); err != nil {
		return nil, fmt.Errorf("the content the tool gave is not MCP content: %w", err)
	}
	return res.Content, nil
}

// giveContent puts the content of res on the destination of ctx, and
// reports whether it did.
func giveContent(ctx context.Context, res *mcp.CallToolResult) (bool, error) {
	if !content.Wanted(ctx) {
		return false, nil
	}
	items, err := toContent(res.Content)
	if err != nil {
		return false, runtime.InternalError("internal error: the MCP tool's content: " + err.Error())
	}
	return content.Add(ctx, items...), nil
}

// answer is the result of a call whose tool gave content (on the context
// of the call, got) and answered result.
func answer(result json.RawMessage, got []content.Item) (*mcp.CallToolResult, error) {
	if len(got) == 0 {
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(result)}},
			StructuredContent: result,
		}, nil
	}
	items, err := fromContent(got)
	if err != nil {
		return nil, runtime.InternalError("internal error: " + err.Error())
	}
	return &mcp.CallToolResult{Content: items, StructuredContent: result}, nil
}

// progressFunc returns the progress function of a call of req: one that
// sends notifications/progress with the client's token, nil when it sent
// none.
func progressFunc(ctx context.Context, req *mcp.CallToolRequest) func(content.Progress) {
	if req == nil || req.Params == nil || req.Session == nil {
		return nil
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	return func(p content.Progress) {
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token,
			Progress:      p.Progress,
			Total:         p.Total,
			Message:       p.Message,
		})
	}
}
