//go:build unix

package gen

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestRefsFIFO: a named pipe in the tree is refused without waiting for a
// writer.
func TestRefsFIFO(t *testing.T) {
	tr := newRefTree(t)
	if err := syscall.Mkfifo(filepath.Join(tr.api, "pipe.yaml"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	type result struct {
		res *Result
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := tr.generate(t, refDoc("pipe.yaml#/X"), Options{})
		done <- result{res, err}
	}()
	select {
	case r := <-done:
		refused(t, r.res, r.err, filepath.Join(tr.api, "api.yaml"), refLine, refCol, refPtr, "pipe.yaml#/X", "not a regular file (a named pipe)")
	case <-time.After(10 * time.Second):
		t.Fatal("Generate waits on a named pipe")
	}
}
