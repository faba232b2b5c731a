package natscli_test

// A test of NAME exec, the command running in this process on its embedded
// NATS server with JetStream: a seed-001 command in, a tool.result card and
// a report out.

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/opentoolgen/opentoolgen/internal/testtool"
	"github.com/opentoolgen/opentoolgen/natsexec"
)

var servingExec = regexp.MustCompile(`msg="serving tool commands" .*url=(nats://[^ ]+) `)

func TestExec(t *testing.T) {
	c := mockCommand(newStore("Hello"))
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	logs := &testtool.LockedBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- c.Run(ctx, []string{"exec", "--natsPort", "0", "--project", "p1"}, strings.NewReader(""), io.Discard, pw)
		pw.Close()
	}()
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			logs.WriteString(sc.Text() + "\n")
			if m := servingExec.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
		close(urls)
	}()
	var url string
	select {
	case u, ok := <-urls:
		if !ok {
			t.Fatalf("the command ended without serving:\n%s", logs)
		}
		url = u
	case <-time.After(waitLong):
		t.Fatalf("the command did not say where it serves:\n%s", logs)
	}
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	cards, err := natsexec.NewKVCardStore(t.Context(), js, "")
	if err != nil {
		t.Fatal(err)
	}
	err = cards.Save(t.Context(), &natsexec.Card{CardID: "call-1", ProjectID: "p1", Type: "tool.call",
		Content:  json.RawMessage(`{"tool_call_id":"tc-1","tool_name":"read","arguments":{"id":0}}`),
		Metadata: map[string]json.RawMessage{"trace_id": json.RawMessage(`"tr-1"`), "step_id": json.RawMessage(`"s-1"`)}})
	if err != nil {
		t.Fatal(err)
	}
	reports, err := nc.SubscribeSync("l0.inbox.p1.agent-a.tool_result")
	if err != nil {
		t.Fatal(err)
	}
	cmd := `{"tool_call_id":"tc-1","agent_turn_id":"turn-1","turn_epoch":3,"agent_id":"agent-a",` +
		`"tool_call_card_id":"call-1","tool_name":"read","after_execution":"suspend"}`
	if err := nc.Publish("cmd.tool.read", []byte(cmd)); err != nil {
		t.Fatal(err)
	}
	m, err := reports.NextMsg(waitLong)
	if err != nil {
		t.Fatalf("no report: %v\n%s", err, logs)
	}
	var report natsexec.ReportPayload
	if err := json.Unmarshal(m.Data, &report); err != nil {
		t.Fatal(err)
	}
	if report.Status != "success" || string(report.TurnEpoch) != "3" || string(report.AgentTurnID) != `"turn-1"` {
		t.Fatalf("report %s", m.Data)
	}
	card, err := cards.Get(t.Context(), "p1", report.ToolResultCardID)
	if err != nil {
		t.Fatalf("the tool.result card %q: %v", report.ToolResultCardID, err)
	}
	var content natsexec.ToolResultContent
	if err := json.Unmarshal(card.Content, &content); err != nil {
		t.Fatal(err)
	}
	if card.Type != "tool.result" || content.Status != "success" || !strings.Contains(string(content.Result), "Hello") ||
		string(card.Metadata["trace_id"]) != `"tr-1"` || card.AuthorID != "tool.mock_util_tool" {
		t.Errorf("tool.result card %+v, content %+v", card, content)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit status %d\n%s", code, logs)
		}
	case <-time.After(waitLong):
		t.Fatal("the command did not stop")
	}
}
