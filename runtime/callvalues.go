package runtime

import (
	"context"
	"maps"
	"net/http"
)

// CallValueNames are the identifiers agent platforms put on each call (the
// placeholders of seed 001's argument options). A string default or fixed
// value may name them, and any added with [WithCallValueNames], as {name}.
var CallValueNames = []string{"project_id", "channel_id", "agent_id", "agent_turn_id", "step_id",
	"tool_call_id", "parent_step_id", "trace_id", "turn_epoch", "context_box_id"}

type callValuesKey struct{}

// WithCallValues returns a context that carries values for the {name}
// placeholders of default and fixed argument values (see [WithDefaults]),
// added to those ctx carries already (a name given again replaces its value).
// A server fills them from request headers ([WithCallValueHeaders]); a program
// that calls a Tool itself puts them on the call's context.
func WithCallValues(ctx context.Context, values map[string]string) context.Context {
	merged := maps.Clone(CallValues(ctx))
	if merged == nil {
		merged = make(map[string]string, len(values))
	}
	maps.Copy(merged, values)
	return context.WithValue(ctx, callValuesKey{}, merged)
}

// CallValues returns the values [WithCallValues] put on ctx; the map must not
// be modified.
func CallValues(ctx context.Context) map[string]string {
	m, _ := ctx.Value(callValuesKey{}).(map[string]string)
	return m
}

// WithCallValueHeaders makes the server fill call values from request headers
// (header name → value name): WithCallValueHeaders(map[string]string{
// "X-Trace-Id": "trace_id"}) lets a default "{trace_id}" take each request's
// X-Trace-Id. A header absent from a request leaves its name without a value.
func WithCallValueHeaders(headers map[string]string) ServerOption {
	return func(c *serverConfig) {
		if c.valueHeaders == nil {
			c.valueHeaders = map[string]string{}
		}
		for h, n := range headers {
			c.valueHeaders[http.CanonicalHeaderKey(h)] = n
		}
	}
}

// withHeaderValues returns ctx with the call values r's headers carry.
func withHeaderValues(ctx context.Context, headers map[string]string, r *http.Request) context.Context {
	if len(headers) == 0 {
		return ctx
	}
	var values map[string]string
	for h, n := range headers {
		if v := r.Header.Get(h); v != "" {
			if values == nil {
				values = map[string]string{}
			}
			values[n] = v
		}
	}
	if values == nil {
		return ctx
	}
	return WithCallValues(ctx, values)
}
