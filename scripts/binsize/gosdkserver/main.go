// Command gosdkserver is the yardstick of scripts/binsize.sh: the official
// MCP Go SDK's one-tool server on standard input and output, as its README
// shows one, with nothing of opentoolgen in it.
package main

import (
	"context"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Input is the tool's argument.
type Input struct {
	Name string `json:"name" jsonschema:"the name of the person to greet"`
}

// Output is the tool's result.
type Output struct {
	Greeting string `json:"greeting" jsonschema:"the greeting to tell to the user"`
}

func sayHi(_ context.Context, _ *mcp.CallToolRequest, in Input) (*mcp.CallToolResult, Output, error) {
	return nil, Output{Greeting: "Hi " + in.Name}, nil
}

func main() {
	server := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "v1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "greet", Description: "say hi"}, sayHi)
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
