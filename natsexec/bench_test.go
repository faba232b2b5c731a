package natsexec

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// BenchmarkCommand measures one command sent as a request through the
// executor on an embedded server, one at a time: the payload checked, the
// card read, the tool called, the result card saved and the report made (in
// memory), the reply received.
func BenchmarkCommand(b *testing.B) {
	nc := startServer(b)
	cards := NewMemoryCardStore()
	rep := &discardReporter{}
	ex, err := New(nc, newTestTool(b), cards, rep, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ex.Close(context.Background())
	cards.Save(context.Background(), &Card{CardID: "card-1", Type: TypeToolCall,
		Content: json.RawMessage(`{"arguments":{"query":"go","session_id":"s","project_id":"p"}}`)})
	payload := []byte(cmdPayload("search", nil))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := nc.Request("cmd.tool.search", payload, 10*time.Second); err != nil {
			b.Fatal(err)
		}
	}
}

type discardReporter struct{}

func (*discardReporter) Report(context.Context, *Report) error { return nil }
