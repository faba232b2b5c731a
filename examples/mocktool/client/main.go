// Command client calls every function of the mock tool example once through
// the generated mocktool.Client and prints the results: it creates a text,
// reads, updates and streams the store, deletes the text again, and calls run,
// which fails on purpose.
//
// Usage:
//
//	go run ./examples/mocktool/client [-url URL] [-apiKey KEY]
//
// The flags are:
//
//	-url URL
//		Base URL of the OpenTool server (default "http://127.0.0.1:17001/opentool").
//	-apiKey KEY
//		Send "Authorization: Bearer KEY" with every request.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/runtime"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
}

// errUsage is bad usage; the flag package has printed the problem already.
var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("client", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", "http://127.0.0.1:17001/opentool", "base `URL` of the OpenTool server")
	apiKey := fs.String("apiKey", "", "API `key` to send as a bearer token")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "unexpected arguments: %q\n", fs.Args())
		fs.Usage()
		return errUsage
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()

	rt := runtime.NewClient(*url, runtime.WithAPIKey(*apiKey))
	c := mocktool.NewClient(rt)

	v, err := rt.Version(ctx)
	if err != nil {
		// errors.Is(err, runtime.ErrNoAccess) when nothing listens at the URL,
		// runtime.ErrUnauthorized when the API key is missing or wrong.
		return err
	}
	fmt.Fprintf(stdout, "server version: %s\n", v.Version)

	n, err := c.Count(ctx)
	if err != nil {
		return fmt.Errorf("count: %w", err)
	}
	fmt.Fprintf(stdout, "count: %d\n", n)

	id, err := c.Create(ctx, mocktool.CreateArgs{Text: "Hello from Go"})
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	fmt.Fprintf(stdout, "create: id %d\n", id)

	text, err := c.Read(ctx, mocktool.ReadArgs{ID: id})
	if err != nil {
		return fmt.Errorf("read: %w", err)
	}
	fmt.Fprintf(stdout, "read %d: %q\n", id, text)

	if err := c.Update(ctx, mocktool.UpdateArgs{ID: id, Text: "Hello again"}); err != nil {
		return fmt.Errorf("update: %w", err)
	}
	fmt.Fprintf(stdout, "update %d: ok\n", id)

	// A streaming function is a range loop; breaking out of it ends the call.
	for text, err := range c.SequentiallyReadSeq(ctx) {
		if err != nil {
			return fmt.Errorf("sequentiallyRead: %w", err)
		}
		fmt.Fprintf(stdout, "sequentiallyRead: %q\n", text)
	}

	if err := c.Delete(ctx, mocktool.DeleteArgs{ID: id}); err != nil {
		return fmt.Errorf("delete: %w", err)
	}
	fmt.Fprintf(stdout, "delete %d: ok\n", id)

	// Reading what is gone is a tool error with the tool's own code.
	_, err = c.Read(ctx, mocktool.ReadArgs{ID: id})
	var e *runtime.Error
	if !errors.As(err, &e) || !errors.Is(err, runtime.ErrCall) {
		return fmt.Errorf("read %d after delete: got %v, want a tool error", id, err)
	}
	fmt.Fprintf(stdout, "read %d: tool error %d: %s\n", id, e.Code, e.Message)

	// run fails on purpose: a tool error, errors.Is(err, runtime.ErrCall).
	err = c.Run(ctx)
	if !errors.As(err, &e) || !errors.Is(err, runtime.ErrCall) {
		return fmt.Errorf("run: got %v, want a tool error", err)
	}
	fmt.Fprintf(stdout, "run: tool error %d: %s\n", e.Code, e.Message)
	return nil
}
