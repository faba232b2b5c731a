package natscli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/opentoolgen/opentoolgen/natsbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/toolcli"
)

// Commands are nats and exec, for toolcli.Command.Commands: what
// opentoolgen -with nats writes in a generated main.
func Commands() []toolcli.Subcommand { return []toolcli.Subcommand{NATS(), Exec()} }

// NATS is the nats command: the tool as a NATS micro service (see the
// package doc).
func NATS() toolcli.Subcommand {
	return toolcli.Subcommand{
		Name:      "nats",
		Summary:   "serve a NATS micro service, each function on PREFIX.function",
		Discovery: true,
		Values:    "Call values from message headers for {NAME} in options, as: --values X-Trace-Id=trace_id",
		Help: []toolcli.HelpLine{
			{Names: "    --url", Usage: "NATS server URL(s) to join, as: --url nats://host:4222 (none: a NATS server embedded, on 127.0.0.1)"},
			{Names: "    --natsPort", Usage: fmt.Sprintf("Port of the embedded NATS server (0: a free one), Default: %d", natsbridge.DefaultEmbeddedPort)},
			{Names: "    --prefix", Usage: "Subject prefix: function f answers on PREFIX.f, Default: the document's title in lower snake case"},
			{Names: "    --queue", Usage: "Queue group the replicas share calls in, Default: " + natsbridge.DefaultQueueGroup},
		},
		Limits: []toolcli.HelpLine{
			{Names: "--shutdownTimeout", Usage: "Time calls in flight get on SIGINT or SIGTERM; then they are cancelled, Default: 30s"},
			{Names: "--maxConcurrent", Usage: fmt.Sprintf("Calls run at once; more wait in the subscription, Default: %d", natsbridge.DefaultMaxConcurrent)},
		},
		Flags: func(fs *flag.FlagSet) toolcli.Runner {
			r := &natsRun{}
			r.serverFlags(fs, "NATS server URL(s), comma-separated; none: an embedded server")
			fs.StringVar(&r.prefix, "prefix", "", "Subject prefix")
			fs.IntVar(&r.maxConcurrent, "maxConcurrent", 0, "Calls run at once")
			return r
		},
	}
}

// natsServer are the flags of the NATS server a command serves on, nats's and
// exec's.
type natsServer struct {
	url, queue string
	port       int // of the embedded server
}

// serverFlags registers --url, --queue and --natsPort.
func (s *natsServer) serverFlags(fs *flag.FlagSet, url string) {
	fs.StringVar(&s.url, "url", "", url)
	fs.StringVar(&s.queue, "queue", "", "Queue group")
	fs.IntVar(&s.port, "natsPort", natsbridge.DefaultEmbeddedPort, "Port of the embedded NATS server")
}

// check reports a bad --natsPort.
func (s *natsServer) check(given func(string) bool) error {
	if s.port < 0 || s.port > 65535 {
		return fmt.Errorf("--natsPort: got %d, want a port from 0 to 65535", s.port)
	}
	if s.url != "" && given("natsPort") {
		return errors.New("--natsPort is the port of the embedded server: it cannot go with --url")
	}
	return nil
}

// natsRun is a run of the nats command.
type natsRun struct {
	natsServer
	prefix        string
	maxConcurrent int
}

// Check implements toolcli.Runner.
func (r *natsRun) Check(given func(string) bool) error {
	if err := r.check(given); err != nil {
		return err
	}
	if r.maxConcurrent < 0 {
		return fmt.Errorf("--maxConcurrent: got %d, want 0 (the default) or more", r.maxConcurrent)
	}
	return nil
}

// Serve serves s.Tool as a NATS micro service (natsbridge) until ctx ends:
// on the server at --url, else on a NATS server embedded in this process,
// listening on 127.0.0.1 only. On the end of ctx the service drains: its
// calls in flight get s.ShutdownTimeout to be answered while new ones go to
// the other replicas of its queue group.
func (r *natsRun) Serve(ctx context.Context, s *toolcli.Serving) error {
	logger := s.Logger
	url := r.url
	var embedded *server.Server
	if url == "" {
		var err error
		if embedded, err = natsbridge.StartEmbedded(r.port); err != nil {
			return err
		}
		defer embedded.Shutdown()
		url = embedded.ClientURL()
	}
	closed := make(chan struct{})
	var stopping atomic.Bool
	nc, err := connectNATS(url, s.Name, logger, &stopping,
		nats.ClosedHandler(func(*nats.Conn) { close(closed) }),
		nats.DrainTimeout(s.ShutdownTimeout+5*time.Second))
	if err != nil {
		return fmt.Errorf("connecting to NATS at %s: %w", redactURL(url), err)
	}
	defer nc.Close()
	opts := []natsbridge.Option{natsbridge.WithLogger(logger), natsbridge.WithService(s.Name, semver(s.Version))}
	if r.prefix != "" {
		opts = append(opts, natsbridge.WithPrefix(r.prefix))
	}
	if r.queue != "" {
		opts = append(opts, natsbridge.WithQueueGroup(r.queue))
	}
	if r.maxConcurrent > 0 {
		opts = append(opts, natsbridge.WithMaxConcurrent(r.maxConcurrent))
	}
	if len(s.Values) > 0 {
		opts = append(opts, natsbridge.WithCallValueHeaders(s.Values))
	}
	served := s.Logged("nats")
	if len(s.Interceptors) > 0 {
		served = runtime.Intercept(served, s.Interceptors...)
	}
	svc, err := natsbridge.NewService(ctx, nc, served, opts...)
	if err != nil {
		return err
	}
	queue := r.queue
	if queue == "" {
		queue = natsbridge.DefaultQueueGroup
	}
	logger.Info("serving NATS", "name", s.Name, "version", s.Version, "url", redactURL(url), "embedded", embedded != nil,
		"prefix", svc.Prefix(), "subjects", svc.Prefix()+".>", "queue", queue)
	<-ctx.Done()
	stopping.Store(true)
	sctx, cancel := context.WithTimeout(context.Background(), max(s.ShutdownTimeout, time.Millisecond))
	defer cancel()
	serr := svc.Shutdown(sctx)
	// The calls still running after Shutdown (which cancels them at the end
	// of the grace period and waits a little more) go unanswered.
	unanswered := svc.Stats().InFlight
	if errors.Is(serr, context.DeadlineExceeded) {
		logger.Warn("the grace period ended with calls in flight: they were cancelled", "shutdownTimeout", s.ShutdownTimeout, "unanswered", unanswered)
	} else if serr != nil {
		logger.Error("stopping the NATS service", "error", serr)
	}
	// Drain flushes the answers, then closes the connection.
	if err := nc.Drain(); err == nil {
		select {
		case <-closed:
		case <-time.After(stopWait + 5*time.Second):
		}
	}
	logger.Info("stopped", "unanswered", unanswered)
	return nil
}

// connectNATS connects to url (reconnecting without end) and logs the
// connection's disconnections (a warning: the server went away, or the
// network) and reconnections, except the disconnection of the end, once
// stopping is set.
func connectNATS(url, name string, logger *slog.Logger, stopping *atomic.Bool, opts ...nats.Option) (*nats.Conn, error) {
	opts = append([]nats.Option{nats.Name(name), nats.MaxReconnects(-1),
		nats.DisconnectErrHandler(func(nc *nats.Conn, err error) {
			if stopping.Load() {
				return
			}
			args := []any{"url", redactURL(url)}
			if err != nil {
				args = append(args, "error", err)
			}
			logger.Warn("disconnected from NATS: reconnecting", args...)
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			logger.Info("reconnected to NATS", "url", nc.ConnectedUrlRedacted())
		}),
	}, opts...)
	return nats.Connect(url, opts...)
}

// stopWait bounds the time the command waits for its connection to drain
// once its calls are answered or cancelled (as toolcli's).
const stopWait = 2 * time.Second

// semver is v when micro takes it as a version, else "0.0.0".
func semver(v string) string {
	if natsbridge.IsSemver(v) {
		return v
	}
	return "0.0.0"
}

// redactURL is url (a comma-separated list of server URLs) without
// passwords or tokens, for the logs.
func redactURL(url string) string {
	urls := strings.Split(url, ",")
	for i, u := range urls {
		urls[i] = natsbridge.RedactURL(strings.TrimSpace(u))
	}
	return strings.Join(urls, ",")
}
