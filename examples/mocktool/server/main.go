// Command server serves the mock tool example over OpenTool HTTP, like the
// reference implementations' mock tool: an in-memory text store (seeded with
// "Hello" and "World") behind mocktool.Service, served with package toolcli until
// SIGINT or SIGTERM, then shut down gracefully.
//
// Usage:
//
//	go run ./examples/mocktool/server [start|mcp] [options]
//
// Alone, it serves OpenTool HTTP at http://127.0.0.1:17001/opentool and MCP
// streamable HTTP at /mcp on the same port; mcp serves MCP over standard
// input and output. The options are toolcli's (go doc toolcli, or -h):
// -t PORT, -k KEY, --host HOST, --options FILE and the limits.
package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
	"github.com/opentoolgen/opentoolgen/toolcli"
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
	command().Main()
}

// command is the server's command line: toolcli's, on port 17001 by default.
func command() *toolcli.Command {
	return &toolcli.Command{
		Name:     "mocktool",
		Version:  version,
		Document: mocktool.Document(),
		Port:     17001,
		NewTool: func(_ context.Context, opts ...toolopt.Option) (runtime.Tool, error) {
			return mocktool.NewTool(newStore("Hello", "World"), opts...)
		},
	}
}
