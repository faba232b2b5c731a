package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
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

	ctx := h.callContext(r, p.id)
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
