package inflight

import (
	"context"
	"testing"
	"time"
)

func TestWait(t *testing.T) {
	var c Counter
	if !c.Wait(context.Background()) {
		t.Fatal("Wait with nothing under way = false")
	}
	c.Add(1)
	c.Add(1)
	if c.Count() != 2 {
		t.Fatalf("Count = %d, want 2", c.Count())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if c.Wait(ctx) {
		t.Fatal("Wait with two under way returned true at its deadline")
	}
	done := make(chan bool)
	go func() { done <- c.Wait(context.Background()) }()
	c.Add(-1)
	// Wait returns when c.idle closes, or at once when nothing is under
	// way: with one still under way, c.idle is open.
	c.mu.Lock()
	idle := c.idle
	c.mu.Unlock()
	if idle == nil {
		t.Fatal("one less under way, with one still under way, released the waiters")
	}
	select {
	case <-idle:
		t.Fatal("one less under way, with one still under way, closed idle")
	case <-done:
		t.Fatal("Wait returned with one still under way")
	default:
	}
	c.Add(-1)
	if !<-done {
		t.Fatal("Wait = false once nothing is under way")
	}
}
