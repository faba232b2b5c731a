package mocktool_test

// End to end: the generated mocktool.Client calls the generated server adapter
// (mocktool.NewTool) over a real loopback listener, for every function —
// sequentiallyRead streams over Server-Sent Events — and every error class a
// caller can meet.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	otload "github.com/opentoolgen/opentoolgen/gen/load/opentool"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
)

// store implements mocktool.Service like the reference mock tool: texts by
// id. A test may replace the stream or run with its own function.
type store struct {
	mu    sync.Mutex
	texts map[mocktool.ID]mocktool.Text
	next  mocktool.ID

	stream func(ctx context.Context, emit func(mocktool.Text) error) error
	run    func(ctx context.Context) error
}

func newStore(texts ...mocktool.Text) *store {
	s := &store{texts: map[mocktool.ID]mocktool.Text{}}
	for _, t := range texts {
		s.texts[s.next] = t
		s.next++
	}
	return s
}

func notFound(id mocktool.ID) error {
	return runtime.NewError(404, fmt.Sprintf("no text with id %d", id))
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
		return "", notFound(a.ID)
	}
	return t, nil
}

func (s *store) Update(_ context.Context, a mocktool.UpdateArgs) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.texts[a.ID]; !ok {
		return notFound(a.ID)
	}
	s.texts[a.ID] = a.Text
	return nil
}

func (s *store) Delete(_ context.Context, a mocktool.DeleteArgs) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.texts[a.ID]; !ok {
		return notFound(a.ID)
	}
	delete(s.texts, a.ID)
	return nil
}

func (s *store) SequentiallyRead(ctx context.Context, emit func(mocktool.Text) error) error {
	if s.stream != nil {
		return s.stream(ctx, emit)
	}
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

func (s *store) Run(ctx context.Context) error {
	if s.run != nil {
		return s.run(ctx)
	}
	return errors.New("a fatal error to break this tool")
}

// serve serves svc on a fresh loopback port until the test ends, and returns
// the base URL. It checks that the server shuts down cleanly.
func serve(t *testing.T, svc mocktool.Service, opts ...runtime.ServerOption) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runtime.ServeListener(ctx, ln, must(mocktool.NewTool(svc)), opts...) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeListener: %v", err)
		}
	})
	return "http://" + ln.Addr().String() + runtime.DefaultPrefix
}

// newClient returns a generated client and its runtime client for url, with an
// HTTP transport of their own whose idle connections close when the test ends,
// before the server stops: net/http's graceful shutdown waits up to 5 seconds for
// a connection the client dialed but never sent a request on.
func newClient(t *testing.T, url string, opts ...runtime.ClientOption) (*mocktool.Client, *runtime.Client) {
	t.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	opts = append([]runtime.ClientOption{runtime.WithHTTPClient(&http.Client{Transport: tr})}, opts...)
	rt := runtime.NewClient(url, opts...)
	return mocktool.NewClient(rt), rt
}

// asError returns err as a *runtime.Error, failing the test when it is not one.
func asError(t *testing.T, err error) *runtime.Error {
	t.Helper()
	var e *runtime.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *runtime.Error", err, err)
	}
	return e
}

// wantCallError checks that err is a call error with code and message.
func wantCallError(t *testing.T, what string, err error, code int, message string) {
	t.Helper()
	if !errors.Is(err, runtime.ErrCall) {
		t.Errorf("%s: err = %v, want a call error", what, err)
		return
	}
	if e := asError(t, err); e.Code != code || e.Message != message {
		t.Errorf("%s: error {%d, %q}, want {%d, %q}", what, e.Code, e.Message, code, message)
	}
}

// readAll collects a stream: the texts before the first error, and that error.
func readAll(seq func(func(mocktool.Text, error) bool)) ([]mocktool.Text, error) {
	var out []mocktool.Text
	for t, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, t)
	}
	return out, nil
}

func TestCallEveryFunction(t *testing.T) {
	c, _ := newClient(t, serve(t, newStore()))
	ctx := t.Context()

	count := func(want mocktool.Count) {
		t.Helper()
		if n, err := c.Count(ctx); err != nil || n != want {
			t.Fatalf("Count = %d, %v; want %d", n, err, want)
		}
	}
	read := func(id mocktool.ID, want mocktool.Text) {
		t.Helper()
		if got, err := c.Read(ctx, mocktool.ReadArgs{ID: id}); err != nil || got != want {
			t.Fatalf("Read(%d) = %q, %v; want %q", id, got, err, want)
		}
	}
	stream := func(want ...mocktool.Text) {
		t.Helper()
		got, err := readAll(c.SequentiallyReadSeq(ctx))
		if err != nil {
			t.Fatalf("SequentiallyRead: %v", err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("SequentiallyRead (-want +got):\n%s", diff)
		}
	}

	count(0)
	stream()
	for i, text := range []string{"Hello", "World", "三"} {
		id, err := c.Create(ctx, mocktool.CreateArgs{Text: text})
		if err != nil || id != mocktool.ID(i) {
			t.Fatalf("Create(%q) = %d, %v; want %d", text, id, err, i)
		}
	}
	count(3)
	read(1, "World")
	if err := c.Update(ctx, mocktool.UpdateArgs{ID: 1, Text: "Go"}); err != nil {
		t.Fatal(err)
	}
	read(1, "Go")
	stream("Hello", "Go", "三")
	if err := c.Delete(ctx, mocktool.DeleteArgs{ID: 0}); err != nil {
		t.Fatal(err)
	}
	count(2)
	stream("Go", "三")
	wantCallError(t, "Run", c.Run(ctx), 500, "a fatal error to break this tool")
}

// Texts travel intact, whatever they contain.
func TestTextsRoundTrip(t *testing.T) {
	c, _ := newClient(t, serve(t, newStore()))
	texts := []mocktool.Text{
		"",
		"line one\nline two\r\nline three\rfour",
		"\n\nevent:done\ndata:{}\n\n",
		`{"jsonrpc":"2.0","result":{},"error":{"code":1,"message":"x"}}`,
		"tab\t nul\x00 bell\a \u2028\u2029 <script>&amp;",
		"😀 Zürich 東京",
		mocktool.Text(strings.Repeat("long ", 20000)),
	}
	for i, text := range texts {
		id, err := c.Create(t.Context(), mocktool.CreateArgs{Text: string(text)})
		if err != nil || id != mocktool.ID(i) {
			t.Fatalf("Create #%d = %d, %v", i, id, err)
		}
		if got, err := c.Read(t.Context(), mocktool.ReadArgs{ID: id}); err != nil || got != text {
			t.Errorf("Read #%d = %.40q, %v; want %.40q", i, got, err, text)
		}
	}
	got, err := readAll(c.SequentiallyReadSeq(t.Context()))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(texts, got); diff != "" {
		t.Errorf("SequentiallyRead (-want +got):\n%s", diff)
	}
}

func TestStreamInOrder(t *testing.T) {
	const n = 1000
	var texts []mocktool.Text
	for i := range n {
		texts = append(texts, mocktool.Text("text "+strconv.Itoa(i)))
	}
	c, _ := newClient(t, serve(t, newStore(texts...)))
	seq := c.SequentiallyReadSeq(t.Context())
	// A sequence can be ranged over more than once: each range is a new call.
	for range 2 {
		got, err := readAll(seq)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(texts, got); diff != "" {
			t.Fatalf("SequentiallyRead (-want +got):\n%s", diff)
		}
	}
}

// Breaking out of the range loop ends the call: the service's emit fails and
// its context is cancelled, and the client stays usable.
func TestStreamEarlyBreak(t *testing.T) {
	gone := make(chan error, 1)
	s := newStore("kept")
	s.stream = func(ctx context.Context, emit func(mocktool.Text) error) error {
		for i := 0; ; i++ { // an endless stream
			if err := emit(mocktool.Text(strconv.Itoa(i))); err != nil {
				<-ctx.Done()
				gone <- err
				return err
			}
		}
	}
	c, _ := newClient(t, serve(t, s))
	var got []mocktool.Text
	for text, err := range c.SequentiallyReadSeq(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, text)
		if len(got) == 3 {
			break
		}
	}
	if want := []mocktool.Text{"0", "1", "2"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	select {
	case err := <-gone:
		if err == nil {
			t.Error("emit returned nil after the caller had gone")
		}
	case <-time.After(10 * time.Second): // a bound on a failure, not a synchronisation
		t.Fatal("the service still streams 10 s after the caller broke out of the loop")
	}
	if got, err := c.Read(t.Context(), mocktool.ReadArgs{ID: 0}); err != nil || got != "kept" {
		t.Errorf("Read after the break = %q, %v", got, err)
	}
}

func TestStreamErrors(t *testing.T) {
	tests := []struct {
		name     string
		before   []mocktool.Text // emitted before the error
		err      error
		wantCode int
		wantMsg  string
	}{
		{"plain error first", nil, errors.New("disk on fire"), 500, "disk on fire"},
		{"plain error mid-stream", []mocktool.Text{"a", "b"}, errors.New("disk on fire"), 500, "disk on fire"},
		{"*runtime.Error keeps its code", []mocktool.Text{"a"}, runtime.NewError(507, "storage full"), 507, "storage full"},
		{"wrapped *runtime.Error keeps its code", []mocktool.Text{"a"}, fmt.Errorf("reading: %w", runtime.NewError(409, "conflict")), 409, "conflict"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore()
			s.stream = func(_ context.Context, emit func(mocktool.Text) error) error {
				for _, text := range tt.before {
					if err := emit(text); err != nil {
						return err
					}
				}
				return tt.err
			}
			c, _ := newClient(t, serve(t, s))
			var got []mocktool.Text
			var errs []error
			for text, err := range c.SequentiallyReadSeq(t.Context()) {
				if err != nil {
					errs = append(errs, err)
					continue // the sequence must end by itself after an error
				}
				got = append(got, text)
			}
			if !slices.Equal(got, tt.before) {
				t.Errorf("texts before the error = %q, want %q", got, tt.before)
			}
			if len(errs) != 1 {
				t.Fatalf("errors = %v, want exactly one", errs)
			}
			wantCallError(t, "SequentiallyRead", errs[0], tt.wantCode, tt.wantMsg)
		})
	}
}

func TestToolErrors(t *testing.T) {
	c, _ := newClient(t, serve(t, newStore("only")))
	ctx := t.Context()
	_, err := c.Read(ctx, mocktool.ReadArgs{ID: 7})
	wantCallError(t, "Read(7)", err, 404, "no text with id 7")
	wantCallError(t, "Update(7)", c.Update(ctx, mocktool.UpdateArgs{ID: 7, Text: "x"}), 404, "no text with id 7")
	wantCallError(t, "Delete(-1)", c.Delete(ctx, mocktool.DeleteArgs{ID: -1}), 404, "no text with id -1")
	wantCallError(t, "Run", c.Run(ctx), 500, "a fatal error to break this tool")
	for _, other := range []error{runtime.ErrNoAccess, runtime.ErrUnauthorized, runtime.ErrResponseNull, runtime.ErrErrorNull} {
		if err := c.Run(ctx); errors.Is(err, other) {
			t.Errorf("errors.Is(%v, %v) = true, want false", err, other)
		}
	}
	// A panicking service is an internal error, and the server goes on.
	s := newStore()
	s.run = func(context.Context) error { panic("bug") }
	c2, _ := newClient(t, serve(t, s, runtime.WithLogger(slog.New(slog.DiscardHandler))))
	wantCallError(t, "panicking Run", c2.Run(ctx), runtime.CodeInternalError, `internal error: the tool failed while calling "run"`)
	if n, err := c2.Count(ctx); err != nil || n != 0 {
		t.Errorf("Count after a panic = %d, %v", n, err)
	}
}

// Arguments that do not match the document never reach the service: the
// server answers -32602 listing every violation with its JSON path.
func TestInvalidParams(t *testing.T) {
	s := newStore("zero")
	c, rt := newClient(t, serve(t, s))
	type v struct{ path, message string }
	tests := []struct {
		fn   string
		args string // "" sends no params at all
		want []v
	}{
		{"create", "", []v{{"/text", "missing required member"}}},
		{"create", `{}`, []v{{"/text", "missing required member"}}},
		{"create", `{"text":5}`, []v{{"/text", "got 5, want string"}}},
		{"create", `{"text":["a"]}`, []v{{"/text", "got array, want string"}}},
		{"create", `{"Text":"a"}`, []v{{"/text", "missing required member"}}},
		{"read", `{"id":"0"}`, []v{{"/id", `got "0", want integer`}}},
		{"read", `{"id":0.5}`, []v{{"/id", "got 0.5, want integer"}}},
		{"read", `{"id":9223372036854775808}`, []v{{"/id", "got 9223372036854775808, want an integer within the range of int64"}}},
		{"update", `{}`, []v{{"/id", "missing required member"}, {"/text", "missing required member"}}},
		{"update", `{"text":7,"id":null}`, []v{{"/text", "got 7, want string"}, {"/id", "got null, want integer"}}},
		{"delete", `{"id":false}`, []v{{"/id", "got false, want integer"}}},
	}
	for _, tt := range tests {
		t.Run(tt.fn+" "+tt.args, func(t *testing.T) {
			fc := runtime.FunctionCall{Name: tt.fn}
			if tt.args != "" {
				fc.Arguments = json.RawMessage(tt.args)
			}
			_, err := rt.Call(t.Context(), fc)
			var want []runtime.Violation
			for _, w := range tt.want {
				want = append(want, runtime.Violation{Path: w.path, Message: w.message})
			}
			wantCallError(t, tt.fn, err, runtime.CodeInvalidParams, runtime.InvalidParams(want...).Message)
			if diff := cmp.Diff(want, asError(t, err).Violations()); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
		})
	}
	// Nothing reached the store.
	if n, err := c.Count(t.Context()); err != nil || n != 1 {
		t.Errorf("Count = %d, %v; want 1", n, err)
	}
	if got, _ := c.Read(t.Context(), mocktool.ReadArgs{ID: 0}); got != "zero" {
		t.Errorf("Read(0) = %q, want zero", got)
	}
	// Functions without parameters ignore what they are sent.
	if _, err := rt.Call(t.Context(), runtime.FunctionCall{Name: "count", Arguments: json.RawMessage(`{"id":"x"}`)}); err != nil {
		t.Errorf("count with arguments: %v", err)
	}
}

func TestMethodNotFound(t *testing.T) {
	_, rt := newClient(t, serve(t, newStore()))
	ctx := t.Context()
	_, err := rt.Call(ctx, runtime.FunctionCall{Name: "truncate"})
	wantCallError(t, "call truncate", err, runtime.CodeMethodNotFound, `method not found: "truncate"`)
	_, err = rt.Call(ctx, runtime.FunctionCall{Name: "sequentiallyRead"})
	wantCallError(t, "call sequentiallyRead", err, runtime.CodeMethodNotFound, `"sequentiallyRead" streams its results: call it with streamCall`)
	for name, msg := range map[string]string{
		"truncate": `method not found: "truncate"`,
		"count":    `"count" does not stream its result: call it with call`,
	} {
		n := 0
		for _, err := range rt.StreamCall(ctx, runtime.FunctionCall{Name: name}) {
			n++
			wantCallError(t, "streamCall "+name, err, runtime.CodeMethodNotFound, msg)
		}
		if n != 1 {
			t.Errorf("streamCall %s yielded %d times, want once", name, n)
		}
	}
}

func TestUnauthorized(t *testing.T) {
	url := serve(t, newStore("secret text"), runtime.WithAPIKeys("key-one", "key-two"))
	for _, key := range []string{"", "key-three", "KEY-ONE"} {
		c, rt := newClient(t, url, runtime.WithAPIKey(key))
		_, err := c.Count(t.Context())
		if !errors.Is(err, runtime.ErrUnauthorized) || errors.Is(err, runtime.ErrCall) {
			t.Errorf("key %q: Count err = %v, want ErrUnauthorized only", key, err)
		}
		texts, err := readAll(c.SequentiallyReadSeq(t.Context()))
		if !errors.Is(err, runtime.ErrUnauthorized) || len(texts) > 0 {
			t.Errorf("key %q: SequentiallyRead = %q, %v; want ErrUnauthorized", key, texts, err)
		}
		if _, err := rt.Load(t.Context()); !errors.Is(err, runtime.ErrUnauthorized) {
			t.Errorf("key %q: Load err = %v, want ErrUnauthorized", key, err)
		}
	}
	c, _ := newClient(t, url, runtime.WithAPIKey("key-two"))
	if texts, err := readAll(c.SequentiallyReadSeq(t.Context())); err != nil || !slices.Equal(texts, []mocktool.Text{"secret text"}) {
		t.Errorf("with key-two: SequentiallyRead = %q, %v", texts, err)
	}
}

func TestServerDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + runtime.DefaultPrefix
	ln.Close()
	c, _ := newClient(t, url)
	if err := c.Run(t.Context()); !errors.Is(err, runtime.ErrNoAccess) || errors.Is(err, runtime.ErrCall) {
		t.Errorf("Run err = %v, want ErrNoAccess only", err)
	}
	if _, err := readAll(c.SequentiallyReadSeq(t.Context())); !errors.Is(err, runtime.ErrNoAccess) {
		t.Errorf("SequentiallyRead err = %v, want ErrNoAccess", err)
	}
}

func TestContextCancelled(t *testing.T) {
	t.Run("before the stream", func(t *testing.T) {
		c, _ := newClient(t, serve(t, newStore("a")))
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		texts, err := readAll(c.SequentiallyReadSeq(ctx))
		if !errors.Is(err, context.Canceled) || errors.Is(err, runtime.ErrNoAccess) || len(texts) > 0 {
			t.Errorf("SequentiallyRead = %q, %v; want context.Canceled", texts, err)
		}
		if _, err := c.Count(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("Count err = %v, want context.Canceled", err)
		}
	})
	t.Run("during the stream", func(t *testing.T) {
		serverSaw := make(chan error, 1)
		s := newStore()
		s.stream = func(ctx context.Context, emit func(mocktool.Text) error) error {
			if err := emit("first"); err != nil {
				return err
			}
			<-ctx.Done()
			serverSaw <- ctx.Err()
			return ctx.Err()
		}
		c, _ := newClient(t, serve(t, s))
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		var got []mocktool.Text
		var errs []error
		for text, err := range c.SequentiallyReadSeq(ctx) {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			got = append(got, text)
			cancel() // after the first text arrived
		}
		if !slices.Equal(got, []mocktool.Text{"first"}) {
			t.Errorf("texts = %q, want [first]", got)
		}
		if len(errs) != 1 || !errors.Is(errs[0], context.Canceled) || errors.Is(errs[0], runtime.ErrNoAccess) {
			t.Errorf("errors = %v, want one context.Canceled", errs)
		}
		if err := <-serverSaw; !errors.Is(err, context.Canceled) {
			t.Errorf("the service's context ended with %v, want context.Canceled", err)
		}
	})
}

// Many goroutines share one client and one store (run with -race). Keep-alives
// are off here: with them the transport dials spare connections that may never
// carry a request, and the server's graceful shutdown waits 5 s for those
// (net/http treats a new connection as idle only after 5 s, Go issue 22682).
func TestConcurrentCalls(t *testing.T) {
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	c, _ := newClient(t, serve(t, newStore()), runtime.WithHTTPClient(hc))
	const n = 32
	ids := make(chan mocktool.ID, n)
	errs := make(chan error, 2*n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			id, err := c.Create(t.Context(), mocktool.CreateArgs{Text: strconv.Itoa(i)})
			if err != nil {
				errs <- err
				return
			}
			ids <- id
			if got, err := c.Read(t.Context(), mocktool.ReadArgs{ID: id}); err != nil || got != mocktool.Text(strconv.Itoa(i)) {
				errs <- fmt.Errorf("Read(%d) = %q, %v; want %d", id, got, err, i)
			}
			if _, err := readAll(c.SequentiallyReadSeq(t.Context())); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(ids)
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var got []mocktool.ID
	for id := range ids {
		got = append(got, id)
	}
	slices.Sort(got)
	for i, id := range got {
		if id != mocktool.ID(i) {
			t.Fatalf("ids = %d, want 0 to %d once each", got, n-1)
		}
	}
	if cnt, err := c.Count(t.Context()); err != nil || cnt != n {
		t.Errorf("Count = %d, %v; want %d", cnt, err, n)
	}
}

func TestDocument(t *testing.T) {
	data, err := os.ReadFile("mock_tool.json")
	if err != nil {
		t.Fatal(err)
	}
	fromFile, err := otload.LoadOpenTool(data)
	if err != nil {
		t.Fatal(err)
	}
	doc := mocktool.Document()
	if diff := cmp.Diff(fromFile, doc); diff != "" {
		t.Errorf("Document() differs from mock_tool.json (-file +embedded):\n%s", diff)
	}
	_, rt := newClient(t, serve(t, newStore()))
	loaded, err := rt.Load(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(doc, loaded); diff != "" {
		t.Errorf("client Load differs from Document() (-embedded +loaded):\n%s", diff)
	}
	if f := loaded.Functions[3]; f.Name != "sequentiallyRead" || !f.IsStream() || f.StreamData().Name != "text" {
		t.Errorf("loaded sequentiallyRead = %+v, want a stream of text", f)
	}
}

// jsonSchema is the part of a JSON Schema object the declarations use.
type jsonSchema struct {
	Type       string                 `json:"type"`
	Ref        string                 `json:"$ref"`
	Properties map[string]*jsonSchema `json:"properties"`
	Required   []string               `json:"required"`
	Defs       map[string]*jsonSchema `json:"$defs"`
}

func TestDeclarations(t *testing.T) {
	type want struct {
		props    map[string]string // property name → type, or "$ref" target
		required []string
	}
	wants := []struct {
		name string
		want
	}{
		{"count", want{map[string]string{}, nil}},
		{"create", want{map[string]string{"text": "string"}, []string{"text"}}},
		{"read", want{map[string]string{"id": "#/$defs/Id"}, []string{"id"}}},
		{"sequentiallyRead", want{map[string]string{}, nil}},
		{"update", want{map[string]string{"id": "#/$defs/Id", "text": "#/$defs/Text"}, []string{"id", "text"}}},
		{"delete", want{map[string]string{"id": "#/$defs/Id"}, []string{"id"}}},
		{"run", want{map[string]string{}, nil}},
	}
	decls := declare.Plain(mocktool.Document())
	if len(decls) != len(wants) {
		t.Fatalf("%d declarations, want %d", len(decls), len(wants))
	}
	for i, d := range decls {
		w := wants[i]
		if d.Name != w.name || d.Description == "" {
			t.Errorf("declaration %d = %q (description %q), want %q with a description", i, d.Name, d.Description, w.name)
			continue
		}
		var s jsonSchema
		if err := json.Unmarshal(d.Parameters, &s); err != nil {
			t.Fatalf("%s: parameters %s are not a JSON object: %v", d.Name, d.Parameters, err)
		}
		if s.Type != "object" || s.Properties == nil {
			t.Errorf("%s: parameters %s, want an object schema with properties", d.Name, d.Parameters)
		}
		if !slices.Equal(s.Required, w.required) {
			t.Errorf("%s: required = %q, want %q", d.Name, s.Required, w.required)
		}
		got := map[string]string{}
		for name, p := range s.Properties {
			if p.Ref != "" {
				got[name] = p.Ref
				// Every reference resolves inside the declaration.
				def, ok := s.Defs[strings.TrimPrefix(p.Ref, "#/$defs/")]
				if !strings.HasPrefix(p.Ref, "#/$defs/") || !ok || def.Type != "integer" && def.Type != "string" {
					t.Errorf("%s: %s refers to %s, which is not in $defs %s", d.Name, name, p.Ref, d.Parameters)
				}
			} else {
				got[name] = p.Type
			}
		}
		if diff := cmp.Diff(w.props, got); diff != "" {
			t.Errorf("%s: properties (-want +got):\n%s", d.Name, diff)
		}
	}
}

// must returns v, panicking on err (a NewTool that fails is a broken test).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
