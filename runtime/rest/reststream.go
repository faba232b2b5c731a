package rest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/internal/jsonrpc"
	"github.com/opentoolgen/opentoolgen/internal/sse"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// Streaming responses of generated REST clients: an operation whose success
// response is text/event-stream (Server-Sent Events) or one JSON value per
// line (application/x-ndjson, application/jsonl) is read event by event, as
// an iterator, while the API sends it.

// Formats of a streamed response body, for [StreamResponse].
const (
	// StreamSSE reads Server-Sent Events: each event's data (its data lines
	// joined with "\n") is one value; comments, events without data and the
	// event names are skipped, and an event whose data is [DONE] (as OpenAI
	// sends) ends the stream.
	StreamSSE = "sse"
	// StreamNDJSON reads one JSON value per line; blank lines are skipped.
	StreamNDJSON = "ndjson"
	// StreamSSEEvents reads Server-Sent Events whole, as OpenAPI 3.2 models
	// them: each event with data is the JSON object of the fields it has,
	// {"event": name, "data": data, "id": id, "retry": n}, data a string
	// (generated types read a JSON value from it where the document says
	// so: DecodeText). Comments are skipped and [DONE] ends the stream, as
	// for StreamSSE.
	StreamSSEEvents = "sse-events"
)

// StreamResponse sends r and yields the values of its streamed response body
// as they arrive, decoded from JSON into T (SSE data into a string T is taken
// as text). accept is the media type asked for (the Accept header); format is
// StreamSSE, StreamSSEEvents or StreamNDJSON. Each range over the sequence
// sends the request again; breaking out of the loop closes the response
// body, and with it the connection.
//
// The client's Timeout bounds the wait for the response's headers only, not
// the stream (a chat or a log tail may last longer): the context ends the
// stream. MaxResponseBytes bounds each event rather than the whole body. A
// non-2xx answer is read whole and turned into the call's error by fail (the
// documented error responses, as [APIError] or [StatusError]); nil means
// [Response.Unexpected]. An event larger than MaxResponseBytes, or whose data
// does not decode, ends the stream with an error naming the event.
//
// When the connection of a Server-Sent Events stream breaks, the client's
// Reconnect policy, if it has one, opens it again (see
// [Client.Reconnect]); the events go on in the same sequence.
func StreamResponse[T any](ctx context.Context, r *Request, accept, format string, fail func(*Response) error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		if fail == nil {
			fail = (*Response).Unexpected
		}
		s := &eventStream{r: r, ctx: ctx, accept: accept, format: format, fail: fail}
		resp, err := r.openStream(ctx, accept)
		if err == nil {
			err = s.check(resp)
		}
		if err != nil {
			yield(zero, err)
			return
		}
		defer func() { s.body.Close() }()
		s.start(resp)
		op := r.method + " " + r.path
		limit := r.c.maxResponseBytes()
		for n := 1; ; n++ {
			data, err := s.values.next()
			if err == io.EOF {
				return
			}
			if err != nil && !errors.Is(err, sse.ErrTooLarge) && ctx.Err() == nil {
				var ended bool
				if ended, err = s.reconnect(err); err == nil && !ended {
					n--
					continue
				}
				if ended {
					return
				}
			}
			if err != nil {
				var se *streamError
				switch {
				case errors.As(err, &se):
					err = se.err // the answer to a reconnection, as the call's
				case errors.Is(err, sse.ErrTooLarge):
					err = fmt.Errorf("%s: event %d is larger than %d bytes", op, n, limit)
				case ctx.Err() != nil:
					err = fmt.Errorf("%s: reading event %d: %w", op, n, ctx.Err())
				default:
					err = fmt.Errorf("%s: reading event %d: %w", op, n, redactURLError(err))
				}
				yield(zero, err)
				return
			}
			s.failures = 0
			if format == StreamSSEEvents {
				data = eventObject(s.values.ev)
			}
			var v T
			if p, ok := any(&v).(*string); ok && format == StreamSSE {
				*p = string(data)
			} else if err := json.Unmarshal(data, &v); err != nil {
				// The API sent what its document does not say: a bad gateway
				// for a tool's caller, as for a response that does not decode.
				yield(zero, &runtime.Error{Code: http.StatusBadGateway, Message: fmt.Sprintf("%s: event %d does not match the document: %v (data: %s)", op, n, err, clipText(data))})
				return
			}
			if !yield(v, nil) {
				return
			}
		}
	}
}

// eventStream is a streamed response being read, across the connections a
// reconnecting client opens.
type eventStream struct {
	r              *Request
	ctx            context.Context
	accept, format string
	fail           func(*Response) error

	body   io.Closer
	req    *http.Request // the request of the first connection, as sent
	values *valueReader
	// failures counts the connections opened since the last event.
	failures int
}

// streamError carries the error of an answer to a reconnection (an error
// status), which is the stream's error as it is.
type streamError struct{ err error }

func (e *streamError) Error() string { return e.err.Error() }
func (e *streamError) Unwrap() error { return e.err }

// check turns an answer that is not a stream into the call's error: a
// non-2xx status (read whole, given to fail), or for SSE a 2xx of another
// media type. It closes the body of an answer it refuses.
func (s *eventStream) check(resp *http.Response) error {
	r := s.r
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		res, err := r.readResponse(resp)
		if err == nil {
			err = s.fail(res)
		}
		return err
	}
	if s.format != StreamNDJSON {
		if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "" && mt != "text/event-stream" {
			defer resp.Body.Close()
			res, err := r.readResponse(resp)
			if err == nil {
				err = &runtime.Error{Code: http.StatusBadGateway, Message: fmt.Sprintf("%s %s: HTTP %d: the response is %s, not text/event-stream: %s",
					r.method, r.path, res.StatusCode, mt, clipText(res.Body))}
			}
			return err
		}
	}
	return nil
}

// start reads the values of resp, the stream's first connection or a new one.
func (s *eventStream) start(resp *http.Response) {
	if s.req == nil {
		s.req = resp.Request
	}
	s.body = resp.Body
	if s.values == nil {
		s.values = newValueReader(resp.Body, s.format, s.r.c.maxResponseBytes())
	} else {
		s.values.reset(resp.Body)
	}
}

// reconnect opens a Server-Sent Events stream again after its connection
// broke with cause, as the client's Reconnect policy says, and reads on
// from the new connection. It returns cause when the policy does not
// reconnect (there is none, the stream is not SSE, the request may not be
// sent twice, the attempts are spent, the wait would pass the context's
// deadline or MaxRetryAfter), the context's error when it ends first, a
// *streamError with the call's error when the API refuses, and ended when
// it answers 204 No Content: the stream is over.
func (s *eventStream) reconnect(cause error) (ended bool, err error) {
	p := s.r.c.Reconnect
	sse := s.values.sse
	if p == nil || sse == nil || s.req == nil || !p.retryable(s.req) {
		return false, cause
	}
	s.body.Close()
	var last *http.Response // the last refusal, for its Retry-After
	for {
		s.failures++
		if s.failures >= p.attempts() {
			return false, cause
		}
		d, ok := p.wait(s.failures, last, time.Now())
		if sse.Retry > d {
			d = sse.Retry // never sooner than the stream asked
			ok = ok && sse.Retry <= p.maxRetryAfter()
		}
		if dl, has := s.ctx.Deadline(); has && time.Now().Add(d).After(dl) {
			ok = false
		}
		if !ok {
			return false, cause
		}
		t := time.NewTimer(d)
		select {
		case <-s.ctx.Done():
			t.Stop()
			return false, s.ctx.Err()
		case <-t.C:
		}
		rr := s.r
		if sse.LastID != "" {
			rr = s.r.withHeader("Last-Event-ID", sse.LastID)
		}
		resp, err := rr.openStream(s.ctx, s.accept)
		if err != nil {
			if s.ctx.Err() != nil {
				return false, s.ctx.Err()
			}
			cause, last = err, nil
			continue
		}
		if resp.StatusCode == http.StatusNoContent {
			resp.Body.Close()
			return true, nil // the API says there is nothing more
		}
		if retryStatus(resp.StatusCode) {
			res, rerr := s.r.readResponse(resp)
			resp.Body.Close()
			if rerr != nil {
				cause = rerr
			} else {
				cause = &streamError{s.fail(res)}
			}
			last = resp
			continue
		}
		if err := s.check(resp); err != nil {
			return false, &streamError{err}
		}
		s.start(resp)
		return false, nil
	}
}

// withHeader returns a copy of r that sends the header name with value.
func (r *Request) withHeader(name, value string) *Request {
	cp := *r
	cp.header = r.header.Clone()
	if cp.header == nil {
		cp.header = http.Header{}
	}
	cp.header.Set(name, value)
	return &cp
}

// openStream sends the request for a streamed response: the client's Timeout
// bounds the wait for the response headers, not the reading of the body.
func (r *Request) openStream(ctx context.Context, accept string) (*http.Response, error) {
	if r.c.Timeout <= 0 {
		return r.roundTrip(ctx, accept)
	}
	cctx, cancel := context.WithCancel(ctx)
	timer := time.AfterFunc(r.c.Timeout, cancel)
	resp, err := r.roundTrip(cctx, accept)
	if !timer.Stop() { // the timeout has fired: the body is cancelled too
		if err == nil {
			resp.Body.Close()
		}
		cancel()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%s %s: no response within %v: %w", r.method, r.path, r.c.Timeout, context.DeadlineExceeded)
	}
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelBody{resp.Body, cancel}
	return resp, nil
}

// cancelBody releases the context of a streamed response when it is closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// valueReader reads the values of a stream body: the data of each SSE event
// or each line of NDJSON, at most limit bytes.
type valueReader struct {
	br    *bufio.Reader
	sse   *sse.Reader // nil for NDJSON
	limit int64
	ev    sse.Event // the SSE event of the last value
}

func newValueReader(body io.Reader, format string, limit int64) *valueReader {
	v := &valueReader{br: bufio.NewReader(body), limit: limit}
	if format != StreamNDJSON {
		v.sse = &sse.Reader{R: v.br, Max: limit}
	}
	return v
}

// reset reads on from body, a new connection of the same stream: the SSE
// reader keeps its last event ID and reconnection time.
func (v *valueReader) reset(body io.Reader) {
	v.br.Reset(body)
	if v.sse != nil {
		v.sse.Restart() // the id of an event the break cut off is not kept
	}
}

// next returns the next value, valid until the next call; io.EOF when the
// stream has ended.
func (v *valueReader) next() ([]byte, error) {
	if v.sse != nil {
		for {
			ev, err := v.sse.Next()
			if err != nil {
				return nil, err
			}
			if len(ev.Data) == 0 {
				continue // an event with no data is not dispatched
			}
			if string(bytes.TrimSpace(ev.Data)) == "[DONE]" {
				return nil, io.EOF
			}
			v.ev = ev
			return ev.Data, nil
		}
	}
	for {
		line, err := readLine(v.br, v.limit)
		if len(bytes.TrimSpace(line)) > 0 {
			return line, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// eventObject is the JSON object of an event's fields (StreamSSEEvents).
func eventObject(ev sse.Event) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	if ev.Name != "" {
		b.WriteString(`"event":`)
		jsonrpc.WriteString(&b, ev.Name)
		b.WriteByte(',')
	}
	b.WriteString(`"data":`)
	jsonrpc.WriteString(&b, string(ev.Data))
	if ev.HasID {
		b.WriteString(`,"id":`)
		jsonrpc.WriteString(&b, ev.ID)
	}
	if ev.HasRetry {
		b.WriteString(`,"retry":`)
		b.WriteString(strconv.FormatInt(ev.Retry, 10))
	}
	b.WriteByte('}')
	return b.Bytes()
}

// readLine reads a line of at most limit bytes (its end of line left out),
// valid until the next read; io.EOF after the last one. A line longer than
// br's buffer is gathered in pieces: an endless one costs at most limit.
func readLine(br *bufio.Reader, limit int64) ([]byte, error) {
	part, err := br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		if limit > 0 && int64(len(bytes.TrimRight(part, "\r\n"))) > limit {
			return nil, sse.ErrTooLarge
		}
		return bytes.TrimRight(part, "\r\n"), err
	}
	long := sse.Pieces{Limit: limit}
	for err == bufio.ErrBufferFull {
		if !long.Write(part) {
			return nil, sse.ErrTooLarge
		}
		part, err = br.ReadSlice('\n')
	}
	if !long.Write(bytes.TrimRight(part, "\r\n")) {
		return nil, sse.ErrTooLarge
	}
	long.Trim(0) // a "\r" that ended the previous part
	return long.Bytes(), err
}

// clipText is a body or event shown in an error: on one line, at most 200
// bytes, valid UTF-8.
func clipText(b []byte) string {
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(b), "\uFFFD")), " ")
	if len(s) > 200 {
		n := 200
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "…"
	}
	return s
}
