package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"
	"unicode/utf8"
)

// Reading a request on the server: the body, within the read deadline and the
// memory the server lends to bodies still arriving; the JSON-RPC envelope,
// each member once; ids and raw JSON made valid UTF-8 before they are echoed.

// ---- deadlines ----

// connDeadlines is what http.ResponseController uses to set a connection's
// deadlines. The handler looks for it once per request, so that a
// ResponseWriter without deadlines (httptest.ResponseRecorder) costs nothing.
type connDeadlines interface {
	SetReadDeadline(time.Time) error
	SetWriteDeadline(time.Time) error
}

// deadlinesOf returns w's deadlines, unwrapping as http.ResponseController
// does, or nil when w has none.
func deadlinesOf(w http.ResponseWriter) connDeadlines {
	for {
		switch t := w.(type) {
		case connDeadlines:
			return t
		case interface{ Unwrap() http.ResponseWriter }:
			w = t.Unwrap()
		default:
			return nil
		}
	}
}

// extendWrite gives the answer about to be written WithWriteTimeout from now.
func (h *handler) extendWrite(dl connDeadlines) {
	if dl != nil && h.cfg.writeTimeout > 0 {
		dl.SetWriteDeadline(time.Now().Add(h.cfg.writeTimeout))
	}
}

// ---- the body ----

const (
	// bodyFree is what a request body may hold before it borrows from the
	// memory lent to bodies: nearly every request fits, and is read into the
	// pooled buffer without a lock.
	bodyFree = 16 << 10
	// bodyChunk is the unit in which a larger body borrows, and the size of the
	// pooled pieces it is read into until it has arrived whole.
	bodyChunk = 64 << 10
)

var (
	errBodyTooLarge = errors.New("request body too large")
	errBodyBusy     = errors.New("no memory for the request body before its read deadline")
)

var chunkPool = sync.Pool{New: func() any { return new([bodyChunk]byte) }}

// readBody reads r's body, at most the largest body plus one byte, and
// returns it: in buf when it is small, else in a slice of its own (and buf is
// left empty).
//
// Up to bodyFree bytes go into buf, which grows as they arrive. Past that, a
// body borrows from h.bodies at once all the memory it may need (its
// Content-Length, or the largest body), waiting while it is lent to others: a
// body never holds part of the memory while it waits for the rest, so bodies
// cannot lock each other out. It is then read in pooled chunks as it arrives,
// and copied into one slice once whole: a client that stalls halfway pins what
// it has sent, within the bound of all bodies together. The error is
// errBodyTooLarge, errBodyBusy, or the read's.
func (h *handler) readBody(r *http.Request, buf *bytes.Buffer, deadline time.Time) ([]byte, error) {
	limit := h.cfg.maxBody + 1
	small := min(bodyFree, limit)
	if r.ContentLength > 0 && r.ContentLength < small {
		small = r.ContentLength
	}
	for int64(buf.Len()) < small {
		if buf.Available() == 0 {
			buf.Grow(int(min(max(int64(buf.Cap()), 512), small-int64(buf.Len()))))
		}
		p := buf.AvailableBuffer()
		n, err := r.Body.Read(p[:min(int64(cap(p)), small-int64(buf.Len()))])
		buf.Write(p[:n])
		if err == io.EOF {
			return h.checkSize(buf.Bytes())
		}
		if err != nil {
			return nil, err
		}
	}
	total := int64(buf.Len())
	if total == r.ContentLength || total == limit {
		return h.checkSize(buf.Bytes())
	}

	// A large body.
	need := limit - total
	if r.ContentLength > 0 {
		need = r.ContentLength - total
	}
	lent := (need + bodyChunk - 1) / bodyChunk * bodyChunk
	if !h.bodies.acquire(r.Context(), lent, deadline) {
		return nil, errBodyBusy
	}
	var chunks []*[bodyChunk]byte
	defer func() {
		for _, c := range chunks {
			chunkPool.Put(c)
		}
		h.bodies.release(lent)
	}()
	var err error
	for err == nil && total < limit && int64(len(chunks))*bodyChunk < lent {
		c := chunkPool.Get().(*[bodyChunk]byte)
		chunks = append(chunks, c)
		var n int
		n, err = fill(r.Body, c[:min(bodyChunk, limit-total)])
		total += int64(n)
	}
	if err == nil && total < limit { // all it declared has come: the end must follow
		var probe [1]byte
		var n int
		n, err = r.Body.Read(probe[:])
		total += int64(n)
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	if total > h.cfg.maxBody {
		return nil, errBodyTooLarge
	}
	body := make([]byte, total)
	off := copy(body, buf.Bytes())
	for _, c := range chunks {
		off += copy(body[off:], c[:])
	}
	buf.Reset()
	return body, nil
}

func (h *handler) checkSize(body []byte) ([]byte, error) {
	if int64(len(body)) > h.cfg.maxBody {
		return nil, errBodyTooLarge
	}
	return body, nil
}

// fill reads into p until it is full (err nil), the body ends (io.EOF, n may
// be > 0) or a read fails.
func fill(r io.Reader, p []byte) (int, error) {
	n := 0
	for n < len(p) {
		m, err := r.Read(p[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// bodyBudget is the memory lent to request bodies still arriving, all
// requests together: a weighted semaphore that serves its waiters in order.
type bodyBudget struct {
	mu      sync.Mutex
	free    int64
	waiters []*budgetWaiter
}

type budgetWaiter struct {
	n     int64
	ready chan struct{} // closed when the memory is granted
}

func newBodyBudget(n int64) *bodyBudget { return &bodyBudget{free: n} }

// acquire borrows n bytes, waiting until they are free, ctx ends or deadline
// (zero: none) passes; it reports whether it got them.
func (b *bodyBudget) acquire(ctx context.Context, n int64, deadline time.Time) bool {
	b.mu.Lock()
	if len(b.waiters) == 0 && b.free >= n {
		b.free -= n
		b.mu.Unlock()
		return true
	}
	w := &budgetWaiter{n: n, ready: make(chan struct{})}
	b.waiters = append(b.waiters, w)
	b.mu.Unlock()

	var timeout <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-w.ready:
		return true
	case <-ctx.Done():
	case <-timeout:
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-w.ready: // granted meanwhile: keep it, the caller releases it
		return true
	default:
	}
	for i, o := range b.waiters {
		if o == w {
			b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
			break
		}
	}
	b.grant() // the next in line may fit now
	return false
}

// release gives back n bytes.
func (b *bodyBudget) release(n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.free += n
	b.grant()
	b.mu.Unlock()
}

func (b *bodyBudget) grant() {
	for len(b.waiters) > 0 && b.free >= b.waiters[0].n {
		w := b.waiters[0]
		b.free -= w.n
		b.waiters[0] = nil
		b.waiters = b.waiters[1:]
		close(w.ready)
	}
}

// ---- the envelope ----

// envelope holds the members of a request object that the server reads, each
// as raw JSON (nil when absent), slices of the body.
type envelope struct {
	method, params, id []byte
	// repeated is the first member that occurs more than once ("" if none);
	// idRepeated tells whether id is one.
	repeated   string
	idRepeated bool
}

// Members of the envelope, as bits of a set.
const (
	memberJSONRPC = 1 << iota
	memberMethod
	memberParams
	memberID
)

// parseEnvelope reads the members of body, a valid JSON object (json.Valid
// has said so, and body starts with '{'), in one pass that skips over their
// values. A member name matches as encoding/json matches it into a struct
// field: after unescaping, case-insensitively with Unicode folding
// (bytes.EqualFold), so "METHOD" and "\u006dethod" are the method too. Each
// member may occur once: a proxy that takes the first of two and a decoder
// that takes the last would see different calls. Members that are not part of
// the envelope are skipped, repeated or not.
func parseEnvelope(body []byte) envelope {
	var env envelope
	seen := 0
	i := 1
	for {
		i = skipSpace(body, i)
		if i >= len(body) || body[i] == '}' {
			return env
		}
		if body[i] == ',' {
			i = skipSpace(body, i+1)
		}
		end := endOfString(body, i)
		key := body[i+1 : end-1]
		i = skipSpace(body, end) + 1 // the colon
		i = skipSpace(body, i)
		start := i
		i = endOfValue(body, i)
		m, name := envelopeMember(key)
		if m == 0 {
			continue
		}
		if seen&m != 0 {
			if env.repeated == "" {
				env.repeated = name
			}
			env.idRepeated = env.idRepeated || m == memberID
			continue
		}
		seen |= m
		switch m {
		case memberMethod:
			env.method = body[start:i]
		case memberParams:
			env.params = body[start:i]
		case memberID:
			env.id = body[start:i]
		}
	}
}

// envelopeMember tells which member of the envelope key (a member name as
// written, without its quotes) is, and its name; 0 for another member.
func envelopeMember(key []byte) (int, string) {
	plain := true
	for _, c := range key {
		if c == '\\' || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if !plain {
		if bytes.IndexByte(key, '\\') >= 0 {
			var s string
			quoted := make([]byte, 0, len(key)+2)
			quoted = append(append(append(quoted, '"'), key...), '"')
			if json.Unmarshal(quoted, &s) != nil {
				return 0, ""
			}
			key = []byte(s)
		}
		for _, n := range [...]struct {
			m    int
			name string
		}{{memberJSONRPC, "jsonrpc"}, {memberMethod, "method"}, {memberParams, "params"}, {memberID, "id"}} {
			if bytes.EqualFold(key, []byte(n.name)) {
				return n.m, n.name
			}
		}
		return 0, ""
	}
	switch len(key) {
	case 2:
		if lowerEqual(key, "id") {
			return memberID, "id"
		}
	case 6:
		if lowerEqual(key, "method") {
			return memberMethod, "method"
		}
		if lowerEqual(key, "params") {
			return memberParams, "params"
		}
	case 7:
		if lowerEqual(key, "jsonrpc") {
			return memberJSONRPC, "jsonrpc"
		}
	}
	return 0, ""
}

// lowerEqual reports whether ASCII key equals name (lower-case letters) but
// for the case of its letters.
func lowerEqual(key []byte, name string) bool {
	for i := range len(key) {
		if key[i]|0x20 != name[i] { // only 'x' and 'X' give 'x' for a letter x
			return false
		}
	}
	return true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && jsonWS(b[i]) {
		i++
	}
	return i
}

// endOfString returns the index just past the string that starts at b[i]
// (a quote) in valid JSON.
func endOfString(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b)
		}
		j += k
		escaped := false
		for m := j - 1; b[m] == '\\'; m-- {
			escaped = !escaped
		}
		if !escaped {
			return j + 1
		}
		j++
	}
}

// endOfValue returns the index just past the value that starts at b[i] in
// valid JSON.
func endOfValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return endOfString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = endOfString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(b)
	}
	for i < len(b) && !jsonWS(b[i]) && b[i] != ',' && b[i] != '}' && b[i] != ']' {
		i++
	}
	return i
}

// decodeMethod decodes the method member, a JSON string; ok is false for
// anything else.
func decodeMethod(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	s := raw[1 : len(raw)-1]
	for _, c := range s {
		if c < 0x20 || c == '\\' || c >= utf8.RuneSelf {
			var m string
			err := json.Unmarshal(raw, &m) // escapes; invalid UTF-8 becomes U+FFFD
			return m, err == nil
		}
	}
	return string(s), true
}

// ---- valid UTF-8 in answers ----

// canonicalID returns the id to echo for id, the raw JSON of a string or a
// number: id itself (the reference clients compare it byte for byte), unless
// it is a string that holds bytes that are not UTF-8, or escapes a lone UTF-16
// surrogate, which decoders read as U+FFFD. Such an id is re-encoded as the
// string a JSON decoder reads from it, so that the answer is valid UTF-8 and
// every decoder reads the same id.
func canonicalID(id []byte) []byte {
	if len(id) == 0 || id[0] != '"' {
		return id // a number or null: ASCII, as json.Valid checked
	}
	plain := true
	for _, c := range id {
		if c == '\\' || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain || (utf8.Valid(id) && !hasLoneSurrogate(id)) {
		return id
	}
	var s string
	if json.Unmarshal(id, &s) != nil {
		return nullJSON
	}
	b, _ := json.Marshal(s)
	return b
}

// hasLoneSurrogate reports whether the JSON string s escapes a UTF-16
// surrogate that is not half of a pair (\ud800 alone, or \udc00 first).
func hasLoneSurrogate(s []byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		i++
		if i+4 >= len(s) || s[i] != 'u' {
			continue
		}
		r := hex4(s[i+1 : i+5])
		i += 4
		switch {
		case 0xd800 <= r && r < 0xdc00:
			if i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
				if r2 := hex4(s[i+3 : i+7]); 0xdc00 <= r2 && r2 < 0xe000 {
					i += 6
					continue
				}
			}
			return true
		case 0xdc00 <= r && r < 0xe000:
			return true
		}
	}
	return false
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// writeValidUTF8 writes raw, valid JSON, with each byte that is not part of
// valid UTF-8 written as \ufffd. Such bytes can only be inside strings, and
// there the escape stands for what a decoder reads for them.
func writeValidUTF8(buf *bytes.Buffer, raw []byte) {
	if utf8.Valid(raw) {
		buf.Write(raw)
		return
	}
	start := 0
	for i := 0; i < len(raw); {
		if raw[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError && size == 1 {
			buf.Write(raw[start:i])
			buf.WriteString(`\ufffd`)
			i++
			start = i
			continue
		}
		i += size
	}
	buf.Write(raw[start:])
}
