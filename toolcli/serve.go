package toolcli

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/internal/inflight"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// serve builds the tool and serves it as s says until ctx is done.
func (c *Command) serve(ctx context.Context, s *settings, stdin io.Reader, stdout io.Writer, logger *slog.Logger) error {
	for _, e := range c.Env {
		if e.Required && os.Getenv(e.Name) == "" {
			logger.Warn("a credential the document requires is not set: the functions that need it will fail", "variable", e.Name)
		}
	}
	var rules []rule
	if s.options != "" {
		var err error
		if rules, err = readOptions(s.options); err != nil {
			return err
		}
	}
	tool, err := c.newTool(ctx, s.options, rules)
	if err != nil {
		return err
	}
	for _, name := range unsetEnvs(rules) {
		logger.Warn("an environment variable of the options file is not set: its argument is left to the caller",
			"options", s.options, "variable", name)
	}
	if cl, ok := tool.(io.Closer); ok {
		defer cl.Close()
	}
	if s.sub == nil || s.sub.Discovery {
		if tool, err = withDiscovery(ctx, s, tool, logger); err != nil {
			return err
		}
	}
	ics, stopTelemetry, err := c.telemetry(ctx, s.version, s.stderr, logger)
	if err != nil {
		return err
	}
	if stopTelemetry != nil {
		defer stopTelemetry()
	}
	s.interceptors = ics
	if s.sub != nil {
		return s.runner.Serve(ctx, &Serving{Name: c.Name, Version: s.version, Tool: tool, Logger: logger,
			Interceptors: ics, Values: s.headers, ShutdownTimeout: s.shutdownTimeout})
	}
	impl := &mcp.Implementation{Name: c.Name, Version: s.version}
	if c.Document != nil {
		impl.Title = c.Document.Info.Title
	}
	// The SDK's own messages (sessions opened and closed) only from warnings up.
	sdkLogger := slog.New(leveled{logger.Handler(), slog.LevelWarn})
	mcpOpts := append([]mcpbridge.Option{mcpbridge.WithServerOptions(&mcp.ServerOptions{Logger: sdkLogger}),
		mcpbridge.WithInterceptors(ics...)}, c.MCP...)
	if s.command == "mcp" {
		return c.serveStdio(ctx, tool, impl, mcpOpts, stdin, stdout, logger)
	}
	return c.serveHTTP(ctx, s, tool, impl, mcpOpts, logger)
}

// stopWait bounds the time the command waits for the calls it cancelled
// when it stops: a tool that ignores its context cannot hold it longer.
const stopWait = 2 * time.Second

// serveStdio serves MCP on stdin and stdout until the client closes the
// connection (the calls under way complete first) or ctx ends. The end of
// ctx (SIGINT, SIGTERM) cancels the calls under way at once: over stdio the
// client that wants its calls to complete closes standard input first and
// waits, as the MCP specification has it, before it sends a signal.
func (c *Command) serveStdio(ctx context.Context, tool runtime.Tool, impl *mcp.Implementation, mcpOpts []mcpbridge.Option, stdin io.Reader, stdout io.Writer, logger *slog.Logger) error {
	calls, stopCalls := context.WithCancelCause(context.Background())
	defer stopCalls(nil)
	mcpOpts = append(mcpOpts[:len(mcpOpts):len(mcpOpts)], mcpbridge.WithStopContext(calls))
	server, err := mcpbridge.NewServer(ctx, logged(tool, logger, "mcp"), impl, mcpOpts...)
	if err != nil {
		return err
	}
	logger.Info("serving MCP on standard input and output", "name", c.Name, "version", impl.Version)
	// As server.Run, without its error line when ctx ends: that is how
	// the command stops. A malformed line is answered and logged; the
	// session goes on.
	transport := &mcpbridge.StdioTransport{Reader: stdin, Writer: stdout, Logger: logger}
	session, err := server.Connect(ctx, transport, nil)
	if err != nil {
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- session.Wait() }()
	select {
	case err := <-ended:
		if err == nil || errors.Is(err, io.EOF) || ctx.Err() != nil {
			logger.Info("stopped")
			return nil // the client closed the connection
		}
		return err
	case <-ctx.Done():
	}
	// The SDK's Close waits for the calls under way: they are cancelled
	// first (and logged "cancelled").
	stopCalls(mcpbridge.ErrServerStopped)
	go session.Close()
	t := time.NewTimer(stopWait)
	defer t.Stop()
	select {
	case <-ended:
		logger.Info("stopped")
	case <-t.C:
		logger.Error("stopped: calls under way did not return once cancelled, and were left to run", "wait", stopWait)
	}
	return nil
}

// serveHTTP serves OpenTool at /opentool and MCP at /mcp on one port, every
// route with the read and write deadlines of s, requests refused before a
// handler (401) too.
func (c *Command) serveHTTP(ctx context.Context, s *settings, tool runtime.Tool, impl *mcp.Implementation, mcpOpts []mcpbridge.Option, logger *slog.Logger) error {
	// POST /opentool/stop (stop.go) tells the server to stop as SIGTERM does.
	ctx, stopByHTTP := context.WithCancel(ctx)
	defer stopByHTTP()
	if len(s.headers) > 0 {
		mcpOpts = append(mcpOpts, mcpbridge.WithCallValueHeaders(s.headers))
	}
	mcpOpts = append([]mcpbridge.Option{
		mcpbridge.WithReadTimeout(s.readTimeout), mcpbridge.WithWriteTimeout(s.writeTimeout),
		mcpbridge.WithMaxSessions(s.maxSessions), mcpbridge.WithSessionTimeout(s.sessionTimeout),
		mcpbridge.WithAllowedOrigins(s.origins...),
	}, mcpOpts...) // Command.MCP may say otherwise
	// Stateless unless --mcpSessions: any replica answers any request.
	mcpHandler, err := mcpbridge.NewHTTPHandler(ctx, logged(tool, logger, "mcp"), impl, !s.mcpSessions, mcpOpts...)
	if err != nil {
		return err
	}
	// No session outlives the server: their goroutines end with it (below;
	// here too when serving fails).
	defer mcpHandler.Close()
	ln, err := net.Listen("tcp", net.JoinHostPort(s.host, strconv.Itoa(s.port)))
	if err != nil {
		return err
	}
	// serving ends once the server has drained after ctx (health.drain):
	// then the listener closes and the calls in flight get their grace
	// period.
	serving, stopServing := context.WithCancel(context.WithoutCancel(ctx))
	defer stopServing()
	h := &health{ready: c.Ready, logger: logger}
	drained := make(chan struct{})
	defer close(drained)
	go h.drain(ctx, s.drainDelay, stopServing, drained)
	timeouts := []runtime.ServerOption{runtime.WithReadTimeout(s.readTimeout), runtime.WithWriteTimeout(s.writeTimeout)}
	mux := http.NewServeMux()
	opentoolOpts := append(timeouts, runtime.WithVersion(s.version), runtime.WithLogger(logger), runtime.WithCallValueHeaders(s.headers),
		runtime.WithInterceptors(s.interceptors...))
	mux.Handle(runtime.DefaultPrefix+"/", runtime.NewHandler(logged(tool, logger, "opentool"), append(opentoolOpts, stopOptions(s, stopByHTTP)...)...))
	mux.Handle("/mcp", endsWith(serving, mcpHandler))
	base := "http://" + ln.Addr().String()
	logger.Info("serving", "name", c.Name, "version", s.version,
		"opentool", base+runtime.DefaultPrefix, "mcp", base+"/mcp", "apiKeys", len(s.keys),
		"mcpSessions", s.mcpSessions, "readyz", base+"/readyz")
	if len(s.keys) == 0 {
		logger.Warn("serving without an API key: whoever reaches the port can call every function; give -k KEY or "+c.keysEnv(), "host", s.host)
	}
	// /healthz and /readyz need no key: load balancers probe them.
	err = runtime.ServeHandler(serving, ln, h.wrap(runtime.RequireAPIKeys(mux, s.keys...)),
		append(timeouts, runtime.WithLogger(logger), runtime.WithShutdownTimeout(s.shutdownTimeout))...)
	// The HTTP server has stopped, its grace period over: the MCP calls
	// still running (the SDK does not end them with their session's
	// requests) are cancelled, and logged "cancelled"; Close waits for them
	// a bounded time.
	if cerr := mcpHandler.Close(); cerr != nil {
		logger.Error("stopped: MCP calls did not return once cancelled, and were left to run", "error", cerr)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		// The grace period ended with calls in flight: they were cut off
		// (and logged), as asked; the command still stopped as told.
		logger.Warn("stopped: the grace period ended with calls in flight, which were cut off", "shutdownTimeout", s.shutdownTimeout)
		return nil
	}
	if err != nil {
		return err
	}
	logger.Info("stopped")
	return nil
}

// endsWith prepares the requests of the MCP endpoint: a GET (the standing
// stream of server messages, which only the client ends) ends when ctx does
// and no other request of the endpoint is under way, so that a shutdown does
// not wait for it, while the calls in flight keep their session's stream (an
// SDK client whose GET stream cannot reconnect gives the session up).
func endsWith(ctx context.Context, h http.Handler) http.Handler {
	var calls inflight.Counter
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			calls.Add(1)
			defer calls.Add(-1)
			h.ServeHTTP(w, r)
			return
		}
		rctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		stop := context.AfterFunc(ctx, func() {
			calls.Wait(rctx)
			cancel()
		})
		defer stop()
		h.ServeHTTP(w, r.WithContext(rctx))
	})
}

// leveled is a handler that passes on records from level up.
type leveled struct {
	slog.Handler
	level slog.Level
}

func (l leveled) Enabled(ctx context.Context, level slog.Level) bool {
	return level >= l.level && l.Handler.Enabled(ctx, level)
}

func (l leveled) WithAttrs(attrs []slog.Attr) slog.Handler {
	return leveled{l.Handler.WithAttrs(attrs), l.level}
}

func (l leveled) WithGroup(name string) slog.Handler {
	return leveled{l.Handler.WithGroup(name), l.level}
}
