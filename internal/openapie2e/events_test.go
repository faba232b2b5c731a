package openapie2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/rest"
	events "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-events"
)

// eventsAPI is the API of testdata/golden/openapi-events over real HTTP:
// each stream mixes the document's event shapes, flushed one at a time.
func eventsAPI(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		send := func(chunks ...string) {
			for _, c := range chunks {
				fmt.Fprint(w, c)
				w.(http.Flusher).Flush()
			}
		}
		switch r.URL.Path {
		case "/threads/t1/runs", "/threads/odd/runs":
			w.Header().Set("Content-Type", "text/event-stream")
			send("event: thread.created\ndata: {\"id\":\"t1\"}\n\n",
				"event: thread.run.created\nid: e1\ndata: {\"id\":\"r1\",\n", "data: \"status\":\"queued\"}\n\n",
				": keep-alive\n\n",
				"event: thread.message.delta\ndata: {\"text\":\"Hel\"}\n\n",
				"event: thread.message.delta\ndata: {\"text\":\"lo\"}\n\n")
			if r.URL.Path == "/threads/odd/runs" {
				send("event: thread.deleted\ndata: {\"id\":\"t1\"}\n\n")
			}
			send("event: thread.run.completed\ndata: {\"id\":\"r1\",\"status\":\"completed\"}\n\n",
				"event: error\ndata: {\"message\":\"a late warning\"}\n\n",
				"event: done\ndata: [DONE]\n\n",
				"event: thread.created\ndata: {\"id\":\"after done\"}\n\n")
		case "/threads/none/runs":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(404)
			fmt.Fprint(w, `{"message":"no such thread"}`)
		case "/responses":
			w.Header().Set("Content-Type", "text/event-stream")
			send("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"Hi\"}\n\n",
				"data: {\"type\":\"response.output_text.delta\",\"delta\":\" there\"}\n\n",
				"data: {\"type\":\"response.completed\",\"usage\":{\"tokens\":3}}\n\n")
		case "/feed":
			w.Header().Set("Content-Type", "text/event-stream")
			send("event: addString\nid: 1\ndata: This data is formatted\ndata: across two lines\nretry: 5\n\n",
				"event: addJson\nid: 2\ndata: {\"foo\": 42}\n\n",
				"event: addCount\ndata: 7\n\n",
				"unknownField: ignored\nevent: addJson\ndata: {\"foo\": \"x\"}\n\n")
		case "/log":
			w.Header().Set("Content-Type", "text/event-stream")
			send("data: plain\n\n", "event: warn\nid: w1\nretry: 2500\ndata: {\"not\":\"parsed\"}\n\n")
		case "/jobs/j1":
			w.Header().Set("Content-Type", "application/jsonl")
			send(`{"percent":10}`+"\n", `{"percent":90}`+"\n", `{"output":"done"}`+"\n")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestEventUnions iterates streams that mix event shapes: events named
// after their shapes (OpenAI's assistants), a union told apart by a member
// of the data, OpenAPI 3.2 item schemas (an event's data as text, as JSON
// by its contentSchema, as an integer), the generic event, and JSON lines of
// two shapes.
func TestEventUnions(t *testing.T) {
	ctx := t.Context()
	c := must(events.NewClient(eventsAPI(t).URL))

	// Events named after their shapes: each decodes as the variant its name
	// picks, its data typed; [DONE] ends the stream.
	var got []string
	for ev, err := range c.CreateRunSeq(ctx, events.CreateRunArgs{Thread: "t1"}) {
		if err != nil {
			t.Fatalf("after %q: %v", got, err)
		}
		switch {
		case ev.ThreadStreamEvent != nil:
			got = append(got, "thread "+ev.ThreadStreamEvent.Data.ID)
		case ev.RunStreamEvent != nil && ev.RunStreamEvent.RunStreamEventVariant1 != nil:
			v := ev.RunStreamEvent.RunStreamEventVariant1
			got = append(got, string(v.Event)+" "+v.Data.ID+" "+string(v.Data.Status))
		case ev.RunStreamEvent != nil && ev.RunStreamEvent.RunStreamEventVariant2 != nil:
			v := ev.RunStreamEvent.RunStreamEventVariant2
			got = append(got, string(v.Event)+" "+string(v.Data.Status))
		case ev.MessageDeltaEvent != nil:
			got = append(got, "delta "+ev.MessageDeltaEvent.Data.Text)
		case ev.ErrorEvent != nil:
			got = append(got, "error "+ev.ErrorEvent.Data.Message)
		default:
			t.Errorf("an event of no variant: %+v", ev)
		}
	}
	want := "thread t1|thread.run.created r1 queued|delta Hel|delta lo|thread.run.completed completed|error a late warning"
	if strings.Join(got, "|") != want {
		t.Errorf("run events:\n got %s\nwant %s", strings.Join(got, "|"), want)
	}

	// An event whose name the document does not know ends the stream with
	// an error naming it.
	n := 0
	var last error
	for _, err := range c.CreateRunSeq(ctx, events.CreateRunArgs{Thread: "odd"}) {
		if err != nil {
			last = err
			break
		}
		n++
	}
	var oe *runtime.Error
	if n != 4 || !errors.As(last, &oe) || oe.Code != http.StatusBadGateway ||
		!strings.Contains(oe.Message, "event 5 does not match the document") || !strings.Contains(oe.Message, `"event" names no variant`) {
		t.Errorf("an unknown event after %d events: %v", n, last)
	}
	// A documented error status.
	for _, err := range c.CreateRunSeq(ctx, events.CreateRunArgs{Thread: "none"}) {
		var ae *rest.APIError[events.Error]
		if !errors.As(err, &ae) || ae.StatusCode != 404 || ae.Body.Message != "no such thread" {
			t.Errorf("no thread: %v", err)
		}
	}

	// A union told apart by a member of each event's data.
	got = nil
	for ev, err := range c.RespondSeq(ctx, events.RespondArgs{Input: "hi"}) {
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case ev.TextDelta != nil:
			got = append(got, "delta"+ev.TextDelta.Delta)
		case ev.Completed != nil:
			got = append(got, fmt.Sprint("tokens ", ev.Completed.Usage.Tokens))
		}
	}
	if want := "deltaHi|delta there|tokens 3"; strings.Join(got, "|") != want {
		t.Errorf("responses: %q, want %q", strings.Join(got, "|"), want)
	}

	// OpenAPI 3.2 item schemas: the event whole, its data as the variant
	// the name picks says: text, JSON by its contentSchema, an integer.
	got, last = nil, nil
	for ev, err := range c.FeedSeq(ctx) {
		if err != nil {
			last = err
			break
		}
		switch {
		case ev.FeedResultVariant1 != nil:
			v := ev.FeedResultVariant1
			got = append(got, fmt.Sprintf("%s %q id %s", v.Event, v.Data, deref(v.ID)))
		case ev.FeedResultVariant2 != nil:
			v := ev.FeedResultVariant2
			got = append(got, fmt.Sprintf("%s foo=%d id %s", v.Event, v.Data.Foo, deref(v.ID)))
		case ev.FeedResultVariant3 != nil:
			got = append(got, fmt.Sprintf("%s %d", ev.FeedResultVariant3.Event, ev.FeedResultVariant3.Data))
		}
	}
	want = `addString "This data is formatted\nacross two lines" id 1|addJson foo=42 id 2|addCount 7`
	if strings.Join(got, "|") != want {
		t.Errorf("feed:\n got %s\nwant %s", strings.Join(got, "|"), want)
	}
	if !errors.As(last, &oe) || !strings.Contains(oe.Message, "event 4 does not match the document") || !strings.Contains(oe.Message, "/data/foo") {
		t.Errorf("a JSON data of the wrong shape: %v, want an error at /data/foo", last)
	}

	// The generic event: every field as text, retry as a number.
	var logs []events.Event
	for ev, err := range c.TailSeq(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, ev)
	}
	if len(logs) != 2 || logs[0].Data != "plain" || logs[0].Event != nil || logs[0].ID != nil ||
		logs[1].Data != `{"not":"parsed"}` || deref(logs[1].Event) != "warn" || deref(logs[1].ID) != "w1" || logs[1].Retry == nil || *logs[1].Retry != 2500 {
		t.Errorf("log events: %+v", logs)
	}

	// JSON lines of two shapes, tried in turn.
	got = nil
	for v, err := range c.WatchJobSeq(ctx, events.WatchJobArgs{ID: "j1"}) {
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case v.Progress != nil:
			got = append(got, fmt.Sprint(v.Progress.Percent, "%"))
		case v.JobResult != nil:
			got = append(got, v.JobResult.Output)
		}
	}
	if want := "10%|90%|done"; strings.Join(got, "|") != want {
		t.Errorf("job: %q, want %q", strings.Join(got, "|"), want)
	}
}

// TestEventUnionsTool serves the event streams as streaming functions: each
// event travels whole, its data as the value, and decodes back into the
// union on the typed side.
func TestEventUnionsTool(t *testing.T) {
	ctx := t.Context()
	tool, err := events.NewTool(must(events.NewClient(eventsAPI(t).URL)))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for raw, err := range runtime.Local(tool).StreamFunction(ctx, "createRun", json.RawMessage(`{"thread":"t1"}`)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(raw))
		var ev events.AssistantStreamEvent
		if err := json.Unmarshal(raw, &ev); err != nil || ev.IsZero() {
			t.Errorf("%s does not decode back: %v", raw, err)
		}
	}
	if len(got) != 6 || got[0] != `{"event":"thread.created","data":{"id":"t1"}}` || got[3] != `{"event":"thread.message.delta","data":{"text":"lo"}}` {
		t.Errorf("createRun over the tool: %q", got)
	}
	got = nil
	for raw, err := range runtime.Local(tool).StreamFunction(ctx, "feed", nil) {
		if err != nil {
			break // the fourth event does not match the document
		}
		got = append(got, string(raw))
	}
	if len(got) != 3 || got[1] != `{"event":"addJson","data":{"foo":42},"id":"2"}` || got[2] != `{"event":"addCount","data":7}` {
		t.Errorf("feed over the tool: %q", got)
	}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
