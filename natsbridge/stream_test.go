package natsbridge_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"

	"github.com/opentoolgen/opentoolgen/natsbridge"
)

// A caller that grants a stream 2^31 items of credit and goes does not keep
// it running: credit is capped at the items sent plus the window, so the
// stream waits for credit that never comes and ends within the idle bound,
// cancelling the tool's context and freeing its slot of WithMaxConcurrent.
func TestStreamHugeCreditCallerGone(t *testing.T) {
	url := startServer(t)
	tool := newCalc("a")
	svc := serve(t, url, tool, natsbridge.WithMaxConcurrent(1), natsbridge.WithStreamWindow(4),
		natsbridge.WithStreamIdle(300*time.Millisecond))

	rogue, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer rogue.Close()
	inbox := rogue.NewInbox()
	sub, err := rogue.SubscribeSync(inbox)
	if err != nil {
		t.Fatal(err)
	}
	req := &nats.Msg{Subject: svc.Prefix() + ".forever", Reply: inbox, Header: nats.Header{natsbridge.StreamHeader: {"1"}}}
	if err := rogue.PublishMsg(req); err != nil {
		t.Fatal(err)
	}
	start, err := sub.NextMsg(waitLong)
	if err != nil || start.Header.Get(natsbridge.StreamHeader) != "start" {
		t.Fatalf("the stream's first message: %v %v", start, err)
	}
	credit := &nats.Msg{Subject: start.Header.Get(natsbridge.ControlHeader),
		Header: nats.Header{natsbridge.StreamHeader: {"credit"}, natsbridge.CreditHeader: {"2147483648"}}}
	if err := rogue.PublishMsg(credit); err != nil {
		t.Fatal(err)
	}
	if err := rogue.Flush(); err != nil {
		t.Fatal(err)
	}
	<-tool.started
	rogue.Close() // gone without a word

	select {
	case how := <-tool.ended:
		if how != "emit failed, ctx done" {
			t.Errorf("the stream's end: %s", how)
		}
	case <-time.After(waitLong):
		ctx, cancel := context.WithTimeout(t.Context(), time.Millisecond)
		defer cancel()
		svc.Shutdown(ctx) // cancels the stream
		t.Fatal("the stream of a caller that granted 2^31 items and went still runs")
	}
	// The one slot is free: the next stream on the endpoint runs.
	c := natsbridge.NewCaller(connect(t, url), svc.Prefix())
	n := 0
	for _, err := range c.StreamFunction(t.Context(), "forever", nil) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 3 {
			break
		}
	}
	if n != 3 {
		t.Errorf("the next stream gave %d items", n)
	}
}

// A stream whose caller went ends at its next item, however much credit it
// has left: the items carry the control subject as their reply subject, and
// the server's no-responders answer to one says that nobody reads them.
func TestStreamCallerGoneWithinWindow(t *testing.T) {
	url := startServer(t)
	tool := newCalc("a")
	svc := serve(t, url, tool, natsbridge.WithMaxConcurrent(1), natsbridge.WithStreamWindow(1<<20),
		natsbridge.WithStreamIdle(time.Hour))
	rogue, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer rogue.Close()
	inbox := rogue.NewInbox()
	sub, err := rogue.SubscribeSync(inbox)
	if err != nil {
		t.Fatal(err)
	}
	if err := rogue.PublishMsg(&nats.Msg{Subject: svc.Prefix() + ".forever", Reply: inbox, Header: nats.Header{natsbridge.StreamHeader: {"1"}}}); err != nil {
		t.Fatal(err)
	}
	if start, err := sub.NextMsg(waitLong); err != nil || start.Header.Get(natsbridge.StreamHeader) != "start" {
		t.Fatalf("the stream's first message: %v %v", start, err)
	}
	<-tool.started
	rogue.Close()
	select {
	case how := <-tool.ended:
		if how != "emit failed, ctx done" {
			t.Errorf("the stream's end: %s", how)
		}
	case <-time.After(waitLong):
		ctx, cancel := context.WithTimeout(t.Context(), time.Millisecond)
		defer cancel()
		svc.Shutdown(ctx)
		t.Fatal("the stream of a caller that went still runs within its window of 2^20 items")
	}
}

// A plain request (as nats req sends) of a streaming function is answered
// -32601 with the header that asks for the stream.
func TestPlainRequestOfStream(t *testing.T) {
	url := startServer(t)
	svc := serve(t, url, newCalc("a"))
	m, err := connect(t, url).Request(svc.Prefix()+".count", []byte(`{"n":2}`), waitLong)
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	json.Unmarshal(m.Data, &body)
	const want = `"count" streams its results: over NATS, send the request with the header Opentool-Stream: 1`
	if body.Code != -32601 || !strings.HasPrefix(body.Message, want) ||
		m.Header.Get(micro.ErrorCodeHeader) != "-32601" || !strings.HasPrefix(m.Header.Get(micro.ErrorHeader), want) {
		t.Errorf("answer %v %s, want -32601 %q", m.Header, m.Data, want)
	}
}

// A service whose server went away (its connection reconnecting) shuts
// down at once when no call is in flight, and says so with nil: there is
// nothing to drain and nothing was left unanswered.
func TestShutdownServerGone(t *testing.T) {
	ns, err := natsbridge.StartEmbedded(0)
	if err != nil {
		t.Fatal(err)
	}
	defer ns.Shutdown()
	disconnected := make(chan struct{}, 1)
	nc, err := nats.Connect(ns.ClientURL(), nats.MaxReconnects(-1), nats.DisconnectErrHandler(func(*nats.Conn, error) {
		disconnected <- struct{}{}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	svc, err := natsbridge.NewService(t.Context(), nc, newCalc("a"))
	if err != nil {
		t.Fatal(err)
	}
	ns.Shutdown()
	<-disconnected
	ctx, cancel := context.WithTimeout(t.Context(), waitLong)
	defer cancel()
	if err := svc.Shutdown(ctx); err != nil || ctx.Err() != nil {
		t.Errorf("shutdown with the server gone and nothing in flight: %v (context: %v), want nil before the deadline", err, ctx.Err())
	}
	if n := svc.Stats().InFlight; n != 0 {
		t.Errorf("in flight after the shutdown: %d", n)
	}
}
