package natsexec

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// Options configures an [Executor]. The zero value serves every function of
// the tool's document on cmd.tool.FUNCTION in queue group "opentool".
type Options struct {
	// Subject is the template of each function's target_subject (default
	// [DefaultSubject], "cmd.tool.{function}"): {function} is the function's
	// name; {project_id} and {channel_id} are ProjectID and ChannelID, or a
	// wildcard when those are empty, whose tokens in a command's subject are
	// then the command's project and channel.
	Subject string
	// ProjectID and ChannelID expand {project_id} and {channel_id} (empty:
	// any, read back from each command's subject).
	ProjectID, ChannelID string
	// Queue is the queue group of the subscriptions (default "opentool"), so
	// that replicas share the commands.
	Queue string
	// Functions are the functions served (default: every function of the
	// tool's document). The tool_name of a command is the function's name.
	Functions []string
	// AuthorID is the author_id of the tool.result cards (default
	// "tool.opentool").
	AuthorID string
	// Timeout bounds each call of the tool (0: no bound but the executor's
	// life); a call that exceeds it is reported with status "timeout".
	Timeout time.Duration
	// MaxConcurrent is how many commands run at once (default 64); further
	// commands wait in the subscription's buffer.
	MaxConcurrent int
	// Interceptors run around each call of the tool, the first outermost,
	// with intercept.Call.Front [Front] and the command's headers as metadata
	// (otelbridge.Interceptor makes a span of each, child of the command's
	// traceparent, and the report then carries that span's traceparent).
	Interceptors []intercept.Func
	// MaxStreamItems and MaxStreamBytes bound the items of a streaming
	// function collected into its result (defaults [DefaultMaxStreamItems]
	// and [DefaultMaxStreamBytes]): the stream is ended at the bound, and
	// the result says "truncated": true.
	MaxStreamItems, MaxStreamBytes int
	// Logger receives what cannot be reported (a card that cannot be saved, a
	// report that cannot be delivered); default slog.Default().
	Logger *slog.Logger
}

// Executor serves a runtime.Tool as the tool executor of seed 001: see the
// package doc.
type Executor struct {
	nc       *nats.Conn
	tool     runtime.Tool
	streams  map[string]bool // the functions that stream, when tool is a StreamTool
	cards    CardStore
	reporter Reporter
	opts     Options
	tmpl     *subjectTemplate
	subs     []*nats.Subscription
	sem      chan struct{}
	wg       sync.WaitGroup
	ctx      context.Context
	cancel   context.CancelFunc
	closeMu  sync.Mutex
	closed   bool
}

// New subscribes to each function's target_subject on nc, in opts.Queue, and
// serves the commands it receives until Close: each reads its arguments from
// cards, calls tool, saves the tool.result card to cards and reports to
// reporter.
func New(nc *nats.Conn, tool runtime.Tool, cards CardStore, reporter Reporter, opts Options) (*Executor, error) {
	if nc == nil || tool == nil || cards == nil || reporter == nil {
		return nil, errors.New("natsexec: New needs a connection, a tool, a card store and a reporter")
	}
	if opts.Subject == "" {
		opts.Subject = DefaultSubject
	}
	if opts.Queue == "" {
		opts.Queue = "opentool"
	}
	if opts.AuthorID == "" {
		opts.AuthorID = "tool.opentool"
	}
	if opts.MaxConcurrent <= 0 {
		opts.MaxConcurrent = 64
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.MaxStreamItems <= 0 {
		opts.MaxStreamItems = DefaultMaxStreamItems
	}
	if opts.MaxStreamBytes <= 0 {
		opts.MaxStreamBytes = DefaultMaxStreamBytes
	}
	tmpl, err := parseSubject(opts.Subject)
	if err != nil {
		return nil, fmt.Errorf("natsexec: Options.Subject: %w", err)
	}
	for name, v := range map[string]string{"ProjectID": opts.ProjectID, "ChannelID": opts.ChannelID, "Queue": opts.Queue} {
		if v != "" && !validToken(v) {
			return nil, fmt.Errorf("natsexec: Options.%s: got %q, want one subject token (no dots, wildcards or white space)", name, v)
		}
	}
	fns := opts.Functions
	doc, err := tool.Load(context.Background())
	if fns == nil {
		if err != nil {
			return nil, fmt.Errorf("natsexec: loading the tool's document: %w", err)
		}
		if doc == nil {
			return nil, errors.New("natsexec: the tool has no document: name its functions in Options.Functions")
		}
		for _, f := range doc.Functions {
			fns = append(fns, f.Name)
		}
	}
	streams := map[string]bool{}
	if _, ok := tool.(runtime.StreamTool); ok && err == nil && doc != nil {
		for _, f := range doc.Functions {
			if f.IsStream() {
				streams[f.Name] = true
			}
		}
	}
	if len(fns) == 0 {
		return nil, errors.New("natsexec: no function to serve")
	}
	subjects := map[string]string{}
	for _, f := range fns {
		if !validToken(f) {
			return nil, fmt.Errorf("natsexec: function %q cannot be a subject token", f)
		}
		s := tmpl.expand(f, opts.ProjectID, opts.ChannelID)
		if prev, ok := subjects[s]; ok {
			return nil, fmt.Errorf("natsexec: functions %q and %q share subject %s: put {function} in Options.Subject", prev, f, s)
		}
		subjects[s] = f
	}
	e := &Executor{nc: nc, streams: streams, tool: tool, cards: cards, reporter: reporter, opts: opts, tmpl: tmpl, sem: make(chan struct{}, opts.MaxConcurrent)}
	e.ctx, e.cancel = context.WithCancel(context.Background())
	for _, f := range fns {
		function := f
		sub, err := nc.QueueSubscribe(tmpl.expand(f, opts.ProjectID, opts.ChannelID), opts.Queue, func(m *nats.Msg) {
			e.sem <- struct{}{}
			e.wg.Add(1)
			go func() {
				defer func() { <-e.sem; e.wg.Done() }()
				e.serve(function, m)
			}()
		})
		if err != nil {
			e.unsubscribe()
			e.cancel()
			return nil, fmt.Errorf("natsexec: subscribing for %s: %w", f, err)
		}
		e.subs = append(e.subs, sub)
	}
	return e, nil
}

// Subjects returns the subjects the executor subscribed to.
func (e *Executor) Subjects() []string {
	var out []string
	for _, s := range e.subs {
		out = append(out, s.Subject)
	}
	return out
}

func (e *Executor) unsubscribe() {
	for _, s := range e.subs {
		s.Unsubscribe()
	}
}

// Close stops taking commands (the subscriptions drain: commands already
// delivered are served, new ones go to other members of the queue group) and
// returns once those commands are reported, or when ctx ends: then the calls
// still running are cancelled and reported with status "canceled". When
// the connection is not connected (the server went away), Close waits only
// for the commands already taken: with none, it returns nil at once.
func (e *Executor) Close(ctx context.Context) error {
	e.closeMu.Lock()
	if e.closed {
		e.closeMu.Unlock()
		return nil
	}
	e.closed = true
	e.closeMu.Unlock()
	connected := e.nc.IsConnected()
	for _, s := range e.subs {
		s.Drain()
	}
	// Drain returns at once; wait until the subscriptions have handed over
	// every message they held, then until those commands are served. When
	// the server went away (the connection reconnecting or closed), no
	// command comes any more and no drain completes before a reconnection:
	// wait only for the commands taken.
	for _, s := range e.subs {
		if !connected {
			break
		}
		for s.IsValid() {
			select {
			case <-ctx.Done():
				e.cancel()
				e.wg.Wait()
				return ctx.Err()
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	done := make(chan struct{})
	go func() { e.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		e.cancel()
		<-done
		return ctx.Err()
	}
	e.cancel()
	return nil
}

// command is what serve learned of one command.
type command struct {
	function         string
	project, channel string
	fields           map[string]json.RawMessage
	toolCallID       string
	afterExecution   string // valid only when the payload is
	toolCallCardID   string
}

// failure is a failed result: status, error code, message and detail.
type failure struct {
	status  string // failed, timeout, canceled
	code    string
	message string
	detail  json.RawMessage
}

func fail(code, message string, detail any) *failure {
	f := &failure{status: "failed", code: code, message: message}
	if detail != nil {
		f.detail, _ = json.Marshal(detail)
	}
	return f
}

// serve handles one command message.
func (e *Executor) serve(function string, m *nats.Msg) {
	ctx := e.ctx
	parent, ok := parseTraceparent(m.Header.Get("traceparent"))
	span := newRoot()
	if ok {
		span = parent.child()
	}
	cmd := &command{function: function}
	cmd.project, cmd.channel = e.tmpl.ids(m.Subject)
	if cmd.project == "" {
		cmd.project = e.opts.ProjectID
	}
	if cmd.channel == "" {
		cmd.channel = e.opts.ChannelID
	}

	var card *Card
	var spanCtx intercept.MapMetadata // the trace context of the call's span, when interceptors made one
	result, f := func() (json.RawMessage, *failure) {
		if f := cmd.parse(m.Data); f != nil {
			// The lineage of the card the command names, when it names one,
			// still goes to the failed result.
			if cmd.toolCallCardID != "" {
				if c, err := e.cards.Get(ctx, cmd.project, cmd.toolCallCardID); err == nil && c.Type == TypeToolCall {
					card = c
				}
			}
			return nil, f
		}
		var args json.RawMessage
		var f *failure
		card, args, f = e.toolCall(ctx, cmd)
		if f != nil {
			return nil, f
		}
		var res json.RawMessage
		res, spanCtx, f = e.call(ctx, cmd, card, args, m.Header, m.Subject)
		return res, f
	}()

	content := ToolResultContent{ToolCallID: cmd.toolCallID, ToolName: function, Result: result}
	if f != nil {
		content.Status = f.status
		content.Result, _ = json.Marshal(map[string]string{"error_code": f.code, "error_message": f.message})
		content.Error = &ResultError{Code: f.code, Message: f.message, Detail: f.detail}
	} else {
		content.Status = "success"
	}
	content.AfterExecution = cmd.afterExecution
	if f == nil {
		if o := afterExecutionOverride(result); o != "" {
			content.AfterExecution = o
		}
	}
	resultCard := &Card{CardID: newID(), ProjectID: cmd.project, Type: TypeToolResult, AuthorID: e.opts.AuthorID, CreatedAt: time.Now().UTC().Format(time.RFC3339Nano)}
	resultCard.Content, _ = json.Marshal(content)
	if card != nil {
		for _, k := range []string{"trace_id", "parent_step_id", "step_id"} {
			if v, ok := card.Metadata[k]; ok {
				if resultCard.Metadata == nil {
					resultCard.Metadata = map[string]json.RawMessage{}
				}
				resultCard.Metadata[k] = v
			}
		}
	}
	// The report and the card are written even when the executor is closing:
	// a command taken is answered.
	wctx := context.WithoutCancel(ctx)
	if err := e.cards.Save(wctx, resultCard); err != nil {
		e.opts.Logger.Error("natsexec: the tool.result card cannot be saved; the command is not reported", "subject", m.Subject, "tool_call_id", cmd.toolCallID, "error", err)
		e.reply(m, cmd, content.Status, "", err)
		return
	}
	payload := ReportPayload{
		ToolCallID: cmd.fields["tool_call_id"], AgentTurnID: cmd.fields["agent_turn_id"], AgentID: cmd.fields["agent_id"],
		TurnEpoch: cmd.fields["turn_epoch"], AfterExecution: cmd.fields["after_execution"],
		Status: content.Status, ToolResultCardID: resultCard.CardID, StepID: resultCard.Metadata["step_id"],
	}
	rep := &Report{ProjectID: cmd.project, ChannelID: cmd.channel, Header: nats.Header{}}
	rep.Payload, _ = json.Marshal(payload)
	if tp := spanCtx["traceparent"]; tp != "" {
		// The span of the call (otelbridge's, child of the command's
		// traceparent) is the report's parent.
		rep.Header.Set("traceparent", tp)
		if ts := spanCtx["tracestate"]; ts != "" {
			rep.Header.Set("tracestate", ts)
		}
	} else {
		rep.Header.Set("traceparent", span.String())
		if ts := m.Header.Get("tracestate"); ok && ts != "" {
			rep.Header.Set("tracestate", ts)
		}
	}
	if err := e.reporter.Report(wctx, rep); err != nil {
		e.opts.Logger.Error("natsexec: the report cannot be delivered", "subject", m.Subject, "tool_call_id", cmd.toolCallID, "tool_result_card_id", resultCard.CardID, "error", err)
		e.reply(m, cmd, content.Status, resultCard.CardID, err)
		return
	}
	e.reply(m, cmd, content.Status, resultCard.CardID, nil)
}

// reply answers a command sent as a request with what the seed's handler
// returns: tool_call_id, agent_turn_id, turn_epoch, after_execution (as
// received), status, and tool_result_card_id; error when the card or the
// report could not be written.
func (e *Executor) reply(m *nats.Msg, cmd *command, status, cardID string, err error) {
	if m.Reply == "" {
		return
	}
	r := map[string]any{"status": status}
	for _, k := range []string{"tool_call_id", "agent_turn_id", "turn_epoch", "after_execution"} {
		if v, ok := cmd.fields[k]; ok {
			r[k] = v
		}
	}
	if cardID != "" {
		r["tool_result_card_id"] = cardID
	}
	if err != nil {
		r["error"] = err.Error()
	}
	data, _ := json.Marshal(r)
	m.Respond(data)
}

// parse reads and checks the command's payload (a ToolCommandPayload).
func (cmd *command) parse(data []byte) *failure {
	if err := json.Unmarshal(data, &cmd.fields); err != nil || cmd.fields == nil {
		msg := "the command's payload is not a JSON object"
		if err != nil {
			msg += ": " + err.Error()
		}
		cmd.fields = nil
		return fail("protocol_violation", msg, map[string]any{"field": "payload"})
	}
	// The echoed values are kept only when they are valid JSON values, which
	// Unmarshal guarantees; problems are collected, all of them reported.
	type problem struct {
		Field   string `json:"field"`
		Problem string `json:"problem"`
	}
	var problems []problem
	for _, k := range []string{"args", "arguments"} {
		if _, ok := cmd.fields[k]; ok {
			problems = append(problems, problem{k, "refused: arguments come from the tool.call card tool_call_card_id names, never from the command"})
		}
	}
	str := func(k string) string {
		v, ok := cmd.fields[k]
		if !ok || isNull(v) {
			problems = append(problems, problem{k, "missing"})
			return ""
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			problems = append(problems, problem{k, "got " + kind(v) + ", want a string"})
			return ""
		}
		if strings.TrimSpace(s) == "" {
			problems = append(problems, problem{k, "empty"})
		}
		return s
	}
	cmd.toolCallID = str("tool_call_id")
	str("agent_turn_id")
	if v, ok := cmd.fields["turn_epoch"]; !ok || isNull(v) {
		problems = append(problems, problem{"turn_epoch", "missing"})
	} else if !isNonNegativeInteger(v) {
		problems = append(problems, problem{"turn_epoch", "got " + string(clip(v)) + ", want a non-negative integer"})
	}
	str("agent_id")
	cmd.toolCallCardID = str("tool_call_card_id")
	if name := str("tool_name"); name != "" && name != cmd.function {
		problems = append(problems, problem{"tool_name", fmt.Sprintf("got %q, want %q (the function this subject serves)", name, cmd.function)})
	}
	if v, ok := cmd.fields["after_execution"]; ok && !isNull(v) {
		var s string
		if json.Unmarshal(v, &s) != nil || s != "suspend" && s != "terminate" {
			problems = append(problems, problem{"after_execution", "got " + string(clip(v)) + `, want "suspend" or "terminate"`})
		} else {
			cmd.afterExecution = s
		}
	} else {
		problems = append(problems, problem{"after_execution", "missing"})
	}
	if v, ok := cmd.fields["context_box_id"]; ok && !isNull(v) {
		var s string
		if json.Unmarshal(v, &s) != nil {
			problems = append(problems, problem{"context_box_id", "got " + kind(v) + ", want a string"})
		}
	}
	if len(problems) == 0 {
		return nil
	}
	parts := make([]string, len(problems))
	for i, p := range problems {
		parts[i] = p.Field + ": " + p.Problem
	}
	return fail("protocol_violation", "invalid tool command: "+strings.Join(parts, "; "), map[string]any{"fields": problems})
}

// toolCall reads the tool.call card and its arguments.
func (e *Executor) toolCall(ctx context.Context, cmd *command) (*Card, json.RawMessage, *failure) {
	card, err := e.cards.Get(ctx, cmd.project, cmd.toolCallCardID)
	if errors.Is(err, ErrCardNotFound) {
		return nil, nil, fail("card_not_found", fmt.Sprintf("tool_call_card_id: no card %q in project %q", cmd.toolCallCardID, cmd.project), map[string]any{"field": "tool_call_card_id"})
	}
	if err != nil {
		return nil, nil, fail("card_store_unavailable", "tool_call_card_id: reading the tool.call card: "+err.Error(), map[string]any{"field": "tool_call_card_id"})
	}
	if card.Type != TypeToolCall {
		return nil, nil, fail("protocol_violation", fmt.Sprintf("tool_call_card_id: card %q is of type %q, want %q", cmd.toolCallCardID, card.Type, TypeToolCall), map[string]any{"field": "tool_call_card_id"})
	}
	var content ToolCallContent
	if !isObject(card.Content) || json.Unmarshal(card.Content, &content) != nil {
		return card, nil, fail("protocol_violation", fmt.Sprintf("tool.call card %q: content is not a ToolCallContent object", cmd.toolCallCardID), map[string]any{"field": "content"})
	}
	args := content.Arguments
	if len(args) == 0 || isNull(args) {
		args = json.RawMessage("{}")
	} else if !isObject(args) {
		return card, nil, fail("invalid_arguments", fmt.Sprintf("tool.call card %q: content.arguments: got %s, want an object", cmd.toolCallCardID, kind(args)), map[string]any{"field": "content.arguments"})
	}
	return card, args, nil
}

// Error codes of failed results (result.error_code and error.code).
const (
	CodeProtocolViolation    = "protocol_violation"     // the command is invalid: fields missing or malformed, args in the payload, tool_name of another function, a card that is not tool.call
	CodeCardNotFound         = "card_not_found"         // no card of tool_call_card_id in the project
	CodeCardStoreUnavailable = "card_store_unavailable" // the card store failed
	CodeInvalidArguments     = "invalid_arguments"      // -32602: the arguments do not match the function
	CodeToolNotFound         = "tool_not_found"         // -32601
	CodeInvalidRequest       = "invalid_request"        // -32700, -32600
	CodeInternalError        = "internal_error"         // -32603: the tool panicked or returned an invalid result
	CodeUnauthorized         = "unauthorized"           // 401
	CodeForbidden            = "forbidden"              // 403
	CodeNotFound             = "not_found"              // 404 of the tool (a server not reachable: upstream_unavailable)
	CodeRateLimited          = "rate_limited"           // 429
	CodeUpstreamUnavailable  = "upstream_unavailable"   // 502, 503, and a client's "no access"
	CodeTimeout              = "timeout"                // 408, 504, and Options.Timeout reached (status "timeout")
	CodeCanceled             = "canceled"               // the executor stopped before the call ended (status "canceled")
	CodeToolError            = "tool_error"             // any other error of the tool (500 and its own codes)
)

// ErrorCode maps an error of a runtime.Tool to the error code of a failed
// result; see the constants.
func ErrorCode(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return CodeTimeout
	case errors.Is(err, context.Canceled):
		return CodeCanceled
	}
	var re *runtime.Error
	if !errors.As(err, &re) || re == nil {
		return CodeToolError
	}
	if re.Class == runtime.ClassNoAccess {
		return CodeUpstreamUnavailable
	}
	switch re.Code {
	case runtime.CodeInvalidParams:
		return CodeInvalidArguments
	case runtime.CodeMethodNotFound:
		return CodeToolNotFound
	case runtime.CodeParseError, runtime.CodeInvalidRequest:
		return CodeInvalidRequest
	case runtime.CodeInternalError:
		return CodeInternalError
	case 401:
		return CodeUnauthorized
	case 403:
		return CodeForbidden
	case 404:
		return CodeNotFound
	case 429:
		return CodeRateLimited
	case 502, 503:
		return CodeUpstreamUnavailable
	case 408, 504:
		return CodeTimeout
	}
	return CodeToolError
}

// failureOf is the failed result of a tool's error: error.detail is the
// OpenTool error object ({"code", "message", "data"}) a /call answer has.
func failureOf(err error) *failure {
	code := ErrorCode(err)
	status := "failed"
	switch code {
	case CodeTimeout:
		if errors.Is(err, context.DeadlineExceeded) {
			status = "timeout"
		}
	case CodeCanceled:
		status = "canceled"
	}
	var re *runtime.Error
	if errors.As(err, &re) && re != nil {
		wire := &runtime.Error{Code: re.Code, Message: re.Message, Data: re.Data}
		if wire.Code == 0 {
			wire.Code = runtime.CodeToolError
		}
		f := fail(code, re.Message, wire)
		f.status = status
		return f
	}
	f := fail(code, err.Error(), nil)
	if status == "failed" {
		f.detail, _ = json.Marshal(&runtime.Error{Code: runtime.CodeToolError, Message: err.Error()})
	}
	f.status = status
	return f
}

// afterExecutionOverride returns result.__cg_control.after_execution when it
// is suspend or terminate, else "".
func afterExecutionOverride(result json.RawMessage) string {
	var r struct {
		Control *struct {
			AfterExecution string `json:"after_execution"`
		} `json:"__cg_control"`
	}
	if json.Unmarshal(result, &r) != nil || r.Control == nil {
		return ""
	}
	switch r.Control.AfterExecution {
	case "suspend", "terminate":
		return r.Control.AfterExecution
	}
	return ""
}

// newID returns a random UUID (version 4), the id of a tool.result card.
func newID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

func isObject(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) > 0 && v[0] == '{'
}

// kind names the JSON type of v, for messages.
func kind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func isNonNegativeInteger(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return false
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(v) == 1 || v[0] != '0'
}

// clip returns v, shortened to 64 bytes for a message.
func clip(v json.RawMessage) []byte {
	if len(v) > 64 {
		return append(v[:61:61], "..."...)
	}
	return v
}
