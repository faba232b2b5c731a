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
	"fmt"
	"io"

	"github.com/opentoolgen/opentoolgen/examples/internal/exampleclient"
	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// defaultURL is where the example's server listens by default.
const defaultURL = "http://127.0.0.1:17001/opentool"

func main() { exampleclient.Main(defaultURL, calls) }

// run is main with its arguments and outputs, for the tests.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return exampleclient.Run(ctx, defaultURL, args, stdout, stderr, calls)
}

// calls calls every function once through the generated client.
func calls(ctx context.Context, rt *runtime.Client, stdout io.Writer) error {
	c := mocktool.NewClient(rt)

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
