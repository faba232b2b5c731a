package model

import (
	"go/token"
	"strings"
)

// Command is the package main that opentoolgen -cmd writes beside a generated
// package: it serves the package through package toolcli (start: OpenTool
// HTTP and MCP on one port; mcp: MCP over stdio).
type Command struct {
	// Name is the executable's name: the base name of the main's directory,
	// as go build names it.
	Name string
	// ImportPath is the generated package's import path, and Import the name
	// the main imports it under: its package name, unless that is one of
	// reservedMainNames.
	ImportPath string
	Import     string
	// Env is, per API.Security entry (OpenAPI), the environment variable its
	// credential is read from (NAME_SCHEME in capitals, numbered when two
	// schemes give the same).
	Env []string
	// UpstreamKeyEnv is the environment variable an OpenTool gateway reads the
	// upstream's API key from when --upstream-key is not given.
	UpstreamKeyEnv string
	// MCPUpstream says the functions are an MCP server's (a package generated
	// from its tools/list): the main is a gateway that reaches that server
	// over MCP (--command or --upstream), not an OpenTool upstream.
	MCPUpstream bool
	// NATS says the main has the nats and exec commands
	// (toolcli/natscli.Commands), OTel that it exports OpenTelemetry
	// (toolcli/otelcli.Telemetry): opentoolgen -with nats, -with otel.
	NATS, OTel bool
}

// reservedMainNames are the identifiers a generated main declares or imports
// (the packages it imports, main's locals): the generated package is imported
// under another name when its own is one of them.
var reservedMainNames = []string{
	"main", "context", "flag", "os", "strings", "mcp", "mcpbridge", "rest", "declare", "toolopt", "toolcli", "natscli", "otelcli",
	"cmd", "fs", "ctx", "opts", "server", "library", "upstream", "upstreamKey", "copts", "v",
	"user", "password", "lib", "err", "tool", "runtime",
}

// NewCommand returns the Command of p's main: name is the executable's name,
// importPath the package's import path.
func NewCommand(p *Package, name, importPath string) *Command {
	c := &Command{Name: name, ImportPath: importPath, Import: p.Name, MCPUpstream: p.Kind == PackageMCP}
	for _, r := range reservedMainNames {
		if c.Import == r || token.IsKeyword(c.Import) {
			c.Import += "pkg"
			break
		}
	}
	prefix := EnvName(name)
	if prefix == "" || prefix[0] >= '0' && prefix[0] <= '9' { // a variable's name starts with a letter
		prefix = strings.TrimSuffix("TOOL_"+prefix, "_")
	}
	c.UpstreamKeyEnv = prefix + "_UPSTREAM_KEY"
	if p.API != nil {
		envs := NewScope(c.UpstreamKeyEnv)
		for _, s := range p.API.Security {
			n := EnvName(s.Name)
			if n == "" {
				n = "CREDENTIAL"
			}
			c.Env = append(c.Env, envs.Take(prefix+"_"+n))
		}
	}
	return c
}

// EnvName is a name in the form of environment variables: its ASCII words in
// capitals joined by underscores (bearerAuth → BEARER_AUTH, api-key →
// API_KEY); "" when it has none.
func EnvName(s string) string {
	var words []string
	for _, w := range Words(s) {
		var b strings.Builder
		for _, r := range w {
			if r < 0x80 {
				b.WriteRune(r)
			}
		}
		if b.Len() > 0 {
			words = append(words, strings.ToUpper(b.String()))
		}
	}
	return strings.Join(words, "_")
}
