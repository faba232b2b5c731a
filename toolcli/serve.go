package toolcli

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// serve builds the tool and serves it as s says until ctx is done.
func (c *Command) serve(ctx context.Context, s *settings, stdin io.Reader, stdout io.Writer, logger *slog.Logger) error {
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
	impl := &mcp.Implementation{Name: c.Name, Version: s.version}
	if c.Document != nil {
		impl.Title = c.Document.Info.Title
	}
	// The SDK's own messages (sessions opened and closed) only from warnings up.
	sdkLogger := slog.New(leveled{logger.Handler(), slog.LevelWarn})
	mcpOpts := append([]mcpbridge.Option{mcpbridge.WithServerOptions(&mcp.ServerOptions{Logger: sdkLogger})}, c.MCP...)
	if s.command == "mcp" {
		server, err := mcpbridge.NewServer(ctx, logged(tool, logger, "mcp"), impl, mcpOpts...)
		if err != nil {
			return err
		}
		logger.Info("serving MCP on standard input and output", "name", c.Name, "version", s.version)
		// As server.Run, without its error line when ctx ends: that is how
		// the command stops. A malformed line is answered and logged; the
		// session goes on.
		transport := &mcpbridge.StdioTransport{Reader: stdin, Writer: stdout, Logger: logger}
		session, err := server.Connect(ctx, transport, nil)
		if err != nil {
			return err
		}
		stop := context.AfterFunc(ctx, func() { session.Close() })
		defer stop()
		err = session.Wait()
		if ctx.Err() != nil || err == nil || errors.Is(err, io.EOF) {
			logger.Info("stopped")
			return nil // a signal, or the client closed the connection
		}
		return err
	}
	return c.serveHTTP(ctx, s, tool, impl, mcpOpts, logger)
}

// serveHTTP serves OpenTool at /opentool and MCP at /mcp on one port.
func (c *Command) serveHTTP(ctx context.Context, s *settings, tool runtime.Tool, impl *mcp.Implementation, mcpOpts []mcpbridge.Option, logger *slog.Logger) error {
	if len(s.headers) > 0 {
		mcpOpts = append(mcpOpts, mcpbridge.WithCallValueHeaders(s.headers))
	}
	mcpHandler, err := mcpbridge.NewHTTPHandler(ctx, logged(tool, logger, "mcp"), impl, false, mcpOpts...)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(s.host, strconv.Itoa(s.port)))
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle(runtime.DefaultPrefix+"/", runtime.NewHandler(logged(tool, logger, "opentool"),
		runtime.WithVersion(s.version), runtime.WithLogger(logger), runtime.WithCallValueHeaders(s.headers)))
	mux.Handle("/mcp", endsWith(ctx, mcpHandler))
	base := "http://" + ln.Addr().String()
	logger.Info("serving", "name", c.Name, "version", s.version,
		"opentool", base+runtime.DefaultPrefix, "mcp", base+"/mcp", "apiKeys", len(s.keys))
	err = runtime.ServeHandler(ctx, ln, runtime.RequireAPIKeys(mux, s.keys...), runtime.WithLogger(logger))
	if err != nil {
		return err
	}
	logger.Info("stopped")
	return nil
}

// endsWith prepares the requests of the MCP endpoint: each starts without
// the write deadline the OpenTool handler may have left on its connection for
// an earlier request, and a GET (the standing stream of server messages,
// which only the client ends) ends when ctx does, so that a shutdown does not
// wait for it.
func endsWith(ctx context.Context, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
		if r.Method == http.MethodGet {
			rctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			stop := context.AfterFunc(ctx, cancel)
			defer stop()
			r = r.WithContext(rctx)
		}
		h.ServeHTTP(w, r)
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
