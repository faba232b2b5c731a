package webhook

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// Feed hands the events a receiver handles to those waiting for them (the
// wait functions of WaitTool): a generated NewWebhookFeed publishes into
// it. An event is given to the waiters of its name at the time it is
// published; a waiter that does not keep up loses the oldest of the
// FeedBuffer events it holds. Safe for concurrent use.
type Feed struct {
	mu   sync.Mutex
	subs map[string]map[*waiter]struct{}
}

// FeedBuffer is how many events a waiter holds before the oldest is dropped.
const FeedBuffer = 64

type waiter struct{ ch chan json.RawMessage }

// NewFeed returns an empty feed.
func NewFeed() *Feed { return &Feed{subs: map[string]map[*waiter]struct{}{}} }

// Publish gives event v (JSON-encoded) to the waiters of name.
func (f *Feed) Publish(name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for w := range f.subs[name] {
		for {
			select {
			case w.ch <- b:
			default:
				select { // full: the oldest goes
				case <-w.ch:
				default:
				}
				continue
			}
			break
		}
	}
	return nil
}

// Subscribe returns the events of name published from now on, and the
// function that stops them.
func (f *Feed) Subscribe(name string) (<-chan json.RawMessage, func()) {
	w := &waiter{ch: make(chan json.RawMessage, FeedBuffer)}
	f.mu.Lock()
	if f.subs[name] == nil {
		f.subs[name] = map[*waiter]struct{}{}
	}
	f.subs[name][w] = struct{}{}
	f.mu.Unlock()
	return w.ch, func() {
		f.mu.Lock()
		delete(f.subs[name], w)
		f.mu.Unlock()
	}
}

// Waiting returns the number of waiters of name.
func (f *Feed) Waiting(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.subs[name])
}

// Event is an event a receiver handles, as WaitTool declares it: its name,
// description and the JSON schema of its value (generated: WebhookEvents).
type Event struct {
	Name        string
	Description string
	Schema      string // JSON
}

// The arguments of a wait function, and their bounds.
const (
	// MaxWait bounds timeout_seconds.
	MaxWait = 15 * time.Minute
	// DefaultWait is the timeout when a call gives none.
	DefaultWait = time.Minute
)

// WaitTool returns tool with one more function per event, wait_<name>,
// which waits for the events of that name the feed receives after the
// call: streamed as {"event": value} one by one (StreamCall), or returned
// together as {"events": [...]} (Call), until count of them (default 1,
// at most 100) or timeout_seconds (default 60, at most 900) or the caller
// goes. An agent calls it after an action whose outcome the API reports
// by webhook.
func WaitTool(tool runtime.Tool, feed *Feed, events []Event) runtime.StreamTool {
	w := &waitTool{base: tool, feed: feed, events: map[string]Event{}}
	for _, e := range events {
		w.events["wait_"+e.Name] = e
		w.order = append(w.order, "wait_"+e.Name)
	}
	return w
}

type waitTool struct {
	base   runtime.Tool
	feed   *Feed
	events map[string]Event
	order  []string
}

// Load returns the base tool's document with the wait functions added.
func (t *waitTool) Load(ctx context.Context) (*document.OpenTool, error) {
	doc, err := t.base.Load(ctx)
	if err != nil || doc == nil {
		return doc, err
	}
	cp := *doc
	cp.Functions = append([]document.Function(nil), doc.Functions...)
	one, most := 1.0, 100.0
	for _, name := range t.order {
		e := t.events[name]
		var s document.Schema
		if json.Unmarshal([]byte(e.Schema), &s) != nil {
			s = document.Schema{}
		}
		desc := "Waits for the event " + e.Name + " the API sends by webhook, received after the call."
		if e.Description != "" {
			desc += " " + e.Description
		}
		cp.Functions = append(cp.Functions, document.Function{
			Name: name, Description: desc,
			Parameters: []document.Parameter{
				{Name: "count", Description: "How many events to wait for (default 1).", Schema: &document.Schema{Type: document.TypeInteger, Minimum: &one, Maximum: &most}},
				{Name: "timeout_seconds", Description: "How long to wait at most (default 60, at most 900).", Schema: &document.Schema{Type: document.TypeInteger, Minimum: &one, Maximum: ptr(MaxWait.Seconds())}},
			},
			Return: &document.Return{Name: "events", Description: "The events received.", Schema: &document.Schema{Type: document.TypeArray, Items: &s}},
			Stream: map[string]*document.Return{"data": {Name: "event", Description: "One event.", Schema: &s}},
		})
	}
	return &cp, nil
}

func ptr(f float64) *float64 { return &f }

// Call collects the events of a wait function, else calls the base tool.
func (t *waitTool) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	if _, ok := t.events[name]; !ok {
		return t.base.Call(ctx, name, args)
	}
	events := []json.RawMessage{}
	err := t.wait(ctx, name, args, func(e json.RawMessage) error { events = append(events, e); return nil })
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{"events": events})
}

// StreamCall streams the events of a wait function, else streams the base
// tool's function (an error when it does not stream).
func (t *waitTool) StreamCall(ctx context.Context, name string, args json.RawMessage, emit func(json.RawMessage) error) error {
	if _, ok := t.events[name]; !ok {
		st, ok := t.base.(runtime.StreamTool)
		if !ok {
			return runtime.MethodNotFound(name)
		}
		return st.StreamCall(ctx, name, args, emit)
	}
	return t.wait(ctx, name, args, func(e json.RawMessage) error {
		b := append(append([]byte(`{"event":`), e...), '}')
		return emit(b)
	})
}

// wait subscribes to the event of the wait function name and hands each to
// give, as its arguments say.
func (t *waitTool) wait(ctx context.Context, name string, args json.RawMessage, give func(json.RawMessage) error) error {
	var a struct {
		Count          *float64 `json:"count"`
		TimeoutSeconds *float64 `json:"timeout_seconds"`
	}
	if len(strings.TrimSpace(string(args))) > 0 && string(args) != "null" {
		if err := json.Unmarshal(args, &a); err != nil {
			return runtime.InvalidParams(runtime.Violation{Path: "", Message: "want an object of count and timeout_seconds"})
		}
	}
	count, timeout := 1, DefaultWait
	if a.Count != nil {
		if *a.Count < 1 || *a.Count > 100 || *a.Count != float64(int(*a.Count)) {
			return runtime.InvalidParams(runtime.Violation{Path: "/count", Message: "want an integer from 1 to 100"})
		}
		count = int(*a.Count)
	}
	if a.TimeoutSeconds != nil {
		if *a.TimeoutSeconds < 1 || *a.TimeoutSeconds > MaxWait.Seconds() {
			return runtime.InvalidParams(runtime.Violation{Path: "/timeout_seconds", Message: "want from 1 to 900"})
		}
		timeout = time.Duration(*a.TimeoutSeconds * float64(time.Second))
	}
	ch, stop := t.feed.Subscribe(t.events[name].Name)
	defer stop()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for n := 0; n < count; n++ {
		select {
		case e := <-ch:
			if err := give(e); err != nil {
				return err
			}
		case <-timer.C:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
