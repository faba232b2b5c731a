// Command slowclients measures what slow and stalled clients cost an OpenTool
// server: the resident memory of the server process while many clients have
// sent most of a large request body and stalled, and how long a body trickled
// one byte a second holds a connection. It drives a server that is already
// running (scripts/slow-clients.sh starts the mock tool example) and reads the
// server's memory from /proc/PID/status, so it runs on Linux only.
//
// Usage:
//
//	go run ./scripts/slowclients -addr 127.0.0.1:17001 -pid PID [flags]
//
// The flags:
//
//	-addr HOST:PORT
//		The server (default "127.0.0.1:17001").
//	-pid PID
//		The server's process id, for its VmRSS and VmHWM.
//	-conns N
//		Stalled clients (default 50).
//	-size BYTES
//		The Content-Length each stalled client declares (default 4 MiB); it
//		sends one byte less, then stalls.
//	-settle DURATION
//		How long the stalled clients send before the memory is read (default 10s).
//	-watch DURATION
//		How long to wait, after the memory is read, for the server to answer or
//		drop the stalled and trickling clients (default 45s).
//	-trickle
//		Also run one client that sends a body one byte a second (default true).
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "slowclients:", err)
		os.Exit(1)
	}
}

// outcome is how one client's connection ended.
type outcome struct {
	sent   int64         // body bytes written
	status string        // the server's status line, or what ended the connection
	after  time.Duration // since the client connected
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:17001", "server `host:port`")
	pid := flag.Int("pid", 0, "server process `id`")
	conns := flag.Int("conns", 50, "stalled clients")
	size := flag.Int64("size", 4<<20, "declared Content-Length of each stalled client")
	settle := flag.Duration("settle", 10*time.Second, "time the stalled clients send before the memory is read")
	watch := flag.Duration("watch", 45*time.Second, "time to wait for the server to end the connections")
	trickle := flag.Bool("trickle", true, "also run a client that sends one byte a second")
	flag.Parse()
	if *pid == 0 {
		return errors.New("-pid is required")
	}
	rss0, _, err := memory(*pid)
	if err != nil {
		return err
	}
	fmt.Printf("server idle: VmRSS %s\n", mib(rss0))

	var sent atomic.Int64
	results := make(chan outcome, *conns+1)
	var wg sync.WaitGroup
	start := time.Now()
	var cs []net.Conn
	for range *conns {
		c, err := net.Dial("tcp", *addr)
		if err != nil {
			return err
		}
		cs = append(cs, c)
		wg.Go(func() { results <- stall(c, *addr, *size, &sent) })
	}
	var trickleDone chan outcome
	if *trickle {
		c, err := net.Dial("tcp", *addr)
		if err != nil {
			return err
		}
		cs = append(cs, c)
		trickleDone = make(chan outcome, 1)
		go func() { trickleDone <- trickleBody(c, *addr) }()
	}
	time.Sleep(*settle)
	rss, hwm, err := memory(*pid)
	if err != nil {
		return err
	}
	want := int64(*conns) * (*size - 1)
	fmt.Printf("%d clients, each declaring %d bytes and sending %d, after %v: sent %s of %s; server VmRSS %s, VmHWM %s\n",
		*conns, *size, *size-1, settle.Round(time.Second), mib(sent.Load()), mib(want), mib(rss), mib(hwm))

	// How the server ends the connections: an answer, a close, or nothing.
	deadline := time.Now().Add(*watch)
	for _, c := range cs {
		c.SetReadDeadline(deadline)
	}
	wg.Wait()
	close(results)
	counts := map[string]int{}
	var last time.Duration
	for r := range results {
		counts[r.status]++
		last = max(last, r.after)
	}
	for s, n := range counts {
		fmt.Printf("stalled clients: %d ended with %q (the last after %v)\n", n, s, last.Round(100*time.Millisecond))
	}
	if trickleDone != nil {
		r := <-trickleDone
		fmt.Printf("trickling client (1 byte/s of a declared 1000): %q after %v, %d bytes sent\n", r.status, r.after.Round(100*time.Millisecond), r.sent)
	}
	for _, c := range cs {
		c.Close()
	}
	rss, hwm, err = memory(*pid)
	if err == nil {
		fmt.Printf("after: server VmRSS %s, VmHWM %s (%v since the start)\n", mib(rss), mib(hwm), time.Since(start).Round(time.Second))
	}
	return nil
}

const header = "POST /opentool/call HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"

// stall sends size-1 bytes of a declared size, in 64 KiB writes (they block
// while the server does not read), then waits for the server to answer or
// drop the connection.
func stall(c net.Conn, addr string, size int64, sent *atomic.Int64) outcome {
	start := time.Now()
	fmt.Fprintf(c, header, addr, size)
	prefix := `{"jsonrpc":"2.0","method":"create","id":1,"params":{"text":"`
	body := make([]byte, size-1)
	copy(body, prefix)
	for i := len(prefix); i < len(body); i++ {
		body[i] = 'x'
	}
	var n int64
	for n < int64(len(body)) {
		m, err := c.Write(body[n:min(n+64<<10, int64(len(body)))])
		n += int64(m)
		sent.Add(int64(m))
		if err != nil {
			break
		}
	}
	return outcome{sent: n, status: answer(c), after: time.Since(start)}
}

// trickleBody declares a 1000-byte body and sends one byte a second.
func trickleBody(c net.Conn, addr string) outcome {
	start := time.Now()
	fmt.Fprintf(c, header, addr, 1000)
	ended := make(chan string, 1)
	go func() { ended <- answer(c) }()
	var n int64
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case s := <-ended:
			return outcome{sent: n, status: s, after: time.Since(start)}
		case <-tick.C:
			if _, err := c.Write([]byte{' '}); err == nil {
				n++
			}
		}
	}
}

// answer reads the server's status line, or says how the connection ended
// without one.
func answer(c net.Conn) string {
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	switch {
	case err == nil:
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.Status
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return "closed without an answer"
	case errors.Is(err, os.ErrDeadlineExceeded):
		return "no answer within -watch"
	default:
		if strings.Contains(err.Error(), "reset") {
			return "reset without an answer"
		}
		return err.Error()
	}
}

// memory reads VmRSS and VmHWM (peak) of a process, in bytes.
func memory(pid int) (rss, hwm int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for line := range bytes.Lines(b) {
		var kb int64
		if n, _ := fmt.Sscanf(string(line), "VmRSS: %d kB", &kb); n == 1 {
			rss = kb << 10
		}
		if n, _ := fmt.Sscanf(string(line), "VmHWM: %d kB", &kb); n == 1 {
			hwm = kb << 10
		}
	}
	return rss, hwm, nil
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
