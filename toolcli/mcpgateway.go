package toolcli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// MCPGateway is the backend of the command generated (-cmd) from an MCP
// tools/list result: a typed gateway to the MCP server itself. It connects
// to the server — it starts command, a command line, as an MCP server on
// its standard input and output (mcpbridge.CommandTool), or connects to url
// over streamable HTTP (mcpbridge.HTTPTool); exactly one of them — and
// returns the Tool newTool makes of a Caller of it (the generated package's
// NewTool of its NewClient): each call is checked against the listing's
// schemas before it leaves. Closing the Tool (the command does when it
// exits) ends the session, and the command started.
//
// command is split into words as a shell would split a simple line: by
// spaces, with '…' and "…" quoting, and a backslash escaping the next
// character; it runs with the command's environment.
func MCPGateway(ctx context.Context, command, url string, newTool func(runtime.Caller) (runtime.Tool, error)) (runtime.Tool, error) {
	var (
		up  *mcpbridge.Tool
		err error
	)
	switch {
	case command != "" && url != "":
		return nil, errors.New("--command and --upstream both given: the MCP server is one or the other")
	case command != "":
		words, werr := splitCommand(command)
		if werr != nil {
			return nil, fmt.Errorf("--command: %w", werr)
		}
		cmd := exec.Command(words[0], words[1:]...)
		cmd.Stderr = os.Stderr
		up, err = mcpbridge.CommandTool(ctx, cmd)
	case url != "":
		up, err = mcpbridge.HTTPTool(ctx, url, nil)
	default:
		return nil, errors.New("no MCP server: give --command \"CMD ARGS…\" (stdio) or --upstream URL (streamable HTTP)")
	}
	if err != nil {
		return nil, err
	}
	tool, err := newTool(runtime.Local(up))
	if err != nil {
		up.Close()
		return nil, err
	}
	return &gateway{Tool: tool, up: up}, nil
}

// gateway is the Tool of MCPGateway: the generated Tool, with the hints it
// knows, closing the MCP session with it.
type gateway struct {
	runtime.Tool
	up *mcpbridge.Tool
}

var _ runtime.HintTool = (*gateway)(nil)

func (g *gateway) Close() error { return g.up.Close() }

// RunsTasks reports whether the MCP session runs, for a plain call of
// function, the task the server may answer with (mcpbridge.TaskRunner): a
// function the listing says requires tasks is then served to MCP clients
// without the tasks extension too.
func (g *gateway) RunsTasks(function string) bool { return g.up.RunsTasks(function) }

// Hints are the generated Tool's (the listing's annotations), else the MCP
// server's of now.
func (g *gateway) Hints(function string) (document.Hints, bool) {
	if ht, ok := g.Tool.(runtime.HintTool); ok {
		if h, ok := ht.Hints(function); ok {
			return h, true
		}
	}
	return g.up.Hints(function)
}

// splitCommand splits a command line into words (see MCPGateway).
func splitCommand(line string) ([]string, error) {
	var (
		words []string
		word  strings.Builder
		in    bool // a word has begun (an empty quoted word counts)
		quote rune
	)
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == '\'':
			word.WriteRune(r)
		case r == '\\' && i+1 < len(rs):
			i++
			word.WriteRune(rs[i])
			in = true
		case quote == 0 && (r == '\'' || r == '"'):
			quote, in = r, true
		case quote == 0 && (r == ' ' || r == '\t' || r == '\n'):
			if in {
				words = append(words, word.String())
				word.Reset()
				in = false
			}
		default:
			word.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed %c in %q", quote, line)
	}
	if in {
		words = append(words, word.String())
	}
	if len(words) == 0 {
		return nil, errors.New("an empty command line")
	}
	return words, nil
}
