// Package sse reads and writes Server-Sent Events: the events of the
// OpenTool protocol's POST /streamCall (read by runtime's Client, written by
// its server, [Writer]) and of REST APIs' text/event-stream responses (read
// by runtime/rest).
package sse

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"time"
)

// Event is one event read from a stream.
type Event struct {
	Name string
	Data []byte
	// ID is the event's id field, when it has one (HasID); Retry its retry
	// field in milliseconds, when it has a valid one (HasRetry).
	ID              string
	Retry           int64
	HasID, HasRetry bool
}

// Reader reads events: "field:value" or "field: value" lines, events ended by
// a blank line, multi-line data joined with "\n", comments (":…") ignored. An
// event larger than Max bytes (0: no limit) is an error.
//
// It keeps what the HTML specification's EventSource keeps for reconnecting:
// the last event ID (the id field in force when the last event ended: an
// event's id lasts until another one replaces it) and the reconnection time
// the retry field last set.
type Reader struct {
	R   *bufio.Reader
	Max int64
	// LastID is the last event ID; idBuf the id field in force (set from
	// the event being read; LastID takes it when the event ends).
	LastID, idBuf string
	// Retry is the reconnection time the stream asked for (0: none).
	Retry time.Duration
}

// Restart forgets the id field of an event that a broken connection cut
// off: the next event read starts from the last event ID.
func (s *Reader) Restart() { s.idBuf = s.LastID }

var ErrTooLarge = errors.New("opentool: a stream event is larger than the response limit")

// Next reads the next event.
func (s *Reader) Next() (Event, error) {
	var ev Event
	data := Pieces{Limit: s.Max}
	hasData := false
	for {
		line, err := s.R.ReadSlice('\n')
		long := err == bufio.ErrBufferFull // a line longer than the reader's buffer
		if !long && err != nil && (err != io.EOF || len(line) == 0) {
			if err == io.EOF && (hasData || ev.Name != "") {
				s.LastID = s.idBuf
				ev.Data = data.Bytes()
				return ev, nil
			}
			return ev, err
		}
		if !long {
			line = bytes.TrimRight(line, "\r\n")
			if len(line) == 0 {
				s.LastID = s.idBuf // an event ends, dispatched or not
				if hasData || ev.Name != "" {
					ev.Data = data.Bytes()
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
			// Gather the rest of the line where it goes, in Pieces, so that
			// an endless line costs at most the limit: a data value into the
			// event's data, another known field's value aside, the rest of a
			// comment or unknown field nowhere. ReadSlice's result is only
			// valid until the next read: value is copied first, and the
			// field's name was.
			rest := Pieces{Limit: s.Max - int64(data.n), discard: true}
			dst := &rest
			switch name {
			case "data":
				if hasData && !data.Write([]byte{'\n'}) {
					return ev, ErrTooLarge
				}
				dst = &data
			case "event", "id", "retry":
				rest.discard = false
			}
			floor := dst.n
			if !dst.Write(value) {
				return ev, ErrTooLarge
			}
			for err == bufio.ErrBufferFull {
				line, err = s.R.ReadSlice('\n')
				if !dst.Write(line) {
					return ev, ErrTooLarge
				}
			}
			if err != nil && err != io.EOF {
				return ev, err
			}
			dst.Trim(floor)
			if dst == &data {
				hasData = true
				name = "" // done
			} else {
				value = rest.Bytes()
			}
		}
		switch name {
		case "event":
			ev.Name = strings.TrimSpace(string(value))
		case "id":
			if bytes.IndexByte(value, 0) < 0 { // an id with NUL is ignored
				s.idBuf = string(value)
				ev.ID, ev.HasID = s.idBuf, true
			}
		case "retry":
			if n, ok := digits(value); ok {
				s.Retry = time.Duration(n) * time.Millisecond
				ev.Retry, ev.HasRetry = n, true
			}
		case "data":
			if hasData && !data.Write([]byte{'\n'}) || !data.Write(value) {
				return ev, ErrTooLarge
			}
			hasData = true
		}
		if err == io.EOF {
			s.LastID = s.idBuf
			ev.Data = data.Bytes()
			return ev, nil
		}
	}
}

// Pieces gathers bytes (an event's data, a long line) in Pieces that grow
// geometrically, at most Limit bytes in all (0: no limit), so that gathering
// n bytes allocates about n bytes: a growing slice would allocate up to four
// times that, copies included, before an endless line reached the limit.
type Pieces struct {
	full    [][]byte // the Pieces before last
	last    []byte
	n       int
	Limit   int64
	discard bool // count the bytes, keep none
}

// Write adds p; false, and nothing added, when the total would pass the limit.
func (b *Pieces) Write(p []byte) bool {
	if b.Limit > 0 && int64(b.n)+int64(len(p)) > b.Limit {
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
		if b.Limit > 0 {
			size = min(size, int(b.Limit-int64(b.n-len(p)))) // never less than len(p)
		}
		if b.last != nil {
			b.full = append(b.full, b.last)
		}
		b.last = make([]byte, 0, size)
	}
	return true
}

// Trim removes the line breaks that end the bytes, not before the first floor.
func (b *Pieces) Trim(floor int) {
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

// Bytes returns the bytes gathered, in one slice (nil for none).
func (b *Pieces) Bytes() []byte {
	if len(b.full) == 0 {
		return b.last
	}
	out := make([]byte, 0, b.n)
	for _, p := range b.full {
		out = append(out, p...)
	}
	return append(out, b.last...)
}

// digits reads the value of a retry field: ASCII digits only (another
// value is ignored), at most a day's milliseconds.
func digits(v []byte) (int64, bool) {
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
