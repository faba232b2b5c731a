package natsbridge_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/natsbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// callMany makes n calls of add {a: i} through c, 32 at once, each within
// deadline; after the after-th answer it runs midway once. It returns the
// errors by call.
func callMany(t *testing.T, c *natsbridge.Caller, n, after int, deadline time.Duration, midway func()) map[int]error {
	var (
		mu     sync.Mutex
		errs   = map[int]error{}
		done   atomic.Int64
		next   atomic.Int64
		wg     sync.WaitGroup
		fired  sync.Once
		wrongs atomic.Int64
	)
	for range 32 {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				ctx, cancel := context.WithTimeout(t.Context(), deadline)
				got, err := c.CallFunction(ctx, "add", json.RawMessage(`{"a":`+strconv.Itoa(i)+`,"b":0}`))
				cancel()
				if err != nil {
					mu.Lock()
					errs[i] = err
					mu.Unlock()
				} else if string(got) != `{"sum":`+strconv.Itoa(i)+`}` {
					wrongs.Add(1)
				}
				if done.Add(1) == int64(after) {
					fired.Do(midway)
				}
			}
		})
	}
	wg.Wait()
	if w := wrongs.Load(); w > 0 {
		t.Errorf("%d answers were another call's", w)
	}
	return errs
}

// served reads the count a replica prints when it stops.
func served(t *testing.T, r *replicaProc) int {
	t.Helper()
	select {
	case line, ok := <-r.lines:
		var n int
		var rest string
		if _, err := fmt.Sscanf(line, "served %d %s", &n, &rest); !ok || err != nil || rest != "<nil>" {
			t.Errorf("the replica's last line: %q", line)
		}
		return n
	case <-time.After(waitLong):
		t.Error("the replica did not stop")
		return 0
	}
}

// Three replicas in one queue group, one stopped with SIGTERM in the middle
// of 10,000 calls: every call is answered, with its own result, and the
// replicas served 10,000 calls between them (none twice).
func TestReplicasSIGTERM(t *testing.T) {
	url := startServer(t)
	rs := []*replicaProc{startReplica(t, url, "r0"), startReplica(t, url, "r1"), startReplica(t, url, "r2")}
	c := natsbridge.NewCaller(connect(t, url), "calc")
	const n = 10000
	errs := callMany(t, c, n, n/3, waitLong, func() { rs[1].cmd.Process.Signal(syscall.SIGTERM) })
	if len(errs) > 0 {
		for i, err := range errs {
			t.Errorf("call %d: %v", i, err)
			break
		}
		t.Errorf("%d of %d calls failed", len(errs), n)
	}
	stoppedEarly := served(t, rs[1])
	total := stoppedEarly
	for _, r := range []*replicaProc{rs[0], rs[2]} {
		r.cmd.Process.Signal(syscall.SIGTERM)
		total += served(t, r)
	}
	if total != n || stoppedEarly == 0 || stoppedEarly >= n/2 {
		t.Errorf("served %d calls in all (want %d), %d by the replica stopped after %d", total, n, stoppedEarly, n/3)
	}
}

// With SIGKILL, the calls in flight on the killed replica fail at their
// caller's deadline with the context's error; no call hangs, the others
// succeed.
func TestReplicasSIGKILL(t *testing.T) {
	url := startServer(t)
	rs := []*replicaProc{startReplica(t, url, "r0"), startReplica(t, url, "r1"), startReplica(t, url, "r2")}
	c := natsbridge.NewCaller(connect(t, url), "calc")
	const n = 3000
	start := time.Now()
	errs := callMany(t, c, n, n/3, 2*time.Second, func() { rs[1].cmd.Process.Kill() })
	if d := time.Since(start); d > waitLong {
		t.Errorf("the calls took %v", d)
	}
	for i, err := range errs {
		var e *runtime.Error
		switch {
		case errors.Is(err, context.DeadlineExceeded) && !errors.As(err, &e) && strings.Contains(err.Error(), `call "add"`):
		case errors.Is(err, runtime.ErrNoAccess): // sent while the server still routed to the dead replica
		default:
			t.Errorf("call %d: %v", i, err)
		}
	}
	if len(errs) > 64 {
		t.Errorf("%d calls failed, more than were in flight", len(errs))
	}
	t.Logf("%d of %d calls failed at their deadline", len(errs), n)
}
