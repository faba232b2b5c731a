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
	"github.com/opentoolgen/opentoolgen/natsbridge"
	"github.com/opentoolgen/opentoolgen/natsexec"
)

// helpLine is one option of the help: its names and what it is.
type helpLine struct{ names, usage string }

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
	commands := []struct {
		name, what string
		lines      []helpLine
	}{
		{"start", "serve OpenTool HTTP at /opentool and MCP at /mcp, on one port", append([]helpLine{
			{"-v, --version", "Version, Default: " + version},
			{"-t, --toolPort", fmt.Sprintf("OpenTool Server Port, Default: %d", c.port())},
			{"-k, --apiKeys", "API Keys, allow array, as: --apiKeys KEY_A --apiKeys KEY_B"},
			{"    --host", "Host, Default: " + DefaultHost},
			{"    --options", "Argument options file (JSON): defaults, fixed and envs of arguments"},
			{"    --values", "Call values from request headers for {NAME} in options, as: --values X-Trace-Id=trace_id"},
		}, c.ownLines("start")...)},
		{"mcp", "serve MCP over standard input and output", append([]helpLine{
			{"-v, --version", "Version, Default: " + version},
			{"    --options", "Argument options file (JSON): defaults, fixed and envs of arguments"},
		}, c.ownLines("mcp")...)},
		{"nats", "serve a NATS micro service, each function on PREFIX.function", append([]helpLine{
			{"-v, --version", "Version, Default: " + version},
			{"    --url", "NATS server URL(s) to join, as: --url nats://host:4222 (none: a NATS server embedded, on 127.0.0.1)"},
			{"    --natsPort", fmt.Sprintf("Port of the embedded NATS server (0: a free one), Default: %d", natsbridge.DefaultEmbeddedPort)},
			{"    --prefix", "Subject prefix: function f answers on PREFIX.f, Default: the document's title in lower snake case"},
			{"    --queue", "Queue group the replicas share calls in, Default: " + natsbridge.DefaultQueueGroup},
			{"    --options", "Argument options file (JSON): defaults, fixed and envs of arguments"},
			{"    --values", "Call values from message headers for {NAME} in options, as: --values X-Trace-Id=trace_id"},
		}, c.ownLines("nats")...)},
		{"exec", "serve the functions as an agent platform's tool executor, on NATS cmd.tool.*", append([]helpLine{
			{"-v, --version", "Version, Default: " + version},
			{"    --url", "NATS server URL(s) to join (none: a NATS server with JetStream embedded, on 127.0.0.1)"},
			{"    --natsPort", fmt.Sprintf("Port of the embedded NATS server (0: a free one), Default: %d", natsbridge.DefaultEmbeddedPort)},
			{"    --queue", "Queue group the replicas share commands in, Default: " + natsbridge.DefaultQueueGroup},
			{"    --subject", "target_subject of each function, Default: " + natsexec.DefaultSubject},
			{"    --project", "project_id of {project_id} in --subject (none: any, read from each command)"},
			{"    --channel", "channel_id of {channel_id} in --subject (none: any, read from each command)"},
			{"    --cards", "JetStream key-value bucket of the tool.call and tool.result cards, Default: " + natsexec.DefaultCardBucket},
			{"    --inbox", "Subject the reports are published to, Default: " + natsexec.DefaultInboxSubject},
			{"    --options", "Argument options file (JSON): defaults, fixed and envs of arguments"},
		}, c.ownLines("exec")...)},
	}
	width := 0
	for _, cmd := range commands {
		for _, l := range cmd.lines {
			width = max(width, len(l.names))
		}
	}
	width += 4
	fmt.Fprintf(w, "%s\n\n", c.title())
	fmt.Fprintf(w, "Usage: %s <command> [options]\n\n", c.Name)
	fmt.Fprintf(w, "Available commands:\n\n")
	for _, cmd := range commands {
		fmt.Fprintf(w, "Command: %-9s%s\n", cmd.name, cmd.what)
		for _, l := range cmd.lines {
			fmt.Fprintf(w, "  %-*s%s\n", width, l.names, l.usage)
		}
		fmt.Fprintln(w)
	}
	// The limits of start have a section of their own, so that the
	// guidelines' columns above stay as they are.
	limits := []helpLine{
		{"--readTimeout", "Time a client has to send a request body (0: no bound), Default: 30s"},
		{"--writeTimeout", "Time each write of an answer or stream event may take: a client that stops reading is cut off (0: no bound), Default: 30s"},
		{"--shutdownTimeout", "Time calls and streams in flight get on SIGINT or SIGTERM, Default: 30s"},
		{"--drainDelay", "Time the server serves on once told to stop, /readyz answering 503, before it closes its port (only if /readyz was asked; 0: none), Default: 5s"},
		{"--mcpSessions", "Stateful MCP: sessions kept in this process, a load balancer needs session affinity (default: stateless, any replica answers)"},
		{"--mcpMaxSessions", fmt.Sprintf("Most MCP sessions at once, stateless: MCP requests under way; one more is HTTP 503 (0: no bound), Default: %d", mcpbridge.DefaultMaxSessions)},
		{"--mcpSessionTimeout", "An MCP session without a request for this long is closed (0: never), Default: 30m0s"},
		{"--allowOrigin", "Origin browsers may call /mcp from besides the server's own and loopback ones, allow array, as: --allowOrigin https://app.example.com"},
	}
	fmt.Fprintf(w, "Limits of start:\n\n")
	for _, l := range limits {
		fmt.Fprintf(w, "%-*s%s\n", len("--mcpSessionTimeout")+4, l.names, l.usage)
	}
	fmt.Fprintf(w, "\nLimits of nats:\n\n")
	for _, l := range []helpLine{
		{"--shutdownTimeout", "Time calls in flight get on SIGINT or SIGTERM; then they are cancelled, Default: 30s"},
		{"--maxConcurrent", fmt.Sprintf("Calls run at once; more wait in the subscription, Default: %d", natsbridge.DefaultMaxConcurrent)},
	} {
		fmt.Fprintf(w, "%-*s%s\n", len("--mcpSessionTimeout")+4, l.names, l.usage)
	}
	fmt.Fprintf(w, "\nLimits of exec:\n\n")
	fmt.Fprintf(w, "%-*s%s\n", len("--mcpSessionTimeout")+4, "--shutdownTimeout", "Time commands in flight get on SIGINT or SIGTERM; then they are reported as canceled, Default: 30s")
	fmt.Fprintln(w)
	discoveryHelp(w)
	envs := append([]Env{{c.keysEnv(), "API keys of start, comma-separated, when no -k is given (keys on the command line show in ps)"}}, c.Env...)
	{
		envWidth := 0
		for _, e := range envs {
			envWidth = max(envWidth, len(e.Name))
		}
		fmt.Fprintf(w, "Environment variables:\n\n")
		for _, e := range envs {
			fmt.Fprintf(w, "%-*s%s\n", envWidth+4, e.Name, oneLine(e.Usage))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Global options:\n\n")
	fmt.Fprintf(w, "%-14s%s\n", "-h, --help", "Show help information")
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
	var lines []helpLine
	if d := c.Document; d != nil {
		lines = append(lines, helpLine{"document:", strings.TrimSpace(oneLine(d.Info.Title) + ", version " + d.Info.Version)})
	}
	if in, ok := buildinfo.Read(); ok {
		lines = append(lines, helpLine{"module:", strings.TrimSpace(in.Main + " " + in.Version)})
		if in.OpenToolGen != "" && in.Main != buildinfo.Module {
			lines = append(lines, helpLine{"opentoolgen:", in.OpenToolGen})
		}
		if in.Go != "" {
			lines = append(lines, helpLine{"go:", in.Go})
		}
	}
	for _, l := range lines {
		fmt.Fprintf(w, "  %-13s%s\n", l.names, l.usage)
	}
}

// ownLines are the help lines of the flags Command.Flags registers, in the
// order of their names.
func (c *Command) ownLines(command string) []helpLine {
	if c.Flags == nil {
		return nil
	}
	fs := flag.NewFlagSet(command, flag.ContinueOnError)
	c.Flags(fs)
	var lines []helpLine
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
		lines = append(lines, helpLine{names, usage})
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
