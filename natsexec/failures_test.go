package natsexec

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// failingStore fails Save (and Get, when getErr is set).
type failingStore struct {
	*MemoryCardStore
	getErr error
}

func (s failingStore) Save(context.Context, *Card) error { return errors.New("disk full") }

func (s failingStore) Get(ctx context.Context, p, id string) (*Card, error) {
	if s.getErr != nil {
		return nil, s.getErr
	}
	return s.MemoryCardStore.Get(ctx, p, id)
}

type failingReporter struct{}

func (failingReporter) Report(context.Context, *Report) error { return errors.New("inbox closed") }

// TestStoreAndInboxFailures: a card that cannot be saved is not reported (a
// report must point at a card) and a report that cannot be delivered is
// said in the reply; a card store that fails on Get is a failed result.
func TestStoreAndInboxFailures(t *testing.T) {
	nc := startServer(t)
	mem := NewMemoryCardStore()
	rep := &MemoryReporter{C: make(chan *Report, 10)}
	ex, err := New(nc, newTestTool(t), failingStore{MemoryCardStore: mem}, rep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close(context.Background())
	m, err := nc.Request("cmd.tool.search", []byte(cmdPayload("search", nil)), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var reply map[string]any
	if err := json.Unmarshal(m.Data, &reply); err != nil {
		t.Fatalf("reply %s: %v", m.Data, err)
	}
	if msg, _ := reply["error"].(string); !strings.Contains(msg, "disk full") || reply["tool_result_card_id"] != nil {
		t.Errorf("reply %s", m.Data)
	}
	// Closed, the executor has reported every command it took: a report
	// would be in the channel now.
	if err := ex.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-rep.C:
		t.Errorf("reported without a saved card: %s", r.Payload)
	default:
	}

	ex, err = New(nc, newTestTool(t), mem, failingReporter{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err = nc.Request("cmd.tool.search", []byte(cmdPayload("search", nil)), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	reply = nil
	if err := json.Unmarshal(m.Data, &reply); err != nil {
		t.Fatalf("reply %s: %v", m.Data, err)
	}
	if msg, _ := reply["error"].(string); !strings.Contains(msg, "inbox closed") || reply["tool_result_card_id"] == nil {
		t.Errorf("reply %s", m.Data)
	}
	if err := ex.Close(context.Background()); err != nil {
		t.Error(err)
	}

	ex, err = New(nc, newTestTool(t), failingStore{MemoryCardStore: mem, getErr: errors.New("connection refused")}, rep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close(context.Background())
	// Save fails too: the failure is only in the reply.
	m, _ = nc.Request("cmd.tool.search", []byte(cmdPayload("search", nil)), 10*time.Second)
	if !strings.Contains(string(m.Data), `"status":"failed"`) {
		t.Errorf("reply %s", m.Data)
	}
}

// TestCloseDeadline: when Close's context ends first, the calls running are
// cancelled and reported with status "canceled".
func TestCloseDeadline(t *testing.T) {
	h := newHarness(t, nil, nil, Options{})
	h.putCall(t, "p1", "card-1", `{}`, "")
	if err := h.nc.Publish("cg.v1.p1.public.cmd.tool.slow", []byte(cmdPayload("slow", nil))); err != nil {
		t.Fatal(err)
	}
	h.slowRunning(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := h.ex.Close(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Close: %v", err)
	}
	select {
	case r := <-h.rep.C:
		_, content, p := h.resultCard(t, r)
		checkFailure(t, content, "canceled", CodeCanceled, "canceled")
		if p.Status != "canceled" {
			t.Errorf("report %s", r.Payload)
		}
	default:
		t.Fatal("Close returned before the cancelled call was reported")
	}
}

// TestCloseServerGone: an executor whose server went away (its connection
// reconnecting) closes at once when no command is in flight.
func TestCloseServerGone(t *testing.T) {
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("the embedded NATS server did not start")
	}
	defer s.Shutdown()
	disconnected := make(chan struct{}, 1)
	nc, err := nats.Connect(s.ClientURL(), nats.MaxReconnects(-1), nats.DisconnectErrHandler(func(*nats.Conn, error) {
		disconnected <- struct{}{}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ex, err := New(nc, newTestTool(t), NewMemoryCardStore(), &MemoryReporter{C: make(chan *Report, 1)}, Options{Subject: fullSubject})
	if err != nil {
		t.Fatal(err)
	}
	s.Shutdown()
	<-disconnected
	// Generous: it takes a millisecond now; it took about 10s before, while
	// the subscriptions' drain waited for the server.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ex.Close(ctx); err != nil || ctx.Err() != nil {
		t.Errorf("Close with the server gone and nothing in flight: %v (context: %v), want nil before the deadline", err, ctx.Err())
	}
}
