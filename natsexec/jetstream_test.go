package natsexec

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestJetStream runs the flow on the self-contained deployment: cards in a
// JetStream key-value bucket, reports published through JetStream to a
// stream on the inbox subject; and checks that nothing is written to
// state.* (a subscriber to every subject sees the executor's traffic).
func TestJetStream(t *testing.T) {
	nc := startServer(t)
	ctx := context.Background()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "INBOX", Subjects: []string{"l0.inbox.>"}}); err != nil {
		t.Fatal(err)
	}
	cards, err := NewKVCardStore(ctx, js, "")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var subjects []string
	watch, err := nc.Subscribe(">", func(m *nats.Msg) {
		mu.Lock()
		subjects = append(subjects, m.Subject)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Unsubscribe()

	ex, err := New(nc, newTestTool(t), cards, &NATSReporter{Conn: nc, JetStream: js}, Options{Subject: fullSubject})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close(ctx)
	if err := cards.Save(ctx, &Card{CardID: "card-1", ProjectID: "p1", Type: TypeToolCall,
		Content:  json.RawMessage(`{"arguments":{"query":"go","session_id":"s","project_id":"p"}}`),
		Metadata: map[string]json.RawMessage{"trace_id": json.RawMessage(`"t-1"`), "step_id": json.RawMessage(`"s-1"`), "parent_step_id": json.RawMessage(`"s-0"`)}}); err != nil {
		t.Fatal(err)
	}
	header := nats.Header{}
	header.Set("traceparent", traceparentIn)
	header.Set("tracestate", "k=v")
	if _, err := nc.RequestMsg(&nats.Msg{Subject: "cg.v1.p1.public.cmd.tool.search", Data: []byte(cmdPayload("search", nil)), Header: header}, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	stream, _ := js.Stream(ctx, "INBOX")
	msg, err := stream.GetLastMsgForSubject(ctx, "l0.inbox.p1.agent-a.tool_result")
	if err != nil {
		t.Fatalf("the report is not in the inbox stream: %v", err)
	}
	var p ReportPayload
	if err := json.Unmarshal(msg.Data, &p); err != nil || p.Status != "success" || string(p.StepID) != `"s-1"` || string(p.TurnEpoch) != "7" {
		t.Fatalf("report %s (%v)", msg.Data, err)
	}
	checkChild(t, msg.Header, traceparentIn)
	if msg.Header.Get("tracestate") != "k=v" {
		t.Errorf("tracestate %q", msg.Header.Get("tracestate"))
	}
	card, err := cards.Get(ctx, "p1", p.ToolResultCardID)
	if err != nil {
		t.Fatal(err)
	}
	var content ToolResultContent
	json.Unmarshal(card.Content, &content)
	if card.Type != TypeToolResult || content.Status != "success" || string(card.Metadata["trace_id"]) != `"t-1"` || string(card.Metadata["parent_step_id"]) != `"s-0"` {
		t.Errorf("card %+v", card)
	}
	if _, err := cards.Get(ctx, "p1", "missing"); err == nil || !strings.Contains(err.Error(), "card not found") {
		t.Errorf("a missing card: %v", err)
	}
	if err := cards.Save(ctx, &Card{CardID: "a.b", ProjectID: "p1"}); err == nil {
		t.Error("a card id with a dot was saved")
	}
	nc.Flush()
	mu.Lock()
	defer mu.Unlock()
	for _, s := range subjects {
		if strings.HasPrefix(s, "state.") || strings.Contains(s, ".state.") {
			t.Errorf("the executor wrote %s", s)
		}
	}
	if len(subjects) == 0 {
		t.Error("the watcher saw nothing")
	}
}

// TestNATSReporterCore: without JetStream, the report is a core NATS
// message on the inbox subject.
func TestNATSReporterCore(t *testing.T) {
	nc := startServer(t)
	sub, err := nc.SubscribeSync("inbox.>")
	if err != nil {
		t.Fatal(err)
	}
	r := &NATSReporter{Conn: nc, Subject: "inbox.{project_id}.{channel_id}.{agent_id}"}
	h := nats.Header{}
	h.Set("traceparent", traceparentIn)
	if err := r.Report(context.Background(), &Report{ProjectID: "p", Payload: json.RawMessage(`{"agent_id":"a.b","status":"failed"}`), Header: h}); err != nil {
		t.Fatal(err)
	}
	m, err := sub.NextMsg(5 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if m.Subject != "inbox.p._._" || m.Header.Get("traceparent") != traceparentIn {
		t.Errorf("got %s %v", m.Subject, m.Header)
	}
}
