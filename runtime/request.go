package runtime

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"
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
