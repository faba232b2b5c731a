package sse

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"
)

// Writer writes the events of a Server-Sent Events response, each flushed
// as it is written and each one data line (as the Dart reference client
// reads them). It is safe for concurrent use: a tool's goroutine may write
// while the handler ends the stream.
type Writer struct {
	mu      sync.Mutex
	w       http.ResponseWriter
	rc      *http.ResponseController
	dl      interface{ SetWriteDeadline(time.Time) error } // nil: none
	timeout time.Duration                                  // for each event; 0: none
	closed  bool
	err     error
	buf     bytes.Buffer
}

// NewWriter returns a Writer of w; with dl and a timeout above 0, each
// event must be written within timeout (a client that stops reading is
// dropped).
func NewWriter(w http.ResponseWriter, dl interface{ SetWriteDeadline(time.Time) error }, timeout time.Duration) *Writer {
	return &Writer{w: w, rc: http.NewResponseController(w), dl: dl, timeout: max(timeout, 0)}
}

// Event writes the event name with data, compacted onto one line when it
// holds line breaks. After Close it fails; after a failed write it returns
// that failure.
func (s *Writer) Event(name string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("opentool: stream already ended")
	}
	if s.err != nil {
		return s.err
	}
	buf := &s.buf
	buf.Reset()
	buf.WriteString("event:")
	buf.WriteString(name)
	buf.WriteString("\ndata:")
	if bytes.ContainsAny(data, "\r\n") {
		// A tool's pretty-printed JSON: in valid JSON a line break can only be
		// whitespace, and the event must stay on one data line.
		if err := json.Compact(buf, data); err != nil {
			return err
		}
	} else {
		buf.Write(data)
	}
	buf.WriteString("\n\n")
	if s.dl != nil && s.timeout > 0 {
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

// Close makes every later Event fail: the handler has returned.
func (s *Writer) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}

// Failed reports whether a write has failed: the client has gone.
func (s *Writer) Failed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err != nil
}
