package testtool

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/toolcli"
)

// Running is a toolcli command running in the test's process.
type Running struct {
	// Base is where it serves: http://127.0.0.1:port.
	Base string
	// Stop cancels the command's context, as SIGINT would.
	Stop context.CancelFunc
	// Logs are its standard error so far.
	Logs *LockedBuffer

	done chan int
	once sync.Once
	code int
}

// Start runs c with "start -t 0" and args until the test ends (or Stop): it
// returns once the command says where it serves.
func Start(t testing.TB, c *toolcli.Command, args ...string) *Running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	r := &Running{Stop: cancel, done: make(chan int, 1), Logs: &LockedBuffer{}}
	go func() {
		r.done <- c.Run(ctx, append([]string{"start", "-t", "0"}, args...), strings.NewReader(""), io.Discard, pw)
		pw.Close()
	}()
	base := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			r.Logs.WriteString(sc.Text() + "\n")
			if m := ServingLine.FindStringSubmatch(sc.Text()); m != nil {
				base <- m[1]
			}
		}
		close(base)
	}()
	t.Cleanup(func() {
		cancel()
		r.Wait(t)
	})
	select {
	case b, ok := <-base:
		if !ok {
			t.Fatalf("the command ended without serving:\n%s", r.Logs)
		}
		r.Base = b
	case <-time.After(WaitLong):
		t.Fatalf("the command did not say where it serves:\n%s", r.Logs)
	}
	return r
}

// Wait waits until the command exits, and returns its exit status.
func (r *Running) Wait(t testing.TB) int {
	t.Helper()
	r.once.Do(func() {
		select {
		case r.code = <-r.done:
		case <-time.After(WaitLong):
			t.Error("the command did not stop")
			r.code = -1
		}
	})
	return r.code
}

// ServingLine matches the log line that says where start serves; its
// group is the base URL.
var ServingLine = regexp.MustCompile(`msg=serving .*opentool=(http://[^ ]+)/opentool `)

// LockedBuffer is a bytes.Buffer safe for concurrent use.
type LockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *LockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// WriteString appends s.
func (b *LockedBuffer) WriteString(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.WriteString(s)
}

// String returns what was written.
func (b *LockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Run runs c in this process with args until it exits: its exit status, its
// standard output and its standard error.
func Run(t testing.TB, c *toolcli.Command, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), WaitLong)
	defer cancel()
	var out, errs bytes.Buffer
	code = c.Run(ctx, args, strings.NewReader(""), &out, &errs)
	if ctx.Err() != nil {
		t.Fatalf("%s %q did not return", c.Name, args)
	}
	return code, out.String(), errs.String()
}

// CheckCommandLine checks what c does with its command line: -v prints its
// name and version first, -h its default port (exit 0); bad usage, and the
// command alone, exit 2 with the mistake explained; a port in use exits 1,
// naming the address.
func CheckCommandLine(t *testing.T, c *toolcli.Command, version string, port int) {
	t.Helper()
	if code, out, _ := Run(t, c, "-v"); code != 0 || !strings.HasPrefix(out, c.Name+" "+version+"\n") {
		t.Errorf("-v: exit %d, %q; want 0 and %q first", code, out, c.Name+" "+version)
	}
	if code, _, errs := Run(t, c); code != 2 || !strings.Contains(errs, "no command given") {
		t.Errorf("alone: exit %d, stderr %q; want 2 and no command given", code, errs)
	}
	if code, out, _ := Run(t, c, "-h"); code != 0 || !strings.Contains(out, fmt.Sprintf("Default: %d", port)) {
		t.Errorf("-h: exit %d, want 0 and the default port %d in:\n%s", code, port, out)
	}
	for _, args := range [][]string{{"-nope"}, {"-t", "65536"}, {"-toolPort", "http"}, {"start", "extra"}, {"stop"}} {
		if code, _, errs := Run(t, c, args...); code != 2 || errs == "" {
			t.Errorf("%q: exit %d, stderr %q; want 2 and the mistake explained", args, code, errs)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, p, _ := net.SplitHostPort(ln.Addr().String())
	if code, _, errs := Run(t, c, "start", "-t", p); code != 1 || !strings.Contains(errs, ln.Addr().String()) {
		t.Errorf("a port in use: exit %d, stderr %q; want 1 and a listen error for %s", code, errs, ln.Addr())
	}
}
