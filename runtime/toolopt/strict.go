package toolopt

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
func WithStrictResponses() Option {
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
