package runtime

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Server-Sent Events of POST /streamCall, as the Dart reference sends them:
//
//	event:start
//	data:{"start":"<function>"}
//
//	event:data
//	data:{"jsonrpc":"2.0","result":{…},"error":null,"id":…}   (once per result)
//
//	event:error
//	data:{"jsonrpc":"2.0","result":{},"error":{…},"id":…}     (ends the stream)
//
//	event:done
//	data:{"done":"<function>"}                                 (ends the stream)
const (
	EventStart = "start"
	EventData  = "data"
	EventError = "error"
	EventDone  = "done"
)

type sseWriter struct {
	mu      sync.Mutex
	w       http.ResponseWriter
	rc      *http.ResponseController
	dl      connDeadlines // nil: none
	timeout time.Duration // for each event; 0: none
	closed  bool
	err     error
}

func (s *sseWriter) event(name string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("opentool: stream already ended")
	}
	if s.err != nil {
		return s.err
	}
	buf := getBuffer()
	defer putBuffer(buf)
	buf.WriteString("event:")
	buf.WriteString(name)
	buf.WriteString("\ndata:")
	if bytes.ContainsAny(data, "\r\n") {
		// A tool's pretty-printed JSON: in valid JSON a line break can only be
		// whitespace, and the event must stay on one data line (the Dart client
		// reads exactly one).
		if err := json.Compact(buf, data); err != nil {
			return err
		}
	} else {
		buf.Write(data)
	}
	buf.WriteString("\n\n")
	if s.dl != nil && s.timeout > 0 { // a client that stops reading is dropped
		s.dl.SetWriteDeadline(time.Now().Add(s.timeout))
	}
	if _, err := s.w.Write(buf.Bytes()); err != nil {
		s.err = err
		return err
	}
	if err := s.rc.Flush(); err != nil {
		s.err = err
		return err
	}
	return nil
}

func (h *handler) serveStreamCall(w http.ResponseWriter, r *http.Request, dl connDeadlines, readBy time.Time) {
	buf := getBuffer()
	defer putBuffer(buf)
	p, ok := h.readRequest(w, r, buf, dl, readBy)
	if !ok {
		return
	}
	if h.stream == nil {
		h.writeProtocolError(w, http.StatusOK, p.id, &Error{Code: CodeMethodNotFound, Message: "this tool has no streaming functions: " + quote(p.method)})
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	sw := &sseWriter{w: w, rc: http.NewResponseController(w), dl: dl, timeout: max(h.cfg.writeTimeout, 0)}
	defer func() { // a tool goroutine that emits after the handler returned gets an error
		sw.mu.Lock()
		sw.closed = true
		sw.mu.Unlock()
	}()

	ctx := r.Context()
	name, _ := json.Marshal(p.method)
	if sw.event(EventStart, []byte(`{"start":`+string(name)+`}`)) != nil {
		return
	}
	emit := func(result json.RawMessage) error {
		if err := ctx.Err(); err != nil { // the caller has gone
			return err
		}
		res, err := h.checkResult(p.method, result)
		if err != nil {
			return err
		}
		b := getBuffer()
		defer putBuffer(b)
		appendResponse(b, res, nil, p.id)
		return sw.event(EventData, b.Bytes())
	}
	err := h.runStream(ctx, p, emit)
	sw.mu.Lock()
	gone := sw.err != nil
	sw.mu.Unlock()
	if gone || ctx.Err() != nil { // the caller has gone: nothing more can be sent
		return
	}
	if err != nil {
		b := getBuffer()
		appendResponse(b, nil, err.(*Error), p.id)
		sw.event(EventError, b.Bytes())
		putBuffer(b)
	} else {
		sw.event(EventDone, []byte(`{"done":`+string(name)+`}`))
	}
}

// runStream runs the tool's stream; the error it returns, if any, is an *Error.
func (h *handler) runStream(ctx context.Context, p parsed, emit func(json.RawMessage) error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			h.logPanic(p.method, v)
			err = InternalError("internal error: the tool failed while calling " + quote(p.method))
		}
	}()
	if err := h.stream.StreamCall(ctx, p.method, p.params, emit); err != nil {
		return asError(err) // here, so that a panicking Error method is recovered too
	}
	return nil
}

// sseEvent is one event read from a stream.
type sseEvent struct {
	name string
	data []byte
	// id is the event's id field, when it has one (hasID); retry its retry
	// field in milliseconds, when it has a valid one (hasRetry).
	id              string
	retry           int64
	hasID, hasRetry bool
}

// sseReader reads events: "field:value" or "field: value" lines, events ended by
// a blank line, multi-line data joined with "\n", comments (":…") ignored. An
// event larger than max bytes (0: no limit) is an error.
//
// It keeps what the HTML specification's EventSource keeps for reconnecting:
// the last event ID (the id field in force when the last event ended: an
// event's id lasts until another one replaces it) and the reconnection time
// the retry field last set.
type sseReader struct {
	r   *bufio.Reader
	max int64
	// lastID is the last event ID; idBuf the id field in force (set from
	// the event being read; lastID takes it when the event ends).
	lastID, idBuf string
	// retry is the reconnection time the stream asked for (0: none).
	retry time.Duration
}

var errEventTooLarge = errors.New("opentool: a stream event is larger than the response limit")

func (s *sseReader) next() (sseEvent, error) {
	var ev sseEvent
	data := pieces{limit: s.max}
	hasData := false
	for {
		line, err := s.r.ReadSlice('\n')
		long := err == bufio.ErrBufferFull // a line longer than the reader's buffer
		if !long && err != nil && (err != io.EOF || len(line) == 0) {
			if err == io.EOF && (hasData || ev.name != "") {
				s.lastID = s.idBuf
				ev.data = data.bytes()
				return ev, nil
			}
			return ev, err
		}
		if !long {
			line = bytes.TrimRight(line, "\r\n")
			if len(line) == 0 {
				s.lastID = s.idBuf // an event ends, dispatched or not
				if hasData || ev.name != "" {
					ev.data = data.bytes()
					return ev, nil
				}
				continue
			}
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		name := string(field) // line is overwritten by the next read
		if line[0] == ':' {
			name = "" // a comment
		}
		if long {
			// Gather the rest of the line where it goes, in pieces, so that
			// an endless line costs at most the limit: a data value into the
			// event's data, another known field's value aside, the rest of a
			// comment or unknown field nowhere. ReadSlice's result is only
			// valid until the next read: value is copied first, and the
			// field's name was.
			rest := pieces{limit: s.max - int64(data.n), discard: true}
			dst := &rest
			switch name {
			case "data":
				if hasData && !data.write([]byte{'\n'}) {
					return ev, errEventTooLarge
				}
				dst = &data
			case "event", "id", "retry":
				rest.discard = false
			}
			floor := dst.n
			if !dst.write(value) {
				return ev, errEventTooLarge
			}
			for err == bufio.ErrBufferFull {
				line, err = s.r.ReadSlice('\n')
				if !dst.write(line) {
					return ev, errEventTooLarge
				}
			}
			if err != nil && err != io.EOF {
				return ev, err
			}
			dst.trim(floor)
			if dst == &data {
				hasData = true
				name = "" // done
			} else {
				value = rest.bytes()
			}
		}
		switch name {
		case "event":
			ev.name = strings.TrimSpace(string(value))
		case "id":
			if bytes.IndexByte(value, 0) < 0 { // an id with NUL is ignored
				s.idBuf = string(value)
				ev.id, ev.hasID = s.idBuf, true
			}
		case "retry":
			if n, ok := sseDigits(value); ok {
				s.retry = time.Duration(n) * time.Millisecond
				ev.retry, ev.hasRetry = n, true
			}
		case "data":
			if hasData && !data.write([]byte{'\n'}) || !data.write(value) {
				return ev, errEventTooLarge
			}
			hasData = true
		}
		if err == io.EOF {
			s.lastID = s.idBuf
			ev.data = data.bytes()
			return ev, nil
		}
	}
}

// pieces gathers bytes (an event's data, a long line) in pieces that grow
// geometrically, at most limit bytes in all (0: no limit), so that gathering
// n bytes allocates about n bytes: a growing slice would allocate up to four
// times that, copies included, before an endless line reached the limit.
type pieces struct {
	full    [][]byte // the pieces before last
	last    []byte
	n       int
	limit   int64
	discard bool // count the bytes, keep none
}

// write adds p; false, and nothing added, when the total would pass the limit.
func (b *pieces) write(p []byte) bool {
	if b.limit > 0 && int64(b.n)+int64(len(p)) > b.limit {
		return false
	}
	b.n += len(p)
	if b.discard {
		return true
	}
	for len(p) > 0 {
		if room := cap(b.last) - len(b.last); room > 0 {
			m := min(room, len(p))
			b.last = append(b.last, p[:m]...)
			p = p[m:]
			continue
		}
		size := max(len(p), 64, min(2*cap(b.last), 1<<20))
		if b.limit > 0 {
			size = min(size, int(b.limit-int64(b.n-len(p)))) // never less than len(p)
		}
		if b.last != nil {
			b.full = append(b.full, b.last)
		}
		b.last = make([]byte, 0, size)
	}
	return true
}

// trim removes the line breaks that end the bytes, not before the first floor.
func (b *pieces) trim(floor int) {
	for b.n > floor {
		if len(b.last) == 0 {
			if len(b.full) == 0 {
				return
			}
			b.last, b.full = b.full[len(b.full)-1], b.full[:len(b.full)-1]
			continue
		}
		if c := b.last[len(b.last)-1]; c != '\r' && c != '\n' {
			return
		}
		b.last = b.last[:len(b.last)-1]
		b.n--
	}
}

// bytes returns the bytes gathered, in one slice (nil for none).
func (b *pieces) bytes() []byte {
	if len(b.full) == 0 {
		return b.last
	}
	out := make([]byte, 0, b.n)
	for _, p := range b.full {
		out = append(out, p...)
	}
	return append(out, b.last...)
}

// sseDigits reads the value of a retry field: ASCII digits only (another
// value is ignored), at most a day's milliseconds.
func sseDigits(v []byte) (int64, bool) {
	if len(v) == 0 {
		return 0, false
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		if n < int64(24*time.Hour/time.Millisecond) {
			n = n*10 + int64(c-'0')
		}
	}
	return min(n, int64(24*time.Hour/time.Millisecond)), true
}
