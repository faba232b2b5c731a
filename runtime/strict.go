package runtime

import "context"

// WithStrictResponses makes the Tool have every response its Service's REST
// client receives checked against the document, with the checks arguments
// get (types, required members, enums, bounds, lengths, patterns, formats):
// the Tool marks the context of each call ([StrictResponses]), and a
// generated REST client (package runtime/rest) checks the success bodies of
// the requests made with it, answering a violation with a 502 error that
// names its JSON path. It is off by default: an API that adds an enum value
// its document does not have yet keeps working. A Service that makes no REST
// request (user code, an OpenTool client) is not affected.
func WithStrictResponses() ToolOption {
	return func(c *argConfig) { c.strictResponses = true }
}

type strictResponsesKey struct{}

// ContextWithStrictResponses returns ctx marked so that a REST client of
// package runtime/rest checks the responses of the requests made with it
// against the document, as its own WithStrictResponses option makes it do.
func ContextWithStrictResponses(ctx context.Context) context.Context {
	return context.WithValue(ctx, strictResponsesKey{}, true)
}

// StrictResponses reports whether ctx asks for checked responses
// ([ContextWithStrictResponses]).
func StrictResponses(ctx context.Context) bool {
	on, _ := ctx.Value(strictResponsesKey{}).(bool)
	return on
}

// CallContext returns the context a generated Tool calls its Service with:
// ctx, marked with [ContextWithStrictResponses] when the Tool was made with
// [WithStrictResponses].
func (a *Args) CallContext(ctx context.Context) context.Context {
	if !a.strictResponses {
		return ctx
	}
	return ContextWithStrictResponses(ctx)
}

// DecodeResponse is [Decode] for a response body that a REST client checks
// against its document (package runtime/rest's strict responses): a member
// the document marks writeOnly may be absent even when it is required
// ([Decoder.WriteOnly]), as OpenAPI says of such members.
func DecodeResponse[T any](raw []byte, v *T, fn func(*Decoder, *T)) error {
	return decode(raw, v, fn, true)
}

// WriteOnly marks as seen, when the value read is a response
// ([DecodeResponse]), the required members of bits (bit i of seen[i/64]):
// those the document marks writeOnly, which a response may leave out. Called
// by generated decoders before [Decoder.Required]; it does nothing for
// arguments.
func (d *Decoder) WriteOnly(seen []uint64, bits ...int) {
	if !d.response {
		return
	}
	for _, i := range bits {
		if i/64 < len(seen) {
			seen[i/64] |= 1 << (i % 64)
		}
	}
}
