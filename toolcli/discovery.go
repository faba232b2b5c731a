package toolcli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/opentoolgen/opentoolgen/discover"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// Discovery modes of --discovery (start, mcp, and nats with natscli): the tool's functions
// served as they are (off), or as the three functions of package
// discover that search, describe and call them (on); auto, the
// default, is on for a tool of more than discover.AutoLimit (128) functions,
// OpenAI's limit on the tools of one request.
const (
	DiscoveryAuto = "auto"
	DiscoveryOn   = "on"
	DiscoveryOff  = "off"
)

// discoveryValue is the --discovery flag.
type discoveryValue string

func (v *discoveryValue) String() string { return string(*v) }
func (v *discoveryValue) Set(s string) error {
	switch s {
	case DiscoveryAuto, DiscoveryOn, DiscoveryOff:
		*v = discoveryValue(s)
		return nil
	}
	return fmt.Errorf("got %q, want auto, on or off", s)
}

// discoveryFlag registers --discovery on fs: that of a command that serves
// the tool to models (start, mcp, a Subcommand with Discovery).
func discoveryFlag(fs *flag.FlagSet, s *settings) {
	if s.discovery == "" {
		s.discovery = DiscoveryAuto
	}
	fs.Var((*discoveryValue)(&s.discovery), "discovery", "Discovery mode: auto, on or off")
}

// discoveryHelp writes the help's section on --discovery, of commands (start
// and mcp, …).
func discoveryHelp(w io.Writer, commands string) {
	fmt.Fprintf(w, "Discovery of %s:\n\n", commands)
	fmt.Fprintf(w, "%-*s%s\n\n", len("--mcpSessionTimeout")+4, "--discovery",
		fmt.Sprintf("auto, on or off: serve three functions that search, describe and call the tool's functions instead of them all (auto: on above %d functions), Default: auto", discover.AutoLimit))
}

// withDiscovery returns tool in discovery mode when s asks for it (on, or
// auto and more than discover.AutoLimit functions), else tool itself.
func withDiscovery(ctx context.Context, s *settings, tool runtime.Tool, logger *slog.Logger) (runtime.Tool, error) {
	switch s.discovery {
	case DiscoveryOff:
		return tool, nil
	case DiscoveryOn:
	default:
		doc, err := tool.Load(ctx)
		if err != nil {
			return nil, fmt.Errorf("loading the tool's document: %w", err)
		}
		if !discover.Auto(doc) {
			return tool, nil
		}
		logger.Info("discovery mode: the tool's functions are served as search_tools, describe_tool and call_tool",
			"functions", len(doc.Functions), "above", discover.AutoLimit)
	}
	return discover.Wrap(tool), nil
}
