package natsbridge_test

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/micro"

	"github.com/opentoolgen/opentoolgen/natsbridge"
)

// $SRV.STATS tells what micro's own fields say of a micro handler: each
// endpoint's requests, its error answers with the last one ("code:message"
// as micro's Request.Error records it), and its processing time, that of
// the whole call (a held call, a slow stream) while calls run at once; the
// data of each endpoint are its own counts.
func TestMicroStats(t *testing.T) {
	url := startServer(t)
	tool := newCalc("a")
	svc := serve(t, url, tool)
	nc := connect(t, url)
	c := natsbridge.NewCaller(nc, svc.Prefix())
	ctx := t.Context()

	held := make(chan error, 1)
	go func() {
		_, err := c.CallFunction(ctx, "hold", nil)
		held <- err
	}()
	<-tool.started
	heldFrom := time.Now()
	// Beside the held call: two calls of add, an error of add, a plain
	// error, a stream of 3 items 100ms apart.
	var wg sync.WaitGroup
	for _, args := range []string{`{"a":1}`, `{"a":2}`, `{"a":-1}`} {
		wg.Go(func() { c.CallFunction(ctx, "add", json.RawMessage(args)) })
	}
	wg.Go(func() { c.CallFunction(ctx, "fail", nil) })
	streamFrom := time.Now()
	items, err := collect(c.StreamFunction(ctx, "count", json.RawMessage(`{"n":3,"delay":100}`)))
	streamFor := time.Since(streamFrom)
	if err != nil || len(items) != 3 {
		t.Fatalf("count: %v, %v", items, err)
	}
	wg.Wait()
	heldFor := time.Since(heldFrom) // at least the stream's 300ms
	close(tool.release)
	if err := <-held; err != nil {
		t.Fatal(err)
	}

	m, err := nc.Request("$SRV.STATS."+svc.Micro().Info().Name, nil, waitLong)
	if err != nil {
		t.Fatal(err)
	}
	var stats micro.Stats
	if err := json.Unmarshal(m.Data, &stats); err != nil {
		t.Fatal(err)
	}
	if stats.Type != micro.StatsResponseType || stats.ID == "" || stats.Name != "calc_tool" {
		t.Errorf("stats %+v", stats)
	}
	got := map[string]*micro.EndpointStats{}
	data := map[string]natsbridge.Stats{}
	for _, e := range stats.Endpoints {
		got[e.Name] = e
		var d natsbridge.Stats
		if err := json.Unmarshal(e.Data, &d); err != nil {
			t.Errorf("%s: data %s: %v", e.Name, e.Data, err)
		}
		data[e.Name] = d
	}
	for _, tt := range []struct {
		name             string
		requests, errors int
		lastError        string
		data             natsbridge.Stats
		atLeast          time.Duration
	}{
		{"add", 3, 1, "422:a must not be negative", natsbridge.Stats{Calls: 3, Errors: 1}, 0},
		{"fail", 1, 1, "500:disk on fire", natsbridge.Stats{Calls: 1, Errors: 1}, 0},
		{"hold", 1, 0, "", natsbridge.Stats{Calls: 1}, heldFor},
		{"count", 1, 0, "", natsbridge.Stats{Calls: 1, Streams: 1}, 300 * time.Millisecond},
		{"who", 0, 0, "", natsbridge.Stats{}, 0},
	} {
		e := got[tt.name]
		if e == nil {
			t.Errorf("no stats of %s", tt.name)
			continue
		}
		if e.NumRequests != tt.requests || e.NumErrors != tt.errors || e.LastError != tt.lastError || data[tt.name] != tt.data {
			t.Errorf("%s: requests %d, errors %d, last error %q, data %+v; want %d, %d, %q, %+v",
				tt.name, e.NumRequests, e.NumErrors, e.LastError, data[tt.name], tt.requests, tt.errors, tt.lastError, tt.data)
		}
		if e.ProcessingTime < tt.atLeast || (e.NumRequests > 0 && e.AverageProcessingTime != e.ProcessingTime/time.Duration(e.NumRequests)) {
			t.Errorf("%s: processing time %v (average %v), want at least %v", tt.name, e.ProcessingTime, e.AverageProcessingTime, tt.atLeast)
		}
	}
	if e := got["count"]; e != nil && e.ProcessingTime > streamFor {
		t.Errorf("count: processing time %v, more than the %v its caller saw", e.ProcessingTime, streamFor)
	}
	// micro's Stats and Info of the service say the same.
	if s := svc.Micro().Stats(); len(s.Endpoints) != len(stats.Endpoints) || s.Endpoints[0].NumErrors != got["add"].NumErrors {
		t.Errorf("Micro().Stats() %+v", s)
	}
	svc.Micro().Reset()
	if s := svc.Micro().Stats(); s.Endpoints[0].NumRequests != 0 || s.Endpoints[0].LastError != "" {
		t.Errorf("after Reset: %+v", s.Endpoints[0])
	}
}
