package runtime

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
	"strings"
	"time"
	"unicode/utf8"
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
)

// StreamResponse sends r and yields the values of its streamed response body
// as they arrive, decoded from JSON into T (SSE data into a string T is taken
// as text). accept is the media type asked for (the Accept header); format is
// StreamSSE or StreamNDJSON. Each range over the sequence sends the request
// again; breaking out of the loop closes the response body, and with it the
// connection.
//
// The client's Timeout bounds the wait for the response's headers only, not
// the stream (a chat or a log tail may last longer): the context ends the
// stream. MaxResponseBytes bounds each event rather than the whole body. A
// non-2xx answer is read whole and turned into the call's error by fail (the
// documented error responses, as [APIError] or [StatusError]); nil means
// [Response.Unexpected]. An event larger than MaxResponseBytes, or whose data
// does not decode, ends the stream with an error naming the event.
func StreamResponse[T any](ctx context.Context, r *Request, accept, format string, fail func(*Response) error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		resp, err := r.openStream(ctx, accept)
		if err != nil {
			yield(zero, err)
			return
		}
		defer resp.Body.Close()
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			res, err := r.readResponse(resp)
			if err == nil {
				if fail == nil {
					fail = (*Response).Unexpected
				}
				err = fail(res)
			}
			yield(zero, err)
			return
		}
		op := r.method + " " + r.path
		if format == StreamSSE {
			if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "" && mt != "text/event-stream" {
				res, err := r.readResponse(resp)
				if err == nil {
					err = &Error{Code: http.StatusBadGateway, Message: fmt.Sprintf("%s: HTTP %d: the response is %s, not text/event-stream: %s",
						op, res.StatusCode, mt, clipText(res.Body))}
				}
				yield(zero, err)
				return
			}
		}
		limit := r.c.maxResponseBytes()
		next := nextValue(resp.Body, format, limit)
		for n := 1; ; n++ {
			data, err := next()
			if err == io.EOF {
				return
			}
			if err != nil {
				switch {
				case errors.Is(err, errEventTooLarge):
					err = fmt.Errorf("%s: event %d is larger than %d bytes", op, n, limit)
				case ctx.Err() != nil:
					err = fmt.Errorf("%s: reading event %d: %w", op, n, ctx.Err())
				default:
					err = fmt.Errorf("%s: reading event %d: %w", op, n, redactURLError(err))
				}
				yield(zero, err)
				return
			}
			var v T
			if p, ok := any(&v).(*string); ok && format == StreamSSE {
				*p = string(data)
			} else if err := json.Unmarshal(data, &v); err != nil {
				// The API sent what its document does not say: a bad gateway
				// for a tool's caller, as for a response that does not decode.
				yield(zero, &Error{Code: http.StatusBadGateway, Message: fmt.Sprintf("%s: event %d does not match the document: %v (data: %s)", op, n, err, clipText(data))})
				return
			}
			if !yield(v, nil) {
				return
			}
		}
	}
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

// nextValue returns a function that reads the next value of a stream body:
// the data of an SSE event or a line of NDJSON, at most limit bytes; io.EOF
// when the stream has ended.
func nextValue(body io.Reader, format string, limit int64) func() ([]byte, error) {
	br := bufio.NewReader(body)
	if format == StreamSSE {
		sr := &sseReader{r: br, max: limit}
		return func() ([]byte, error) {
			for {
				ev, err := sr.next()
				if err != nil {
					return nil, err
				}
				if len(ev.data) == 0 {
					continue // an event with no data is not dispatched
				}
				if string(bytes.TrimSpace(ev.data)) == "[DONE]" {
					return nil, io.EOF
				}
				return ev.data, nil
			}
		}
	}
	return func() ([]byte, error) {
		for {
			line, err := readLine(br, limit)
			if len(bytes.TrimSpace(line)) > 0 {
				return line, nil
			}
			if err != nil {
				return nil, err
			}
		}
	}
}

// readLine reads a line of at most limit bytes (its end of line left out),
// valid until the next read; io.EOF after the last one.
func readLine(br *bufio.Reader, limit int64) ([]byte, error) {
	var long []byte
	for {
		part, err := br.ReadSlice('\n')
		if limit > 0 && int64(len(long)+len(bytes.TrimRight(part, "\r\n"))) > limit {
			return nil, errEventTooLarge
		}
		if err == bufio.ErrBufferFull {
			long = append(long, part...)
			continue
		}
		if long != nil {
			part = append(long, part...)
		}
		return bytes.TrimRight(part, "\r\n"), err
	}
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
