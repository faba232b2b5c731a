package toolcli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/opentoolgen/opentoolgen/natsbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// natsSettings are the flags of the nats command.
type natsSettings struct {
	url, queue, prefix string
	port               int // of the embedded server
	maxConcurrent      int
}

// serveNATS serves tool as a NATS micro service (natsbridge) until ctx ends:
// on the server at s.nats.url, else on a NATS server embedded in this
// process, listening on 127.0.0.1 only. On the end of ctx the service
// drains: its calls in flight get s.shutdownTimeout to be answered while new
// ones go to the other replicas of its queue group.
func (c *Command) serveNATS(ctx context.Context, s *settings, tool runtime.Tool, logger *slog.Logger) error {
	url := s.nats.url
	var embedded *server.Server
	if url == "" {
		var err error
		if embedded, err = natsbridge.StartEmbedded(s.nats.port); err != nil {
			return err
		}
		defer embedded.Shutdown()
		url = embedded.ClientURL()
	}
	closed := make(chan struct{})
	var stopping atomic.Bool
	nc, err := connectNATS(url, c.Name, logger, &stopping,
		nats.ClosedHandler(func(*nats.Conn) { close(closed) }),
		nats.DrainTimeout(s.shutdownTimeout+5*time.Second))
	if err != nil {
		return fmt.Errorf("connecting to NATS at %s: %w", redactURL(url), err)
	}
	defer nc.Close()
	opts := []natsbridge.Option{natsbridge.WithLogger(logger), natsbridge.WithService(c.Name, semver(s.version))}
	if s.nats.prefix != "" {
		opts = append(opts, natsbridge.WithPrefix(s.nats.prefix))
	}
	if s.nats.queue != "" {
		opts = append(opts, natsbridge.WithQueueGroup(s.nats.queue))
	}
	if s.nats.maxConcurrent > 0 {
		opts = append(opts, natsbridge.WithMaxConcurrent(s.nats.maxConcurrent))
	}
	if len(s.headers) > 0 {
		opts = append(opts, natsbridge.WithCallValueHeaders(s.headers))
	}
	served := logged(tool, logger, "nats")
	if len(s.interceptors) > 0 {
		served = runtime.Intercept(served, s.interceptors...)
	}
	svc, err := natsbridge.NewService(ctx, nc, served, opts...)
	if err != nil {
		return err
	}
	queue := s.nats.queue
	if queue == "" {
		queue = natsbridge.DefaultQueueGroup
	}
	logger.Info("serving NATS", "name", c.Name, "version", s.version, "url", redactURL(url), "embedded", embedded != nil,
		"prefix", svc.Prefix(), "subjects", svc.Prefix()+".>", "queue", queue)
	<-ctx.Done()
	stopping.Store(true)
	sctx, cancel := context.WithTimeout(context.Background(), max(s.shutdownTimeout, time.Millisecond))
	defer cancel()
	serr := svc.Shutdown(sctx)
	// The calls still running after Shutdown (which cancels them at the end
	// of the grace period and waits a little more) go unanswered.
	unanswered := svc.Stats().InFlight
	if errors.Is(serr, context.DeadlineExceeded) {
		logger.Warn("the grace period ended with calls in flight: they were cancelled", "shutdownTimeout", s.shutdownTimeout, "unanswered", unanswered)
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
