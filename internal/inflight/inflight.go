// Package inflight counts the work under way (calls, requests) so that a
// server that stops can wait for it to end.
package inflight

import (
	"context"
	"sync"
)

// Counter counts what is under way. The zero Counter is ready to use.
type Counter struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0 while Wait waits
}

// Add adds d (1 when something starts, -1 when it ends).
func (c *Counter) Add(d int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n += d
	if c.n == 0 && c.idle != nil {
		close(c.idle)
		c.idle = nil
	}
}

// Count is what is under way now.
func (c *Counter) Count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Wait waits until nothing is under way, or ctx ends, and reports whether
// nothing is.
func (c *Counter) Wait(ctx context.Context) bool {
	c.mu.Lock()
	if c.n == 0 {
		c.mu.Unlock()
		return true
	}
	if c.idle == nil {
		c.idle = make(chan struct{})
	}
	idle := c.idle
	c.mu.Unlock()
	select {
	case <-idle:
		return true
	case <-ctx.Done():
		return false
	}
}
