package natsexec_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/opentoolgen/opentoolgen/natsexec"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// greeter is a tool of one function, greet(name).
type greeter struct{}

func (greeter) Load(context.Context) (*document.OpenTool, error) {
	return &document.OpenTool{OpenTool: "1.0.0", Functions: []document.Function{{Name: "greet"}}}, nil
}

func (greeter) Call(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	var a struct{ Name string }
	json.Unmarshal(args, &a)
	return json.Marshal(map[string]string{"greeting": "hello " + a.Name})
}

// A platform's worker writes a tool.call card and sends a command; the
// executor reads the card, calls the tool, saves a tool.result card and
// reports.
func Example() {
	s, _ := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	go s.Start()
	s.ReadyForConnections(10 * time.Second)
	defer s.Shutdown()
	nc, _ := nats.Connect(s.ClientURL())
	defer nc.Close()

	ctx := context.Background()
	cards := natsexec.NewMemoryCardStore()
	inbox := &natsexec.MemoryReporter{C: make(chan *natsexec.Report, 1)}
	ex, err := natsexec.New(nc, greeter{}, cards, inbox, natsexec.Options{
		Subject: "cg.v1.{project_id}.{channel_id}.cmd.tool.{function}",
	})
	if err != nil {
		panic(err)
	}
	defer ex.Close(ctx)
	fmt.Println(ex.Subjects())

	cards.Save(ctx, &natsexec.Card{CardID: "call-1", ProjectID: "proj", Type: natsexec.TypeToolCall,
		Content:  json.RawMessage(`{"arguments":{"name":"Ada"}}`),
		Metadata: map[string]json.RawMessage{"step_id": json.RawMessage(`"step-1"`)}})
	nc.Request("cg.v1.proj.public.cmd.tool.greet", []byte(`{"tool_call_id":"tc-1","agent_turn_id":"turn-1",
		"turn_epoch":3,"agent_id":"agent-1","tool_call_card_id":"call-1","tool_name":"greet",
		"after_execution":"suspend"}`), 10*time.Second)

	report := <-inbox.C
	var p natsexec.ReportPayload
	json.Unmarshal(report.Payload, &p)
	card, _ := cards.Get(ctx, "proj", p.ToolResultCardID)
	var content natsexec.ToolResultContent
	json.Unmarshal(card.Content, &content)
	fmt.Println(p.Status, string(p.TurnEpoch), string(p.AfterExecution), string(p.StepID))
	fmt.Println(card.Type, string(content.Result))
	// Output:
	// [cg.v1.*.*.cmd.tool.greet]
	// success 3 "suspend" "step-1"
	// tool.result {"greeting":"hello Ada"}
}
