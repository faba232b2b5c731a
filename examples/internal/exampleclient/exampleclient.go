// Package exampleclient is the command line the examples' clients share:
// the flags -url and -apiKey, a 30-second bound on the whole run, and the
// server's version printed before the example's own calls, which are all an
// example's main.go is about.
package exampleclient

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

	"github.com/opentoolgen/opentoolgen/runtime"
)

// ErrUsage is bad usage; the flag package has printed the problem already.
var ErrUsage = errors.New("usage")

// Calls are an example's calls, through rt, writing what they get to stdout.
type Calls func(ctx context.Context, rt *runtime.Client, stdout io.Writer) error

// Main runs calls with the process's arguments and exits as a command does:
// 2 on bad usage, 1 on any other error. Interrupt and SIGTERM cancel ctx.
func Main(defaultURL string, calls Calls) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := Run(ctx, defaultURL, os.Args[1:], os.Stdout, os.Stderr, calls)
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
	case errors.Is(err, ErrUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
}

// Run parses args (-url, -apiKey), asks the server its version, prints it
// and runs calls.
func Run(ctx context.Context, defaultURL string, args []string, stdout, stderr io.Writer, calls Calls) error {
	fs := flag.NewFlagSet("client", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", defaultURL, "base `URL` of the OpenTool server")
	apiKey := fs.String("apiKey", "", "API `key` to send as a bearer token")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return ErrUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "unexpected arguments: %q\n", fs.Args())
		fs.Usage()
		return ErrUsage
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()

	rt := runtime.NewClient(*url, runtime.WithAPIKey(*apiKey))
	v, err := rt.Version(ctx)
	if err != nil {
		// errors.Is(err, runtime.ErrNoAccess) when nothing listens at the URL,
		// runtime.ErrUnauthorized when the API key is missing or wrong.
		return err
	}
	fmt.Fprintf(stdout, "server version: %s\n", v.Version)
	return calls(ctx, rt, stdout)
}
