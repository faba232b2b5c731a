// Package mcpe2e tests a package generated from an MCP server's tools/list
// result end to end: an MCP server written with the official SDK alone, its
// listing saved as testdata/golden/mcp-server/tools.json (what
// `opentoolgen` reads), the package generated from it
// (testdata/golden/mcp-server), and every tool called through that package's
// typed client over mcpbridge.NewTool, the server as a runtime.Tool: in the
// process (runtime.Local) and over OpenTool HTTP.
package mcpe2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An MCP server written with the SDK alone, as a third party would: schemas
// inferred from Go types (mcp.AddTool) and written by hand (Server.AddTool).

type bookArgs struct {
	Guest   string   `json:"guest"`
	Room    string   `json:"room"`
	Nights  int      `json:"nights,omitempty"`
	Address *address `json:"address,omitempty"`
	Note    *string  `json:"note,omitempty"`
}

type address struct {
	Street string `json:"street,omitempty"`
	City   string `json:"city"`
}

type booking struct {
	ID     int64  `json:"id"`
	Guest  string `json:"guest"`
	Room   string `json:"room"`
	Nights int    `json:"nights"`
	City   string `json:"city,omitempty"`
	Note   string `json:"note,omitempty"`
}

// bookSchema is written by hand, for what inference does not write: an enum,
// $defs, a nullable type, a default, bounds.
const bookSchema = `{
  "type": "object",
  "properties": {
    "guest": {"type": "string", "description": "Who stays.", "minLength": 1},
    "room": {"type": "string", "enum": ["single", "double"]},
    "nights": {"type": "integer", "minimum": 1, "maximum": 30, "default": 1},
    "address": {"$ref": "#/$defs/Address"},
    "note": {"type": ["string", "null"]}
  },
  "required": ["room", "guest"],
  "$defs": {
    "Address": {
      "type": "object",
      "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
      "required": ["city"]
    }
  }
}`

type echoArgs struct {
	Text  string `json:"text" jsonschema:"what to repeat"`
	Times int    `json:"times,omitempty" jsonschema:"how many times (1 when absent)"`
}

type counted struct {
	Count int `json:"count"`
}

// treeSchema is recursive.
const treeSchema = `{
  "type": "object",
  "properties": {"root": {"$ref": "#/$defs/Node"}},
  "required": ["root"],
  "$defs": {
    "Node": {
      "type": "object",
      "description": "A node of the tree.",
      "properties": {
        "name": {"type": "string"},
        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
      },
      "required": ["name"]
    }
  }
}`

const treeOutput = `{
  "type": "object",
  "properties": {
    "count": {"type": "integer"},
    "names": {"type": "array", "items": {"type": "string"}}
  },
  "required": ["count", "names"]
}`

type node struct {
	Name     string `json:"name"`
	Children []node `json:"children"`
}

// measureSchema has unions: a type list with null, oneOf of references, a
// const without type, a map.
const measureSchema = `{
  "type": "object",
  "properties": {
    "value": {"type": ["string", "number", "null"], "description": "Any scalar."},
    "shape": {"oneOf": [{"$ref": "#/$defs/Circle"}, {"$ref": "#/$defs/Square"}]},
    "unit": {"const": "mm"},
    "scale": {"type": "object", "additionalProperties": {"type": "number"}}
  },
  "$defs": {
    "Circle": {"type": "object", "properties": {"radius": {"type": "number"}}, "required": ["radius"]},
    "Square": {"type": "object", "properties": {"side": {"type": "number"}}, "required": ["side"]}
  }
}`

const measureOutput = `{
  "type": "object",
  "properties": {
    "kind": {"type": "string", "enum": ["string", "number", "null", "absent"]},
    "area": {"type": ["number", "null"]},
    "unit": {"type": "string"},
    "scaled": {"type": "object", "additionalProperties": {"type": "number"}}
  },
  "required": ["kind", "area"]
}`

type measureArgs struct {
	Value json.RawMessage    `json:"value"`
	Shape *shape             `json:"shape"`
	Unit  string             `json:"unit"`
	Scale map[string]float64 `json:"scale"`
}

type shape struct {
	Radius *float64 `json:"radius"`
	Side   *float64 `json:"side"`
}

type measured struct {
	Kind   string             `json:"kind"`
	Area   *float64           `json:"area"`
	Unit   string             `json:"unit,omitempty"`
	Scaled map[string]float64 `json:"scaled,omitempty"`
}

// mcpServer is the SDK server and how many tool calls reached it.
type mcpServer struct {
	*mcp.Server
	calls atomic.Int64
	// progressed, when set, is what slow_count waits for once it has sent
	// its progress notifications: the test's sign that they arrived.
	progressed chan struct{}
}

// Bytes of the contents snapshot answers.
var (
	pngBytes = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 1, 2}
	wavBytes = []byte{'R', 'I', 'F', 'F', 0, 0, 0, 0, 'W', 'A', 'V', 'E'}
)

type slowArgs struct {
	Steps int `json:"steps" jsonschema:"how many progress notifications to send"`
}

func newMCPServer() *mcpServer {
	s := &mcpServer{Server: mcp.NewServer(&mcp.Implementation{Name: "hotel", Title: "Hotel", Version: "3.1.0"}, nil)}
	mcp.AddTool(s.Server, &mcp.Tool{Name: "book", Title: "Book a room", Description: "Book a room.", InputSchema: json.RawMessage(bookSchema),
		Annotations: &mcp.ToolAnnotations{Title: "Booking", DestructiveHint: new(false)}},
		func(_ context.Context, _ *mcp.CallToolRequest, in bookArgs) (*mcp.CallToolResult, booking, error) {
			s.calls.Add(1)
			b := booking{ID: 7, Guest: in.Guest, Room: in.Room, Nights: max(in.Nights, 1)}
			if in.Address != nil {
				b.City = in.Address.City
			}
			if in.Note != nil {
				b.Note = *in.Note
			}
			return nil, b, nil
		})
	mcp.AddTool(s.Server, &mcp.Tool{Name: "echo", Description: "Repeat a text.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
			s.calls.Add(1)
			words := slices.Repeat([]string{in.Text}, max(in.Times, 1))
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(words, " ")}}}, nil, nil
		})
	mcp.AddTool(s.Server, &mcp.Tool{Name: "count_rooms", Description: "Count the free rooms."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, counted, error) {
			s.calls.Add(1)
			return nil, counted{Count: 3}, nil
		})
	mcp.AddTool(s.Server, &mcp.Tool{Name: "picture", Description: "Draw the hotel."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			s.calls.Add(1)
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "a dot"},
				&mcp.ImageContent{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}},
			}}, nil, nil
		})
	mcp.AddTool(s.Server, &mcp.Tool{Name: "snapshot", Description: "Photograph the lobby."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			s.calls.Add(1)
			size := int64(2048)
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "the lobby"},
				&mcp.ImageContent{MIMEType: "image/png", Data: pngBytes, Annotations: &mcp.Annotations{Audience: []mcp.Role{"user"}}},
				&mcp.AudioContent{MIMEType: "audio/wav", Data: wavBytes},
				&mcp.ResourceLink{URI: "file:///hotel/plan.pdf", Name: "plan.pdf", Title: "Floor plan", MIMEType: "application/pdf", Size: &size},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///hotel/menu.txt", MIMEType: "text/plain", Text: "soup of the day"}},
			}}, nil, nil
		})
	mcp.AddTool(s.Server, &mcp.Tool{Name: "slow_count", Description: "Count slowly, saying how far."},
		func(ctx context.Context, req *mcp.CallToolRequest, in slowArgs) (*mcp.CallToolResult, counted, error) {
			s.calls.Add(1)
			if token := req.Params.GetProgressToken(); token != nil {
				for i := 1; i <= in.Steps; i++ {
					err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
						ProgressToken: token, Progress: float64(i), Total: float64(in.Steps), Message: fmt.Sprintf("step %d", i)})
					if err != nil {
						return nil, counted{}, err
					}
				}
				if s.progressed != nil {
					select {
					case <-s.progressed:
					case <-ctx.Done():
						return nil, counted{}, ctx.Err()
					}
				}
			}
			return nil, counted{Count: in.Steps}, nil
		})
	mcp.AddTool(s.Server, &mcp.Tool{Name: "fail", Description: "Fail."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			s.calls.Add(1)
			return nil, nil, errors.New("the front desk is closed")
		})
	s.AddTool(&mcp.Tool{Name: "tree", Description: "Count the nodes of a tree.", InputSchema: json.RawMessage(treeSchema), OutputSchema: json.RawMessage(treeOutput)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s.calls.Add(1)
			var in struct{ Root node }
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			var names []string
			var walk func(n node)
			walk = func(n node) {
				names = append(names, n.Name)
				for _, c := range n.Children {
					walk(c)
				}
			}
			walk(in.Root)
			return structured(map[string]any{"count": len(names), "names": names})
		})
	s.AddTool(&mcp.Tool{Name: "measure", Description: "Measure a shape.", InputSchema: json.RawMessage(measureSchema), OutputSchema: json.RawMessage(measureOutput)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s.calls.Add(1)
			var in measureArgs
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			out := measured{Kind: "absent", Unit: in.Unit}
			switch v := strings.TrimSpace(string(in.Value)); {
			case v == "null":
				out.Kind = "null"
			case strings.HasPrefix(v, `"`):
				out.Kind = "string"
			case v != "":
				out.Kind = "number"
			}
			if sh := in.Shape; sh != nil {
				var a float64
				if sh.Radius != nil {
					a = math.Pi * *sh.Radius * *sh.Radius
				} else if sh.Side != nil {
					a = *sh.Side * *sh.Side
				}
				out.Area = &a
			}
			if len(in.Scale) > 0 {
				out.Scaled = map[string]float64{}
				for k, f := range in.Scale {
					out.Scaled[k] = 2 * f
				}
			}
			return structured(out)
		})
	s.AddTool(&mcp.Tool{Name: "rooms", Description: "List the rooms.", InputSchema: json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type":"array","items":{"type":"string"}}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s.calls.Add(1)
			return structured([]string{"101", "102"})
		})
	return s
}

// structured is a result with v as structuredContent and as its JSON text.
func structured(v any) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("marshal: %w", err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}, nil
}
