// Package natsmeta is the intercept.Metadata of NATS message headers, which
// natsbridge and natsexec share.
package natsmeta

import (
	"net/textproto"
	"slices"
	"strings"

	"github.com/nats-io/nats.go"
)

// Header is the [intercept.Metadata] of NATS message headers, whose names NATS
// keeps as sent: a name is matched exactly, then in its canonical MIME form,
// then without regard to case, so that a "traceparent" sent by the nats CLI
// or a seed 001 command is read as an HTTP client's "Traceparent" is.
//
// [intercept.Metadata]: https://pkg.go.dev/github.com/opentoolgen/opentoolgen/runtime#Metadata
type Header nats.Header

// Get returns the first value of the header named key, or "".
func (h Header) Get(key string) string {
	if vs := h[key]; len(vs) > 0 {
		return vs[0]
	}
	if vs := h[textproto.CanonicalMIMEHeaderKey(key)]; len(vs) > 0 {
		return vs[0]
	}
	for k, vs := range h {
		if len(vs) > 0 && strings.EqualFold(k, key) {
			return vs[0]
		}
	}
	return ""
}

// Set sets the header named key to value, under that name as given.
func (h Header) Set(key, value string) { h[key] = []string{value} }

// Keys returns the names of the headers, sorted.
func (h Header) Keys() []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
