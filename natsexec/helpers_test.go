package natsexec

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
)

// startServer starts an embedded NATS server on loopback, a random port,
// with JetStream in a temporary directory, and connects to it.
func startServer(t testing.TB) *nats.Conn {
	t.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("the embedded NATS server did not start")
	}
	t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	nc, err := nats.Connect(s.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// testDoc is the document of testTool.
const testDoc = `{"opentool":"1.0.0","info":{"title":"t","version":"1"},"functions":[
 {"name":"search","description":"search","parameters":[
  {"name":"query","schema":{"type":"string"},"required":true},
  {"name":"session_id","schema":{"type":"string"},"required":true},
  {"name":"project_id","schema":{"type":"string"},"required":true},
  {"name":"api_key","schema":{"type":"string"},"required":false}]},
 {"name":"fail","description":"fails","parameters":[{"name":"code","schema":{"type":"integer"},"required":true}]},
 {"name":"control","description":"overrides after_execution","parameters":[{"name":"to","schema":{"type":"string"},"required":true}]},
 {"name":"panics","description":"panics","parameters":[]},
 {"name":"slow","description":"waits for its context","parameters":[]},
 {"name":"scalar","description":"returns a non-object","parameters":[]}]}`

// testTool is a runtime.Tool whose argument options are runtime's
// (WithDefaults, WithFixed, WithEnvs), as a generated tool's are.
type testTool struct {
	args *toolopt.Args
	doc  *document.OpenTool
	// slowStarted is told of each call of slow once it is running.
	slowStarted chan struct{}
}

func newTestTool(t testing.TB, opts ...toolopt.Option) *testTool {
	t.Helper()
	var doc document.OpenTool
	if err := json.Unmarshal([]byte(testDoc), &doc); err != nil {
		t.Fatal(err)
	}
	a, err := toolopt.NewArgs(&doc, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return &testTool{args: a, doc: &doc, slowStarted: make(chan struct{}, 16)}
}

func (tt *testTool) Load(context.Context) (*document.OpenTool, error) { return tt.doc, nil }

func (tt *testTool) Call(ctx context.Context, name string, raw json.RawMessage) (json.RawMessage, error) {
	raw, err := tt.args.Apply(ctx, name, raw)
	if err != nil {
		return nil, err
	}
	var args map[string]any
	json.Unmarshal(raw, &args)
	switch name {
	case "search":
		if _, ok := args["query"].(string); !ok {
			return nil, runtime.InvalidParams(runtime.Violation{Path: "/query", Message: "required"})
		}
		return json.Marshal(map[string]any{"args": args, "values": runtime.CallValues(ctx)})
	case "fail":
		code, _ := args["code"].(float64)
		if code == 0 {
			return nil, errors.New("plain failure")
		}
		e := runtime.NewError(int(code), "it failed")
		e.Data = json.RawMessage(`{"why":"asked"}`)
		return nil, e
	case "control":
		return json.Marshal(map[string]any{"done": true, "__cg_control": map[string]any{"after_execution": args["to"]}})
	case "panics":
		panic("boom")
	case "slow":
		select {
		case tt.slowStarted <- struct{}{}:
		default:
		}
		<-ctx.Done()
		return nil, ctx.Err()
	case "scalar":
		return json.RawMessage(`[1,2]`), nil
	}
	return nil, runtime.MethodNotFound(name)
}
