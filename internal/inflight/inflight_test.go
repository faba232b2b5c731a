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
	select {
	case <-done:
		t.Fatal("Wait returned with one still under way")
	case <-time.After(20 * time.Millisecond):
	}
	c.Add(-1)
	if !<-done {
		t.Fatal("Wait = false once nothing is under way")
	}
}
