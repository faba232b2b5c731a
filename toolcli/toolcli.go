// Package toolcli is the command line of a tool server, as the OpenTool Server
// CLI guidelines describe it: a main gives it a constructor of its
// runtime.Tool, a name and a version, and the command serves the tool over
// OpenTool HTTP and the Model Context Protocol. opentoolgen -cmd writes such a
// main for a generated package; by hand it is a few lines:
//
//	func main() {
//		cmd := &toolcli.Command{
//			Name:     "weather",
//			Document: weathertool.Document(), // the version, and the places of bad options
//			NewTool: func(ctx context.Context, opts ...toolopt.Option) (runtime.Tool, error) {
//				return weathertool.NewTool(service{}, opts...)
//			},
//		}
//		cmd.Main()
//	}
//
// # Commands
//
//	NAME start [options]   OpenTool HTTP at /opentool and MCP streamable HTTP at /mcp, on one port
//	NAME mcp [options]     MCP over standard input and output (logs go to standard error)
//	NAME nats [options]    with package toolcli/natscli (Command.Commands): a NATS micro service
//	NAME exec [options]    with toolcli/natscli: the tool executor of an agent platform's tool development guide (natsexec), on NATS
//	NAME -h, NAME --help   the help, in the guidelines' layout (on standard output)
//	NAME -v, NAME --version, NAME version
//	                       NAME VERSION, then the document's title and version and what the
//	                       binary was built from (module versions as the go command stamped them,
//	                       opentoolgen's among them)
//
// NAME alone prints the help and exits with status 2: it serves nothing (the
// guidelines' NAME alone would start a server, without an API key, on a
// mistyped or exploratory run). Options without a command (NAME --toolPort
// 9000, NAME --opentoolServerPort 9000 --opentoolServerApiKeys KEY) are
// options of start: that is how the reference SDK's daemon runs a tool
// server, and it still does.
//
// # Options
//
// start takes the guidelines' options, each with a long and a short form, and
// the names the reference SDK (opentool-dart) and its daemon pass:
//
//	-v, --version VERSION   the version GET /version and MCP's serverInfo report (default: Command.Version);
//	                        also --opentoolServerTag. -v alone prints the version and exits.
//	-t, --toolPort PORT     the port (default: Command.Port, else 9627); 0 picks a free one. Also --opentoolServerPort.
//	-k, --apiKeys KEY       an API key (repeatable; a value with commas is several keys, as the
//	                        Dart reference reads it). Also --opentoolServerApiKeys.
//	--host HOST             the address to listen on (default 127.0.0.1). Also --opentoolServerHost.
//	--options FILE          argument options, below
//	--values HEADER=NAME    the call value NAME, for "{NAME}" in option values, from request header
//	                        HEADER on /opentool and /mcp (repeatable); over MCP, a call's _meta
//	                        members give call values too (mcpbridge)
//	--discovery MODE        auto, on or off (start, mcp, nats): serve the tool's functions as the
//	                        three functions of package discover that search, describe and
//	                        call them; auto, the default, is on for a tool of more than
//	                        discover.AutoLimit (128) functions, OpenAI's limit on tools
//
// and the limits of what clients may take, each bounding something a hostile
// or broken client could otherwise hold for ever (see mcpbridge.NewHTTPHandler
// and runtime.NewHandler for what each does):
//
//	--readTimeout D         time a client has to send a request body, on every route, requests
//	                        refused with 401 too (default 30s; 0: no bound); else 408, or the
//	                        connection closed
//	--writeTimeout D        time each write (an answer, each event of a stream) may take: a client
//	                        that stops reading is cut off and its call cancelled (default 30s)
//	--shutdownTimeout D     the grace period on SIGINT and SIGTERM (default 30s)
//	--drainDelay D          once told to stop, the time the server serves on with /readyz at
//	                        503 before it closes its port (default 5s; 0: none); skipped when
//	                        /readyz was never asked (no load balancer watches)
//	--mcpSessions           stateful MCP: sessions kept in this process, as before the
//	                        2026-07-28 specification; behind a load balancer it needs session
//	                        affinity (default: stateless, below)
//	--mcpMaxSessions N      MCP sessions open at once (default 1000; 0: no bound), stateless the
//	                        MCP requests under way; one more is HTTP 503 with Retry-After and a
//	                        JSON-RPC error
//	--mcpSessionTimeout D   an MCP session without a POST for D is closed, its GET stream with
//	                        it (default 30m; 0: never; --mcpSessions only)
//	--allowOrigin ORIGIN    an origin (https://app.example.com, or *) browsers may call /mcp from
//	                        (repeatable); requests without Origin, from the server's own origin or
//	                        a loopback one are always served, others are 403
//	--noRemoteStop          POST /opentool/stop is HTTP 404: only a signal stops the server (below)
//
// Requests to /opentool and /mcp that arrive on a loopback address with a
// Host that is not a loopback host are 403 (DNS rebinding). A JSON-RPC batch
// on /mcp holds at most 16 messages.
//
// With API keys, every request to /opentool and /mcp must carry
// "Authorization: Bearer KEY" with one of them (compared in constant time, as
// runtime.WithAPIKeys does); others get HTTP 401. mcp takes -v and --options.
// Both take the flags the main registers ([Command.Flags]); the help lists
// them, and the environment variables the command reads ([Command.Env]).
// The --opentoolServer… names are not in the help: they are for the daemon.
//
// # More commands
//
// Command.Commands adds commands beside start and mcp (Subcommand): a main
// links a front only when it lists it, and the help and the usage errors
// name only the commands the Command has. Package toolcli/natscli gives
// nats (a NATS micro service) and exec (an agent platform's tool executor), which
// opentoolgen -with nats writes; without them the binary links neither the
// NATS client nor a NATS server, and NAME nats is an unknown command that
// says where it is.
//
// # The options file
//
// --options FILE completes the arguments of calls as agent platforms register
// their tools' options (defaults, fixed, envs: see toolopt.Option). It is
// a JSON object: "args" and "envs" at the top apply to every function that has
// the argument; "functions" holds the same per function name:
//
//	{
//	  "args": {
//	    "defaults": {"units": "metric"},        // used when the caller omits the argument
//	    "fixed": {"project_id": "p-42"}         // always this value; hidden from the served document
//	  },
//	  "envs": {"api_key": "SEARCH_API_KEY"},    // read from the environment at each call; hidden, never logged
//	  "functions": {
//	    "listPets": {"args": {"fixed": {"limit": 20}}, "envs": {}}
//	  }
//	}
//
// Any other member is an error, as are a function or an argument the tool
// does not have and a value of the wrong JSON type: each is reported as
// FILE:line:col: /json/pointer: message, all at once (exit status 1).
//
// # Replicas
//
// start is safe to run as N replicas behind any load balancer, without
// session affinity:
//
//   - MCP is stateless by default (mcpbridge.NewHTTPHandler with true): each
//     POST is answered on its own, whichever replica an earlier request went
//     to; an Mcp-Session-Id header is ignored (never 404), GET and DELETE are
//     405, which MCP clients of the earlier versions accept. The tool needs no
//     session: it sends the client no requests and its list never changes.
//     --mcpSessions keeps sessions instead (a standing GET stream per client).
//   - GET /healthz answers 200 {"status":"ok"} while the process serves
//     (liveness). GET /readyz answers 200 {"status":"ready"}, or 503
//     {"status":"draining"} once the server is told to stop, or 503
//     {"status":"unavailable"} while Command.Ready fails. Neither needs an API
//     key nor reveals anything; HEAD works too.
//   - SIGTERM (or SIGINT): /readyz turns 503 and every answer says
//     "Connection: close", so that the balancer's kept-alive connections end
//     after their request; the server goes on serving for --drainDelay (if
//     /readyz was ever asked), then closes its port, lets the calls and
//     streams in flight complete within --shutdownTimeout, and exits 0 (a
//     second signal ends the process at once). No call is refused while
//     draining: a call sent to a closed port fails to connect, having sent
//     nothing, and may be sent to another replica. Give --drainDelay at
//     least the balancer's probe period times its failure threshold.
//     {"status":"unavailable"} comes from Command.Ready: a generated
//     gateway's checks that its upstream answers GET /version.
//
// # OpenTool 2.0: POST /opentool/stop
//
// start serves POST /opentool/stop as the Dart reference SDK 2.0.0 does, for
// the OpenTool daemon (opentool-hub/opentool-util-daemon), which sends it
// before it stops or deletes a tool: it answers {"status":"stopped"}, then
// the command stops as on SIGTERM (drain, --shutdownTimeout for the calls
// under way) and exits 0. With API keys it needs one, as every route;
// without, only a peer on a loopback address may stop the server (and not a
// web page of another origin), for whoever reaches the port could otherwise
// stop it. --noRemoteStop refuses it (HTTP 404). runtime.Client.Stop sends
// it. See docs/server.md for the daemon's recipe.
//
// # Logs and shutdown
//
// Logs are structured (log/slog, text) on standard error: where the server
// listens, and one line per call with the front ("opentool" or "mcp"), the
// function, the duration and the outcome ("ok", "invalid" with the JSON
// paths of the violations, "error" with the code, "cancelled", "panic"); for
// a stream, the number of items. No argument value, result, error message or
// key is logged; a stream's count is of the items the front took, not of one
// it failed to send. SIGINT and SIGTERM shut the server down gracefully:
// calls and streams in flight, over OpenTool and MCP, get --shutdownTimeout
// to complete (runtime.ServeHandler); MCP's standing GET streams end once no
// other MCP request is under way (an SDK client gives its session up when
// its GET stream cannot reconnect); then every MCP session is closed. Calls
// still running when the grace period ends are cut off (and logged
// "cancelled"); the exit status is 0 either way. Under mcp (stdio), closing
// standard input lets calls under way complete, as an MCP client stops a
// server; SIGINT and SIGTERM cancel them at once. Either way a call that
// ignores its cancellation is waited for at most 2 s.
//
// # Telemetry
//
// A Command with Telemetry (toolcli/otelcli.Telemetry, which opentoolgen
// -with otel writes into the main) exports traces and metrics with the
// OpenTelemetry SDK as the standard OTEL_* variables say
// (OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT, …_PROTOCOL, …): a
// span of each call over OpenTool, MCP and NATS (otelbridge.Interceptor),
// in the caller's W3C trace context (traceparent headers,
// _meta.traceparent), passed on to the calls the tool makes
// (otelbridge.Install), which are traced too: a generated gateway's call of
// its REST API or upstream is a Client span, child of the call's Server
// span (intercept.WithCallInterceptors). No argument, result, error message
// or body is recorded. Without Telemetry the binary links no OpenTelemetry
// SDK and no exporter, and an OTEL_* variable that asks for an export gets
// one warning line saying that this binary exports nothing.
// See docs/telemetry.md.
//
// # Credentials
//
// Of the variables of Command.Env, those marked Required (opentoolgen -cmd
// marks a REST API's credentials that some operation cannot do without)
// are checked at start: each that is not set, or empty, is one warning line
// on standard error naming it; the command serves anyway.
//
// # Exit status
//
//	0  success: -h, -v, version, a clean shutdown (SIGINT, SIGTERM, POST /opentool/stop,
//	   standard input closed under mcp), calls cut off at the end of the grace period too
//	1  the tool cannot be built or served: a bad options file, a port in use, a missing
//	   library; also a second SIGINT or SIGTERM, which ends the process at once (by the
//	   signal's default action, else status 1)
//	2  bad usage: an unknown command or flag, a missing required flag, NAME alone
package toolcli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
)

// DefaultPort is the port start serves on unless Command.Port or --toolPort
// say otherwise: the TypeScript reference SDK's.
const DefaultPort = 9627

// DefaultHost is the address start listens on unless --host says otherwise:
// this machine only. --host 0.0.0.0 (the Dart reference's default) serves
// every interface.
const DefaultHost = "127.0.0.1"

// DefaultShutdownTimeout is the grace period start gives calls and streams
// in flight when it is told to stop, unless --shutdownTimeout says otherwise.
const DefaultShutdownTimeout = 30 * time.Second

// Command is a tool server's command line.
type Command struct {
	// Name is the executable's name, in snake_case as the guidelines want
	// (mock_util_tool); its UPPER_SNAKE_CASE form prefixes the environment
	// variables (MOCK_UTIL_TOOL_API_KEYS).
	Name string
	// Version is the default of --version: what GET /version and MCP's
	// serverInfo report. Empty: Document's info.version, else "1.0.0".
	Version string
	// Document is the tool's document (a generated package's Document()),
	// optional: it gives the version, and a bad options file's mistakes are
	// found in it before the tool is built.
	Document *document.OpenTool
	// Port is the default of --toolPort (0: DefaultPort).
	Port int
	// Flags registers the command's own flags on the flag set of start and of
	// mcp (it is called once per flag set it parses or lists in the help), for
	// NewTool to read. They must not take the names of the standard options.
	Flags func(fs *flag.FlagSet)
	// Required names the flags of Flags that must be given.
	Required []string
	// Env lists the environment variables the command reads, for the help.
	Env []Env
	// NewTool builds the tool, once the flags are parsed, with the options of
	// the --options file (none without it).
	NewTool func(ctx context.Context, opts ...toolopt.Option) (runtime.Tool, error)
	// MCP are options of the MCP server (tool annotations, …), for start and mcp.
	MCP []mcpbridge.Option
	// Ready, when set, is asked by each GET /readyz of start, with a 2 s
	// deadline: an error makes the server not ready (HTTP 503; the error is
	// logged when readiness changes, never told to the prober), for example
	// while an upstream cannot be reached. Without it a server is ready from
	// the moment it listens (the tool is built before) until it is told to
	// stop.
	Ready func(ctx context.Context) error
	// Commands are the commands the command line has besides start and mcp:
	// natscli.Commands() for nats and exec (NATS). None: start and mcp
	// only, and the binary links no NATS.
	Commands []Subcommand
	// Telemetry, when set, exports the command's traces and metrics as the
	// OTEL_* variables say: toolcli/otelcli.Telemetry, which a main
	// generated with -with otel sets. Nil: the binary links no
	// OpenTelemetry SDK and exports nothing (an OTEL_* variable asking for
	// an export gets one warning line).
	Telemetry TelemetryFunc
}

// Env is an environment variable a command reads.
type Env struct {
	Name  string
	Usage string
	// Required says the document requires it: a credential that some
	// function cannot be called without (opentoolgen -cmd marks those of
	// the security schemes every alternative of an operation's security
	// has). Every command warns at start, one line naming the variable,
	// when it is not set or empty; it still starts (the functions that do
	// not need it work, and a caller may learn of the failure from the
	// API's own answer).
	Required bool
}

// Main runs the command with the program's arguments until SIGINT or SIGTERM
// and exits with its status; a second SIGINT or SIGTERM ends the process at
// once. In mcp mode, what the program writes to
// os.Stdout goes to standard error instead: standard output carries the
// protocol only.
func (c *Command) Main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-done:
			return
		}
		// Told to stop, a second SIGINT or SIGTERM ends the process at once
		// (the signal's default action), drain and grace period cut short.
		select {
		case s := <-sigs:
			signal.Reset(os.Interrupt, syscall.SIGTERM)
			if p, err := os.FindProcess(os.Getpid()); err == nil && p.Signal(s) == nil {
				time.Sleep(time.Second) // the signal's action is on its way
			}
			os.Exit(1)
		case <-done:
		}
	}()
	code := c.run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, true)
	close(done)
	signal.Stop(sigs)
	cancel()
	os.Exit(code)
}

// Run runs the command with args (without the program's name) until ctx is
// done, and returns its exit status. The help goes to stdout, the logs and
// errors to stderr; mcp speaks the protocol on stdin and stdout.
func (c *Command) Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return c.run(ctx, args, stdin, stdout, stderr, false)
}

// usageError is bad usage: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// settings are what the flags of a run set.
type settings struct {
	command string
	version string
	port    int
	host    string
	keys    []string
	options string
	headers map[string]string // --values: header → call value name

	// The bounds of start (see serveHTTP).
	readTimeout, writeTimeout, shutdownTimeout time.Duration
	drainDelay                                 time.Duration
	mcpSessions                                bool // stateful MCP
	maxSessions                                int
	sessionTimeout                             time.Duration
	origins                                    []string
	noRemoteStop                               bool // --noRemoteStop (stop.go)

	sub    *Subcommand // the command, when it is one of Command.Commands
	runner Runner      // its run, with the flags it registered
	// discovery is --discovery (discovery.go): auto, on or off.
	discovery string
	// interceptors run around every call every front serves (telemetry).
	interceptors []intercept.Func
	stderr       io.Writer // where a console exporter writes
}

func (c *Command) run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, guardStdout bool) int {
	if c.NewTool == nil || c.Name == "" {
		fmt.Fprintln(stderr, "toolcli: the Command has no Name or no NewTool")
		return 2
	}
	if err := c.checkCommands(); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	s, err := c.parse(args)
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		c.help(stdout)
		if s != nil && s.command == "" { // NAME alone: no command, no server
			fmt.Fprintf(stderr, "%s: no command given: want %s\n", c.Name, c.commandNames())
			return 2
		}
		return 0
	case errors.Is(err, errPrintVersion):
		c.printVersion(stdout)
		return 0
	default:
		fmt.Fprintf(stderr, "%s: %v\nRun '%s -h' for help.\n", c.Name, err, c.Name)
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	s.stderr = stderr
	if s.command == "mcp" && guardStdout {
		out := os.Stdout
		os.Stdout = os.Stderr // fmt.Print and friends must not corrupt the protocol
		defer func() { os.Stdout = out }()
	}
	if err := c.serve(ctx, s, stdin, stdout, logger); err != nil {
		var oe *optionsError
		if errors.As(err, &oe) {
			fmt.Fprint(stderr, oe.Error())
			return 1
		}
		logger.Error("the server failed", "error", err.Error())
		return 1
	}
	return 0
}

// errPrintVersion is -v without a value.
var errPrintVersion = errors.New("print the version")

func (c *Command) version() string {
	switch {
	case c.Version != "":
		return c.Version
	case c.Document != nil && c.Document.Info.Version != "":
		return c.Document.Info.Version
	}
	return "1.0.0"
}

func (c *Command) port() int {
	if c.Port != 0 {
		return c.Port
	}
	return DefaultPort
}

// parse reads the command line. Its error wraps flag.ErrHelp when the help is
// wanted (with the settings of NAME alone when that is the reason: a bare
// NAME starts nothing, least of all a server without an API key; options
// without a command, as the daemon passes them, are start's).
func (c *Command) parse(args []string) (*settings, error) {
	if len(args) == 0 {
		return &settings{}, flag.ErrHelp
	}
	command := args[0]
	switch {
	case command == "help" || command == "-h" || command == "-help" || command == "--help":
		return nil, flag.ErrHelp
	case command == "version":
		if len(args) > 1 {
			return nil, &usageError{fmt.Sprintf("version takes no arguments, got %s", strconv.Quote(args[1]))}
		}
		return nil, errPrintVersion
	case strings.HasPrefix(command, "-"):
		command = "start"
	case command == "start" || command == "mcp" || c.subcommand(command) != nil:
		args = args[1:]
	default:
		return nil, &usageError{fmt.Sprintf("unknown command %s, want %s%s", strconv.Quote(command), c.commandNames(), notLinked(command))}
	}
	if len(args) == 1 && (args[0] == "-v" || args[0] == "--version" || args[0] == "-version") {
		return nil, errPrintVersion
	}
	s := &settings{command: command, version: c.version(), port: c.port(), host: DefaultHost,
		readTimeout: mcpbridge.DefaultReadTimeout, writeTimeout: mcpbridge.DefaultWriteTimeout, shutdownTimeout: DefaultShutdownTimeout,
		drainDelay: DefaultDrainDelay, maxSessions: mcpbridge.DefaultMaxSessions, sessionTimeout: mcpbridge.DefaultSessionTimeout,
		sub: c.subcommand(command)}
	fs := c.flagSet(command, s)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, &usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return nil, &usageError{fmt.Sprintf("unexpected argument %s (options start with -)", strconv.Quote(fs.Arg(0)))}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if command == "start" && !set["k"] && !set["apiKeys"] && !set["opentoolServerApiKeys"] {
		// Keys on the command line show in ps; the environment does not.
		if v, ok := os.LookupEnv(c.keysEnv()); ok {
			if err := (*keyList)(&s.keys).Set(v); err != nil {
				return nil, &usageError{c.keysEnv() + ": " + err.Error()}
			}
		}
	}
	var missing []string
	for _, name := range c.Required {
		if !set[name] {
			missing = append(missing, "--"+name)
		}
	}
	if len(missing) > 0 {
		return nil, &usageError{"missing " + strings.Join(missing, ", ")}
	}
	for name, d := range map[string]time.Duration{"readTimeout": s.readTimeout, "writeTimeout": s.writeTimeout, "shutdownTimeout": s.shutdownTimeout, "drainDelay": s.drainDelay, "mcpSessionTimeout": s.sessionTimeout} {
		if d < 0 {
			return nil, &usageError{fmt.Sprintf("--%s: got %v, want 0 (no bound) or more", name, d)}
		}
	}
	if s.maxSessions < 0 {
		return nil, &usageError{fmt.Sprintf("--mcpMaxSessions: got %d, want 0 (no bound) or more", s.maxSessions)}
	}
	if s.runner != nil {
		if err := s.runner.Check(func(name string) bool { return set[name] }); err != nil {
			return nil, &usageError{err.Error()}
		}
	}
	if s.port < 0 || s.port > 65535 {
		return nil, &usageError{fmt.Sprintf("--toolPort: got %d, want a port from 0 to 65535", s.port)}
	}
	return s, nil
}

// flagSet returns the flags of command, bound to s.
func (c *Command) flagSet(command string, s *settings) *flag.FlagSet {
	fs := flag.NewFlagSet(c.Name+" "+command, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	version := (*stringValue)(&s.version)
	for _, name := range []string{"v", "version"} {
		fs.Var(version, name, "Version")
	}
	if command == "start" {
		fs.Var(version, "opentoolServerTag", "Version")
		port := (*portValue)(&s.port)
		for _, name := range []string{"t", "toolPort", "opentoolServerPort"} {
			fs.Var(port, name, "OpenTool Server Port")
		}
		keys := (*keyList)(&s.keys)
		for _, name := range []string{"k", "apiKeys", "opentoolServerApiKeys"} {
			fs.Var(keys, name, "API Keys")
		}
		host := (*stringValue)(&s.host)
		for _, name := range []string{"host", "opentoolServerHost"} {
			fs.Var(host, name, "Host")
		}
		fs.Var((*headerMap)(&s.headers), "values", "Call values from request headers")
		fs.DurationVar(&s.readTimeout, "readTimeout", s.readTimeout, "Time a client has to send a request body")
		fs.DurationVar(&s.writeTimeout, "writeTimeout", s.writeTimeout, "Time each write of an answer or stream event may take")
		fs.DurationVar(&s.shutdownTimeout, "shutdownTimeout", s.shutdownTimeout, "Time calls in flight get on SIGINT or SIGTERM")
		fs.DurationVar(&s.drainDelay, "drainDelay", s.drainDelay, "Time start serves on with /readyz at 503 once told to stop")
		fs.BoolVar(&s.mcpSessions, "mcpSessions", s.mcpSessions, "Stateful MCP: sessions kept in this process")
		fs.IntVar(&s.maxSessions, "mcpMaxSessions", s.maxSessions, "Most MCP sessions at once")
		fs.DurationVar(&s.sessionTimeout, "mcpSessionTimeout", s.sessionTimeout, "MCP session idle timeout")
		fs.BoolVar(&s.noRemoteStop, "noRemoteStop", false, "Refuse POST /opentool/stop")
		fs.Func("allowOrigin", "Origin browsers may call /mcp from", func(v string) error {
			if v = strings.TrimSpace(v); v == "" {
				return errors.New("empty origin")
			}
			s.origins = append(s.origins, v)
			return nil
		})
	}
	if s.sub != nil {
		if s.sub.Values != "" {
			fs.Var((*headerMap)(&s.headers), "values", "Call values from headers")
		}
		fs.DurationVar(&s.shutdownTimeout, "shutdownTimeout", s.shutdownTimeout, "Time calls in flight get on SIGINT or SIGTERM")
		s.runner = s.sub.Flags(fs)
	}
	fs.StringVar(&s.options, "options", "", "Argument options file (JSON)")
	if command == "start" || command == "mcp" || s.sub != nil && s.sub.Discovery {
		discoveryFlag(fs, s)
	}
	if c.Flags != nil {
		c.Flags(fs)
	}
	return fs
}

// headerMap is a repeatable HEADER=NAME flag: the call value NAME (a {NAME}
// placeholder of a default or fixed value) is taken from request header HEADER.
type headerMap map[string]string

func (m *headerMap) String() string { return fmt.Sprint(map[string]string(*m)) }
func (m *headerMap) Set(s string) error {
	h, n, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(h) == "" || strings.TrimSpace(n) == "" {
		return fmt.Errorf("got %q, want HEADER=NAME (X-Trace-Id=trace_id)", s)
	}
	if *m == nil {
		*m = map[string]string{}
	}
	(*m)[strings.TrimSpace(h)] = strings.TrimSpace(n)
	return nil
}

// stringValue is a string flag (given as a flag.Value so that several names
// share it).
type stringValue string

func (v *stringValue) String() string     { return string(*v) }
func (v *stringValue) Set(s string) error { *v = stringValue(s); return nil }

// portValue is a port number.
type portValue int

func (v *portValue) String() string { return strconv.Itoa(int(*v)) }
func (v *portValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("want a port from 0 to 65535")
	}
	*v = portValue(n)
	return nil
}

// keysEnv is the environment variable the API keys of start are read from
// when no -k is given (MOCKTOOL_API_KEYS for mocktool).
func (c *Command) keysEnv() string { return displayName(c.Name) + "_API_KEYS" }

// keyList is the repeatable API key flag; a value with commas is several keys.
type keyList []string

func (l *keyList) String() string { return "" } // never shown: keys are secrets
func (l *keyList) Set(s string) error {
	for _, k := range strings.Split(s, ",") {
		if k = strings.TrimSpace(k); k == "" {
			// An empty key is a mistake (an unset variable in a script), not a
			// wish to serve without keys.
			return errors.New("empty API key")
		}
		*l = append(*l, k)
	}
	return nil
}
