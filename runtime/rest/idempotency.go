package rest

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"net/textproto"
)

// Idempotency keys. An operation whose document declares an idempotency
// header (an Idempotency-Key parameter, or an extension that names one) has
// its generated method call [Request.Idempotency] with the header's name.
// Each call then carries one key: the value the caller gave the header's
// argument or a request editor set, else a new random key (a UUID, version
// 4) made for the call. Retries of the call resend the same request, so they
// carry the same key, and the key makes the request retryable whatever its
// method (the server sees one logical call); the next call gets a new key.

// Idempotency says that the request carries an idempotency key in the header
// name: the value set for the header, else a new key made when the request
// is sent. The request may then be retried whatever its method.
func (r *Request) Idempotency(name string) {
	r.idempotency = textproto.CanonicalMIMEHeaderKey(name)
}

// NewIdempotencyKey returns a new random key: a UUID of version 4.
func NewIdempotencyKey() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// idempotentKey marks the context of a request that carries an idempotency
// key, which RetryPolicy then retries whatever its method.
type idempotentKey struct{}

// withIdempotency returns the context a request is sent in: marked when
// the request carries an idempotency key.
func (r *Request) withIdempotency(ctx context.Context) context.Context {
	if r.idempotency == "" {
		return ctx
	}
	return context.WithValue(ctx, idempotentKey{}, true)
}

// setIdempotencyKey gives req a new key in its idempotency header unless it
// has one. It runs before the editors, which may set their own.
func (r *Request) setIdempotencyKey(req *http.Request) {
	if r.idempotency != "" && req.Header.Get(r.idempotency) == "" {
		req.Header.Set(r.idempotency, NewIdempotencyKey())
	}
}

// idempotent reports whether req carries an idempotency key its request
// declared (Request.Idempotency).
func idempotent(req *http.Request) bool {
	v, _ := req.Context().Value(idempotentKey{}).(bool)
	return v
}
