package mcpbridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// rawServer is a streamable-HTTP MCP server written by hand, a hostile peer:
// it answers initialize as any server does, and tools/list with what page
// returns for the request's cursor (the tools' JSON array and the next
// cursor). tools/call answers a text content naming the tool.
type rawServer struct {
	page  func(cursor string) (tools []byte, next string)
	lists atomic.Int64 // tools/list requests
	calls atomic.Int64 // tools/call requests
}

func (s *rawServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Cursor          string `json:"cursor"`
			ProtocolVersion string `json:"protocolVersion"`
			Name            string `json:"name"`
		} `json:"params"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if req.ID == nil { // a notification
		w.WriteHeader(http.StatusAccepted)
		return
	}
	var result []byte
	switch req.Method {
	case "initialize":
		result, _ = json.Marshal(map[string]any{
			"protocolVersion": req.Params.ProtocolVersion,
			"capabilities":    map[string]any{"tools": map[string]any{}},
			"serverInfo":      map[string]any{"name": "hostile", "version": "1"},
		})
	case "tools/list":
		s.lists.Add(1)
		tools, next := s.page(req.Params.Cursor)
		var b bytes.Buffer
		b.WriteString(`{"tools":`)
		b.Write(tools)
		if next != "" {
			b.WriteString(`,"nextCursor":`)
			b.WriteString(strconv.Quote(next))
		}
		b.WriteByte('}')
		result = b.Bytes()
	case "tools/call":
		s.calls.Add(1)
		result, _ = json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": "called " + req.Params.Name}}})
	default:
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32601,"message":"method not found"}}`))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":`))
	w.Write(result)
	w.Write([]byte(`}`))
}

// startRaw serves s on loopback and returns its URL.
func startRaw(t testing.TB, s *rawServer) string {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv.URL
}

// toolsJSON returns the JSON array of tools named names, each with an
// object input schema.
func toolsJSON(names ...string) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(n)
		b.WriteString(`{"name":` + string(name) + `,"description":"Tool ` + strconv.Itoa(i) + `.","inputSchema":{"type":"object"}}`)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// wantListError checks that err is the 502 of a refused listing, its message
// holding want.
func wantListError(t *testing.T, err error, want string) {
	t.Helper()
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != http.StatusBadGateway || !strings.Contains(e.Message, want) {
		t.Fatalf("got %v, want a 502 saying %q", err, want)
	}
}

// TestListEndlessPages: a server that gives a new cursor on every page is
// refused after DefaultMaxListPages requests, or the pages set.
func TestListEndlessPages(t *testing.T) {
	ctx := context.Background()
	s := &rawServer{page: func(cursor string) ([]byte, string) {
		n, _ := strconv.Atoi(cursor)
		return toolsJSON("t" + strconv.Itoa(n)), strconv.Itoa(n + 1)
	}}
	url := startRaw(t, s)
	_, err := mcpbridge.HTTPTool(ctx, url, nil)
	wantListError(t, err, "more than 1000 pages")
	if n := s.lists.Load(); n != mcpbridge.DefaultMaxListPages {
		t.Errorf("%d tools/list requests, want %d", n, mcpbridge.DefaultMaxListPages)
	}
	s.lists.Store(0)
	_, err = mcpbridge.HTTPTool(ctx, url, nil, mcpbridge.WithListLimits(mcpbridge.ListLimits{Pages: 7}))
	wantListError(t, err, "more than 7 pages")
	if n := s.lists.Load(); n != 7 {
		t.Errorf("%d tools/list requests, want 7", n)
	}
}

// TestListCursorAgain: a server whose cursors come round is refused as soon
// as a cursor comes again.
func TestListCursorAgain(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		next  map[string]string
		pages int64
	}{
		{"same", map[string]string{"": "again", "again": "again"}, 2},
		{"cycle", map[string]string{"": "a", "a": "b", "b": "c", "c": "a"}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &rawServer{page: func(cursor string) ([]byte, string) {
				return toolsJSON("t" + cursor), tc.next[cursor]
			}}
			_, err := mcpbridge.HTTPTool(ctx, startRaw(t, s), nil)
			wantListError(t, err, "again")
			if n := s.lists.Load(); n != tc.pages {
				t.Errorf("%d tools/list requests, want %d", n, tc.pages)
			}
		})
	}
}

// TestListTooLarge: a listing of more tools, or more bytes, than the limits,
// or one message larger than the message limit, is refused; within them it
// is read.
func TestListTooLarge(t *testing.T) {
	ctx := context.Background()
	names := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = "t" + strconv.Itoa(i)
		}
		return out
	}
	// Two pages of 6,000 tools: the second goes past 10,000.
	many := &rawServer{page: func(cursor string) ([]byte, string) {
		if cursor == "" {
			return toolsJSON(names(6000)...), "2"
		}
		return toolsJSON(names(12000)[6000:]...), ""
	}}
	url := startRaw(t, many)
	_, err := mcpbridge.HTTPTool(ctx, url, nil)
	wantListError(t, err, "more than 10000 tools (page 2)")
	tool, err := mcpbridge.HTTPTool(ctx, url, nil, mcpbridge.WithListLimits(mcpbridge.ListLimits{Tools: 12000}))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := tool.Load(ctx)
	if err != nil || len(doc.Functions) != 12000 {
		t.Fatalf("with a limit of 12000 tools: %v", err)
	}
	tool.Close()

	// One tool with a 2 MiB description.
	big := &rawServer{page: func(string) ([]byte, string) {
		return []byte(`[{"name":"big","description":"` + strings.Repeat("x", 2<<20) + `","inputSchema":{"type":"object"}}]`), ""
	}}
	url = startRaw(t, big)
	_, err = mcpbridge.HTTPTool(ctx, url, nil, mcpbridge.WithListLimits(mcpbridge.ListLimits{Bytes: 1 << 20}))
	wantListError(t, err, "more than 1048576 bytes of tools")
	_, err = mcpbridge.HTTPTool(ctx, url, nil, mcpbridge.WithMaxMessageBytes(1<<20))
	wantListError(t, err, "limit")
	tool, err = mcpbridge.HTTPTool(ctx, url, nil)
	if err != nil {
		t.Fatalf("a 2 MiB listing within the default limits: %v", err)
	}
	tool.Close()
}

// TestToolNames: tools whose names the generator refuses (not 1 to 64 of
// a-z, A-Z, 0-9, _ and -) or that repeat a name are left out of the
// document, each with one warning however often the listing is loaded, and
// their names are refused by Call without reaching the server.
func TestToolNames(t *testing.T) {
	ctx := context.Background()
	long := strings.Repeat("n", 10<<10)
	bad := []string{"bad name", "ctl\x00\x1b[31m", long, "dotted.name", "ünï", ""}
	s := &rawServer{page: func(string) ([]byte, string) {
		return toolsJSON(append(append([]string{"ok"}, bad...), "ok", "fine_1")...), ""
	}}
	var (
		mu  sync.Mutex
		log bytes.Buffer
	)
	tool, err := mcpbridge.HTTPTool(ctx, startRaw(t, s), nil, mcpbridge.WithToolLogger(newLogger(&mu, &log)))
	if err != nil {
		t.Fatal(err)
	}
	defer tool.Close()
	check := func(doc *document.OpenTool) {
		t.Helper()
		var got []string
		for _, f := range doc.Functions {
			got = append(got, f.Name+": "+f.Description)
		}
		if want := []string{"ok: Tool 0.", "fine_1: Tool 8."}; strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("functions %q, want %q", got, want)
		}
	}
	for range 3 {
		doc, err := tool.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		check(doc)
	}
	mu.Lock()
	warnings := strings.Count(log.String(), "level=WARN")
	logged := log.String()
	mu.Unlock()
	if warnings != len(bad)+1 {
		t.Errorf("%d warnings, want %d:\n%s", warnings, len(bad)+1, logged)
	}
	for _, want := range []string{`\"bad name\"`, `\"ctl\\x00\\x1b[31m\"`, "(10240 bytes)", `\"dotted.name\"`, `a second tool is named \"ok\"`} {
		if !strings.Contains(logged, want) {
			t.Errorf("the log does not say %s:\n%.2000s", want, logged)
		}
	}
	if strings.Contains(logged, long[:100]) || strings.Contains(logged, "\x1b") {
		t.Errorf("the log carries a hostile name unclipped or unquoted:\n%.2000s", logged)
	}

	// Served on: over OpenTool HTTP and MCP, only the good names.
	client := openTool(t, tool)
	doc, err := client.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	check(doc)
	cs := connect(t, "memory", tool, nil)
	listed := listTools(t, cs)
	if len(listed) != 2 || listed["ok"] == nil || listed["fine_1"] == nil {
		t.Errorf("served over MCP: %d tools, want ok and fine_1", len(listed))
	}

	for _, name := range bad {
		_, err := tool.Call(ctx, name, nil)
		if e := (*runtime.Error)(nil); !errors.As(err, &e) || e.Code != runtime.CodeMethodNotFound {
			t.Errorf("call %.20q: %v, want method not found", name, err)
		}
	}
	if n := s.calls.Load(); n != 0 {
		t.Errorf("%d tools/call reached the server, want none", n)
	}
	if ret, err := tool.Call(ctx, "ok", nil); err != nil || !strings.Contains(string(ret), "called ok") {
		t.Errorf("call ok: %s, %v", ret, err)
	}
}

// BenchmarkHugeListing loads a listing of 100,000 tools in one page (8 MB
// of JSON) without limits, as before they were, with the default ones, which
// refuse it once the SDK has decoded the page, and with a message limit
// below the page, which refuses it before.
func BenchmarkHugeListing(b *testing.B) {
	names := make([]string, 100000)
	for i := range names {
		names[i] = "t" + strconv.Itoa(i)
	}
	page := toolsJSON(names...)
	url := startRaw(b, &rawServer{page: func(string) ([]byte, string) { return page, "" }})
	for _, bc := range []struct {
		name string
		opts []mcpbridge.ToolOption
	}{
		{"unbounded", []mcpbridge.ToolOption{mcpbridge.WithListLimits(mcpbridge.ListLimits{Pages: -1, Tools: -1, Bytes: -1}), mcpbridge.WithMaxMessageBytes(-1)}},
		{"default", nil},
		{"message-4MiB", []mcpbridge.ToolOption{mcpbridge.WithMaxMessageBytes(4 << 20)}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tool, err := mcpbridge.HTTPTool(context.Background(), url, nil, bc.opts...)
				if (bc.name == "unbounded") != (err == nil) {
					b.Fatal(err)
				}
				if tool != nil {
					tool.Close()
				}
			}
		})
	}
}
