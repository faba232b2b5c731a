package tracing

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"
)

type otherKey struct{}

// A span's context is a spanContext (the check made once found that it
// works as trace.ContextWithSpan's), and it is one: the span for the trace
// package, the parent's values, deadline and cancellation for the rest.
func TestSpanContext(t *testing.T) {
	if !ownContext {
		t.Fatal("spanContext is not in use: the trace package's key was not found")
	}
	tp := NewProvider(nil)
	defer tp.Shutdown(context.Background())
	parent, cancel := context.WithTimeout(context.WithValue(context.Background(), otherKey{}, "v"), time.Hour)
	ctx, s := tp.Tracer("t").Start(parent, "s")
	if _, ok := ctx.(*spanContext); !ok {
		t.Fatalf("context %T", ctx)
	}
	if got := trace.SpanFromContext(ctx); got != s {
		t.Fatalf("SpanFromContext: %v, want %v", got, s)
	}
	if got := ctx.Value(otherKey{}); got != "v" {
		t.Fatalf("a value of the parent: %v", got)
	}
	if d, ok := ctx.Deadline(); !ok || time.Until(d) < 59*time.Minute {
		t.Fatalf("deadline %v %v", d, ok)
	}
	child, childCancel := context.WithCancel(ctx)
	defer childCancel()
	cctx, c := tp.Tracer("t").Start(child, "child")
	if got := c.(ReadOnlySpan).Parent(); !got.Equal(s.SpanContext()) {
		t.Fatalf("the child's parent %v, want %v", got, s.SpanContext())
	}
	if str := ctx.(fmt.Stringer).String(); !strings.HasPrefix(str, "context.Background.WithValue(tracing.otherKey, v).WithDeadline(") ||
		!strings.HasSuffix(str, ".WithValue(span)") {
		t.Fatalf("String: %s", ctx)
	}
	cancel()
	select {
	case <-cctx.Done():
	case <-time.After(time.Second):
		t.Fatal("the cancellation of the parent did not reach the child's context")
	}
	if ctx.Err() != context.Canceled || context.Cause(cctx) != context.Canceled {
		t.Fatalf("Err %v, cause %v", ctx.Err(), context.Cause(cctx))
	}
	c.End()
	s.End()
}
