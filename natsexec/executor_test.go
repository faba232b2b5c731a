package natsexec

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
)

// harness is an executor on an embedded server with an in-memory card store
// and reporter.
type harness struct {
	nc    *nats.Conn
	cards CardStore
	rep   *MemoryReporter
	ex    *Executor
	tool  *testTool
}

const fullSubject = "cg.v1.{project_id}.{channel_id}.cmd.tool.{function}"

func newHarness(t *testing.T, cards CardStore, rep Reporter, opts Options, toolOpts ...toolopt.Option) *harness {
	t.Helper()
	h := &harness{nc: startServer(t), cards: cards}
	if h.cards == nil {
		h.cards = NewMemoryCardStore()
	}
	if rep == nil {
		h.rep = &MemoryReporter{C: make(chan *Report, 100)}
		rep = h.rep
	}
	if opts.Subject == "" {
		opts.Subject = fullSubject
	}
	h.tool = newTestTool(t, toolOpts...)
	ex, err := New(h.nc, h.tool, h.cards, rep, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ex.Close(context.Background()) })
	h.ex = ex
	return h
}

// slowRunning waits until a call of the tool's slow function is running.
func (h *harness) slowRunning(t *testing.T) {
	t.Helper()
	select {
	case <-h.tool.slowStarted:
	case <-time.After(10 * time.Second): // a watchdog
		t.Fatal("the call of slow did not start")
	}
}

// putCall saves a tool.call card with the given arguments and metadata (raw
// JSON).
func (h *harness) putCall(t *testing.T, project, id, args, metadata string) {
	t.Helper()
	c := &Card{CardID: id, ProjectID: project, Type: TypeToolCall,
		Content: json.RawMessage(`{"tool_call_id":"tc-1","tool_name":"search","arguments":` + args + `}`)}
	if metadata != "" {
		if err := json.Unmarshal([]byte(metadata), &c.Metadata); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.cards.Save(context.Background(), c); err != nil {
		t.Fatal(err)
	}
}

// send sends payload (raw JSON) as a request on subject and returns the
// executor's reply and the report it delivered.
func (h *harness) send(t *testing.T, subject, payload string, header nats.Header) (map[string]json.RawMessage, *Report) {
	t.Helper()
	msg := &nats.Msg{Subject: subject, Data: []byte(payload), Header: header}
	resp, err := h.nc.RequestMsg(msg, 10*time.Second)
	if err != nil {
		t.Fatalf("request on %s: %v", subject, err)
	}
	var reply map[string]json.RawMessage
	if err := json.Unmarshal(resp.Data, &reply); err != nil {
		t.Fatalf("reply %s: %v", resp.Data, err)
	}
	select {
	case r := <-h.rep.C:
		return reply, r
	case <-time.After(10 * time.Second):
		t.Fatal("no report")
	}
	return nil, nil
}

// resultCard reads the tool.result card a report points at.
func (h *harness) resultCard(t *testing.T, r *Report) (*Card, ToolResultContent, ReportPayload) {
	t.Helper()
	var p ReportPayload
	if err := json.Unmarshal(r.Payload, &p); err != nil {
		t.Fatalf("report payload %s: %v", r.Payload, err)
	}
	if p.ToolResultCardID == "" {
		t.Fatalf("report without tool_result_card_id: %s", r.Payload)
	}
	c, err := h.cards.Get(context.Background(), r.ProjectID, p.ToolResultCardID)
	if err != nil {
		t.Fatalf("the report's card: %v", err)
	}
	if c.Type != TypeToolResult {
		t.Errorf("card type %q, want tool.result", c.Type)
	}
	var content ToolResultContent
	dec := json.NewDecoder(bytes.NewReader(c.Content))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&content); err != nil {
		t.Fatalf("content %s is not a ToolResultContent: %v", c.Content, err)
	}
	return c, content, p
}

// cmdPayload returns a valid command payload for function, with fields
// replaced (a nil value removes the field); values are raw JSON.
func cmdPayload(function string, fields map[string]any) string {
	base := map[string]any{
		"tool_call_id": `"tc-1"`, "agent_turn_id": `"turn-9"`, "turn_epoch": `7`, "agent_id": `"agent-a"`,
		"tool_call_card_id": `"card-1"`, "tool_name": `"` + function + `"`, "after_execution": `"suspend"`,
		"context_box_id": `"box-3"`,
	}
	for k, v := range fields {
		if v == nil {
			delete(base, k)
		} else {
			base[k] = v
		}
	}
	var b strings.Builder
	b.WriteString("{")
	first := true
	for _, k := range []string{"tool_call_id", "agent_turn_id", "turn_epoch", "agent_id", "tool_call_card_id", "tool_name", "after_execution", "context_box_id", "args", "arguments"} {
		v, ok := base[k]
		if !ok {
			continue
		}
		if !first {
			b.WriteString(", ")
		}
		first = false
		fmt.Fprintf(&b, "%q: %s", k, v)
	}
	b.WriteString("}")
	return b.String()
}

const traceparentIn = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

// TestSuccess checks a successful command field by field: arguments from the
// card (completed by WithDefaults/WithFixed/WithEnvs with the command's
// values), the tool.result card (ToolResultContent, metadata copied verbatim
// from the tool.call card), the report (fields echoed as received, status,
// the card's id, step_id) and its trace headers.
func TestSuccess(t *testing.T) {
	h := newHarness(t, nil, nil, Options{AuthorID: "tool.search"},
		toolopt.WithDefaults("search", map[string]any{"session_id": "{agent_turn_id}/{turn_epoch}"}),
		toolopt.WithFixed("search", map[string]any{"project_id": "{project_id}:{channel_id}:{trace_id}:{step_id}:{context_box_id}"}),
		toolopt.WithEnvs("search", map[string]string{"api_key": "SEARCH_API_KEY"}),
		toolopt.WithLookupEnv(func(k string) (string, bool) { return "secret-" + k, k == "SEARCH_API_KEY" }))
	// Metadata values with escapes and odd spacing: copied byte for byte.
	h.putCall(t, "p1", "card-1", `{"query":"go","project_id":"forged"}`,
		`{"trace_id":"tr\u0061ce-1","parent_step_id": "step-0","step_id":"step-1","other":"not copied"}`)
	header := nats.Header{}
	header.Set("traceparent", traceparentIn)
	header.Set("tracestate", "congo=t61rcWkgMzE")
	reply, r := h.send(t, "cg.v1.p1.public.cmd.tool.search", cmdPayload("search", map[string]any{"agent_turn_id": `"turn\u002d9"`}), header)

	card, content, p := h.resultCard(t, r)
	if r.ProjectID != "p1" || r.ChannelID != "public" || card.ProjectID != "p1" {
		t.Errorf("project/channel: report %q/%q, card %q; want p1/public from the subject", r.ProjectID, r.ChannelID, card.ProjectID)
	}
	if card.AuthorID != "tool.search" {
		t.Errorf("author_id %q", card.AuthorID)
	}
	// Metadata: exactly the three keys, their JSON as in the tool.call card.
	wantMeta := map[string]string{"trace_id": `"tr\u0061ce-1"`, "parent_step_id": `"step-0"`, "step_id": `"step-1"`}
	if len(card.Metadata) != len(wantMeta) {
		t.Errorf("metadata %v, want the keys of %v", card.Metadata, wantMeta)
	}
	for k, v := range wantMeta {
		if string(card.Metadata[k]) != v {
			t.Errorf("metadata.%s = %s, want %s (copied verbatim)", k, card.Metadata[k], v)
		}
	}
	if content.Status != "success" || content.ToolCallID != "tc-1" || content.ToolName != "search" || content.AfterExecution != "suspend" || content.Error != nil {
		t.Errorf("content %+v", content)
	}
	var result struct {
		Args   map[string]string `json:"args"`
		Values map[string]string `json:"values"`
	}
	if err := json.Unmarshal(content.Result, &result); err != nil {
		t.Fatal(err)
	}
	wantArgs := map[string]string{"query": "go", "session_id": "turn-9/7", "project_id": "p1:public:trace-1:step-1:box-3", "api_key": "secret-SEARCH_API_KEY"}
	for k, v := range wantArgs {
		if result.Args[k] != v {
			t.Errorf("argument %s = %q, want %q", k, result.Args[k], v)
		}
	}
	wantValues := map[string]string{"project_id": "p1", "channel_id": "public", "agent_id": "agent-a", "agent_turn_id": "turn-9",
		"tool_call_id": "tc-1", "turn_epoch": "7", "context_box_id": "box-3", "step_id": "step-1", "parent_step_id": "step-0", "trace_id": "trace-1"}
	for k, v := range wantValues {
		if result.Values[k] != v {
			t.Errorf("call value %s = %q, want %q", k, result.Values[k], v)
		}
	}
	// The report: exactly the seed's fields, echoed bytes as received.
	var fields map[string]json.RawMessage
	json.Unmarshal(r.Payload, &fields)
	want := map[string]string{"tool_call_id": `"tc-1"`, "agent_turn_id": `"turn\u002d9"`, "agent_id": `"agent-a"`, "turn_epoch": `7`,
		"after_execution": `"suspend"`, "status": `"success"`, "tool_result_card_id": `"` + card.CardID + `"`, "step_id": `"step-1"`}
	if len(fields) != len(want) {
		t.Errorf("report payload %s, want exactly the fields %v", r.Payload, want)
	}
	for k, v := range want {
		if string(fields[k]) != v {
			t.Errorf("report %s = %s, want %s", k, fields[k], v)
		}
	}
	if p.Status != "success" {
		t.Errorf("status %q", p.Status)
	}
	// Trace: a child of the command's traceparent.
	checkChild(t, r.Header, traceparentIn)
	if got := r.Header.Get("tracestate"); got != "congo=t61rcWkgMzE" {
		t.Errorf("tracestate %q, want it passed through", got)
	}
	// The request's reply: what the seed's handler returns.
	if string(reply["status"]) != `"success"` || string(reply["turn_epoch"]) != "7" || string(reply["tool_result_card_id"]) != `"`+card.CardID+`"` {
		t.Errorf("reply %v", reply)
	}
}

// checkChild checks that header's traceparent is a valid child of parent:
// same trace id and flags, a new span id.
func checkChild(t *testing.T, header nats.Header, parent string) {
	t.Helper()
	got := header.Get("traceparent")
	tc, ok := parseTraceparent(got)
	if !ok {
		t.Fatalf("report traceparent %q is not valid", got)
	}
	p, _ := parseTraceparent(parent)
	if tc.traceID != p.traceID || tc.flags != p.flags {
		t.Errorf("traceparent %q is not in the trace of %q", got, parent)
	}
	if tc.spanID == p.spanID {
		t.Errorf("traceparent %q reuses the parent's span id", got)
	}
}

// TestRequiredFields sends commands each missing or spoiling one field: each
// is a failed result naming the field, reported with the other fields echoed,
// and the tool is not called.
func TestRequiredFields(t *testing.T) {
	h := newHarness(t, nil, nil, Options{})
	h.putCall(t, "p1", "card-1", `{"query":"go"}`, `{"step_id":"s"}`)
	cases := []struct {
		field string
		value any // nil: missing
		says  string
	}{
		{"tool_call_id", nil, "tool_call_id: missing"},
		{"agent_turn_id", nil, "agent_turn_id: missing"},
		{"turn_epoch", nil, "turn_epoch: missing"},
		{"agent_id", nil, "agent_id: missing"},
		{"tool_call_card_id", nil, "tool_call_card_id: missing"},
		{"tool_name", nil, "tool_name: missing"},
		{"after_execution", nil, "after_execution: missing"},
		{"tool_call_id", `5`, "tool_call_id: got a number, want a string"},
		{"agent_id", `""`, "agent_id: empty"},
		{"agent_turn_id", `null`, "agent_turn_id: missing"},
		{"turn_epoch", `"7"`, `turn_epoch: got "7", want a non-negative integer`},
		{"turn_epoch", `-1`, "turn_epoch: got -1, want a non-negative integer"},
		{"turn_epoch", `1.5`, "turn_epoch: got 1.5, want a non-negative integer"},
		{"after_execution", `"continue"`, `after_execution: got "continue", want "suspend" or "terminate"`},
		{"tool_name", `"delete_all"`, `tool_name: got "delete_all", want "search"`},
		{"context_box_id", `3`, "context_box_id: got a number, want a string"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s=%v", c.field, c.value), func(t *testing.T) {
			_, r := h.send(t, "cg.v1.p1.public.cmd.tool.search", cmdPayload("search", map[string]any{c.field: c.value}), nil)
			_, content, _ := h.resultCard(t, r)
			checkFailure(t, content, "failed", CodeProtocolViolation, c.says)
			var detail struct {
				Fields []struct{ Field, Problem string }
			}
			json.Unmarshal(content.Error.Detail, &detail)
			if len(detail.Fields) != 1 || detail.Fields[0].Field != c.field {
				t.Errorf("error.detail %s, want the one field %s", content.Error.Detail, c.field)
			}
			var fields map[string]json.RawMessage
			json.Unmarshal(r.Payload, &fields)
			for _, k := range []string{"tool_call_id", "agent_turn_id", "turn_epoch", "agent_id", "after_execution"} {
				v, ok := fields[k]
				switch {
				case k == c.field && c.value == nil && ok:
					t.Errorf("report has %s = %s, which the command lacked", k, v)
				case k == c.field && c.value != nil && string(v) != c.value.(string):
					t.Errorf("report %s = %s, want %s echoed as received", k, v, c.value)
				case k != c.field && !ok:
					t.Errorf("report lacks %s", k)
				}
			}
			if string(fields["status"]) != `"failed"` {
				t.Errorf("status %s", fields["status"])
			}
			// The card's lineage, when the command names the card.
			if wantStep := c.field != "tool_call_card_id"; (string(fields["step_id"]) == `"s"`) != wantStep {
				t.Errorf("report step_id %s (the card named: %v)", fields["step_id"], wantStep)
			}
		})
	}
}

// checkFailure checks a failed ToolResultContent (seed 001 §3.1):
// result.error_code/error_message and error.code/message.
func checkFailure(t *testing.T, c ToolResultContent, status, code, says string) {
	t.Helper()
	if c.Status != status {
		t.Errorf("status %q, want %q", c.Status, status)
	}
	var result map[string]string
	if err := json.Unmarshal(c.Result, &result); err != nil || len(result) != 2 {
		t.Errorf("result %s, want {error_code, error_message}", c.Result)
	}
	if result["error_code"] != code || c.Error == nil || c.Error.Code != code {
		t.Fatalf("result.error_code %q, error %+v; want code %q", result["error_code"], c.Error, code)
	}
	if result["error_message"] != c.Error.Message || !strings.Contains(c.Error.Message, says) {
		t.Errorf("error_message %q / error.message %q, want both to say %q", result["error_message"], c.Error.Message, says)
	}
}

// TestArgsInPayloadRefused: arguments in the command are refused, as the
// seed says the server does; those of the card are not used either.
func TestArgsInPayloadRefused(t *testing.T) {
	h := newHarness(t, nil, nil, Options{})
	h.putCall(t, "p1", "card-1", `{"query":"go"}`, "")
	for _, k := range []string{"args", "arguments"} {
		_, r := h.send(t, "cg.v1.p1.public.cmd.tool.search", cmdPayload("search", map[string]any{k: `{"query":"from payload"}`}), nil)
		_, content, _ := h.resultCard(t, r)
		checkFailure(t, content, "failed", CodeProtocolViolation, k+": refused: arguments come from the tool.call card")
	}
}

// TestNotAnObject: a payload that is not a JSON object is still reported.
func TestNotAnObject(t *testing.T) {
	h := newHarness(t, nil, nil, Options{})
	for _, payload := range []string{`not json`, `[1]`, `null`, ``} {
		reply, r := h.send(t, "cg.v1.p1.public.cmd.tool.search", payload, nil)
		_, content, p := h.resultCard(t, r)
		checkFailure(t, content, "failed", CodeProtocolViolation, "payload is not a JSON object")
		if p.ToolCallID != nil || p.AgentTurnID != nil || p.TurnEpoch != nil || p.Status != "failed" {
			t.Errorf("payload %q: report %s", payload, r.Payload)
		}
		if string(reply["status"]) != `"failed"` {
			t.Errorf("reply %v", reply)
		}
	}
}

// TestPublishedWithoutReply: a command published (not a request) is
// reported too.
func TestPublishedWithoutReply(t *testing.T) {
	h := newHarness(t, nil, nil, Options{})
	if err := h.nc.Publish("cg.v1.p1.public.cmd.tool.search", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-h.rep.C:
		_, content, _ := h.resultCard(t, r)
		checkFailure(t, content, "failed", CodeProtocolViolation, "tool_call_id: missing")
	case <-time.After(10 * time.Second):
		t.Fatal("no report for a command without reply subject")
	}
}

// TestCardProblems: the tool.call card missing, of another type, without a
// ToolCallContent, or with arguments that are not an object.
func TestCardProblems(t *testing.T) {
	h := newHarness(t, nil, nil, Options{})
	ctx := context.Background()
	h.cards.Save(ctx, &Card{CardID: "res", ProjectID: "p1", Type: TypeToolResult, Content: json.RawMessage(`{}`)})
	h.cards.Save(ctx, &Card{CardID: "text", ProjectID: "p1", Type: TypeToolCall, Content: json.RawMessage(`"search go"`)})
	h.cards.Save(ctx, &Card{CardID: "arr", ProjectID: "p1", Type: TypeToolCall, Content: json.RawMessage(`{"arguments":[1]}`)})
	h.putCall(t, "p2", "other-project", `{"query":"go"}`, "")
	cases := []struct{ card, code, says string }{
		{"nope", CodeCardNotFound, `tool_call_card_id: no card "nope" in project "p1"`},
		{"other-project", CodeCardNotFound, `no card "other-project" in project "p1"`},
		{"res", CodeProtocolViolation, `card "res" is of type "tool.result", want "tool.call"`},
		{"text", CodeProtocolViolation, "content is not a ToolCallContent object"},
		{"arr", CodeInvalidArguments, "content.arguments: got an array, want an object"},
	}
	for _, c := range cases {
		_, r := h.send(t, "cg.v1.p1.public.cmd.tool.search", cmdPayload("search", map[string]any{"tool_call_card_id": `"` + c.card + `"`}), nil)
		_, content, _ := h.resultCard(t, r)
		checkFailure(t, content, "failed", c.code, c.says)
	}
}

// TestAfterExecutionOverride: result.__cg_control.after_execution changes the
// effective after_execution (the card's), never the echoed one.
func TestAfterExecutionOverride(t *testing.T) {
	h := newHarness(t, nil, nil, Options{})
	for _, c := range []struct{ command, to, effective string }{
		{"suspend", "terminate", "terminate"},
		{"terminate", "suspend", "suspend"},
		{"suspend", "later", "suspend"}, // not suspend|terminate: ignored
		{"terminate", "", "terminate"},
	} {
		id := "card-" + c.command + c.to
		h.putCall(t, "p1", id, `{"to":"`+c.to+`"}`, "")
		_, r := h.send(t, "cg.v1.p1.public.cmd.tool.control", cmdPayload("control", map[string]any{"tool_call_card_id": `"` + id + `"`, "after_execution": `"` + c.command + `"`}), nil)
		_, content, p := h.resultCard(t, r)
		if content.AfterExecution != c.effective || string(p.AfterExecution) != `"`+c.command+`"` || p.Status != "success" {
			t.Errorf("%+v: card after_execution %q, report %s", c, content.AfterExecution, p.AfterExecution)
		}
		if !strings.Contains(string(content.Result), `"__cg_control"`) {
			t.Errorf("result %s lost __cg_control", content.Result)
		}
	}
}

// TestToolFailures: the tool's errors, mapped to error codes, with the
// OpenTool error object in error.detail; a panic, a result that is not an
// object, a timeout.
func TestToolFailures(t *testing.T) {
	h := newHarness(t, nil, nil, Options{Timeout: 100 * time.Millisecond})
	cases := []struct {
		function, args     string
		status, code, says string
		detail             string // "" for none
	}{
		{"fail", `{"code":429}`, "failed", CodeRateLimited, "it failed", `{"code":429,"message":"it failed","data":{"why":"asked"}}`},
		{"fail", `{"code":503}`, "failed", CodeUpstreamUnavailable, "it failed", `{"code":503,"message":"it failed","data":{"why":"asked"}}`},
		{"fail", `{"code":418}`, "failed", CodeToolError, "it failed", `{"code":418,"message":"it failed","data":{"why":"asked"}}`},
		{"fail", `{"code":0}`, "failed", CodeToolError, "plain failure", `{"code":500,"message":"plain failure"}`},
		{"search", `{}`, "failed", CodeInvalidArguments, "invalid params", ""},
		{"panics", `{}`, "failed", CodeInternalError, "the tool panicked", `{"code":-32603,"message":"internal error: the tool panicked"}`},
		{"scalar", `{}`, "failed", CodeInternalError, "not a JSON object", ""},
		{"slow", `{}`, "timeout", CodeTimeout, "deadline exceeded", ""},
	}
	for i, c := range cases {
		id := fmt.Sprintf("card-%d", i)
		h.putCall(t, "p1", id, c.args, "")
		_, r := h.send(t, "cg.v1.p1.public.cmd.tool."+c.function, cmdPayload(c.function, map[string]any{"tool_call_card_id": `"` + id + `"`}), nil)
		_, content, p := h.resultCard(t, r)
		checkFailure(t, content, c.status, c.code, c.says)
		if p.Status != c.status {
			t.Errorf("%s %s: report status %q", c.function, c.args, p.Status)
		}
		if c.detail != "" && string(content.Error.Detail) != c.detail {
			t.Errorf("%s %s: error.detail %s, want %s", c.function, c.args, content.Error.Detail, c.detail)
		}
	}
}

// TestTraceContext: without a traceparent, or with an invalid one, the report
// starts a new trace (and drops tracestate, as W3C says); with one, it is a
// child.
func TestTraceContext(t *testing.T) {
	h := newHarness(t, nil, nil, Options{})
	h.putCall(t, "p1", "card-1", `{"query":"go"}`, "")
	for _, in := range []string{"", "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "garbage"} {
		header := nats.Header{}
		if in != "" {
			header.Set("traceparent", in)
		}
		header.Set("tracestate", "a=b")
		_, r := h.send(t, "cg.v1.p1.public.cmd.tool.search", cmdPayload("search", nil), header)
		tc, ok := parseTraceparent(r.Header.Get("traceparent"))
		if !ok || tc.flags != 1 {
			t.Errorf("in %q: report traceparent %q", in, r.Header.Get("traceparent"))
		}
		if r.Header.Get("tracestate") != "" {
			t.Errorf("in %q: tracestate %q passed with an invalid parent", in, r.Header.Get("tracestate"))
		}
	}
	header := nats.Header{}
	unsampled := "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"
	header.Set("traceparent", unsampled)
	_, r := h.send(t, "cg.v1.p1.public.cmd.tool.search", cmdPayload("search", nil), header)
	checkChild(t, r.Header, unsampled)
}

func TestParseTraceparent(t *testing.T) {
	cases := []struct {
		in string
		ok bool
	}{
		{traceparentIn, true},
		{" " + traceparentIn + " ", true},
		{"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", true}, // a later version may have more
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", false},
		{"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", false},
		{"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", false},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", false},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g", false},
		{"00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01", false},
		{"", false},
	}
	for _, c := range cases {
		tc, ok := parseTraceparent(c.in)
		if ok != c.ok {
			t.Errorf("parseTraceparent(%q) ok = %v, want %v", c.in, ok, c.ok)
		}
		if ok && c.in == traceparentIn && tc.String() != traceparentIn {
			t.Errorf("round trip: %q", tc.String())
		}
	}
	root := newRoot()
	if _, ok := parseTraceparent(root.String()); !ok {
		t.Errorf("newRoot %q is not valid", root.String())
	}
}

// TestSubjects: subject templates, the wildcard and fixed forms, and the
// subjects refused.
func TestSubjects(t *testing.T) {
	nc := startServer(t)
	tool := newTestTool(t)
	for _, c := range []struct {
		opts Options
		want string // the subject of "search", or the error
	}{
		{Options{}, "cmd.tool.search"},
		{Options{Subject: fullSubject}, "cg.v1.*.*.cmd.tool.search"},
		{Options{Subject: fullSubject, ProjectID: "p1"}, "cg.v1.p1.*.cmd.tool.search"},
		{Options{Subject: fullSubject, ProjectID: "p1", ChannelID: "public"}, "cg.v1.p1.public.cmd.tool.search"},
		{Options{Subject: "cmd.sys.pmo.internal.{function}"}, "cmd.sys.* is the platform's own"},
		{Options{Subject: "cg.v1.{project_id}.{channel_id}.cmd.sys.{function}"}, "cmd.sys.* is the platform's own"},
		{Options{Subject: "tools.{function}"}, "want a cmd.tool.* subject"},
		{Options{Subject: "cmd.tool"}, "want a cmd.tool.* subject"},
		{Options{Subject: "cmd.tool.*"}, "no wildcards"},
		{Options{Subject: "cmd.tool.x-{function}"}, "a placeholder must be a whole token"},
		{Options{Subject: "cmd..tool"}, "empty token"},
		{Options{Subject: "cmd.tool.all"}, `share subject cmd.tool.all`},
		{Options{ProjectID: "a.b"}, "Options.ProjectID"},
	} {
		ex, err := New(nc, tool, NewMemoryCardStore(), &MemoryReporter{}, c.opts)
		if err != nil {
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("%+v: error %v, want %q", c.opts, err, c.want)
			}
			continue
		}
		subs := ex.Subjects()
		if len(subs) != 6 || subs[0] != c.want {
			t.Errorf("%+v: subjects %v, want %s first", c.opts, subs, c.want)
		}
		ex.Close(context.Background())
	}
}

// TestQueueGroup: two executors in one queue group share the commands, each
// served exactly once.
func TestQueueGroup(t *testing.T) {
	h := newHarness(t, nil, nil, Options{})
	ex2, err := New(h.nc, newTestTool(t), h.cards, h.rep, Options{Subject: fullSubject})
	if err != nil {
		t.Fatal(err)
	}
	defer ex2.Close(context.Background())
	h.putCall(t, "p1", "card-1", `{"query":"go"}`, "")
	const n = 200
	for i := range n {
		if err := h.nc.Publish("cg.v1.p1.public.cmd.tool.search", []byte(cmdPayload("search", map[string]any{"tool_call_id": fmt.Sprintf(`"tc-%d"`, i)}))); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]int{}
	for range n {
		select {
		case r := <-h.rep.C:
			var p ReportPayload
			if err := json.Unmarshal(r.Payload, &p); err != nil {
				t.Fatalf("report %s: %v", r.Payload, err)
			}
			seen[string(p.ToolCallID)]++
			if p.Status != "success" {
				t.Errorf("report %s", r.Payload)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%d reports of %d", len(seen), n)
		}
	}
	for id, k := range seen {
		if k != 1 {
			t.Errorf("%s reported %d times", id, k)
		}
	}
	if len(seen) != n {
		t.Errorf("%d distinct reports, want %d", len(seen), n)
	}
	// Closed, the executors have reported every command they took: an
	// extra report would be in the channel now.
	for _, ex := range []*Executor{h.ex, ex2} {
		if err := ex.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case r := <-h.rep.C:
		t.Errorf("an extra report: %s", r.Payload)
	default:
	}
}

// TestCloseFinishesCalls: Close waits for the commands taken, which are
// reported; those sent after Close are not taken.
func TestCloseFinishesCalls(t *testing.T) {
	h := newHarness(t, nil, nil, Options{Timeout: 300 * time.Millisecond})
	h.putCall(t, "p1", "card-1", `{}`, "")
	replied := make(chan *nats.Msg, 1)
	failed := make(chan error, 1)
	go func() {
		m, err := h.nc.Request("cg.v1.p1.public.cmd.tool.slow", []byte(cmdPayload("slow", nil)), 10*time.Second)
		if err != nil {
			failed <- err
			return
		}
		replied <- m
	}()
	h.slowRunning(t)
	if err := h.ex.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-h.rep.C:
		var p ReportPayload
		if err := json.Unmarshal(r.Payload, &p); err != nil || p.Status != "timeout" {
			t.Errorf("report %s (%v), want status timeout", r.Payload, err)
		}
	default:
		t.Fatal("Close returned before the call in flight was reported")
	}
	select {
	case m := <-replied:
		if !strings.Contains(string(m.Data), `"status":"timeout"`) {
			t.Errorf("the call in flight was answered %s, want status timeout", m.Data)
		}
	case err := <-failed:
		t.Errorf("the call in flight: %v, want an answer", err)
	}
	if _, err := h.nc.Request("cg.v1.p1.public.cmd.tool.slow", []byte(cmdPayload("slow", nil)), 200*time.Millisecond); err == nil {
		t.Error("a command after Close was answered")
	}
}
