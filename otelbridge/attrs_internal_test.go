package otelbridge

import (
	"strconv"
	"sync"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime/intercept"
	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
)

// The attributes of a call are made once per function, front, side and
// error type, the same from many goroutines at once, each with its own
// attributes; beyond maxCached keys, they are made for each call, right.
func TestAttrsOf(t *testing.T) {
	it := &interceptor{}
	it.attrs.make = newFnAttrs
	keys := []attrKey{
		{function: "echo", front: intercept.FrontOpenTool, server: true},
		{function: "echo", front: intercept.FrontOpenTool},
		{function: "echo", front: intercept.FrontMCP, server: true},
		{function: "echo", front: intercept.FrontOpenTool, server: true, errorType: "-32602"},
		{function: "echo", front: intercept.FrontOpenTool, server: true, errorType: "canceled"},
		{function: "add", front: intercept.FrontOpenTool, server: true},
		{function: "add", front: intercept.FrontLocal, server: true, errorType: "500"},
	}
	var wg sync.WaitGroup
	got := make([][]*attrs, 8)
	for g := range got {
		wg.Go(func() {
			for _, k := range keys {
				got[g] = append(got[g], it.attrsOf(k))
			}
		})
	}
	wg.Wait()
	for i, k := range keys {
		a := got[0][i]
		for g := range got {
			if got[g][i] != a {
				t.Fatalf("%+v: made twice", k)
			}
		}
		if a.key != k || it.attrsOf(k) != a {
			t.Fatalf("%+v: got the attrs of %+v", k, a.key)
		}
		want := makeAttrs(k)
		_, gotAttrs := spanAttrs(a.key, systemOpenTool, semconv.RPCMethod(a.key.function))
		_, wantAttrs := spanAttrs(k, systemOpenTool, semconv.RPCMethod(k.function))
		gotSet, wantSet := attribute.NewSet(gotAttrs...), attribute.NewSet(wantAttrs...)
		if !gotSet.Equals(&wantSet) || a.name != want.name || len(a.start) != len(want.start) {
			t.Fatalf("%+v: span %s %v, want %s %v", k, a.name, gotAttrs, want.name, wantAttrs)
		}
		if k.errorType != "" && a.counted == nil {
			t.Fatalf("%+v: no metric attributes", k)
		}
	}
	if n := it.variants.Load(); n != int64(len(keys)) {
		t.Fatalf("%d attrs counted, want %d", n, len(keys))
	}
	for i := len(keys); i < maxCached+10; i++ {
		it.attrsOf(attrKey{function: "f" + strconv.Itoa(i%100), front: intercept.FrontOpenTool, errorType: strconv.Itoa(i)})
	}
	if n := it.variants.Load(); n != maxCached {
		t.Fatalf("%d attrs cached, want at most %d", n, maxCached)
	}
	k := attrKey{function: "beyond", front: intercept.FrontOpenTool, server: true, errorType: "x"}
	if a, b := it.attrsOf(k), it.attrsOf(k); a == b || a.key != k || b.key != k {
		t.Fatal("beyond the limit: attrs kept, or wrong")
	}
	if it.attrsOf(keys[0]) != got[0][0] {
		t.Fatal("a key cached first is no longer")
	}
}

// Beyond maxCached functions, the attributes of calls of others are made
// each time and take no room from those of the functions kept.
func TestAttrsOfManyFunctions(t *testing.T) {
	it := &interceptor{}
	it.attrs.make = newFnAttrs
	for i := range maxCached + 100 {
		k := attrKey{function: "f" + strconv.Itoa(i), front: intercept.FrontOpenTool, server: true}
		if a := it.attrsOf(k); a.key != k {
			t.Fatalf("%+v: got %+v", k, a.key)
		}
	}
	if n := it.variants.Load(); n != maxCached {
		t.Fatalf("%d attrs counted, want %d (those of the functions kept)", n, maxCached)
	}
	kept := attrKey{function: "f1", front: intercept.FrontOpenTool, server: true}
	if a, b := it.attrsOf(kept), it.attrsOf(kept); a != b {
		t.Fatalf("%+v is not kept", kept)
	}
	k := attrKey{function: "f1", front: intercept.FrontMCP, server: true} // the limit is reached
	if a, b := it.attrsOf(k), it.attrsOf(k); a == b || a.key != k || b.key != k {
		t.Fatalf("%+v: kept beyond the limit, or wrong", k)
	}
}
