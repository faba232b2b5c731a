package natsbridge_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/natsbridge"
)

// With the default concurrency, calls held by a slow function on one
// endpoint do not hold up the calls behind them, on that endpoint or
// another: the pool takes a worker more for each.
func TestSlowCallsDoNotHoldUp(t *testing.T) {
	url := startServer(t)
	tool := newCalc("a")
	svc := serve(t, url, tool)
	c := natsbridge.NewCaller(connect(t, url), svc.Prefix())
	ctx, cancel := context.WithTimeout(t.Context(), waitLong)
	defer cancel()
	const holds = 5
	var wg sync.WaitGroup
	errs := make(chan error, holds)
	for range holds {
		wg.Go(func() {
			_, err := c.CallFunction(ctx, "hold", nil)
			errs <- err
		})
	}
	for i := range holds {
		select {
		case <-tool.started:
		case <-ctx.Done():
			t.Fatalf("%d of %d held calls started: the others wait behind them", i, holds)
		}
	}
	for i := range 50 {
		got, err := c.CallFunction(ctx, "add", json.RawMessage(`{"a":1,"b":2}`))
		if err != nil || string(got) != `{"sum":3}` {
			t.Fatalf("call %d beside the held ones: %s, %v", i, got, err)
		}
	}
	if n := svc.Stats().InFlight; n != holds {
		t.Errorf("in flight: %d, want the %d held calls", n, holds)
	}
	close(tool.release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// WithMaxConcurrent bounds the calls run at once: a call more waits until
// one ends, then runs.
func TestMaxConcurrentBound(t *testing.T) {
	url := startServer(t)
	tool := newCalc("a")
	svc := serve(t, url, tool, natsbridge.WithMaxConcurrent(2))
	c := natsbridge.NewCaller(connect(t, url), svc.Prefix())
	ctx, cancel := context.WithTimeout(t.Context(), waitLong)
	defer cancel()
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			if _, err := c.CallFunction(ctx, "hold", nil); err != nil {
				t.Error(err)
			}
		})
	}
	for range 2 {
		<-tool.started
	}
	added := make(chan error, 1)
	go func() {
		_, err := c.CallFunction(ctx, "add", json.RawMessage(`{"a":1}`))
		added <- err
	}()
	select {
	case <-tool.started:
		t.Fatal("a third call ran beside two with WithMaxConcurrent(2)")
	case err := <-added:
		t.Fatalf("a call was answered beside two with WithMaxConcurrent(2): %v", err)
	case <-time.After(200 * time.Millisecond):
		// Not a wait for an event: the pool's monitor looks at a stalled
		// queue every stallTick (250 µs) and may add a worker each time;
		// 200 ms is hundreds of its ticks in which a third worker would show.
	}
	if n := svc.Stats().InFlight; n != 2 {
		t.Errorf("in flight: %d, want 2", n)
	}
	close(tool.release)
	if err := <-added; err != nil {
		t.Error(err)
	}
	wg.Wait()
}
