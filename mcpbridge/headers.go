package mcpbridge

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// x-mcp-header.
//
// A tool whose arguments are HTTP header parameters of the API behind it
// (runtime.HeaderTool: a package generated from OpenAPI) has them marked in
// its inputSchema with "x-mcp-header": the header's name (SEP-2243 of the
// 2026-07-28 specification): a client of that protocol over streamable
// HTTP sends their values as Mcp-Param-NAME headers too, which the SDK's
// server checks against the arguments. The specification allows the mark
// on string, integer and boolean properties only, with a name of token
// characters, unique in the tool whatever its case: an argument of another
// type (an array of values, an object) or a name that would repeat one is
// left unmarked.

// headerSchema returns the inputSchema params with the arguments of
// headers (argument → header name) marked x-mcp-header; params as it is
// when none can be.
func headerSchema(params json.RawMessage, headers map[string]string) json.RawMessage {
	if len(headers) == 0 {
		return params
	}
	var schema map[string]json.RawMessage
	if json.Unmarshal(params, &schema) != nil {
		return params
	}
	var props map[string]map[string]json.RawMessage
	if json.Unmarshal(schema["properties"], &props) != nil {
		return params
	}
	seen := map[string]bool{}
	marked := false
	for _, arg := range sortedKeys(headers) {
		header, prop := headers[arg], props[arg]
		var typ string
		if prop == nil || json.Unmarshal(prop["type"], &typ) != nil || typ != "string" && typ != "integer" && typ != "boolean" {
			continue
		}
		if !tokenName(header) || seen[strings.ToLower(header)] {
			continue
		}
		seen[strings.ToLower(header)] = true
		prop["x-mcp-header"], _ = json.Marshal(header)
		marked = true
	}
	if !marked {
		return params
	}
	var err error
	if schema["properties"], err = json.Marshal(props); err != nil {
		return params
	}
	out, err := json.Marshal(schema)
	if err != nil {
		return params
	}
	return out
}

// headerParameters returns the header arguments of function of tool, nil
// when it is not a runtime.HeaderTool.
func headerParameters(tool runtime.Tool, function string) map[string]string {
	if ht, ok := tool.(runtime.HeaderTool); ok {
		return ht.HeaderParameters(function)
	}
	return nil
}

// tokenName reports whether s is an HTTP token (RFC 9110): what a header
// name is made of.
func tokenName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("!#$%&'*+-.^_`|~", r):
		default:
			return false
		}
	}
	return true
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
