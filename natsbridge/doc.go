// Package natsbridge serves any runtime.Tool as a NATS micro service and
// calls one through a runtime.Caller, so that a generated tool runs as N
// replicas sharing its calls on a NATS server or cluster, and a generated
// typed client calls it over NATS as over OpenTool HTTP, MCP or in process.
// It uses the official client, github.com/nats-io/nats.go, and answers
// the micro protocol with its micro package's types; [StartEmbedded] runs github.com/nats-io/nats-server/v2 in the
// process, on 127.0.0.1, for one machine.
//
//	svc, err := natsbridge.NewService(ctx, nc, tool)            // serve
//	defer svc.Shutdown(ctx)
//	c := weathertool.NewClient(natsbridge.NewCaller(nc, "weather")) // call
//
// # Subjects
//
// Function f of a tool served under prefix P is the micro endpoint named f
// on the subject P.f, in the queue group "opentool" ([WithQueueGroup]):
// services of one prefix and group share the calls, each call going to one
// of them. P is [WithPrefix], else [PrefixOf] the document: its title in
// lower snake case ("Weather API" → "weather_api"), else "opentool". A tool
// without a document is one endpoint, "call", on P.* (the last token names
// the function). The micro service is named after the prefix
// ([WithService]), with the document's version when it is semantic, its
// description, and endpoint metadata "function", "description" and, for a
// streaming function, "stream": "true"; $SRV.PING, $SRV.INFO and $SRV.STATS
// answer for it (nats micro ls, nats micro info NAME, nats micro stats
// NAME). The service answers them itself, with micro's types, rather than
// through micro.AddService: micro measures a request from its handler's
// start to its return, and counts an error only when the handler answered
// it with micro's Request.Error before returning, while an endpoint's
// handler runs one request at a time in its subscription's goroutine, so
// a service running calls at once would have micro count only the
// hand-off to its workers. In $SRV.STATS, each endpoint's num_requests
// counts its requests, num_errors its error answers (a stream's error end
// included), last_error the last one as micro writes it ("404:no such
// pet"), and processing_time the time from the request's arrival at the
// endpoint's subscription to its answer (a stream's to its last message),
// calls at once each counted whole; its data are the endpoint's own
// [Stats] (calls, errors, streams, inFlight). A request without a reply
// subject (a publish) is not counted. The function's name must be a subject token (no space,
// '.', '*' or '>'); NewService refuses a document with one that is not.
//
// # Messages
//
// A call is a request on P.f whose body is the JSON object of the
// arguments (empty: none, as {}); its reply carries the result object as
// body, with no headers. An error is answered with micro's convention:
// headers Nats-Service-Error-Code (the code, in decimal) and
// Nats-Service-Error (the message, on one line), and as body the JSON-RPC
// error object a /call answer carries, {"code":…,"message":…,"data":…},
// from which a [Caller] decodes code, message and data exactly. The codes
// are an OpenTool server's: -32700 for a body that is not JSON, -32602 for
// arguments that are not an object or do not match, -32600 for a request
// over the size bound, -32603 for a tool that panics or returns something
// other than an object, the tool's own code (500 by default) for its
// errors.
//
// A streaming call carries the header Opentool-Stream: 1. Its answers go
// to the request's reply subject, each a message of its own, marked by
// Opentool-Stream: "start" (with Opentool-Stream-Control, the stream's
// control subject, and Opentool-Stream-Window), then "item" per result
// object (the body), then "done" (no body) or "error" (an error answer as
// above). The service sends at most the window (64, [WithStreamWindow])
// items ahead of the caller's credit, which the caller gives every half
// window on the control subject: a credit message (Opentool-Stream:
// credit) carries the number of items the caller has taken
// (Opentool-Stream-Credit), and the stream may then send up to that plus
// the window; a number over the items sent counts as the items sent, so
// that credit granted ahead (2^31, say) does not keep a stream running for
// a caller that is gone. A stream that waits for credit for 30s
// ([WithStreamIdle]) is dropped: its tool's context is cancelled, and its
// slot of [WithMaxConcurrent] freed. The start and the items carry the
// control subject as their reply subject: when the caller's subject has no
// subscriber any more (its connection closed), the server answers the next
// of them there with no responders (status 503), and the stream is dropped
// at once, whatever credit it has left. On the control subject the caller also
// cancels the stream (Opentool-Stream: cancel, when it stops reading) and,
// after a second without a message ([WithStreamPing]), asks whether the
// stream is still served (a request, Opentool-Stream: ping): no responder
// means the service went away, and the stream ends with an error, as a
// broken event stream does over HTTP.
//
// A plain request (no Opentool-Stream header, as nats req sends) of a
// function the document says streams, which the tool answers -32601, is
// answered -32601 with a message naming the header: "\"f\" streams its
// results: over NATS, send the request with the header Opentool-Stream: 1
// and read several answers: …".
//
// A call whose caller's context can end carries a call id (Opentool-Call);
// when the context ends first, the caller publishes the id on
// _OPENTOOL.CANCEL.P ([CancelSubject]), and the service running the call
// cancels its context, as a server does when an HTTP client goes.
//
// # Call values
//
// [WithCallValueHeaders] fills runtime.WithCallValues from message headers,
// as runtime.WithCallValueHeaders does from HTTP headers, for the {name}
// placeholders of defaults and fixed values; a Caller sends headers with
// [WithHeaders].
//
// # Bounds and concurrency
//
// A request is at most the server's max_payload (1 MiB by default; NATS
// refuses larger messages), or [WithMaxRequestBytes]; a result or item
// over max_payload is answered -32603. A service runs at most 256 calls at
// once ([WithMaxConcurrent]) on a pool of long-lived workers: a running
// worker takes the next queued call without a hand-off, and one more is
// woken when queued calls wait about a quarter of a millisecond behind
// slow ones; more wait in the endpoint's subscription, within nats.go's
// pending limits. A [Caller]
// waits for an answer until its context ends, and at most 5 minutes
// ([WithCallTimeout]) when the context has no deadline: a service killed
// with a call in flight answers nothing.
//
// # Shutdown
//
// [Service.Shutdown] drains: the endpoints unsubscribe (new calls go to the
// other services of the group, or find no responder), the requests already
// delivered are served, and it returns once all are answered; when its
// context ends first, the calls still running are cancelled and get 2s
// more to answer. A service whose connection is not connected (its server
// went away; nats.go reconnecting) waits only for the calls it has taken:
// with none in flight it returns nil at once. Then drain or close the
// connection (nc.Drain flushes the answers). [Serve] does both steps for a
// context.
//
// # Differences from OpenTool HTTP
//
// A function the document does not have has no endpoint: calling it finds
// no responder, a runtime.ClassNoAccess error (code 404), not -32601. There
// is no API key: NATS authenticates connections (user, token, nkey, TLS)
// and authorises subjects.
package natsbridge
