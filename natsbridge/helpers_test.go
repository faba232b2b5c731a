package natsbridge_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	goruntime "runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/opentoolgen/opentoolgen/natsbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// waitLong bounds every wait of the tests.
const waitLong = 20 * time.Second

// calc is the tool of the tests. Its functions:
//
//	add {a, b}        → {"sum": a+b}; a negative a is a 422 error with data {"a": a}
//	fail {}           → a plain error ("disk on fire")
//	who {}            → {"replica": …, "values": call values}
//	hold {}           → waits for release (or its context), then {"replica": …}
//	count {n, delay}  streams (delay ms before each) {"i": 0}, … {"i": n-1}; n < 0: two items, then a 503 error
//	forever {}        streams {"i": …} until its caller goes
type calc struct {
	replica string
	release chan struct{} // hold returns when it is closed
	started chan string   // hold and forever say they started
	ended   chan string   // forever says how it ended
}

func newCalc(replica string) *calc {
	return &calc{replica: replica, release: make(chan struct{}), started: make(chan string, 100), ended: make(chan string, 10)}
}

var calcDoc = &document.OpenTool{OpenTool: "1.0.0", Info: document.Info{Title: "Calc Tool", Version: "1.2.3", Description: "adds"},
	Functions: []document.Function{
		{Name: "add", Description: "adds a and b"}, {Name: "fail"}, {Name: "who"}, {Name: "hold"},
		{Name: "count", Stream: map[string]*document.Return{"data": {Name: "i"}}},
		{Name: "forever", Stream: map[string]*document.Return{"data": {Name: "i"}}},
	}}

func (c *calc) Load(context.Context) (*document.OpenTool, error) { return calcDoc, nil }

func (c *calc) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	switch name {
	case "add":
		var a struct{ A, B float64 }
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, runtime.InvalidParams(runtime.Violation{Message: err.Error()})
		}
		if a.A < 0 {
			return nil, &runtime.Error{Code: 422, Message: "a must not be negative", Data: json.RawMessage(fmt.Sprintf(`{"a":%v}`, a.A))}
		}
		return json.Marshal(map[string]float64{"sum": a.A + a.B})
	case "fail":
		return nil, errors.New("disk on fire")
	case "who":
		return json.Marshal(map[string]any{"replica": c.replica, "values": runtime.CallValues(ctx)})
	case "hold":
		c.started <- c.replica
		select {
		case <-c.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return json.Marshal(map[string]any{"replica": c.replica})
	}
	return nil, runtime.MethodNotFound(name)
}

func (c *calc) StreamCall(ctx context.Context, name string, args json.RawMessage, emit func(json.RawMessage) error) error {
	switch name {
	case "count":
		var a struct{ N, Delay int }
		if err := json.Unmarshal(args, &a); err != nil {
			return runtime.NewError(400, err.Error())
		}
		n := a.N
		if n < 0 {
			n = 2
		}
		for i := range n {
			// A slow feed simulated (the tests of a slow stream and of
			// micro's processing times): the delay is what is tested.
			time.Sleep(time.Duration(a.Delay) * time.Millisecond)
			if err := emit(json.RawMessage(`{"i":` + strconv.Itoa(i) + `}`)); err != nil {
				return err
			}
		}
		if a.N < 0 {
			return runtime.NewError(503, "the feed is down")
		}
		return nil
	case "forever":
		c.started <- c.replica
		for i := 0; ; i++ {
			if err := emit(json.RawMessage(`{"i":` + strconv.Itoa(i) + `}`)); err != nil {
				select {
				case <-ctx.Done():
					c.ended <- "emit failed, ctx done"
				case <-time.After(waitLong):
					c.ended <- "emit failed, ctx still running"
				}
				return err
			}
		}
	}
	return runtime.MethodNotFound(name)
}

// startServer starts an embedded NATS server for the test.
func startServer(t testing.TB) string {
	t.Helper()
	ns, err := natsbridge.StartEmbedded(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Shutdown)
	return ns.ClientURL()
}

// connect opens a connection closed at the end of the test.
func connect(t testing.TB, url string) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// serve serves tool on a connection of its own until the test ends.
func serve(t testing.TB, url string, tool runtime.Tool, opts ...natsbridge.Option) *natsbridge.Service {
	t.Helper()
	svc, err := natsbridge.NewService(context.Background(), connect(t, url), tool, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Shutdown(context.Background()) })
	return svc
}

// TestMain runs the test binary as a replica when NATSBRIDGE_REPLICA names
// a server URL: it serves calc under the prefix "calc" until SIGTERM.
func TestMain(m *testing.M) {
	if url := os.Getenv("NATSBRIDGE_REPLICA"); url != "" {
		os.Exit(replica(url))
	}
	os.Exit(m.Run())
}

func replica(url string) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	nc, err := nats.Connect(url)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer nc.Close()
	c := newCalc(os.Getenv("NATSBRIDGE_NAME"))
	go func() { // nobody waits for the starts here
		for range c.started {
		}
	}()
	svc, err := natsbridge.NewService(ctx, nc, c, natsbridge.WithPrefix("calc"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("ready")
	<-ctx.Done()
	err = svc.Shutdown(context.Background())
	closed := make(chan struct{})
	nc.SetClosedHandler(func(*nats.Conn) { close(closed) })
	nc.Drain()
	<-closed
	fmt.Printf("served %d %v\n", svc.Stats().Calls, err)
	return 0
}

func gomaxprocs() int { return goruntime.GOMAXPROCS(0) }

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
