package natsbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// errCallerGone is what emit returns once the caller cancelled the stream,
// stopped giving credit or the service is shutting the stream down.
var errCallerGone = errors.New("natsbridge: the caller stopped reading the stream")

// serveStream answers a streaming call: start (with the control subject),
// one item per result, then done or error. Items go out while the caller has
// credit; the caller gives credit on the control subject, where it can also
// cancel the stream and ask whether it is alive.
func (s *Service) serveStream(ctx context.Context, m *nats.Msg, name string, args json.RawMessage, perr *runtime.Error, f *finish) {
	end := func(e *runtime.Error) {
		s.errs.Add(1)
		msg := errorMsg(e)
		msg.Header.Set(StreamHeader, streamError)
		f.record(errorText(e.Code, e.Message))
		s.respond(m, msg)
	}
	if perr != nil {
		end(perr)
		return
	}
	if s.stream == nil {
		end(&runtime.Error{Code: runtime.CodeMethodNotFound, Message: "this tool has no streaming functions: " + strconv.Quote(name)})
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	window := s.cfg.window
	if w, err := strconv.Atoi(m.Header.Get(WindowHeader)); err == nil && w >= 2 && w < window {
		window = w // the caller takes no more
	}
	st := &serverStream{credit: int64(window), wake: make(chan struct{}, 1)}
	control := s.nc.NewRespInbox()
	sub, err := s.nc.Subscribe(control, func(c *nats.Msg) {
		if c.Header.Get(statusHeader) == noRespondersStatus && len(c.Data) == 0 {
			cancel() // the server's answer to a message of the stream: nobody reads it
			return
		}
		switch c.Header.Get(StreamHeader) {
		case streamCancel:
			cancel()
		case streamPing:
			c.Respond(nil)
		case streamCredit:
			if n, err := strconv.ParseInt(c.Header.Get(CreditHeader), 10, 64); err == nil {
				st.give(n, int64(window))
			}
		}
	})
	if err != nil {
		end(runtime.InternalError("internal error: the stream could not start: " + err.Error()))
		return
	}
	defer sub.Unsubscribe()
	// The start and the items carry the control subject as their reply
	// subject: when the caller's subject has no subscriber any more (it
	// went), the server answers one there with no responders, which ends
	// the stream, whatever credit it has left.
	start := &nats.Msg{Reply: control, Header: nats.Header{StreamHeader: {streamStart}, ControlHeader: {control}, WindowHeader: {strconv.Itoa(window)}}}
	if s.respond(m, start) != nil {
		return
	}
	var mu sync.Mutex // emit may be called from goroutines of the tool
	var sent int64
	emit := func(item json.RawMessage) error {
		mu.Lock()
		defer mu.Unlock()
		if err := ctx.Err(); err != nil {
			return errCallerGone
		}
		item, err := checkResult(item)
		if err != nil {
			return err
		}
		if !st.wait(ctx, sent, s.cfg.idle) {
			cancel()
			return errCallerGone
		}
		msg := &nats.Msg{Subject: m.Reply, Reply: control, Data: item, Header: nats.Header{StreamHeader: {streamItem}}}
		st.sent(sent + 1) // before the caller can take it
		if err := s.nc.PublishMsg(msg); err != nil {
			if errors.Is(err, nats.ErrMaxPayload) {
				st.sent(sent)
				return runtime.InternalError(fmt.Sprintf("internal error: an item of %q is larger than the server's max_payload (%d bytes)", name, s.nc.MaxPayload()))
			}
			cancel()
			return errCallerGone
		}
		sent++
		return nil
	}
	err = s.streamCall(ctx, name, args, emit)
	mu.Lock() // no emit after the end
	defer mu.Unlock()
	switch {
	case ctx.Err() != nil: // the caller went: there is no one to tell
	case err != nil:
		end(wireError(err))
	default:
		f.record("")
		s.respond(m, &nats.Msg{Header: nats.Header{StreamHeader: {streamDone}}})
	}
}

func (s *Service) streamCall(ctx context.Context, name string, args json.RawMessage, emit func(json.RawMessage) error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			s.cfg.logger.Error("natsbridge: tool panicked", "function", name, "panic", fmt.Sprint(v))
			err = runtime.InternalError("internal error: the tool failed while calling " + strconv.Quote(name))
		}
	}()
	return s.stream.StreamCall(ctx, name, args, emit)
}

// serverStream is a stream's credit: how many items it may have sent.
type serverStream struct {
	mu     sync.Mutex
	credit int64
	count  int64 // items sent
	wake   chan struct{}
}

// give takes a credit message saying that the caller has taken n items: the
// stream may send up to window items more than that. A caller cannot have
// taken more items than were sent, so n is capped at the items sent: credit
// granted ahead (2^31, say) does not let a stream run on once its caller is
// gone, unread, past the window and the idle bound.
func (st *serverStream) give(n, window int64) {
	st.mu.Lock()
	n = max(min(n, st.count), 0)
	if n+window > st.credit {
		st.credit = n + window
	}
	st.mu.Unlock()
	select {
	case st.wake <- struct{}{}:
	default:
	}
}

// sent records that n items have been sent.
func (st *serverStream) sent(n int64) {
	st.mu.Lock()
	st.count = n
	st.mu.Unlock()
}

// wait waits until the stream may send item number sent, for at most idle;
// false when it may not.
func (st *serverStream) wait(ctx context.Context, sent int64, idle time.Duration) bool {
	var timer *time.Timer
	for {
		st.mu.Lock()
		ok := sent < st.credit
		st.mu.Unlock()
		if ok {
			return true
		}
		if timer == nil {
			timer = time.NewTimer(idle)
			defer timer.Stop()
		}
		select {
		case <-st.wake:
		case <-ctx.Done():
			return false
		case <-timer.C:
			return false
		}
	}
}
