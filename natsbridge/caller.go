package natsbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nuid"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// DefaultCallTimeout bounds a call whose context has no deadline, unless
// [WithCallTimeout] says otherwise: a service that dies with the call in
// flight answers nothing, and the caller must not wait for ever.
const DefaultCallTimeout = 5 * time.Minute

// DefaultStreamPing is how long a stream's caller waits for its next
// message before it asks whether the stream is still served.
const DefaultStreamPing = time.Second

// CallerOption configures [NewCaller].
type CallerOption func(*Caller)

// WithCallTimeout bounds calls (and the wait for a stream's first message)
// whose context has no deadline (default [DefaultCallTimeout]; 0 or less: no
// bound but the context's).
func WithCallTimeout(d time.Duration) CallerOption { return func(c *Caller) { c.timeout = d } }

// WithStreamPing sets how long a stream waits for a message before it asks
// the service whether the stream is alive (default [DefaultStreamPing]): a
// service that is gone ends the stream with an error then.
func WithStreamPing(d time.Duration) CallerOption { return func(c *Caller) { c.ping = d } }

// WithHeaders adds to each request the headers h returns for the call's
// context (the call values a service reads with [WithCallValueHeaders], a
// trace context, …); h may return nil.
func WithHeaders(h func(ctx context.Context) nats.Header) CallerOption {
	return func(c *Caller) { c.headers = h }
}

// Caller is a [runtime.Caller] over NATS: the function f of a tool served
// by [NewService] under prefix P is called with a request on P.f. A typed
// client over it, NewClient(natsbridge.NewCaller(nc, "catalog")), calls the
// tool as over OpenTool HTTP, MCP or in process, with the same results and
// errors: an error the tool answered is a [runtime.ClassCall]
// *runtime.Error with its code, message and data; no service on the subject
// (or a closed connection) is a [runtime.ClassNoAccess] one; when ctx ends
// first, the error wraps ctx.Err(); a streaming call of a function that does
// not stream has [runtime.ErrNoStreaming] in its chain; a stream that ends
// without its terminal message (its service went away) is a ClassNoAccess
// error, as a broken event stream is over HTTP.
type Caller struct {
	nc      *nats.Conn
	prefix  string
	timeout time.Duration
	ping    time.Duration
	headers func(context.Context) nats.Header
}

var _ runtime.Caller = (*Caller)(nil)

// NewCaller returns the Caller of the tool served on nc under prefix.
func NewCaller(nc *nats.Conn, prefix string, opts ...CallerOption) *Caller {
	c := &Caller{nc: nc, prefix: prefix, timeout: DefaultCallTimeout, ping: DefaultStreamPing}
	for _, o := range opts {
		o(c)
	}
	if c.ping <= 0 {
		c.ping = DefaultStreamPing
	}
	return c
}

// request is the message of a call, or the error of arguments that cannot
// be sent.
func (c *Caller) request(ctx context.Context, name string, args json.RawMessage) (*nats.Msg, error) {
	args = bytes.TrimSpace(args)
	if len(args) > 0 && string(args) != "null" && args[0] != '{' {
		return nil, &runtime.Error{Code: runtime.CodeInvalidParams, Message: "arguments must be a JSON object"}
	}
	if name == "" {
		return nil, &runtime.Error{Class: runtime.ClassCall, Code: runtime.CodeInvalidRequest, Message: "method must be a non-empty string"}
	}
	if !tokenRE.MatchString(name) {
		return nil, &runtime.Error{Class: runtime.ClassCall, Code: runtime.CodeMethodNotFound,
			Message: "method not found: " + strconv.Quote(name) + " (not a NATS subject token)"}
	}
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	m := &nats.Msg{Subject: c.prefix + "." + name, Data: args}
	if c.headers != nil {
		m.Header = c.headers(ctx)
	}
	withMetadata(ctx, m)
	return m, nil
}

// withMetadata puts on m's headers the metadata of ctx
// (intercept.WithOutgoingMetadata, as runtime.InterceptCaller sets it) and the
// call context the runtime's Propagator writes (W3C traceparent).
func withMetadata(ctx context.Context, m *nats.Msg) {
	md := intercept.OutgoingMetadata(ctx)
	if md == nil && !intercept.Propagating() {
		return
	}
	if m.Header == nil {
		m.Header = nats.Header{}
	}
	h := intercept.HeaderMetadata(m.Header)
	if md != nil {
		for _, k := range md.Keys() {
			h.Set(k, md.Get(k))
		}
	}
	intercept.InjectMetadata(ctx, h)
}

func (c *Caller) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok || c.timeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, c.timeout)
}

// CallFunction implements [runtime.Caller] with one request.
func (c *Caller) CallFunction(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	m, err := c.request(ctx, name, args)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, contextError(name, err)
	}
	id := withCallID(ctx, m)
	bctx, cancel := c.bound(ctx)
	defer cancel()
	answer, err := c.nc.RequestMsgWithContext(bctx, m)
	if err != nil && id != "" && bctx.Err() != nil {
		c.cancelCall(id)
	}
	if err != nil {
		return nil, c.transportError(ctx, name, m.Subject, err)
	}
	if isError(answer) {
		return nil, decodeError(answer)
	}
	return result(answer.Data)
}

// withCallID gives m a call id when the caller's ctx can end (a call that
// can be cancelled), and returns it. A call whose context cannot end is not
// cancelled at the service when the call timeout ends.
func withCallID(ctx context.Context, m *nats.Msg) string {
	if ctx.Done() == nil {
		return ""
	}
	if m.Header == nil {
		m.Header = nats.Header{}
	}
	id := nuid.Next()
	m.Header.Set(CallHeader, id)
	return id
}

// cancelCall tells the services of the prefix to cancel the call id.
func (c *Caller) cancelCall(id string) {
	c.nc.Publish(CancelSubject(c.prefix), []byte(id))
}

// result is the result object of an answer.
func result(data []byte) (json.RawMessage, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return json.RawMessage("{}"), nil
	}
	if !json.Valid(data) || data[0] != '{' {
		return nil, &runtime.Error{Class: runtime.ClassResponseNull, Message: "the result is not a JSON object"}
	}
	return data, nil
}

func contextError(name string, err error) error {
	return fmt.Errorf("opentool: call %s: %w", strconv.Quote(name), err)
}

// transportError classifies an error of NATS: ctx's end, or no access.
func (c *Caller) transportError(ctx context.Context, name, subject string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return contextError(name, cerr)
	}
	msg := "no service answered on " + subject
	switch {
	case errors.Is(err, nats.ErrNoResponders):
		msg = "no service answers on " + subject + " (NATS: no responders)"
	case errors.Is(err, context.DeadlineExceeded):
		msg = "no answer on " + subject + " within " + c.timeout.String()
	default:
		msg += ": " + err.Error()
	}
	return &runtime.Error{Class: runtime.ClassNoAccess, Code: runtime.CodeNoAccess, Message: msg}
}

// The header and status of the message the NATS server sends to a
// request's reply subject when no one subscribes to its subject, as nats.go
// reads them.
const (
	statusHeader       = "Status"
	noRespondersStatus = "503"
)

// noStreaming is a -32601 call error of a streaming call, with
// runtime.ErrNoStreaming in its chain.
type noStreaming struct{ e *runtime.Error }

func (e noStreaming) Error() string   { return e.e.Error() }
func (e noStreaming) Unwrap() []error { return []error{e.e, runtime.ErrNoStreaming} }

func notStreamed(e *runtime.Error) error {
	if e.Code == runtime.CodeMethodNotFound {
		return noStreaming{e}
	}
	return e
}

// StreamFunction implements [runtime.Caller]: a request asking for a
// stream, whose answers come on an inbox of its own; see the package doc.
// Stopping the iteration early cancels the stream at the service.
func (c *Caller) StreamFunction(ctx context.Context, name string, args json.RawMessage) iter.Seq2[json.RawMessage, error] {
	return func(yield func(json.RawMessage, error) bool) {
		m, err := c.request(ctx, name, args)
		if err != nil {
			yield(nil, err)
			return
		}
		if err := ctx.Err(); err != nil {
			yield(nil, contextError(name, err))
			return
		}
		if m.Header == nil {
			m.Header = nats.Header{}
		}
		m.Header.Set(StreamHeader, streamAsk)
		m.Header.Set(WindowHeader, strconv.Itoa(DefaultStreamWindow)) // what msgs holds beside start and end
		id := withCallID(ctx, m)
		bctx, cancel := c.bound(ctx)
		defer cancel()
		m.Reply = c.nc.NewInbox()
		msgs := make(chan *nats.Msg, DefaultStreamWindow+8)
		sub, err := c.nc.ChanSubscribe(m.Reply, msgs)
		if err != nil {
			yield(nil, c.transportError(ctx, name, m.Subject, err))
			return
		}
		defer sub.Unsubscribe()
		sub.SetPendingLimits(-1, -1) // the service sends no more than its window ahead
		if err := c.nc.PublishMsg(m); err != nil {
			yield(nil, c.transportError(ctx, name, m.Subject, err))
			return
		}
		s := &clientStream{c: c, ctx: ctx, name: name, subject: m.Subject, msgs: msgs, id: id, every: DefaultStreamWindow / 2}
		defer s.cancel()
		s.run(bctx, yield)
	}
}

type clientStream struct {
	c       *Caller
	ctx     context.Context
	name    string
	subject string
	msgs    chan *nats.Msg
	id      string // the call's id
	control string // the service's control subject, once started
	taken   int64
	every   int64 // credit is given each every items: half the service's window
	ended   bool
	ping    *time.Timer // the silence after which the service is asked
}

// cancel tells the service to stop, unless the stream ended.
func (s *clientStream) cancel() {
	if s.ping != nil {
		s.ping.Stop()
	}
	switch {
	case s.ended:
	case s.control != "":
		s.c.nc.PublishMsg(&nats.Msg{Subject: s.control, Header: nats.Header{StreamHeader: {streamCancel}}})
	case s.id != "":
		s.c.cancelCall(s.id)
	}
}

// run reads the stream; bctx bounds the wait for its start.
func (s *clientStream) run(bctx context.Context, yield func(json.RawMessage, error) bool) {
	for {
		m, err := s.next(bctx)
		if err != nil {
			yield(nil, err)
			return
		}
		switch m.Header.Get(StreamHeader) {
		case streamStart:
			s.control = m.Header.Get(ControlHeader)
			if w, err := strconv.Atoi(m.Header.Get(WindowHeader)); err == nil && w >= 2 {
				s.every = int64(w / 2)
			}
			bctx = s.ctx // the call timeout bounds the wait for the start; pings bound the rest
		case streamItem:
			item, err := result(m.Data)
			if err != nil {
				yield(nil, err)
				return
			}
			s.taken++
			if s.taken%s.every == 0 && s.control != "" {
				s.c.nc.PublishMsg(&nats.Msg{Subject: s.control,
					Header: nats.Header{StreamHeader: {streamCredit}, CreditHeader: {strconv.FormatInt(s.taken, 10)}}})
			}
			if !yield(item, nil) {
				return
			}
		case streamDone:
			s.ended = true
			return
		default:
			s.ended = true
			if m.Header.Get(statusHeader) == noRespondersStatus && len(m.Data) == 0 {
				yield(nil, s.c.transportError(s.ctx, s.name, s.subject, nats.ErrNoResponders))
			} else if isError(m) {
				yield(nil, notStreamed(decodeError(m)))
			} else {
				yield(nil, &runtime.Error{Class: runtime.ClassResponseNull, Message: "the stream's answer is not one natsbridge sends"})
			}
			return
		}
	}
}

// next is the stream's next message. Once the stream started, a silence of
// the ping interval makes it ask the service whether the stream is alive:
// a service that is gone (no responders) ends the stream with an error.
func (s *clientStream) next(ctx context.Context) (*nats.Msg, error) {
	var tick <-chan time.Time
	if s.control != "" {
		if s.ping == nil {
			s.ping = time.NewTimer(s.c.ping)
		} else {
			s.ping.Reset(s.c.ping) // since Go 1.23, no stale tick after Reset
		}
		tick = s.ping.C
	}
	for {
		select {
		case m := <-s.msgs:
			return m, nil
		case <-ctx.Done():
			s.ended = s.ctx.Err() == nil // the call timeout: the service may be gone
			return nil, s.c.transportError(s.ctx, s.name, s.subject, ctx.Err())
		case <-tick:
			s.ping.Reset(s.c.ping)
			pctx, cancel := context.WithTimeout(ctx, s.c.ping)
			_, err := s.c.nc.RequestMsgWithContext(pctx, &nats.Msg{Subject: s.control, Header: nats.Header{StreamHeader: {streamPing}}})
			cancel()
			if errors.Is(err, nats.ErrNoResponders) {
				select { // the end may have come just before the service left
				case m := <-s.msgs:
					return m, nil
				default:
				}
				s.ended = true
				return nil, &runtime.Error{Class: runtime.ClassNoAccess, Code: runtime.CodeNoAccess,
					Message: "the stream broke: its service went away without a done or error message"}
			}
			if s.ctx.Err() != nil {
				return nil, contextError(s.name, s.ctx.Err())
			}
		}
	}
}

// Destination is the subject a call of function is sent to: what
// runtime.InterceptCaller's interceptors see as CallInfo.Destination (the
// messaging.destination.name of otelbridge's spans).
func (c *Caller) Destination(function string) string { return c.prefix + "." + function }

// Front names the transport for the interceptors of runtime.InterceptCaller:
// "nats".
func (c *Caller) Front() string { return "nats" }
