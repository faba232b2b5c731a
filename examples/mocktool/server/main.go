// Command server serves the mock tool example over OpenTool HTTP, like the
// reference implementations' mock tool: an in-memory text store (seeded with
// "Hello" and "World") behind mocktool.Service, served with runtime.Serve until
// SIGINT or SIGTERM, then shut down gracefully.
//
// Usage:
//
//	go run ./examples/mocktool/server [flags]
//
// The flags (after the OpenTool server CLI guidelines, in Go's flag syntax):
//
//	-addr HOST:PORT
//		Listen address (default "127.0.0.1:17001").
//	-toolPort, -t PORT
//		Listen on PORT instead of the port of -addr.
//	-apiKeys, -apiKey, -k KEY
//		Accept only requests that carry "Authorization: Bearer KEY"; repeat the
//		flag to allow several keys. Without it, every request is accepted.
//	-version, -v
//		Print the version and exit.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"sync"
	"syscall"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// version is what GET /version reports.
const version = "1.0.0"

// store implements mocktool.Service: texts by id, safe for concurrent calls.
type store struct {
	mu    sync.Mutex
	texts map[mocktool.ID]mocktool.Text
	next  mocktool.ID
}

var _ mocktool.Service = (*store)(nil)

func newStore(texts ...mocktool.Text) *store {
	s := &store{texts: map[mocktool.ID]mocktool.Text{}}
	for _, t := range texts {
		s.texts[s.next] = t
		s.next++
	}
	return s
}

// notFound is the error for an unknown id. A *runtime.Error chooses the code the
// caller sees; any other error would be reported with code 500.
func notFound(id mocktool.ID) error {
	return runtime.NewError(404, fmt.Sprintf("no text with id %d", id))
}

func (s *store) Count(ctx context.Context) (mocktool.Count, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return mocktool.Count(len(s.texts)), nil
}

func (s *store) Create(ctx context.Context, args mocktool.CreateArgs) (mocktool.ID, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.next
	s.next++
	s.texts[id] = mocktool.Text(args.Text)
	return id, nil
}

func (s *store) Read(ctx context.Context, args mocktool.ReadArgs) (mocktool.Text, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.texts[args.ID]
	if !ok {
		return "", notFound(args.ID)
	}
	return t, nil
}

func (s *store) Update(ctx context.Context, args mocktool.UpdateArgs) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.texts[args.ID]; !ok {
		return notFound(args.ID)
	}
	s.texts[args.ID] = args.Text
	return nil
}

func (s *store) Delete(ctx context.Context, args mocktool.DeleteArgs) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.texts[args.ID]; !ok {
		return notFound(args.ID)
	}
	delete(s.texts, args.ID)
	return nil
}

// Run fails, as the reference mock tool's run does.
func (s *store) Run(ctx context.Context) error {
	return errors.New("a fatal error to break this tool")
}

// SequentiallyRead streams every text in id order. It emits from a snapshot,
// outside the lock, so that a slow reader does not hold up other calls; emit
// fails when the caller has gone, and the stream stops.
func (s *store) SequentiallyRead(ctx context.Context, emit func(mocktool.Text) error) error {
	s.mu.Lock()
	ids := slices.Sorted(maps.Keys(s.texts))
	texts := make([]mocktool.Text, len(ids))
	for i, id := range ids {
		texts[i] = s.texts[id]
	}
	s.mu.Unlock()
	for _, t := range texts {
		if err := emit(t); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

// errUsage is bad usage; the flag package has printed the problem already.
var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:17001", "listen `address` host:port")
	var port string
	portFlag := func(s string) error {
		if n, err := strconv.ParseUint(s, 10, 16); err != nil || n == 0 {
			return fmt.Errorf("got %q, want a port number from 1 to 65535", s)
		}
		port = s
		return nil
	}
	fs.Func("toolPort", "listen on `port` instead of the port of -addr", portFlag)
	fs.Func("t", "short for -toolPort", portFlag)
	var keys []string
	keyFlag := func(s string) error { keys = append(keys, s); return nil }
	fs.Func("apiKeys", "accept only requests with this API `key` (repeatable)", keyFlag)
	fs.Func("apiKey", "same as -apiKeys", keyFlag)
	fs.Func("k", "short for -apiKeys", keyFlag)
	var showVersion bool
	fs.BoolVar(&showVersion, "version", false, "print the version and exit")
	fs.BoolVar(&showVersion, "v", false, "short for -version")
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
	if showVersion {
		fmt.Fprintln(stdout, version)
		return nil
	}
	if port != "" {
		host, _, err := net.SplitHostPort(*addr)
		if err != nil {
			return fmt.Errorf("-addr: %w", err)
		}
		*addr = net.JoinHostPort(host, port)
	}

	doc := mocktool.Document()
	fmt.Fprintf(stdout, "serving %q %s at http://%s%s (Ctrl-C stops)\n", doc.Info.Title, doc.Info.Version, *addr, runtime.DefaultPrefix)
	tool, err := mocktool.NewTool(newStore("Hello", "World"))
	if err != nil {
		return err
	}
	return runtime.Serve(ctx, *addr, tool,
		runtime.WithVersion(version),
		runtime.WithAPIKeys(keys...))
}
