package natsbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"

	"github.com/opentoolgen/opentoolgen/internal/natsmeta"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// Defaults of the service options.
const (
	// DefaultQueueGroup is the queue group of every endpoint unless
	// [WithQueueGroup] says otherwise: replicas of a tool share its calls.
	DefaultQueueGroup = "opentool"
	// DefaultPrefix is the subject prefix of a tool whose document has no
	// usable title.
	DefaultPrefix = "opentool"
	// DefaultMaxConcurrent is how many calls a service runs at once unless
	// [WithMaxConcurrent] says otherwise.
	DefaultMaxConcurrent = 256
	// DefaultStreamWindow is how many items of a stream the service sends
	// ahead of the caller's credit.
	DefaultStreamWindow = 64
	// DefaultStreamIdle bounds how long a stream waits for its caller's
	// credit before it is dropped, and how long Shutdown waits for calls in
	// flight.
	DefaultStreamIdle = 30 * time.Second
)

// Option configures [NewService] and [Serve].
type Option func(*config)

type config struct {
	prefix        string
	queue         string
	maxConcurrent int
	maxRequest    int
	window        int
	idle          time.Duration
	valueHeaders  map[string]string
	logger        *slog.Logger
	name, version string
}

// WithPrefix sets the subject prefix: function f is served on PREFIX.f. The
// prefix is one or more dot-separated subject tokens (no spaces, '*' or '>').
func WithPrefix(p string) Option { return func(c *config) { c.prefix = p } }

// WithQueueGroup sets the queue group of the endpoints (default
// [DefaultQueueGroup]): services in one group share the calls, each call
// going to one of them.
func WithQueueGroup(q string) Option { return func(c *config) { c.queue = q } }

// WithMaxConcurrent bounds the calls (and streams) the service runs at once
// (default [DefaultMaxConcurrent]). Calls run on workers, goroutines started
// as calls need them, up to n, and kept until Shutdown. An endpoint's
// subscription queues its calls for the workers and wakes one only when
// none is running: under load a running worker takes the next call without
// a hand-off, and a worker more is woken when the queued calls wait for
// about a quarter of a millisecond behind workers held by slow calls. So a
// slow call does not hold up the others beyond that. When n calls are
// queued, further requests wait in the subscription's pending queue
// (nats.go's pending limits apply).
// With 1, each endpoint serves its calls one at a time in its
// subscription's goroutine, as a micro handler does: a slow call holds up
// those behind it on its endpoint (other endpoints still run).
func WithMaxConcurrent(n int) Option { return func(c *config) { c.maxConcurrent = n } }

// WithMaxRequestBytes bounds the arguments of a call (default: the server's
// max_payload, 1 MiB unless configured, which bounds every message anyway).
// Larger requests are answered -32600.
func WithMaxRequestBytes(n int) Option { return func(c *config) { c.maxRequest = n } }

// WithStreamWindow sets how many items a stream sends before it waits for
// its caller's credit (default [DefaultStreamWindow]).
func WithStreamWindow(n int) Option { return func(c *config) { c.window = n } }

// WithStreamIdle bounds how long a stream waits for credit from a caller
// that stopped reading, and how long [Service.Shutdown] waits for calls in
// flight (default [DefaultStreamIdle]).
func WithStreamIdle(d time.Duration) Option { return func(c *config) { c.idle = d } }

// WithCallValueHeaders fills call values ([runtime.WithCallValues]) from
// request headers (header name → value name), as runtime.WithCallValueHeaders
// does for HTTP: a header is matched exactly, then case-insensitively.
func WithCallValueHeaders(headers map[string]string) Option {
	return func(c *config) {
		if c.valueHeaders == nil {
			c.valueHeaders = map[string]string{}
		}
		for h, n := range headers {
			c.valueHeaders[h] = n
		}
	}
}

// WithLogger sets the logger of tool panics and failed answers (default
// slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithService sets the micro service's name and version (default: the
// prefix with dots as dashes, and the document's version when it is
// semantic, else "0.0.0").
func WithService(name, version string) Option {
	return func(c *config) { c.name, c.version = name, version }
}

// Service is a tool served as a NATS micro service. Make it with
// [NewService]; stop it with [Service.Shutdown].
type Service struct {
	nc     *nats.Conn
	tool   runtime.Tool
	stream runtime.StreamTool
	cfg    config
	svc    *microService
	subj   map[string]string // endpoint subject → function
	// streamFns are the functions the document says stream.
	streamFns map[string]bool

	pool     pool          // the workers that run calls (pool.go)
	quit     chan struct{} // closed by Shutdown: workers end
	busy     atomic.Int64  // workers serving a call
	inflight sync.WaitGroup
	owned    int // subscriptions of the connection the micro service made
	calls    atomic.Int64
	errs     atomic.Int64
	streams  atomic.Int64

	cancels   sync.Map // call id → context.CancelFunc
	cancelSub *nats.Subscription

	base      context.Context // of every call: cancelled when Shutdown's grace ends
	cancelAll context.CancelFunc

	stopOnce sync.Once
	quitOnce sync.Once
	stopped  chan struct{}
}

var (
	tokenRE   = regexp.MustCompile(`^[^\s.*>]+$`)
	nameRE    = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	semverRE  = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)
	notNameRE = regexp.MustCompile(`[^a-z0-9_-]+`)
)

// PrefixOf is the default subject prefix of a tool with document doc: its
// title in lower case, each run of characters other than a-z, 0-9, '_' and
// '-' made one '_' (trimmed at both ends): "Catalog API" → "catalog_api".
// Without a document or a title with such characters it is
// [DefaultPrefix].
func PrefixOf(doc *document.OpenTool) string {
	if doc == nil {
		return DefaultPrefix
	}
	p := strings.Trim(notNameRE.ReplaceAllString(strings.ToLower(doc.Info.Title), "_"), "_")
	if p == "" {
		return DefaultPrefix
	}
	return p
}

// NewService serves tool on nc as a NATS micro service (so that $SRV.PING,
// $SRV.INFO and $SRV.STATS discover it): each function of its document is
// an endpoint named after it on the subject PREFIX.function, in a queue
// group. A tool without a document is served on one endpoint, "call", on
// PREFIX.* (the function is the subject's last token). See the package doc
// for the messages.
func NewService(ctx context.Context, nc *nats.Conn, tool runtime.Tool, opts ...Option) (*Service, error) {
	if nc == nil || tool == nil {
		return nil, errors.New("natsbridge: NewService needs a connection and a tool")
	}
	cfg := config{queue: DefaultQueueGroup, maxConcurrent: DefaultMaxConcurrent, window: DefaultStreamWindow, idle: DefaultStreamIdle}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.logger == nil {
		cfg.logger = slog.Default()
	}
	cfg.maxConcurrent = max(cfg.maxConcurrent, 1)
	cfg.window = max(cfg.window, 2)
	if cfg.idle <= 0 {
		cfg.idle = DefaultStreamIdle
	}
	if mp := int(nc.MaxPayload()); cfg.maxRequest <= 0 || (mp > 0 && cfg.maxRequest > mp) {
		cfg.maxRequest = mp
	}
	doc, err := tool.Load(ctx)
	if err != nil {
		return nil, fmt.Errorf("natsbridge: loading the tool's document: %w", err)
	}
	if cfg.prefix == "" {
		cfg.prefix = PrefixOf(doc)
	}
	for _, tok := range strings.Split(cfg.prefix, ".") {
		if !tokenRE.MatchString(tok) {
			return nil, fmt.Errorf("natsbridge: prefix %q: want dot-separated subject tokens without spaces, '*' or '>'", cfg.prefix)
		}
	}
	if cfg.queue == "" || !tokenRE.MatchString(strings.ReplaceAll(cfg.queue, ".", "_")) {
		return nil, fmt.Errorf("natsbridge: queue group %q: want a name without spaces, '*' or '>'", cfg.queue)
	}
	if cfg.name == "" {
		cfg.name = strings.ReplaceAll(cfg.prefix, ".", "-")
		if !nameRE.MatchString(cfg.name) {
			cfg.name = "opentool"
		}
	}
	if !nameRE.MatchString(cfg.name) {
		return nil, fmt.Errorf("natsbridge: service name %q: want letters, digits, '-' and '_' only", cfg.name)
	}
	if cfg.version == "" {
		cfg.version = "0.0.0"
		if doc != nil && semverRE.MatchString(doc.Info.Version) {
			cfg.version = doc.Info.Version
		}
	} else if !semverRE.MatchString(cfg.version) {
		return nil, fmt.Errorf("natsbridge: service version %q: want a semantic version (1.2.3)", cfg.version)
	}
	s := &Service{nc: nc, tool: tool, cfg: cfg, subj: map[string]string{}, streamFns: map[string]bool{}, quit: make(chan struct{}), stopped: make(chan struct{})}
	s.pool.init(s)
	s.stream, _ = tool.(runtime.StreamTool)
	s.base, s.cancelAll = context.WithCancel(context.Background())
	desc := "OpenTool tool served by natsbridge"
	if doc != nil && doc.Info.Description != "" {
		desc = doc.Info.Description
	} else if doc != nil && doc.Info.Title != "" {
		desc = doc.Info.Title
	}
	before := nc.NumSubscriptions()
	s.svc = newMicro(nc, cfg.name, cfg.version, desc, map[string]string{"opentool.prefix": cfg.prefix})
	if err := s.svc.start(); err != nil {
		s.svc.Stop()
		return nil, fmt.Errorf("natsbridge: %w", err)
	}
	if err := s.addEndpoints(doc); err != nil {
		s.svc.Stop()
		return nil, err
	}
	s.owned = max(nc.NumSubscriptions()-before, 0)
	s.cancelSub, err = nc.Subscribe(CancelSubject(cfg.prefix), func(m *nats.Msg) {
		if c, ok := s.cancels.Load(string(m.Data)); ok {
			c.(context.CancelFunc)()
		}
	})
	if err == nil {
		// Once NewService returns, the server routes requests here.
		err = nc.Flush()
	}
	if err != nil {
		s.svc.Stop()
		return nil, fmt.Errorf("natsbridge: %w", err)
	}
	return s, nil
}

func (s *Service) addEndpoints(doc *document.OpenTool) error {
	if doc == nil {
		subject := s.cfg.prefix + ".*"
		if err := s.svc.add("call", subject, s.cfg.queue, map[string]string{"description": "any function: the subject's last token names it"}, s.handle); err != nil {
			return fmt.Errorf("natsbridge: %w", err)
		}
		return nil
	}
	names := map[string]bool{}
	for _, f := range doc.Functions {
		if !tokenRE.MatchString(f.Name) {
			return fmt.Errorf("natsbridge: function %q cannot be a subject token (it has a space, '.', '*' or '>')", f.Name)
		}
		name := f.Name
		if !nameRE.MatchString(name) {
			name = strings.Trim(regexp.MustCompile(`[^A-Za-z0-9_-]+`).ReplaceAllString(name, "_"), "_")
		}
		for base, i := name, 2; name == "" || names[name]; i++ {
			name = base + "_" + strconv.Itoa(i)
		}
		names[name] = true
		subject := s.cfg.prefix + "." + f.Name
		s.subj[subject] = f.Name
		md := map[string]string{"function": f.Name}
		if f.Description != "" {
			md["description"] = f.Description
		}
		if f.IsStream() {
			md["stream"] = "true"
			s.streamFns[f.Name] = true
		}
		if err := s.svc.add(name, subject, s.cfg.queue, md, s.handle); err != nil {
			return fmt.Errorf("natsbridge: function %q: %w", f.Name, err)
		}
	}
	return nil
}

// Stats are counts of calls: of the service ([Service.Stats]), and of each
// endpoint, its data in $SRV.STATS.
type Stats struct {
	Calls    int64 `json:"calls"`    // calls answered, streams included
	Errors   int64 `json:"errors"`   // of which answered with an error
	Streams  int64 `json:"streams"`  // streams answered
	InFlight int   `json:"inFlight"` // calls running now
}

// Stats returns the service's counts so far.
func (s *Service) Stats() Stats { return s.stats() }

func (s *Service) stats() Stats {
	return Stats{Calls: s.calls.Load(), Errors: s.errs.Load(), Streams: s.streams.Load(), InFlight: int(s.busy.Load())}
}

// Prefix is the subject prefix the service serves under.
func (s *Service) Prefix() string { return s.cfg.prefix }

// Micro is the service's side of the micro protocol, for its Info and
// Stats (what $SRV.INFO and $SRV.STATS answer), Reset and Stopped. Its
// endpoints are the tool's functions: AddEndpoint and AddGroup's
// AddEndpoint refuse.
func (s *Service) Micro() micro.Service { return s.svc }

// serve answers one request and counts it in its endpoint's stats.
func (s *Service) serve(c call) {
	m := c.m
	if m.Reply == "" {
		return // a publish, not a request: there is no one to answer
	}
	s.svc.running(c.e)
	f := &finish{ms: s.svc, c: c}
	s.answer(m, f)
	f.record("") // a stream whose caller went
}

// finish records a call in its endpoint's stats once, just before its last
// answer goes out: a caller that has its answer finds its call counted.
type finish struct {
	ms     *microService
	c      call
	stream bool
	done   bool
}

// record records the call, with micro's text of the error it answers ("":
// none).
func (f *finish) record(errText string) {
	if !f.done {
		f.done = true
		f.ms.done(f.c.e, f.c.start, errText, f.stream)
	}
}

// answer answers m.
func (s *Service) answer(m *nats.Msg, f *finish) {
	name, ok := s.subj[m.Subject]
	if !ok {
		name = m.Subject[strings.LastIndexByte(m.Subject, '.')+1:]
	}
	ctx := s.callValues(s.base, m.Header)
	if m.Header != nil {
		// The call context the headers carry (W3C traceparent), and the
		// headers for the interceptors of a tool of runtime.Intercept.
		md := natsmeta.Header(m.Header)
		ctx = intercept.WithIncoming(intercept.ExtractMetadata(ctx, md), intercept.Incoming{Front: "nats", Meta: md, Destination: m.Subject})
	}
	if id := m.Header.Get(CallHeader); id != "" {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		s.cancels.Store(id, cancel)
		defer func() {
			s.cancels.Delete(id)
			cancel()
		}()
	}
	args, perr := s.args(m.Data)
	s.calls.Add(1)
	if m.Header.Get(StreamHeader) == streamAsk {
		s.streams.Add(1)
		f.stream = true
		s.serveStream(ctx, m, name, args, perr, f)
		return
	}
	var result json.RawMessage
	err := error(perr)
	if perr == nil {
		result, err = s.call(ctx, name, args)
	}
	if err != nil {
		s.errs.Add(1)
		e := wireError(err)
		if e.Code == runtime.CodeMethodNotFound && s.streamFns[name] {
			e.Message = strconv.Quote(name) + " streams its results: " + plainStreamHint
		}
		f.record(errorText(e.Code, e.Message))
		s.respond(m, errorMsg(e))
		return
	}
	tooLarge := func() {
		s.errs.Add(1)
		e := runtime.InternalError(fmt.Sprintf("internal error: the result of %q is larger than the server's max_payload (%d bytes)", name, s.nc.MaxPayload()))
		f.record(errorText(e.Code, e.Message))
		s.respond(m, errorMsg(e))
	}
	if mp := s.nc.MaxPayload(); mp > 0 && int64(len(result)) > mp {
		tooLarge()
		return
	}
	f.record("")
	if err := s.respond(m, &nats.Msg{Data: result}); errors.Is(err, nats.ErrMaxPayload) {
		tooLarge() // the connection's max_payload changed (a reconnection): counted as answered already
	}
}

func (s *Service) respond(m *nats.Msg, answer *nats.Msg) error {
	answer.Subject = m.Reply
	err := s.nc.PublishMsg(answer)
	if err != nil && !errors.Is(err, nats.ErrMaxPayload) {
		s.cfg.logger.Warn("natsbridge: answering a call", "subject", m.Subject, "error", err)
	}
	return err
}

// plainStreamHint ends the -32601 answer of a plain request (nats req, a
// micro client) of a function the document says streams, whose tool
// answers such a call -32601: it names the header that asks for the stream.
const plainStreamHint = "over NATS, send the request with the header " + StreamHeader + ": " + streamAsk +
	" and read several answers: start, items, done or error (natsbridge.Caller's StreamFunction does; the nats CLI: nats req -H " +
	StreamHeader + ":" + streamAsk + " --replies 0 SUBJECT ARGS)"

// args checks the arguments as an OpenTool server does.
func (s *Service) args(data []byte) (json.RawMessage, *runtime.Error) {
	if len(data) > s.cfg.maxRequest {
		return nil, &runtime.Error{Code: runtime.CodeInvalidRequest, Message: fmt.Sprintf("request too large: %d bytes, at most %d", len(data), s.cfg.maxRequest)}
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return json.RawMessage("{}"), nil
	}
	if !json.Valid(data) {
		var v any
		msg := "invalid JSON"
		if err := json.Unmarshal(data, &v); err != nil {
			msg = err.Error()
		}
		return nil, &runtime.Error{Code: runtime.CodeParseError, Message: "parse error: " + msg}
	}
	if data[0] != '{' {
		return nil, &runtime.Error{Code: runtime.CodeInvalidParams, Message: "params must be a JSON object of named arguments"}
	}
	return data, nil
}

// callValues puts the call values the headers carry on ctx.
func (s *Service) callValues(ctx context.Context, h nats.Header) context.Context {
	if len(s.cfg.valueHeaders) == 0 || len(h) == 0 {
		return ctx
	}
	var values map[string]string
	for hn, vn := range s.cfg.valueHeaders {
		v := h.Get(hn)
		if v == "" {
			for k, vs := range h {
				if strings.EqualFold(k, hn) && len(vs) > 0 {
					v = vs[0]
					break
				}
			}
		}
		if v != "" {
			if values == nil {
				values = map[string]string{}
			}
			values[vn] = v
		}
	}
	if values == nil {
		return ctx
	}
	return runtime.WithCallValues(ctx, values)
}

// call runs the tool, a panic or a result that is not an object becoming
// -32603 as on an OpenTool server.
func (s *Service) call(ctx context.Context, name string, args json.RawMessage) (result json.RawMessage, err error) {
	defer func() {
		if v := recover(); v != nil {
			s.cfg.logger.Error("natsbridge: tool panicked", "function", name, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			result, err = nil, runtime.InternalError("internal error: the tool failed while calling "+strconv.Quote(name))
		}
	}()
	result, err = s.tool.Call(ctx, name, args)
	if err != nil {
		return nil, wireError(err)
	}
	return checkResult(result)
}

var errNotObject = runtime.InternalError("internal error: the tool returned a result that is not a JSON object")

func checkResult(result json.RawMessage) (json.RawMessage, error) {
	result = bytes.TrimSpace(result)
	if len(result) == 0 {
		return json.RawMessage("{}"), nil
	}
	if !json.Valid(result) || result[0] != '{' {
		return nil, errNotObject
	}
	if !utf8.Valid(result) {
		result = bytes.ToValidUTF8(result, []byte(`\ufffd`))
	}
	return result, nil
}

// wireError is the error object an OpenTool server answers for err: an
// *runtime.Error keeps its code (500 when it has none), message and data;
// any other error is 500 with its text.
func wireError(err error) *runtime.Error {
	var e *runtime.Error
	if errors.As(err, &e) {
		if e == nil {
			return runtime.InternalError("internal error: the tool returned a nil *runtime.Error")
		}
		code := e.Code
		if code == 0 {
			code = runtime.CodeToolError
		}
		return &runtime.Error{Code: code, Message: e.Message, Data: e.Data}
	}
	return &runtime.Error{Code: runtime.CodeToolError, Message: err.Error()}
}

// Shutdown stops the service and drains it: its endpoints unsubscribe at
// once (new calls go to the other services of the queue group, or find no
// responder), the calls it has accepted run to completion and are answered,
// and Shutdown returns nil when they are. When ctx ends first, the contexts
// of the calls still running are cancelled, Shutdown waits up to 2s more for
// them to answer, and returns ctx's error. A service whose connection is
// not connected (its server went away: reconnecting, or closed) waits only
// for the calls already handed to it, so that with none in flight Shutdown
// returns nil at once. The connection stays open: close or drain it after
// (nc.Drain flushes the answers).
func (s *Service) Shutdown(ctx context.Context) error {
	var err error
	s.stopOnce.Do(func() {
		defer close(s.stopped)
		n := s.nc.NumSubscriptions()
		connected := s.nc.IsConnected()
		if err = s.svc.Stop(); err != nil {
			return
		}
		if !connected {
			// The server went away (the connection is reconnecting or
			// closed): no request comes any more, no flush or unsubscription
			// completes before a reconnection, and the calls to wait for
			// are the ones handed to the workers.
			err = s.waitCalls(ctx)
			s.cancelSub.Unsubscribe()
			return
		}
		// After the flush, every request the server routed here before the
		// unsubscription is in a subscription's pending queue.
		if ferr := s.flush(ctx); ferr != nil && !errors.Is(ferr, nats.ErrConnectionClosed) {
			err = ferr
			return
		}
		err = s.waitDrained(ctx, n-s.owned)
		s.cancelSub.Unsubscribe()
	})
	if err == nil {
		select {
		case <-s.stopped:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	defer s.quitOnce.Do(func() { close(s.quit) }) // workers end once their calls are answered
	if err != nil && ctx.Err() != nil {
		s.cancelAll()
		done := make(chan struct{})
		go func() { s.inflight.Wait(); close(done) }()
		t := time.NewTimer(cancelWait)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
		}
	}
	return err
}

// cancelWait bounds the wait for calls cancelled at the end of a shutdown.
const cancelWait = 2 * time.Second

// flush is nc.FlushWithContext, with a deadline of DefaultStreamIdle when
// ctx has none.
func (s *Service) flush(ctx context.Context) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultStreamIdle)
		defer cancel()
	}
	return s.nc.FlushWithContext(ctx)
}

// waitDrained waits until the service's subscriptions have handed every
// pending request to handle (a drained subscription leaves the connection,
// which then has at most target) and every call has been answered.
func (s *Service) waitDrained(ctx context.Context, target int) error {
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for s.nc.NumSubscriptions() > target && !s.nc.IsClosed() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return s.waitCalls(ctx)
}

// waitCalls waits until every call handed to the service has been answered.
func (s *Service) waitCalls(ctx context.Context) error {
	done := make(chan struct{})
	go func() { s.inflight.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Serve serves tool on nc (see [NewService]) until ctx ends, then shuts the
// service down (see [Service.Shutdown], bounded by [WithStreamIdle]) and
// returns. It does not close nc.
func Serve(ctx context.Context, nc *nats.Conn, tool runtime.Tool, opts ...Option) error {
	s, err := NewService(ctx, nc, tool, opts...)
	if err != nil {
		return err
	}
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.idle)
	defer cancel()
	return s.Shutdown(sctx)
}
