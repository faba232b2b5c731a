// Package natscli is the NATS fronts of a tool server's command line: the
// nats and exec commands of a toolcli.Command, which a main links by listing
// them (opentoolgen -with nats writes it):
//
//	cmd := &toolcli.Command{
//		Name:     "weather",
//		NewTool:  …,
//		Commands: natscli.Commands(),
//	}
//
// Without it a main serves OpenTool HTTP and MCP only, and links neither the
// NATS client nor the embedded NATS server (package toolcli imports
// neither).
//
// # nats
//
// NAME nats serves the tool as a NATS micro service (see natsbridge and
// docs/nats.md): function f answers requests on PREFIX.f, in a queue group,
// so that replicas share the calls, and $SRV.PING, $SRV.INFO and $SRV.STATS
// find it (nats micro ls). It takes -v, --options, --values (call values
// from message headers), --discovery, --shutdownTimeout and:
//
//	--url URL               the NATS server(s) to join (nats://host:4222, comma-separated for a
//	                        cluster; credentials in the URL: nats://user:pass@host). Without it the
//	                        command starts a NATS server in its own process, on 127.0.0.1 only
//	--natsPort PORT         the embedded server's port (default 4322, natsbridge.DefaultEmbeddedPort;
//	                        0 picks a free one); the log line "serving NATS" gives its url
//	--prefix P              the subject prefix (default: the document's title in lower snake case,
//	                        natsbridge.PrefixOf)
//	--queue Q               the queue group (default "opentool")
//	--maxConcurrent N       calls run at once (default 256)
//
// On SIGINT or SIGTERM the service drains: it unsubscribes (new calls go
// to other replicas), answers the calls it accepted within
// --shutdownTimeout, then drains its connection and stops the embedded
// server, if any.
//
// # exec
//
// NAME exec serves the functions as the tool executor of the NATS agent
// protocol (natsexec): commands on each function's target_subject (--subject,
// --project, --channel), the tool.call and tool.result cards in a JetStream
// key-value bucket (--cards), reports published to --inbox. It takes -v,
// --options, --shutdownTimeout, --url, --natsPort and --queue as nats does;
// without --url the embedded server has JetStream, its store in a temporary
// directory removed at the end. On SIGINT or SIGTERM the commands it took get
// --shutdownTimeout to be reported, then are reported as canceled.
package natscli
