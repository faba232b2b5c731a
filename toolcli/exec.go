package toolcli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/opentoolgen/opentoolgen/natsbridge"
	"github.com/opentoolgen/opentoolgen/natsexec"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// execSettings are the flags of the exec command.
type execSettings struct {
	subject, project, channel, bucket, inbox string
}

// serveExec serves tool as the tool executor of seed 001 (natsexec) until
// ctx ends: commands on each function's target_subject, the tool.call and
// tool.result cards in a JetStream key-value bucket, reports published to
// the inbox subject. On the server at s.nats.url, else on a NATS server
// with JetStream embedded in this process (127.0.0.1 only, its store in a
// temporary directory removed at the end). On the end of ctx the executor
// drains: the commands it took get s.shutdownTimeout to be reported.
func (c *Command) serveExec(ctx context.Context, s *settings, tool runtime.Tool, logger *slog.Logger) error {
	url := s.nats.url
	var embedded *server.Server
	if url == "" {
		dir, err := os.MkdirTemp("", "toolcli-jetstream-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		if embedded, err = natsbridge.StartEmbeddedJetStream(s.nats.port, dir); err != nil {
			return err
		}
		defer embedded.Shutdown()
		url = embedded.ClientURL()
	}
	var stopping atomic.Bool
	nc, err := connectNATS(url, c.Name, logger, &stopping)
	if err != nil {
		return fmt.Errorf("connecting to NATS at %s: %w", redactURL(url), err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	cards, err := natsexec.NewKVCardStore(ctx, js, s.exec.bucket)
	if err != nil {
		return err
	}
	// The executor runs the interceptors itself, so that the report's
	// traceparent is the call's span.
	ex, err := natsexec.New(nc, logged(tool, logger, "exec"), cards, &natsexec.NATSReporter{Conn: nc, Subject: s.exec.inbox}, natsexec.Options{
		Subject: s.exec.subject, ProjectID: s.exec.project, ChannelID: s.exec.channel, Queue: s.nats.queue,
		AuthorID: "tool." + c.Name, Logger: logger, Interceptors: s.interceptors,
	})
	if err != nil {
		return err
	}
	bucket := s.exec.bucket
	if bucket == "" {
		bucket = natsexec.DefaultCardBucket
	}
	inbox := s.exec.inbox
	if inbox == "" {
		inbox = natsexec.DefaultInboxSubject
	}
	logger.Info("serving tool commands", "name", c.Name, "version", s.version, "url", redactURL(url), "embedded", embedded != nil,
		"subjects", ex.Subjects(), "cards", bucket, "inbox", inbox)
	<-ctx.Done()
	stopping.Store(true)
	sctx, cancel := context.WithTimeout(context.Background(), max(s.shutdownTimeout, time.Millisecond))
	defer cancel()
	if err := ex.Close(sctx); errors.Is(err, context.DeadlineExceeded) {
		logger.Warn("stopped: the grace period ended with commands in flight, reported as canceled", "shutdownTimeout", s.shutdownTimeout)
	}
	if nc.IsConnected() { // a flush waits for the server: not for one gone
		nc.Flush()
	}
	logger.Info("stopped")
	return nil
}
