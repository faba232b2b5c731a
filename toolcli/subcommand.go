package toolcli

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// Subcommand is a command of the command line besides start and mcp: a
// front a main links only when it serves the tool that way, such as nats
// and exec of package toolcli/natscli (natscli.Commands, what opentoolgen
// -with nats writes). Command.Commands lists them; the help and the usage
// errors name only the commands a Command has, so that a binary holds
// what it serves and says no more.
//
// The command takes -v (--version), --options, --shutdownTimeout, the
// flags of Command.Flags, --values when Values is set, --discovery when
// Discovery is, and the flags of its own that Flags registers.
type Subcommand struct {
	// Name is the command's word (NAME nats): lower case letters, not
	// start, mcp or help.
	Name string
	// Summary says what the command serves, on its line of the help.
	Summary string
	// Discovery says the command serves the tool to models: it takes
	// --discovery, and Serving.Tool is in discovery mode when asked (see
	// DiscoveryAuto).
	Discovery bool
	// Values, when not empty, is the help's line of --values HEADER=NAME
	// (repeatable): call values from the headers of the protocol, in
	// Serving.Values.
	Values string
	// Help are the lines of the command's own options in the help, between
	// -v and --options.
	Help []HelpLine
	// Limits, when not empty, are the lines of the help's section "Limits of
	// NAME" (the names in one column, as start's).
	Limits []HelpLine
	// Flags registers the command's own flags on fs (once per flag set
	// parsed) and returns the run they set.
	Flags func(fs *flag.FlagSet) Runner
}

// HelpLine is a line of the help: an option's names ("    --url",
// "-v, --version") and what it is.
type HelpLine struct{ Names, Usage string }

// Runner is one run of a Subcommand, with the flags its Flags registered.
type Runner interface {
	// Check is asked once the flags are parsed, given saying which were
	// given on the command line: an error is bad usage (exit status 2),
	// reported before the tool is built.
	Check(given func(name string) bool) error
	// Serve serves s.Tool until ctx is done, then stops gracefully within
	// s.ShutdownTimeout; an error is exit status 1.
	Serve(ctx context.Context, s *Serving) error
}

// Serving is what a Subcommand's run serves, made by the Command from the
// standard options.
type Serving struct {
	// Name is Command.Name; Version is --version.
	Name, Version string
	// Tool is the tool built with the options of --options (in discovery
	// mode when Subcommand.Discovery and --discovery say so), without log
	// lines: Logged adds them.
	Tool runtime.Tool
	// Logger is the command's structured log.
	Logger *slog.Logger
	// Interceptors run around every call the command serves (telemetry's):
	// the front runs them, none when telemetry is off.
	Interceptors []intercept.Func
	// Values are --values: call value name by header.
	Values map[string]string
	// ShutdownTimeout is --shutdownTimeout: the grace period of the calls in
	// flight once ctx ends.
	ShutdownTimeout time.Duration
}

// Logged returns s.Tool with the command's log line per call, as start and
// mcp log theirs: front names the protocol the calls come from ("nats").
func (s *Serving) Logged(front string) runtime.Tool { return logged(s.Tool, s.Logger, front) }

// subcommand returns c's subcommand named name, nil when it has none.
func (c *Command) subcommand(name string) *Subcommand {
	for i := range c.Commands {
		if c.Commands[i].Name == name {
			return &c.Commands[i]
		}
	}
	return nil
}

// checkCommands reports a mistake in c.Commands: a name that is not a
// lower-case word, taken by start, mcp or help, or given twice, or no
// Flags.
func (c *Command) checkCommands() error {
	seen := map[string]bool{"start": true, "mcp": true, "help": true}
	for i, sc := range c.Commands {
		ok := sc.Name != ""
		for _, r := range sc.Name {
			ok = ok && r >= 'a' && r <= 'z'
		}
		switch {
		case !ok:
			return fmt.Errorf("toolcli: Command.Commands[%d]: the name %s is not a word of lower-case letters", i, strconv.Quote(sc.Name))
		case seen[sc.Name]:
			return fmt.Errorf("toolcli: Command.Commands[%d]: the command %s is there already", i, sc.Name)
		case sc.Flags == nil:
			return fmt.Errorf("toolcli: Command.Commands[%d] (%s) has no Flags", i, sc.Name)
		}
		seen[sc.Name] = true
	}
	return nil
}

// commandNames are the commands c has, for the usage errors: "start or
// mcp", "start, mcp, nats or exec".
func (c *Command) commandNames() string {
	names := []string{"start", "mcp"}
	for _, sc := range c.Commands {
		names = append(names, sc.Name)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// discoveryCommands are the commands that take --discovery, for the help:
// "start and mcp", "start, mcp and nats".
func (c *Command) discoveryCommands() string {
	names := []string{"start", "mcp"}
	for _, sc := range c.Commands {
		if sc.Discovery {
			names = append(names, sc.Name)
		}
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// notLinked is the hint of an unknown command that a main links only when
// asked: nats and exec, of package toolcli/natscli.
func notLinked(command string) string {
	if command == "nats" || command == "exec" {
		return " (" + command + " is not in this binary: it is package toolcli/natscli's, which opentoolgen -with nats links)"
	}
	return ""
}
