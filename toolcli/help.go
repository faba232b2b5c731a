package toolcli

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"

	"github.com/opentoolgen/opentoolgen/internal/buildinfo"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
)

// helpCommand is a command of the help: its name, what it serves and its
// options.
type helpCommand struct {
	name, what string
	lines      []HelpLine
}

// help prints the help in the layout of the OpenTool Server CLI guidelines,
// under a title that says what the tool is (the document's title):
//
//	mock_util_tool 1.0.0 — OpenTool and MCP server for CRUD API for mock
//
//	Usage: mock_util_tool <command> [options]
//
//	Available commands:
//
//	Command: start    serve OpenTool HTTP at /opentool and MCP at /mcp, on one port
//	  -v, --version     Version, Default: 1.0.0
//	  -t, --toolPort    OpenTool Server Port, Default: 9639
//	  -k, --apiKeys     API Keys, allow array, as: --apiKeys KEY_A --apiKeys KEY_B
//	…
//	Global options:
//
//	-h, --help    Show help information
//
// Options are in columns as there: the names padded to the longest plus four.
// The command's own flags follow the standard ones, in the order of their
// names, and the environment variables (the API keys', then those of
// Command.Env) have a section of their own before the global options.
func (c *Command) help(w io.Writer) {
	version := c.version()
	commands := []helpCommand{
		{"start", "serve OpenTool HTTP at /opentool and MCP at /mcp, on one port", append([]HelpLine{
			{"-v, --version", "Version, Default: " + version},
			{"-t, --toolPort", fmt.Sprintf("OpenTool Server Port, Default: %d", c.port())},
			{"-k, --apiKeys", "API Keys, allow array, as: --apiKeys KEY_A --apiKeys KEY_B"},
			{"    --host", "Host, Default: " + DefaultHost},
			{"    --options", "Argument options file (JSON): defaults, fixed and envs of arguments"},
			{"    --values", "Call values from request headers for {NAME} in options, as: --values X-Trace-Id=trace_id"},
		}, c.ownLines("start")...)},
		{"mcp", "serve MCP over standard input and output", append([]HelpLine{
			{"-v, --version", "Version, Default: " + version},
			{"    --options", "Argument options file (JSON): defaults, fixed and envs of arguments"},
		}, c.ownLines("mcp")...)},
	}
	for _, sc := range c.Commands {
		lines := append([]HelpLine{{"-v, --version", "Version, Default: " + version}}, sc.Help...)
		lines = append(lines, HelpLine{"    --options", "Argument options file (JSON): defaults, fixed and envs of arguments"})
		if sc.Values != "" {
			lines = append(lines, HelpLine{"    --values", sc.Values})
		}
		commands = append(commands, helpCommand{sc.Name, sc.Summary, append(lines, c.ownLines(sc.Name)...)})
	}
	width := 0
	for _, cmd := range commands {
		for _, l := range cmd.lines {
			width = max(width, len(l.Names))
		}
	}
	width += 4
	fmt.Fprintf(w, "%s\n\n", c.title())
	fmt.Fprintf(w, "Usage: %s <command> [options]\n\n", c.Name)
	fmt.Fprintf(w, "Available commands:\n\n")
	for _, cmd := range commands {
		fmt.Fprintf(w, "Command: %-9s%s\n", cmd.name, cmd.what)
		for _, l := range cmd.lines {
			fmt.Fprintf(w, "  %-*s%s\n", width, l.Names, l.Usage)
		}
		fmt.Fprintln(w)
	}
	// The limits of start have a section of their own, so that the
	// guidelines' columns above stay as they are.
	limits := []HelpLine{
		{"--readTimeout", "Time a client has to send a request body (0: no bound), Default: 30s"},
		{"--writeTimeout", "Time each write of an answer or stream event may take: a client that stops reading is cut off (0: no bound), Default: 30s"},
		{"--shutdownTimeout", "Time calls and streams in flight get on SIGINT, SIGTERM or POST /opentool/stop, Default: 30s"},
		{"--drainDelay", "Time the server serves on once told to stop, /readyz answering 503, before it closes its port (only if /readyz was asked; 0: none), Default: 5s"},
		{"--mcpSessions", "Stateful MCP: sessions kept in this process, a load balancer needs session affinity (default: stateless, any replica answers)"},
		{"--mcpMaxSessions", fmt.Sprintf("Most MCP sessions at once, stateless: MCP requests under way; one more is HTTP 503 (0: no bound), Default: %d", mcpbridge.DefaultMaxSessions)},
		{"--mcpSessionTimeout", "An MCP session without a request for this long is closed (0: never), Default: 30m0s"},
		{"--allowOrigin", "Origin browsers may call /mcp from besides the server's own and loopback ones, allow array, as: --allowOrigin https://app.example.com"},
		{"--noRemoteStop", "Refuse POST /opentool/stop (HTTP 404), which otherwise stops the server as SIGTERM does (with API keys: for a caller with one; without: for this machine's own)"},
	}
	fmt.Fprintf(w, "Limits of start:\n\n")
	for _, l := range limits {
		fmt.Fprintf(w, "%-*s%s\n", len("--mcpSessionTimeout")+4, l.Names, l.Usage)
	}
	fmt.Fprintln(w)
	for _, sc := range c.Commands {
		if len(sc.Limits) == 0 {
			continue
		}
		fmt.Fprintf(w, "Limits of %s:\n\n", sc.Name)
		for _, l := range sc.Limits {
			fmt.Fprintf(w, "%-*s%s\n", len("--mcpSessionTimeout")+4, l.Names, l.Usage)
		}
		fmt.Fprintln(w)
	}
	discoveryHelp(w, c.discoveryCommands())
	envs := append([]Env{{Name: c.keysEnv(), Usage: "API keys of start, comma-separated, when no -k is given (keys on the command line show in ps)"}}, c.Env...)
	if c.Telemetry != nil { // linked only then: a binary's help names what it has
		envs = append(envs, Env{Name: "OTEL_*", Usage: "OpenTelemetry export: OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL (grpc, http/protobuf), OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER, OTEL_SERVICE_NAME, …"})
	}
	{
		envWidth := 0
		for _, e := range envs {
			envWidth = max(envWidth, len(e.Name))
		}
		fmt.Fprintf(w, "Environment variables:\n\n")
		for _, e := range envs {
			usage := oneLine(e.Usage)
			if e.Required {
				usage += " (required by the document)"
			}
			fmt.Fprintf(w, "%-*s%s\n", envWidth+4, e.Name, usage)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Global options:\n\n")
	fmt.Fprintf(w, "%-17s%s\n", "-h, --help", "Show help information")
	fmt.Fprintf(w, "%-17s%s\n", "-v, --version", "Show the version, the document's and what the binary was built from (also: "+c.Name+" version)")
}

// title is the first line of the help: "spotify 1.0.0 — OpenTool and MCP
// server for Spotify Web API", the document's title last (none without a
// document).
func (c *Command) title() string {
	t := c.Name + " " + c.version() + " — OpenTool and MCP server"
	if c.Document != nil {
		if title := oneLine(c.Document.Info.Title); title != "" {
			t += " for " + title
		}
	}
	return t
}

// printVersion prints what -v alone asks: the name and version the server
// reports on its first line, then, labelled, the document's title and
// version and what the binary was built from (its module's version as the go
// command stamped it, opentoolgen's, Go's).
func (c *Command) printVersion(w io.Writer) {
	fmt.Fprintln(w, c.Name, c.version())
	var lines []HelpLine
	if d := c.Document; d != nil {
		lines = append(lines, HelpLine{"document:", strings.TrimSpace(oneLine(d.Info.Title) + ", version " + d.Info.Version)})
	}
	if in, ok := buildinfo.Read(); ok {
		lines = append(lines, HelpLine{"module:", strings.TrimSpace(in.Main + " " + in.Version)})
		if in.OpenToolGen != "" && in.Main != buildinfo.Module {
			lines = append(lines, HelpLine{"opentoolgen:", in.OpenToolGen})
		}
		if in.Go != "" {
			lines = append(lines, HelpLine{"go:", in.Go})
		}
	}
	for _, l := range lines {
		fmt.Fprintf(w, "  %-13s%s\n", l.Names, l.Usage)
	}
}

// ownLines are the help lines of the flags Command.Flags registers, in the
// order of their names.
func (c *Command) ownLines(command string) []HelpLine {
	if c.Flags == nil {
		return nil
	}
	fs := flag.NewFlagSet(command, flag.ContinueOnError)
	c.Flags(fs)
	var lines []HelpLine
	fs.VisitAll(func(f *flag.Flag) { // in the order of the names
		if strings.HasPrefix(f.Usage, "Deprecated:") {
			return // an old name kept working, not shown
		}
		usage := oneLine(f.Usage)
		switch {
		case slices.Contains(c.Required, f.Name):
			usage += " (required)"
		case f.DefValue != "" && !isZeroBool(f):
			usage += ", Default: " + f.DefValue
		}
		names := "    --" + f.Name
		if len([]rune(f.Name)) == 1 {
			names = "-" + f.Name
		}
		lines = append(lines, HelpLine{names, usage})
	})
	return lines
}

// isZeroBool reports whether f is a boolean flag that is off by default.
func isZeroBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag() && f.DefValue == "false"
}

// oneLine is s on one line: its white space runs made single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// displayName is the tool's name in UPPER_SNAKE_CASE, the prefix of its
// environment variables: the command name in capitals, what is not a letter
// or a digit an underscore (mock_util_tool → MOCK_UTIL_TOOL).
func displayName(name string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToUpper(r)
		}
		return '_'
	}, name)
}
