package rest

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryPolicy makes a [Client] send a request again when the attempt
// failed in a way that another may not: the connection failed, or the API
// answered 429 (Too Many Requests) or 503 (Service Unavailable). Only
// requests that can be sent twice are retried: GET, HEAD, OPTIONS, TRACE,
// PUT, DELETE and QUERY, and any other that carries an idempotency header
// (IdempotencyHeaders) or the key its operation declares
// ([Request.Idempotency]). Waits grow exponentially with full jitter, a
// Retry-After header (seconds or an HTTP date) is honoured, and nothing
// waits past the context's deadline: the last answer is returned instead.
//
// The same policy says how a streamed response reconnects
// ([Client.Reconnect]).
type RetryPolicy struct {
	// MaxAttempts bounds the attempts, the first included (0 means 3).
	MaxAttempts int
	// MinWait and MaxWait bound the wait before an attempt: at most
	// MinWait·2ⁿ (n the retries so far), never more than MaxWait (0 means
	// 100ms and 10s).
	MinWait, MaxWait time.Duration
	// MaxRetryAfter is the longest Retry-After the client waits for; an
	// answer asking for longer is returned (0 means 1 minute).
	MaxRetryAfter time.Duration
	// IdempotencyHeaders make any request that carries one of them
	// retryable (nil means "Idempotency-Key").
	IdempotencyHeaders []string
}

func (p *RetryPolicy) attempts() int {
	if p.MaxAttempts <= 0 {
		return 3
	}
	return p.MaxAttempts
}

func (p *RetryPolicy) maxRetryAfter() time.Duration {
	if p.MaxRetryAfter <= 0 {
		return time.Minute
	}
	return p.MaxRetryAfter
}

// retryable reports whether req may be sent again.
func (p *RetryPolicy) retryable(req *http.Request) bool {
	switch req.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace, http.MethodPut, http.MethodDelete, "QUERY":
		return true
	}
	if idempotent(req) {
		return true // a key the document declares (Request.Idempotency)
	}
	headers := p.IdempotencyHeaders
	if headers == nil {
		headers = []string{"Idempotency-Key"}
	}
	for _, h := range headers {
		if req.Header.Get(h) != "" {
			return true
		}
	}
	return false
}

// wait returns how long to wait before retry n (1 for the first retry) after
// resp (nil after a connection error), and false when the answer should be
// returned rather than waited for.
func (p *RetryPolicy) wait(n int, resp *http.Response, now time.Time) (time.Duration, bool) {
	if resp != nil {
		if ra, ok := retryAfter(resp.Header.Get("Retry-After"), now); ok {
			return ra, ra <= p.maxRetryAfter()
		}
	}
	lo, hi := p.MinWait, p.MaxWait
	if lo <= 0 {
		lo = 100 * time.Millisecond
	}
	if hi <= 0 {
		hi = 10 * time.Second
	}
	ceil := hi
	if n-1 < 30 && lo<<(n-1) < hi {
		ceil = lo << (n - 1)
	}
	return rand.N(ceil + 1), true
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 {
			return 0, false
		}
		if s > int64(24*time.Hour/time.Second) {
			s = int64(24 * time.Hour / time.Second)
		}
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// retryStatus reports whether an answer with status may go better another time.
func retryStatus(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
}

// do sends req with send as p says: again while an attempt fails in a way
// worth retrying and the policy and ctx allow. body makes a fresh body per
// attempt.
func (p *RetryPolicy) do(ctx context.Context, send func(*http.Request) (*http.Response, error), req *http.Request, body func() io.Reader) (*http.Response, error) {
	if p == nil || !p.retryable(req) {
		return send(req)
	}
	for n := 1; ; n++ {
		if n > 1 {
			if b := body(); b != nil {
				req.Body = io.NopCloser(b)
			}
		}
		resp, err := send(req)
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, err // the caller gave up: not the network's fault
		case err == nil && !retryStatus(resp.StatusCode):
			return resp, nil
		case n >= p.attempts():
			return resp, err
		}
		d, ok := p.wait(n, resp, time.Now())
		if dl, has := ctx.Deadline(); has && time.Now().Add(d).After(dl) {
			ok = false // the answer would come after the caller stopped waiting
		}
		if !ok {
			return resp, err
		}
		if resp != nil {
			// Read a little of the body so the connection can be reused.
			io.CopyN(io.Discard, resp.Body, 4<<10)
			resp.Body.Close()
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, errors.Join(ctx.Err(), err)
		case <-t.C:
		}
	}
}
