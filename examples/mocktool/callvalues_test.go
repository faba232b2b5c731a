package mocktool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
)

// serveTool serves tool on a loopback listener until the test ends.
func serveTool(t *testing.T, tool runtime.Tool, opts ...runtime.ServerOption) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runtime.ServeListener(ctx, ln, tool, opts...) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeListener: %v", err)
		}
	})
	return "http://" + ln.Addr().String() + runtime.DefaultPrefix
}

// TestCallValueTemplates: fixed and default values with {name} placeholders
// take each call's values, from request headers over HTTP or from the
// context in process; a placeholder without a value fails the call, naming
// it, and nothing reaches the service.
func TestCallValueTemplates(t *testing.T) {
	svc := newStore("Hello")
	tool, err := mocktool.NewTool(svc,
		toolopt.WithFixed("update", map[string]any{"text": "turn {agent_turn_id} of {trace_id}, {{literal}}"}),
		toolopt.WithDefaults("create", map[string]any{"text": "call {tool_call_id}"}),
	)
	if err != nil {
		t.Fatal(err)
	}
	url := serveTool(t, tool, runtime.WithCallValueHeaders(map[string]string{
		"X-Trace-Id": "trace_id", "x-agent-turn": "agent_turn_id", "X-Tool-Call": "tool_call_id"}))
	ctx := t.Context()

	c, rt := newClient(t, url, runtime.WithHeader("X-Trace-Id", "tr-9"), runtime.WithHeader("X-Agent-Turn", "7"), runtime.WithHeader("X-Tool-Call", "c-1"))
	if err := c.Update(ctx, mocktool.UpdateArgs{ID: 0, Text: "ignored"}); err != nil {
		t.Fatal(err)
	}
	if got := svc.texts[0]; got != "turn 7 of tr-9, {literal}" {
		t.Errorf("fixed text from headers: %q", got)
	}
	// create without arguments (the typed client always sends its required text)
	ret, err := rt.Call(ctx, runtime.FunctionCall{Name: "create"})
	var id mocktool.ID
	if err == nil {
		err = ret.Decode("id", &id)
	}
	if err != nil || svc.texts[id] != "call c-1" {
		t.Errorf("defaulted text from headers: %q, %v", svc.texts[id], err)
	}
	if id, err := c.Create(ctx, mocktool.CreateArgs{Text: "mine"}); err != nil || svc.texts[id] != "mine" {
		t.Errorf("a given argument keeps its value: %q, %v", svc.texts[id], err)
	}

	// Without the trace header: an error naming the placeholder and the
	// argument; the service is not called.
	bare, _ := newClient(t, url, runtime.WithHeader("X-Agent-Turn", "7"))
	err = bare.Update(ctx, mocktool.UpdateArgs{ID: 0, Text: "x"})
	e := asError(t, err)
	if e.Code != runtime.CodeInvalidParams || !strings.Contains(e.Error(), "{trace_id}") || !strings.Contains(e.Error(), "/text") {
		t.Errorf("missing value: %v", err)
	}
	if got := svc.texts[0]; got != "turn 7 of tr-9, {literal}" {
		t.Errorf("the failed call changed the text to %q", got)
	}

	// In process: values from the context.
	vctx := runtime.WithCallValues(ctx, map[string]string{"trace_id": "a", "agent_turn_id": "b"})
	vctx = runtime.WithCallValues(vctx, map[string]string{"trace_id": "c"}) // added to, and replacing
	if _, err := tool.Call(vctx, "update", json.RawMessage(`{"id":0,"text":"x"}`)); err != nil || svc.texts[0] != "turn b of c, {literal}" {
		t.Errorf("values from the context: %q, %v", svc.texts[0], err)
	}
	if _, err := tool.Call(ctx, "update", json.RawMessage(`{"id":0,"text":"x"}`)); err == nil || !strings.Contains(err.Error(), "{agent_turn_id}") {
		t.Errorf("no values in process: %v", err)
	}

	// A placeholder the tool does not know fails NewTool, naming it; one
	// added with WithCallValueNames is known.
	if _, err := mocktool.NewTool(svc, toolopt.WithFixed("update", map[string]any{"text": "{tenant}"})); err == nil || !strings.Contains(err.Error(), "{tenant}") || !strings.Contains(err.Error(), "update.text") {
		t.Errorf("unknown placeholder: %v", err)
	}
	if _, err := mocktool.NewTool(svc, toolopt.WithCallValueNames("tenant"), toolopt.WithFixed("update", map[string]any{"text": "{tenant}"})); err != nil {
		t.Errorf("a placeholder added with WithCallValueNames: %v", err)
	}
}

// TestLaterOptionWins: of two options for one argument, the later one applies
// (the serving side's configuration, given after the registered options,
// overrides them).
func TestLaterOptionWins(t *testing.T) {
	svc := newStore("Hello")
	env := map[string]string{"REGISTERED": "1", "SERVICE": "0"}
	tool, err := mocktool.NewTool(svc,
		toolopt.WithEnvs("read", map[string]string{"id": "REGISTERED"}),
		toolopt.WithEnvs("read", map[string]string{"id": "SERVICE"}),
		toolopt.WithDefaults("create", map[string]any{"text": "registered"}),
		toolopt.WithDefaults("create", map[string]any{"text": "service"}),
		toolopt.WithLookupEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok }),
	)
	if err != nil {
		t.Fatal(err)
	}
	if raw, err := tool.Call(t.Context(), "read", nil); err != nil || string(raw) != `{"text":"Hello"}` {
		t.Errorf("read with the service's env: %s, %v", raw, err)
	}
	if _, err := tool.Call(t.Context(), "create", nil); err != nil || svc.texts[1] != "service" {
		t.Errorf("create with the service's default: %q, %v", svc.texts[1], err)
	}
}

// TestEnvValuesNeverShown: a value read from the environment appears in no
// error, log line or document, whether it is valid or not.
func TestEnvValuesNeverShown(t *testing.T) {
	const secret = "s3cr3t-Value"
	var logs bytes.Buffer
	svc := newStore("Hello")
	svc.run = func(context.Context) error { return errors.New("run failed") }
	tool, err := mocktool.NewTool(svc,
		toolopt.WithEnvs("", map[string]string{"id": "TEXT_ID"}),
		toolopt.WithLookupEnv(func(string) (string, bool) { return secret, true }),
	)
	if err != nil {
		t.Fatal(err)
	}
	url := serveTool(t, tool, runtime.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	var seen []string
	for _, fn := range []string{"read", "update", "delete"} {
		resp, err := http.Post(url+"/call", "application/json", strings.NewReader(`{"jsonrpc":"2.0","method":"`+fn+`","params":{"id":"`+secret+`","text":"t"},"id":1}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !bytes.Contains(body, []byte("TEXT_ID")) {
			t.Errorf("%s: %s: want an error naming the variable", fn, body)
		}
		seen = append(seen, string(body))
	}
	for _, path := range []string{"/load", "/load?refs=keep"} {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		seen = append(seen, string(body))
	}
	doc, _ := json.Marshal(tool.Document())
	seen = append(seen, string(doc), logs.String())
	for _, p := range declare.Profiles() {
		d, err := tool.Declarations(p)
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, string(d.Tools))
	}
	for _, s := range seen {
		if strings.Contains(s, secret) {
			t.Errorf("the environment's value is shown: %s", s)
		}
	}
}
