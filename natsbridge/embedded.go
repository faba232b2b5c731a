package natsbridge

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// DefaultEmbeddedPort is the port [StartEmbedded] listens on when asked for
// none: NATS's usual 4222 plus one hundred, so that it does not clash with a
// NATS server already running on the machine.
const DefaultEmbeddedPort = 4322

// StartEmbedded starts a NATS server in this process, listening on the
// loopback address 127.0.0.1 only, on port (0: a free port the system
// chooses; see [DefaultEmbeddedPort] for the commands' default), without
// authentication, logging, clustering or JetStream: the one-machine default
// of the server command. Its ClientURL is what to connect to; Shutdown stops
// it.
func StartEmbedded(port int) (*server.Server, error) {
	return startEmbedded(port, &server.Options{})
}

// StartEmbeddedJetStream is [StartEmbedded] with JetStream on, its store in
// dir: what a key-value bucket needs (natsexec's cards).
func StartEmbeddedJetStream(port int, dir string) (*server.Server, error) {
	return startEmbedded(port, &server.Options{JetStream: true, StoreDir: dir})
}

// startEmbedded starts the server of opts on 127.0.0.1:port.
func startEmbedded(port int, opts *server.Options) (*server.Server, error) {
	if port <= 0 {
		port = server.RANDOM_PORT
	}
	opts.Host, opts.Port, opts.NoLog, opts.NoSigs = "127.0.0.1", port, true, true
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("natsbridge: embedded NATS server: %w", err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		return nil, errors.New("natsbridge: embedded NATS server: not ready on " + addr + " after 10s (is the port in use?)")
	}
	return ns, nil
}

// IsSemver reports whether v is a semantic version, as micro wants a
// service's version.
func IsSemver(v string) bool { return semverRE.MatchString(v) }

// RedactURL is a NATS server URL without its password or token, for logs.
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "REDACTED")
	} else {
		u.User = url.User("REDACTED")
	}
	return u.String()
}
