// Command server serves a geometry library (examples/opendyn/c/geometry.c, built
// as a shared library) over OpenTool HTTP, through the Tool adapter generated
// from geometry.json, until SIGINT or SIGTERM.
//
// Usage:
//
//	go run ./examples/opendyn/server -lib PATH [-addr HOST:PORT]
//
// The flags:
//
//	-lib PATH
//		The shared library to open (required): libgeometry.so, .dylib or .dll.
//	-addr HOST:PORT
//		Listen address (default "127.0.0.1:9627").
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

	"github.com/opentoolgen/opentoolgen/examples/opendyn/geometry"
	"github.com/opentoolgen/opentoolgen/runtime"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		var usage usageError
		if errors.As(err, &usage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

type usageError struct{ error }

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lib := fs.String("lib", "", "the shared library to open (required)")
	addr := fs.String("addr", "127.0.0.1:9627", "listen address")
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if *lib == "" || fs.NArg() > 0 {
		fs.Usage()
		return usageError{errors.New("want -lib PATH and no arguments")}
	}
	l, err := geometry.Open(*lib)
	if err != nil {
		return err
	}
	defer l.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stderr, "serving %s on http://%s%s\n", *lib, *addr, runtime.DefaultPrefix)
	tool, err := geometry.NewTool(l.Service())
	if err != nil {
		return err
	}
	return runtime.Serve(ctx, *addr, tool)
}
