package toolcli_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/toolcli"
)

// waitLong bounds every wait of the tests: long enough for a loaded machine,
// short enough that a hang fails the test instead of the run.
const waitLong = 60 * time.Second

// store implements mocktool.Service: texts by id. Run blocks until its
// context ends, and says so on started and cancelled.
type store struct {
	mu        sync.Mutex
	texts     map[mocktool.ID]mocktool.Text
	next      mocktool.ID
	started   chan struct{} // a value per Run that started
	cancelled chan error    // the context's error of each Run that ended
	pace      time.Duration // SequentiallyRead waits this long before each item
}

var _ mocktool.Service = (*store)(nil)

func newStore(texts ...mocktool.Text) *store {
	s := &store{texts: map[mocktool.ID]mocktool.Text{}, started: make(chan struct{}, 8), cancelled: make(chan error, 8)}
	for _, t := range texts {
		s.texts[s.next] = t
		s.next++
	}
	return s
}

func (s *store) Count(context.Context) (mocktool.Count, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return mocktool.Count(len(s.texts)), nil
}

func (s *store) Create(_ context.Context, a mocktool.CreateArgs) (mocktool.ID, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.next
	s.next++
	s.texts[id] = mocktool.Text(a.Text)
	return id, nil
}

func (s *store) Read(_ context.Context, a mocktool.ReadArgs) (mocktool.Text, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.texts[a.ID]
	if !ok {
		return "", runtime.NewError(404, fmt.Sprintf("no text with id %d", a.ID))
	}
	return t, nil
}

func (s *store) SequentiallyRead(_ context.Context, emit func(mocktool.Text) error) error {
	s.mu.Lock()
	ids := make([]mocktool.ID, 0, len(s.texts))
	for id := range s.texts {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	texts := make([]mocktool.Text, len(ids))
	for i, id := range ids {
		texts[i] = s.texts[id]
	}
	s.mu.Unlock()
	for _, t := range texts {
		time.Sleep(s.pace)
		if err := emit(t); err != nil {
			return err
		}
	}
	return nil
}

func (s *store) Update(_ context.Context, a mocktool.UpdateArgs) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.texts[a.ID]; !ok {
		return runtime.NewError(404, fmt.Sprintf("no text with id %d", a.ID))
	}
	s.texts[a.ID] = a.Text
	return nil
}

func (s *store) Delete(_ context.Context, a mocktool.DeleteArgs) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.texts, a.ID)
	return nil
}

func (s *store) Run(ctx context.Context) error {
	s.started <- struct{}{}
	select {
	case <-ctx.Done():
		s.cancelled <- ctx.Err()
		return ctx.Err()
	case <-time.After(waitLong):
		s.cancelled <- nil
		return errors.New("run was never cancelled")
	}
}

// mockCommand is the command of the mock tool served from s.
func mockCommand(s *store) *toolcli.Command {
	return &toolcli.Command{
		Name:     "mock_util_tool",
		Document: mocktool.Document(),
		NewTool: func(_ context.Context, opts ...runtime.ToolOption) (runtime.Tool, error) {
			return mocktool.NewTool(s, opts...)
		},
	}
}

// run runs c in this process with args until it exits: its exit status, its
// standard output and its standard error.
func run(t *testing.T, c *toolcli.Command, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	var out, errs bytes.Buffer
	code = c.Run(ctx, args, strings.NewReader(""), &out, &errs)
	if ctx.Err() != nil {
		t.Fatalf("%s %q did not return", c.Name, args)
	}
	return code, out.String(), errs.String()
}

// running is a command running in this process.
type running struct {
	base string // http://127.0.0.1:port
	stop context.CancelFunc
	done chan int
	logs *lockedBuffer
	once sync.Once
	code int
}

// start runs c with "start -t 0" and args until the test ends (or stop): it
// returns once the command says where it serves.
func start(t *testing.T, c *toolcli.Command, args ...string) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	r := &running{stop: cancel, done: make(chan int, 1), logs: &lockedBuffer{}}
	go func() {
		r.done <- c.Run(ctx, append([]string{"start", "-t", "0"}, args...), strings.NewReader(""), io.Discard, pw)
		pw.Close()
	}()
	base := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			r.logs.WriteString(sc.Text() + "\n")
			if m := servingLine.FindStringSubmatch(sc.Text()); m != nil {
				base <- m[1]
			}
		}
		close(base)
	}()
	t.Cleanup(func() {
		cancel()
		r.wait(t)
	})
	select {
	case b, ok := <-base:
		if !ok {
			t.Fatalf("the command ended without serving:\n%s", r.logs)
		}
		r.base = b
	case <-time.After(waitLong):
		t.Fatalf("the command did not say where it serves:\n%s", r.logs)
	}
	return r
}

// wait waits until the command exits, and returns its exit status.
func (r *running) wait(t *testing.T) int {
	t.Helper()
	r.once.Do(func() {
		select {
		case r.code = <-r.done:
		case <-time.After(waitLong):
			t.Error("the command did not stop")
			r.code = -1
		}
	})
	return r.code
}

// servingLine is the log line that says where start serves.
var servingLine = regexp.MustCompile(`msg=serving .*opentool=(http://[^ ]+)/opentool `)

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) WriteString(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.WriteString(s)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
