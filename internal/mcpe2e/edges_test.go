package mcpe2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/content"
	mcpserver "github.com/opentoolgen/opentoolgen/testdata/golden/mcp-server"
)

const waitLong = 30 * time.Second

// httpTool serves s over streamable HTTP on loopback and returns it as a
// runtime.Tool (mcpbridge.HTTPTool).
func httpTool(t *testing.T, s *mcpServer) *mcpbridge.Tool {
	t.Helper()
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.Server }, nil))
	t.Cleanup(srv.Close)
	tool, err := mcpbridge.HTTPTool(context.Background(), srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tool.Close() })
	return tool
}

// sdkClient connects the official SDK's client to the MCP server h serves
// on loopback, with progress notifications handed to progress.
func sdkClient(t *testing.T, h http.Handler, progress func(*mcp.ProgressNotificationParams)) *mcp.ClientSession {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	opts := &mcp.ClientOptions{}
	if progress != nil {
		opts.ProgressNotificationHandler = func(_ context.Context, r *mcp.ProgressNotificationClientRequest) { progress(r.Params) }
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "sdk", Version: "1"}, opts).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// wantSnapshot is the content of snapshot as the runtime carries it.
func wantSnapshot() []content.Item {
	size := int64(2048)
	return []content.Item{
		{Type: "text", Text: "the lobby"},
		{Type: "image", MIMEType: "image/png", Data: pngBytes, Annotations: json.RawMessage(`{"audience":["user"]}`)},
		{Type: "audio", MIMEType: "audio/wav", Data: wavBytes},
		{Type: "resource_link", URI: "file:///hotel/plan.pdf", Name: "plan.pdf", Title: "Floor plan", MIMEType: "application/pdf", Size: &size},
		{Type: "resource", Resource: &content.Resource{URI: "file:///hotel/menu.txt", MIMEType: "text/plain", Text: "soup of the day"}},
	}
}

// TestContentBothWays calls snapshot, whose result is a text, an image, an
// audio clip, a resource link and an embedded resource, over streamable
// HTTP: the generated typed client gets its text as its result and every
// content item beside it (content.With); served again by mcpbridge
// (the generated gateway Tool in front of the MCP server), the official
// SDK's client gets the same content, as it came, not as JSON text.
func TestContentBothWays(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	s := newMCPServer()
	client := mcpserver.NewClient(runtime.Local(httpTool(t, s)))

	var got []content.Item
	text, err := client.Snapshot(content.With(ctx, &got))
	if err != nil {
		t.Fatal(err)
	}
	if text != "the lobby" {
		t.Errorf("result %q, want the text", text)
	}
	if diff := cmp.Diff(wantSnapshot(), got); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
	// Without a destination the result is as before: the text, the content
	// in the result object.
	if text, err := client.Snapshot(ctx); err != nil || text != "the lobby" {
		t.Errorf("without WithContent: %q, %v", text, err)
	}

	gateway, err := mcpserver.NewTool(client)
	if err != nil {
		t.Fatal(err)
	}
	h, err := mcpbridge.NewHTTPHandler(ctx, gateway, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	cs := sdkClient(t, h, nil)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "snapshot"})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(res.Content) != 5 {
		t.Fatalf("re-served result: isError %v, %d contents, want 5", res.IsError, len(res.Content))
	}
	img, ok := res.Content[1].(*mcp.ImageContent)
	if !ok || img.MIMEType != "image/png" || !bytes.Equal(img.Data, pngBytes) {
		t.Errorf("content 1: %#v, want the image", res.Content[1])
	}
	if a, ok := res.Content[2].(*mcp.AudioContent); !ok || !bytes.Equal(a.Data, wavBytes) {
		t.Errorf("content 2: %#v, want the audio", res.Content[2])
	}
	if l, ok := res.Content[3].(*mcp.ResourceLink); !ok || l.URI != "file:///hotel/plan.pdf" || l.Size == nil || *l.Size != 2048 {
		t.Errorf("content 3: %#v, want the resource link", res.Content[3])
	}
	if r, ok := res.Content[4].(*mcp.EmbeddedResource); !ok || r.Resource.Text != "soup of the day" {
		t.Errorf("content 4: %#v, want the embedded resource", res.Content[4])
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); !ok || tc.Text != "the lobby" {
		t.Errorf("content 0: %#v, want the text", res.Content[0])
	}
	if sc, _ := json.Marshal(res.StructuredContent); string(sc) != `{"text":"the lobby"}` {
		t.Errorf("structuredContent %s, want the result object alone", sc)
	}
}

// progressLog collects progress notifications and closes done at the
// n-th.
type progressLog struct {
	mu   sync.Mutex
	got  []content.Progress
	n    int
	done chan struct{}
}

func (l *progressLog) add(p content.Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got = append(l.got, p)
	if len(l.got) == l.n {
		close(l.done)
	}
}

func wantSteps(n int) []content.Progress {
	var out []content.Progress
	for i := 1; i <= n; i++ {
		out = append(out, content.Progress{Progress: float64(i), Total: float64(n), Message: "step " + string(rune('0'+i))})
	}
	return out
}

// TestProgressAnyServer calls slow_count, which sends progress
// notifications as any SDK server does (no item of this package's
// streams), through the typed client (a plain call and a streaming one, the
// way generated FSeq iterators call, runtime.InvokeStream) and through
// StreamCall: each gets the server's notifications (content.WithProgress).
// Served again by mcpbridge, the official SDK's client gets them too.
func TestProgressAnyServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	s := newMCPServer()
	tool := httpTool(t, s)
	client := mcpserver.NewClient(runtime.Local(tool))

	newLog := func() *progressLog {
		l := &progressLog{n: 3, done: make(chan struct{})}
		s.progressed = l.done // slow_count answers once the client has them
		return l
	}
	check := func(what string, l *progressLog) {
		t.Helper()
		l.mu.Lock()
		defer l.mu.Unlock()
		if diff := cmp.Diff(wantSteps(3), l.got); diff != "" {
			t.Errorf("%s: progress (-want +got):\n%s", what, diff)
		}
	}

	l := newLog()
	r, err := client.SlowCount(content.WithProgress(ctx, l.add), mcpserver.SlowCountArgs{Steps: 3})
	if err != nil || r.Count != 3 {
		t.Fatalf("typed call: %+v, %v", r, err)
	}
	check("typed call", l)

	l = newLog()
	var items []mcpserver.SlowCountResult
	for it, err := range runtime.InvokeStream[mcpserver.SlowCountResult](content.WithProgress(ctx, l.add), runtime.Local(tool), "slow_count", mcpserver.SlowCountArgs{Steps: 3}, "") {
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, it)
	}
	if len(items) != 1 || items[0].Count != 3 {
		t.Errorf("stream items %+v, want the result as the one item", items)
	}
	check("streaming call", l)

	l = newLog()
	err = tool.StreamCall(content.WithProgress(ctx, l.add), "slow_count", json.RawMessage(`{"steps":3}`), func(json.RawMessage) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	check("StreamCall", l)

	// Re-served: the gateway's calls report the upstream's progress to the
	// SDK client that sent a progress token.
	gateway, err := mcpserver.NewTool(client)
	if err != nil {
		t.Fatal(err)
	}
	h, err := mcpbridge.NewHTTPHandler(ctx, gateway, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	l = newLog()
	cs := sdkClient(t, h, func(p *mcp.ProgressNotificationParams) {
		if p.ProgressToken == "sdk-1" {
			l.add(content.Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
		}
	})
	params := &mcp.CallToolParams{Name: "slow_count", Arguments: map[string]any{"steps": 3}}
	params.SetProgressToken("sdk-1")
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("re-served: %+v, %v", res, err)
	}
	check("re-served", l)
}

// TestListingKept checks that the package generated from the server's
// listing keeps its tools' titles and annotations: the generated Tool is a
// runtime.HintTool with the listing's annotations, and served by mcpbridge
// (in front of the MCP server), the official SDK's client lists the same
// titles and annotations the server listed.
func TestListingKept(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	s := newMCPServer()
	gateway, err := mcpserver.NewTool(mcpserver.NewClient(runtime.Local(httpTool(t, s))))
	if err != nil {
		t.Fatal(err)
	}
	var ht runtime.HintTool = gateway
	// The SDK lists its plain booleans (readOnlyHint, idempotentHint) even
	// when false: they are kept as said.
	if h, ok := ht.Hints("book"); !ok || h.Destructive == nil || *h.Destructive || h.ReadOnly == nil || *h.ReadOnly || h.OpenWorld != nil {
		t.Errorf("hints of book: %+v, %v; want destructive and read-only false, open world unsaid", h, ok)
	}
	if h, ok := ht.Hints("echo"); !ok || h.ReadOnly == nil || !*h.ReadOnly {
		t.Errorf("hints of echo: %+v, %v; want read-only", h, ok)
	}
	if _, ok := ht.Hints("tree"); ok {
		t.Error("tree has hints, want none (the server lists no annotations)")
	}
	if f := gateway.Document().Functions; f[0].Name != "book" || f[0].Title != "Book a room" {
		t.Errorf("the document's first function: %s %q, want book's title", f[0].Name, f[0].Title)
	}

	h, err := mcpbridge.NewHTTPHandler(ctx, gateway, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	listed := func(cs *mcp.ClientSession) map[string]*mcp.Tool {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]*mcp.Tool{}
		for _, tool := range res.Tools {
			m[tool.Name] = tool
		}
		return m
	}
	orig := listed(connect(t, s))
	again := listed(sdkClient(t, h, nil))
	for _, name := range []string{"book", "echo", "tree"} {
		o, a := orig[name], again[name]
		if a == nil {
			t.Fatalf("%s is not served again", name)
		}
		if a.Title != o.Title {
			t.Errorf("%s: title %q, want %q", name, a.Title, o.Title)
		}
		ao, aa := *cmpAnnotations(o.Annotations), *cmpAnnotations(a.Annotations)
		if diff := cmp.Diff(ao, aa); diff != "" {
			t.Errorf("%s: annotations (-listed +served again):\n%s", name, diff)
		}
	}
}

// cmpAnnotations is the hints of a, without the title (served as the
// tool's title).
func cmpAnnotations(a *mcp.ToolAnnotations) *mcp.ToolAnnotations {
	if a == nil {
		return &mcp.ToolAnnotations{}
	}
	c := *a
	c.Title = ""
	return &c
}
