package natsexec

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// DefaultCardBucket is the JetStream key-value bucket of [KVCardStore]
// (our assumption: the platform's card store is its own, in PostgreSQL).
const DefaultCardBucket = "cardbox_cards"

// DefaultInboxSubject is the subject template of [NATSReporter] (our
// assumption: the platform's L0 inbox is a table, written through its own
// publish_tool_result_report): {project_id}, {channel_id} and {agent_id} are
// the report's, "_" when empty.
const DefaultInboxSubject = "l0.inbox.{project_id}.{agent_id}.tool_result"

// KVCardStore is a CardStore on a JetStream key-value bucket, for a
// self-contained deployment: a card is the JSON of [Card] under the key
// PROJECT.CARD_ID ("_" for an empty project). Ids must be valid key tokens
// (letters, digits, - _ = /).
type KVCardStore struct {
	kv jetstream.KeyValue
}

// NewKVCardStore opens the bucket of js, creating it when it does not exist
// (bucket "" is DefaultCardBucket).
func NewKVCardStore(ctx context.Context, js jetstream.JetStream, bucket string) (*KVCardStore, error) {
	if bucket == "" {
		bucket = DefaultCardBucket
	}
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: bucket, Description: "cards of the tool flow (natsexec)"})
	if err != nil {
		return nil, fmt.Errorf("natsexec: key-value bucket %q: %w", bucket, err)
	}
	return &KVCardStore{kv: kv}, nil
}

func cardKey(projectID, cardID string) (string, error) {
	if projectID == "" {
		projectID = "_"
	}
	for _, id := range []string{projectID, cardID} {
		if !validKeyToken(id) {
			return "", fmt.Errorf("natsexec: id %q cannot be a key token of the card bucket (letters, digits, - _ = / only)", id)
		}
	}
	return projectID + "." + cardID, nil
}

func validKeyToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_=/", c) >= 0) {
			return false
		}
	}
	return true
}

// Get reads a card.
func (s *KVCardStore) Get(ctx context.Context, projectID, cardID string) (*Card, error) {
	key, err := cardKey(projectID, cardID)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", err, ErrCardNotFound)
	}
	e, err := s.kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, fmt.Errorf("project %q: card %q: %w", projectID, cardID, ErrCardNotFound)
	}
	if err != nil {
		return nil, err
	}
	var c Card
	if err := json.Unmarshal(e.Value(), &c); err != nil {
		return nil, fmt.Errorf("card %q: %w", key, err)
	}
	return &c, nil
}

// Save writes a card.
func (s *KVCardStore) Save(ctx context.Context, card *Card) error {
	key, err := cardKey(card.ProjectID, card.CardID)
	if err != nil {
		return err
	}
	data, err := json.Marshal(card)
	if err != nil {
		return err
	}
	_, err = s.kv.Put(ctx, key, data)
	return err
}

// NATSReporter publishes each report's payload, with its headers, to an inbox
// subject. With JetStream set, it publishes through JetStream and waits for
// the stream's acknowledgement (a stream must capture the subject); without,
// it publishes on core NATS and flushes.
type NATSReporter struct {
	Conn      *nats.Conn
	JetStream jetstream.JetStream // optional
	// Subject is the inbox subject template (default DefaultInboxSubject).
	Subject string
}

// Report publishes r.
func (n *NATSReporter) Report(ctx context.Context, r *Report) error {
	tmpl := n.Subject
	if tmpl == "" {
		tmpl = DefaultInboxSubject
	}
	var p struct {
		AgentID string `json:"agent_id"`
	}
	json.Unmarshal(r.Payload, &p)
	subject := strings.NewReplacer("{project_id}", token(r.ProjectID), "{channel_id}", token(r.ChannelID), "{agent_id}", token(p.AgentID)).Replace(tmpl)
	msg := &nats.Msg{Subject: subject, Data: r.Payload, Header: r.Header}
	if n.JetStream != nil {
		_, err := n.JetStream.PublishMsg(ctx, msg)
		return err
	}
	if err := n.Conn.PublishMsg(msg); err != nil {
		return err
	}
	if _, ok := ctx.Deadline(); !ok {
		return n.Conn.Flush()
	}
	return n.Conn.FlushWithContext(ctx)
}

// token is s as one subject token: "_" when empty or not a valid token.
func token(s string) string {
	if !validToken(s) {
		return "_"
	}
	return s
}
