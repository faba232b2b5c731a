package natsexec

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
)

// traceContext is a W3C trace context (https://www.w3.org/TR/trace-context/):
// the traceparent header's fields.
type traceContext struct {
	traceID [16]byte
	spanID  [8]byte
	flags   byte
}

// parseTraceparent reads a traceparent header value: version-traceid-spanid-
// flags, lower-case hex. Version 00 must have exactly four fields; a later
// version may have more after a '-', of which the first four are read (as the
// recommendation says a parser of version 00 should). Version ff, all-zero ids
// and upper-case hex are invalid.
func parseTraceparent(s string) (traceContext, bool) {
	var tc traceContext
	s = strings.TrimSpace(s)
	if len(s) < 55 || s[2] != '-' || s[35] != '-' || s[52] != '-' {
		return tc, false
	}
	version, ok := hexByte(s[0:2])
	if !ok || version == 0xff {
		return tc, false
	}
	if version == 0 && len(s) != 55 || version > 0 && len(s) > 55 && s[55] != '-' {
		return tc, false
	}
	if !lowerHex(s[3:35]) || !lowerHex(s[36:52]) {
		return tc, false
	}
	hex.Decode(tc.traceID[:], []byte(s[3:35]))
	hex.Decode(tc.spanID[:], []byte(s[36:52]))
	if tc.traceID == ([16]byte{}) || tc.spanID == ([8]byte{}) {
		return tc, false
	}
	if tc.flags, ok = hexByte(s[53:55]); !ok {
		return tc, false
	}
	return tc, true
}

// String is the traceparent header value of version 00.
func (tc traceContext) String() string {
	var b [55]byte
	copy(b[:], "00-")
	hex.Encode(b[3:35], tc.traceID[:])
	b[35] = '-'
	hex.Encode(b[36:52], tc.spanID[:])
	b[52] = '-'
	hex.Encode(b[53:55], []byte{tc.flags})
	return string(b[:])
}

// child returns the context of a new span whose parent is tc: the same trace
// and flags (version 00 knows only the sampled flag), a new span id.
func (tc traceContext) child() traceContext {
	c := traceContext{traceID: tc.traceID, flags: tc.flags & 0x01}
	for c.spanID == ([8]byte{}) {
		rand.Read(c.spanID[:])
	}
	return c
}

// newRoot returns the context of a new trace, sampled.
func newRoot() traceContext {
	var tc traceContext
	for tc.traceID == ([16]byte{}) {
		rand.Read(tc.traceID[:])
	}
	tc.flags = 0x01
	return tc.child()
}

func hexByte(s string) (byte, bool) {
	if !lowerHex(s) {
		return 0, false
	}
	var b [1]byte
	hex.Decode(b[:], []byte(s))
	return b[0], true
}

func lowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
