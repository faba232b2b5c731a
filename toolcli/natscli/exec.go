package natscli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/opentoolgen/opentoolgen/natsbridge"
	"github.com/opentoolgen/opentoolgen/natsexec"
	"github.com/opentoolgen/opentoolgen/toolcli"
)

// Exec is the exec command: the tool executor of an agent platform's tool development guide (natsexec), on
// NATS (see the package doc).
func Exec() toolcli.Subcommand {
	return toolcli.Subcommand{
		Name:    "exec",
		Summary: "serve the functions as an agent platform's tool executor, on NATS cmd.tool.*",
		Help: []toolcli.HelpLine{
			{Names: "    --url", Usage: "NATS server URL(s) to join (none: a NATS server with JetStream embedded, on 127.0.0.1)"},
			{Names: "    --natsPort", Usage: fmt.Sprintf("Port of the embedded NATS server (0: a free one), Default: %d", natsbridge.DefaultEmbeddedPort)},
			{Names: "    --queue", Usage: "Queue group the replicas share commands in, Default: " + natsbridge.DefaultQueueGroup},
			{Names: "    --subject", Usage: "target_subject of each function, Default: " + natsexec.DefaultSubject},
			{Names: "    --project", Usage: "project_id of {project_id} in --subject (none: any, read from each command)"},
			{Names: "    --channel", Usage: "channel_id of {channel_id} in --subject (none: any, read from each command)"},
			{Names: "    --cards", Usage: "JetStream key-value bucket of the tool.call and tool.result cards, Default: " + natsexec.DefaultCardBucket},
			{Names: "    --inbox", Usage: "Subject the reports are published to, Default: " + natsexec.DefaultInboxSubject},
		},
		Limits: []toolcli.HelpLine{
			{Names: "--shutdownTimeout", Usage: "Time commands in flight get on SIGINT or SIGTERM; then they are reported as canceled, Default: 30s"},
		},
		Flags: func(fs *flag.FlagSet) toolcli.Runner {
			r := &execRun{}
			r.serverFlags(fs, "NATS server URL(s), comma-separated; none: an embedded server with JetStream")
			fs.StringVar(&r.subject, "subject", natsexec.DefaultSubject, "target_subject template of each function")
			fs.StringVar(&r.project, "project", "", "project_id of {project_id} (none: any)")
			fs.StringVar(&r.channel, "channel", "", "channel_id of {channel_id} (none: any)")
			fs.StringVar(&r.bucket, "cards", natsexec.DefaultCardBucket, "JetStream key-value bucket of the cards")
			fs.StringVar(&r.inbox, "inbox", natsexec.DefaultInboxSubject, "Subject template of the reports")
			return r
		},
	}
}

// execRun is a run of the exec command.
type execRun struct {
	natsServer
	subject, project, channel, bucket, inbox string
}

// Check implements toolcli.Runner.
func (r *execRun) Check(given func(string) bool) error { return r.check(given) }

// Serve serves s.Tool as the tool executor of an agent platform's tool development guide (natsexec) until
// ctx ends: commands on each function's target_subject, the tool.call and
// tool.result cards in a JetStream key-value bucket, reports published to
// the inbox subject. On the server at --url, else on a NATS server with
// JetStream embedded in this process (127.0.0.1 only, its store in a
// temporary directory removed at the end). On the end of ctx the executor
// drains: the commands it took get s.ShutdownTimeout to be reported.
func (r *execRun) Serve(ctx context.Context, s *toolcli.Serving) error {
	logger := s.Logger
	url := r.url
	var embedded *server.Server
	if url == "" {
		dir, err := os.MkdirTemp("", "toolcli-jetstream-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		if embedded, err = natsbridge.StartEmbeddedJetStream(r.port, dir); err != nil {
			return err
		}
		defer embedded.Shutdown()
		url = embedded.ClientURL()
	}
	var stopping atomic.Bool
	nc, err := connectNATS(url, s.Name, logger, &stopping)
	if err != nil {
		return fmt.Errorf("connecting to NATS at %s: %w", redactURL(url), err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	cards, err := natsexec.NewKVCardStore(ctx, js, r.bucket)
	if err != nil {
		return err
	}
	// The executor runs the interceptors itself, so that the report's
	// traceparent is the call's span.
	ex, err := natsexec.New(nc, s.Logged("exec"), cards, &natsexec.NATSReporter{Conn: nc, Subject: r.inbox}, natsexec.Options{
		Subject: r.subject, ProjectID: r.project, ChannelID: r.channel, Queue: r.queue,
		AuthorID: "tool." + s.Name, Logger: logger, Interceptors: s.Interceptors,
	})
	if err != nil {
		return err
	}
	bucket := r.bucket
	if bucket == "" {
		bucket = natsexec.DefaultCardBucket
	}
	inbox := r.inbox
	if inbox == "" {
		inbox = natsexec.DefaultInboxSubject
	}
	logger.Info("serving tool commands", "name", s.Name, "version", s.Version, "url", redactURL(url), "embedded", embedded != nil,
		"subjects", ex.Subjects(), "cards", bucket, "inbox", inbox)
	<-ctx.Done()
	stopping.Store(true)
	sctx, cancel := context.WithTimeout(context.Background(), max(s.ShutdownTimeout, time.Millisecond))
	defer cancel()
	if err := ex.Close(sctx); errors.Is(err, context.DeadlineExceeded) {
		logger.Warn("stopped: the grace period ended with commands in flight, reported as canceled", "shutdownTimeout", s.ShutdownTimeout)
	}
	if nc.IsConnected() { // a flush waits for the server: not for one gone
		nc.Flush()
	}
	logger.Info("stopped")
	return nil
}
