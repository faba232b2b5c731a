package runtime_test

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// A connection that never carried a request (clients dial spare ones under
// concurrency) must not hold up a graceful shutdown: net/http alone waits 5s
// for it, longer than the 3s shutdown timeout here, and Serve would then
// report context.DeadlineExceeded.
func TestShutdownWithUnusedConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- runtime.ServeListener(ctx, ln, plainTool{}, runtime.WithShutdownTimeout(3*time.Second))
	}()
	// A served call first, so the server is surely accepting.
	c := runtime.NewClient("http://" + ln.Addr().String() + runtime.DefaultPrefix)
	if _, err := c.Version(context.Background()); err != nil {
		t.Fatal(err)
	}
	idle, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	// Let the server see the connection before shutting down: connections are
	// accepted in order, so once a request on a connection dialed later has
	// been served, this one has been accepted (and its state recorded).
	fresh := &http.Client{Transport: &http.Transport{}}
	defer fresh.CloseIdleConnections()
	if _, err := runtime.NewClient("http://"+ln.Addr().String()+runtime.DefaultPrefix, runtime.WithHTTPClient(fresh)).Version(context.Background()); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v, want nil (the unused connection delayed the shutdown)", err)
	}
}
