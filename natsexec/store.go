package natsexec

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/nats-io/nats.go"
)

// Card types of the tool flow.
const (
	TypeToolCall   = "tool.call"
	TypeToolResult = "tool.result"
)

// Card is a card of the platform's card store (cardbox). Its JSON shape is
// our assumption (the seed names card_id-like pointers, content and metadata,
// nothing more): {"card_id", "project_id", "type", "author_id", "content",
// "metadata", "created_at"}. Content is a ToolCallContent for a tool.call
// card and a [ToolResultContent] for a tool.result card; Metadata keeps each
// value's JSON as it was, so that copying trace_id, parent_step_id and
// step_id from one card to another copies them byte for byte.
type Card struct {
	CardID    string                     `json:"card_id"`
	ProjectID string                     `json:"project_id"`
	Type      string                     `json:"type"`
	AuthorID  string                     `json:"author_id,omitempty"`
	Content   json.RawMessage            `json:"content"`
	Metadata  map[string]json.RawMessage `json:"metadata,omitempty"`
	CreatedAt string                     `json:"created_at,omitempty"`
}

// ToolCallContent is the content of a tool.call card. The executor reads
// Arguments only (a JSON object; absent or null means {}); the other members
// are our assumption of what the platform writes.
type ToolCallContent struct {
	ToolCallID string          `json:"tool_call_id,omitempty"`
	ToolName   string          `json:"tool_name,omitempty"`
	Arguments  json.RawMessage `json:"arguments"`
}

// ToolResultContent is the content of the tool.result card the executor
// saves. Result is the tool's result object (with its __cg_control, if any)
// or, on failure, {"error_code", "error_message"}; Error is set on failure
// only. AfterExecution is the effective after_execution: the command's, or
// the override the result's __cg_control.after_execution gives.
type ToolResultContent struct {
	ToolCallID     string          `json:"tool_call_id"`
	ToolName       string          `json:"tool_name"`
	Status         string          `json:"status"`
	AfterExecution string          `json:"after_execution,omitempty"`
	Result         json.RawMessage `json:"result"`
	Error          *ResultError    `json:"error,omitempty"`
}

// ResultError is the error object of a failed result (seed 001 §3.1):
// code, message and detail.
type ResultError struct {
	Code    string          `json:"code"`
	Message string          `json:"message"`
	Detail  json.RawMessage `json:"detail,omitempty"`
}

// CardStore is the part of the platform's card store the executor uses: it
// reads the tool.call card a command names and saves the tool.result card.
// Cards are scoped by project, as the seed's cardbox.get_cards(ids,
// project_id=…) is. Get returns an error wrapping [ErrCardNotFound] when the
// project has no card of that id.
type CardStore interface {
	Get(ctx context.Context, projectID, cardID string) (*Card, error)
	Save(ctx context.Context, card *Card) error
}

// ErrCardNotFound is the error of a CardStore's Get for a card it does not
// hold.
var ErrCardNotFound = errors.New("card not found")

// Report is what the executor hands the platform's L0 inbox after each
// command (the seed's publish_tool_result_report): the payload, a JSON
// object ([ReportPayload]), and the headers (traceparent, tracestate).
type Report struct {
	ProjectID string
	ChannelID string
	Payload   json.RawMessage
	Header    nats.Header
}

// ReportPayload is the report's payload (seed 001 §2 step 5). The fields the
// seed says are echoed (tool_call_id, agent_turn_id, agent_id, turn_epoch,
// after_execution) hold the command's JSON values exactly as received, and
// are absent when the command lacked them.
type ReportPayload struct {
	ToolCallID       json.RawMessage `json:"tool_call_id,omitempty"`
	AgentTurnID      json.RawMessage `json:"agent_turn_id,omitempty"`
	AgentID          json.RawMessage `json:"agent_id,omitempty"`
	TurnEpoch        json.RawMessage `json:"turn_epoch,omitempty"`
	AfterExecution   json.RawMessage `json:"after_execution,omitempty"`
	Status           string          `json:"status"`
	ToolResultCardID string          `json:"tool_result_card_id,omitempty"`
	StepID           json.RawMessage `json:"step_id,omitempty"`
}

// Reporter delivers reports to the platform's L0 inbox.
type Reporter interface {
	Report(ctx context.Context, r *Report) error
}

// MemoryCardStore is a CardStore in memory, safe for concurrent use.
type MemoryCardStore struct {
	mu    sync.Mutex
	cards map[[2]string][]byte // (project, id) → the card's JSON
}

// NewMemoryCardStore returns an empty MemoryCardStore.
func NewMemoryCardStore() *MemoryCardStore {
	return &MemoryCardStore{cards: map[[2]string][]byte{}}
}

// Get returns a copy of the card.
func (s *MemoryCardStore) Get(_ context.Context, projectID, cardID string) (*Card, error) {
	s.mu.Lock()
	data, ok := s.cards[[2]string{projectID, cardID}]
	s.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("project %q: card %q: %w", projectID, cardID, ErrCardNotFound)
	}
	var c Card
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// Save stores a copy of card under its project and id.
func (s *MemoryCardStore) Save(_ context.Context, card *Card) error {
	if card.CardID == "" {
		return errors.New("natsexec: a card without card_id")
	}
	data, err := json.Marshal(card)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.cards[[2]string{card.ProjectID, card.CardID}] = data
	s.mu.Unlock()
	return nil
}

// MemoryReporter is a Reporter that keeps the reports in memory, for tests;
// C, when not nil, also receives each report.
type MemoryReporter struct {
	mu      sync.Mutex
	reports []*Report
	C       chan *Report
}

// Report keeps a copy of r.
func (m *MemoryReporter) Report(_ context.Context, r *Report) error {
	c := &Report{ProjectID: r.ProjectID, ChannelID: r.ChannelID, Payload: slices.Clone(r.Payload), Header: nats.Header{}}
	for k, v := range r.Header {
		c.Header[k] = slices.Clone(v)
	}
	m.mu.Lock()
	m.reports = append(m.reports, c)
	m.mu.Unlock()
	if m.C != nil {
		m.C <- c
	}
	return nil
}

// Reports returns the reports received so far.
func (m *MemoryReporter) Reports() []*Report {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.reports)
}
