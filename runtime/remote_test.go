package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// TestRemoteTool serves the mock tool, serves RemoteTool of a client of it
// again (a gateway), and calls the gateway: calls, streams, errors with their
// codes and the document pass through.
func TestRemoteTool(t *testing.T) {
	m := newMockTool()
	m.doc = &document.OpenTool{OpenTool: "1.0.0", Info: document.Info{Title: "mock", Version: "2.0.0"},
		Functions: []document.Function{{Name: "count", Description: "Count texts", Parameters: []document.Parameter{}}}}
	upstream := httptest.NewServer(runtime.NewHandler(m))
	defer upstream.Close()
	remote := runtime.RemoteTool(runtime.NewClient(upstream.URL + "/opentool"))
	gateway := httptest.NewServer(runtime.NewHandler(remote))
	defer gateway.Close()
	c := runtime.NewClient(gateway.URL + "/opentool")
	ctx := context.Background()

	var id int
	if err := c.Invoke(ctx, "create", map[string]string{"text": "hello"}, "id", &id); err != nil {
		t.Fatal(err)
	}
	var text string
	if err := c.Invoke(ctx, "read", map[string]int{"id": id}, "text", &text); err != nil || text != "hello" {
		t.Fatalf("read through the gateway: %q, %v", text, err)
	}
	// A tool error keeps its code.
	err := c.Invoke(ctx, "read", map[string]int{"id": 99}, "text", &text)
	var re *runtime.Error
	if !errors.As(err, &re) || re.Code != mockCodeNotFound {
		t.Errorf("read 99 through the gateway: got %v, want code %d", err, mockCodeNotFound)
	}
	// An unknown function is the upstream's "method not found".
	if err := c.Invoke(ctx, "nope", nil, "", nil); !errors.As(err, &re) || re.Code != runtime.CodeMethodNotFound {
		t.Errorf("nope through the gateway: got %v, want %d", err, runtime.CodeMethodNotFound)
	}
	// Streams.
	var got []string
	for v, err := range runtime.Stream[string](ctx, c, "sequentiallyRead", nil, "text") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	if len(got) != 1 || got[0] != "hello" {
		t.Errorf("sequentiallyRead through the gateway: %q", got)
	}
	var n int
	for _, err := range runtime.Stream[json.RawMessage](ctx, c, "failAfter", map[string]int{"n": 2}, "") {
		if err != nil {
			if !errors.As(err, &re) || re.Code != mockCodeStream {
				t.Errorf("failAfter through the gateway: got %v, want code %d", err, mockCodeStream)
			}
			break
		}
		n++
	}
	if n != 2 {
		t.Errorf("failAfter: %d items before the error, want 2", n)
	}
	// The document is the upstream's.
	doc, err := c.Load(ctx)
	if err != nil || doc.Info.Version != "2.0.0" || len(doc.Functions) != 1 || doc.Functions[0].Description != "Count texts" {
		t.Errorf("Load through the gateway: %+v, %v", doc, err)
	}
	// An upstream that is gone is a 502 naming it, not the caller's "no access".
	upstream.Close()
	err = c.Invoke(ctx, "count", nil, "count", &n)
	if !errors.As(err, &re) || re.Code != http.StatusBadGateway || !strings.Contains(re.Message, upstream.URL) || errors.Is(err, runtime.ErrNoAccess) {
		t.Errorf("count with the upstream gone: got %v, want a 502 call error naming %s", err, upstream.URL)
	}
	for _, err := range runtime.Stream[string](ctx, c, "sequentiallyRead", nil, "text") {
		if !errors.As(err, &re) || re.Code != http.StatusBadGateway {
			t.Errorf("stream with the upstream gone: got %v, want a 502 call error", err)
		}
	}
}
