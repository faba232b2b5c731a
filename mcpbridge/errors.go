package mcpbridge

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// Errors of other SDKs' servers.
//
// The TypeScript SDK's McpServer answers an unknown tool and invalid
// arguments with a result with isError whose text is its McpError's message,
// "MCP error -32602: Tool NAME not found", "MCP error -32602: Input
// validation error: Invalid arguments for tool NAME: …"; the Python SDK
// writes "Unknown tool: NAME" and "Input validation error: …". A Tool reads
// these back as the protocol's codes: a JSON-RPC code in the text's "MCP
// error N: " prefix is the error's code (the prefix dropped from the
// message), a tool not found is -32601 (method not found, as an OpenTool
// server answers it), and invalid arguments are -32602. Any other error
// result is a tool error (500) with its text.

// mcpErrorPrefix is the prefix the TypeScript SDK's McpError puts on its
// message.
var mcpErrorPrefix = regexp.MustCompile(`^MCP error (-32[0-9]{3}): `)

// unknownTool matches the messages of SDK servers for a tool they do not
// have; the group is the tool's name.
var unknownTool = regexp.MustCompile(`^(?:Tool (\S+) not found|Unknown tool: (\S+))$`)

// invalidArgs matches the messages of SDK servers for arguments their
// tool's input schema refuses.
var invalidArgs = regexp.MustCompile(`^(?:Input validation error|Invalid arguments for tool )`)

// protocolCode reads the code of an error result of the tool name from its
// text: the code and the message without the prefix, or 0 when the text says
// nothing the protocol knows.
func protocolCode(name, text string) (int, string) {
	code := 0
	if m := mcpErrorPrefix.FindStringSubmatch(text); m != nil {
		code, _ = strconv.Atoi(m[1])
		text = text[len(m[0]):]
	}
	if m := unknownTool.FindStringSubmatch(strings.TrimSpace(text)); m != nil && (m[1] == name || m[2] == name) {
		return runtime.CodeMethodNotFound, text
	}
	if invalidArgs.MatchString(text) {
		return runtime.CodeInvalidParams, text
	}
	return code, text
}
