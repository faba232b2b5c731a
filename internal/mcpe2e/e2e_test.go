package mcpe2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/gen"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	mcpserver "github.com/opentoolgen/opentoolgen/testdata/golden/mcp-server"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/mcp-server/tools.json from the server's listing (then run go test ./gen -update)")

const goldenDir = "../../testdata/golden/mcp-server"

// connect connects an SDK client to s in memory.
func connect(t *testing.T, s *mcpServer) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestSavedListing saves the server's tools/list result as the SDK's client
// receives it, and checks that it is the golden package's input and that the
// package generated from it is the golden package: what the rest of the test
// calls is what opentoolgen writes for this server.
func TestSavedListing(t *testing.T) {
	cs := connect(t, newMCPServer())
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	listing, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	listing = append(listing, '\n')
	input := filepath.Join(goldenDir, "tools.json")
	if *update {
		if err := os.WriteFile(input, listing, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	saved, err := os.ReadFile(input)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(saved), string(listing)); diff != "" {
		t.Fatalf("%s is not the server's listing (run go test ./internal/mcpe2e -update, then go test ./gen -update) (-saved +listed):\n%s", input, diff)
	}
	out, err := gen.Generate("tools.json", listing, gen.Options{Package: "mcpserver"})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Warnings) > 0 {
		t.Errorf("warnings for the SDK's listing: %v", out.Warnings)
	}
	for _, f := range out.Files {
		want, err := os.ReadFile(filepath.Join(goldenDir, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want, f.Content) {
			t.Errorf("%s differs from what the listing generates (run go test ./gen -update)", f.Name)
		}
	}
}

// mcpTool is the MCP server s as a runtime.Tool: mcpbridge.NewTool over an
// in-memory session.
func mcpTool(t *testing.T, s *mcpServer) *mcpbridge.Tool {
	t.Helper()
	tool, err := mcpbridge.NewTool(context.Background(), connect(t, s))
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// gateway serves the MCP server s as a runtime.Tool over OpenTool HTTP, and
// returns that tool and the generated typed client of it.
func gateway(t *testing.T, s *mcpServer) (*mcpbridge.Tool, *mcpserver.Client) {
	t.Helper()
	tool := mcpTool(t, s)
	srv := httptest.NewServer(runtime.NewHandler(tool))
	t.Cleanup(srv.Close)
	return tool, mcpserver.NewClient(runtime.NewClient(srv.URL + runtime.DefaultPrefix))
}

// TestTypedClient calls every tool of the server through the generated
// typed client, over the MCP server's runtime.Tool in the process
// (runtime.Local) and over OpenTool HTTP in front of it: its argument types
// encode what the server accepts, its result types decode what
// mcpbridge.Tool.Call answers (structuredContent, or the text).
func TestTypedClient(t *testing.T) {
	for _, via := range []string{"local", "http"} {
		t.Run(via, func(t *testing.T) {
			s := newMCPServer()
			var c *mcpserver.Client
			if via == "local" {
				c = mcpserver.NewClient(runtime.Local(mcpTool(t, s)))
			} else {
				_, c = gateway(t, s)
			}
			callEveryTool(t, s, c)
		})
	}
}

func callEveryTool(t *testing.T, s *mcpServer, c *mcpserver.Client) {
	ctx := context.Background()

	note := "late arrival"
	b, err := c.Book(ctx, mcpserver.BookArgs{Guest: "Ada", Room: mcpserver.RoomDouble, Address: &mcpserver.Address{City: "Paris"}, Note: &note})
	if err != nil {
		t.Fatalf("book: %v", err)
	}
	if want := (mcpserver.BookResult{ID: 7, Guest: "Ada", Room: "double", Nights: 1, City: new("Paris"), Note: new("late arrival")}); !cmp.Equal(b, want) {
		t.Errorf("book: %+v, want %+v", b, want)
	}

	times := int64(3)
	text, err := c.Echo(ctx, mcpserver.EchoArgs{Text: "hi", Times: &times})
	if err != nil || text != "hi hi hi" {
		t.Errorf("echo: %q, %v; want %q", text, err, "hi hi hi")
	}

	n, err := c.CountRooms(ctx)
	if err != nil || n.Count != 3 {
		t.Errorf("count_rooms: %+v, %v; want 3", n, err)
	}

	pic, err := c.Picture(ctx)
	if err != nil || pic != "a dot" {
		t.Errorf("picture: %q, %v; want the text of the contents", pic, err)
	}

	tr, err := c.Tree(ctx, mcpserver.TreeArgs{Root: mcpserver.Node{Name: "a", Children: []mcpserver.Node{
		{Name: "b", Children: []mcpserver.Node{{Name: "c"}}}, {Name: "d"},
	}}})
	if err != nil {
		t.Fatalf("tree: %v", err)
	}
	if want := (mcpserver.TreeResult{Count: 4, Names: []string{"a", "b", "c", "d"}}); !cmp.Equal(tr, want) {
		t.Errorf("tree: %+v, want %+v", tr, want)
	}

	unit := mcpserver.UnitMm
	m, err := c.Measure(ctx, mcpserver.MeasureArgs{Value: "12", Shape: map[string]any{"radius": 2}, Unit: &unit, Scale: map[string]float64{"x": 1.5}})
	if err != nil {
		t.Fatalf("measure: %v", err)
	}
	if m.Kind != mcpserver.MeasureResultKindString || math.Abs(m.Area-4*math.Pi) > 1e-9 || m.Unit == nil || *m.Unit != "mm" || m.Scaled["x"] != 3 {
		t.Errorf("measure: %+v", m)
	}
	m, err = c.Measure(ctx, mcpserver.MeasureArgs{Value: 2.5})
	if err != nil || m.Kind != mcpserver.MeasureResultKindNumber || m.Area != 0 {
		t.Errorf("measure 2.5: %+v, %v; want kind number, area null", m, err)
	}

	rooms, err := c.Rooms(ctx)
	if err != nil || !cmp.Equal(rooms, []string{"101", "102"}) {
		t.Errorf("rooms: %v, %v; want the array of structuredContent", rooms, err)
	}

	_, err = c.Fail(ctx)
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != runtime.CodeToolError || !strings.Contains(e.Message, "the front desk is closed") {
		t.Errorf("fail: %v, want the tool's error", err)
	}
	if got := s.calls.Load(); got != 9 {
		t.Errorf("the server had %d calls, want 9", got)
	}
}

// TestGatewayChecks serves the typed client again with the generated NewTool:
// a gateway in front of the MCP server that checks arguments against the
// saved listing before they leave.
func TestGatewayChecks(t *testing.T) {
	ctx := context.Background()
	s := newMCPServer()
	c := mcpserver.NewClient(runtime.Local(mcpTool(t, s)))
	tool, err := mcpserver.NewTool(c)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tool.Call(ctx, "book", json.RawMessage(`{"room":"suite","nights":"two"}`))
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams {
		t.Fatalf("book with bad arguments: %v, want -32602", err)
	}
	for _, want := range []string{"/room", "suite", "/nights", "guest"} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("the violations %q do not mention %s", e.Message, want)
		}
	}
	if got := s.calls.Load(); got != 0 {
		t.Errorf("the server had %d calls, want none: the arguments must not leave", got)
	}
	res, err := tool.Call(ctx, "book", json.RawMessage(`{"guest":"Bob","room":"single","nights":2}`))
	if err != nil || !strings.Contains(string(res), `"nights":2`) {
		t.Errorf("book through the gateway: %s, %v", res, err)
	}
}

// TestSameDocument: the generated package's document is the one mcpbridge
// makes of the live server: the same conversion, at generation time and at
// run time (the info from the listing's _meta), but for what the generator
// repairs so that the document is one the OpenTool loader accepts (here a
// const without type gets the type of its value).
func TestSameDocument(t *testing.T) {
	live, err := mcpTool(t, newMCPServer()).Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	generated := mcpserver.Document()
	unit := findParam(t, generated, "measure", "unit")
	if unit.Schema.Type != document.TypeString {
		t.Errorf("measure: unit: %+v, want the type of its const", unit.Schema)
	}
	unit.Schema.Type = "" // as mcpbridge leaves it
	if diff := cmp.Diff(asJSON(t, live), asJSON(t, generated)); diff != "" {
		t.Errorf("the generated document differs from mcpbridge's (-live +generated):\n%s", diff)
	}
}

func findParam(t *testing.T, doc *document.OpenTool, function, param string) *document.Parameter {
	t.Helper()
	for i := range doc.Functions {
		if f := &doc.Functions[i]; f.Name == function {
			for j := range f.Parameters {
				if f.Parameters[j].Name == param {
					return &f.Parameters[j]
				}
			}
		}
	}
	t.Fatalf("no parameter %s of %s", param, function)
	return nil
}

// asJSON is v as encoding/json decodes its JSON into an any.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
