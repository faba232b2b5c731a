package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

func refDoc(title string) *document.OpenTool {
	return &document.OpenTool{
		OpenTool: "1.0.0",
		Info:     document.Info{Title: title, Version: "1"},
		Functions: []document.Function{{Name: "f", Parameters: []document.Parameter{{Name: "p", Schema: &document.Schema{Ref: "#/schemas/A"}}}},
			{Name: "g"}}, // no parameters: [] in the answer
		Schemas: document.Schemas{{Name: "A", Schema: &document.Schema{Type: document.TypeString}}},
	}
}

// The answers are computed once per document: again for the same pointer, and
// for a fresh copy with the same content, they are reused.
func TestLoadAnswersCache(t *testing.T) {
	var a loadAnswers
	log := slog.New(slog.DiscardHandler)
	doc := refDoc("t")
	first, err := a.get(doc, log)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"opentool":"1.0.0","info":{"title":"t","version":"1"},"functions":[{"name":"f","description":"","parameters":[{"name":"p","schema":{"type":"string"},"required":false}]},{"name":"g","description":"","parameters":[]}],"schemas":{"A":{"type":"string"}}}`
	if string(first.inlined) != want {
		t.Errorf("inlined:\n got %s\nwant %s", first.inlined, want)
	}
	if raw, _ := json.Marshal(doc); !bytes.Equal(first.raw, raw) || !bytes.Contains(first.raw, []byte(`"parameters":null`)) {
		t.Errorf("raw: %s (the document is not modified)", first.raw)
	}
	if again, _ := a.get(doc, log); again != first {
		t.Error("the same document was answered anew")
	}
	copyAns, _ := a.get(refDoc("t"), log)
	if &copyAns.inlined[0] != &first.inlined[0] {
		t.Error("a copy of the same document was inlined anew")
	}
	other, _ := a.get(refDoc("u"), log)
	if !strings.Contains(string(other.inlined), `"title":"u"`) {
		t.Errorf("another document: %s", other.inlined)
	}
	if first.body("") == nil || !bytes.Equal(first.body("refs=keep"), first.raw) || !bytes.Equal(first.body("x=1&refs=keep"), first.raw) ||
		!bytes.Equal(first.body("refs=inline"), first.inlined) || !bytes.Equal(first.body("%zz"), first.inlined) {
		t.Error("body: the query does not choose the answer")
	}
}

// A document whose inlined form would explode is answered with its references.
func TestLoadAnswersTooLarge(t *testing.T) {
	doc := &document.OpenTool{OpenTool: "1.0.0", Info: document.Info{Title: "big", Version: "1"}}
	const depth = 20 // S0 → 2 × S1 → 4 × S2 …: 2^20 schemas inlined
	for i := range depth {
		s := &document.Schema{Type: document.TypeString}
		if i < depth-1 {
			next := &document.Schema{Ref: fmt.Sprintf("#/schemas/S%d", i+1)}
			s = &document.Schema{Type: document.TypeObject, Properties: document.Schemas{{Name: "a", Schema: next}, {Name: "b", Schema: next}}}
		}
		doc.Schemas = append(doc.Schemas, document.NamedSchema{Name: fmt.Sprintf("S%d", i), Schema: s})
	}
	doc.Functions = []document.Function{{Name: "f", Parameters: []document.Parameter{{Name: "p", Schema: &document.Schema{Ref: "#/schemas/S0"}}}}}
	if _, ok := document.Inline(doc); ok {
		t.Fatal("inlined 2^20 schemas")
	}
	var logs strings.Builder
	var a loadAnswers
	ans, err := a.get(doc, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil || !bytes.Equal(ans.inlined, ans.raw) || !strings.Contains(logs.String(), "too large") {
		t.Errorf("got %d bytes (raw %d), %v; logs %q", len(ans.inlined), len(ans.raw), err, logs.String())
	}
	// A smaller one of the same shape is inlined.
	doc.Schemas = doc.Schemas[depth-8:]
	doc.Functions[0].Parameters[0].Schema.Ref = fmt.Sprintf("#/schemas/S%d", depth-8)
	if in, ok := document.Inline(doc); !ok {
		t.Error("2^8 schemas not inlined")
	} else if b, _ := json.Marshal(in); bytes.Contains(b, []byte("$ref")) {
		t.Errorf("references left: %s", b)
	}
}

// swapTool returns whatever document it holds now.
type swapTool struct {
	doc atomic.Pointer[document.OpenTool]
}

func (*swapTool) Call(context.Context, string, json.RawMessage) (json.RawMessage, error) {
	return nil, nil
}

func (s *swapTool) Load(context.Context) (*document.OpenTool, error) { return s.doc.Load(), nil }

// A tool whose document changes: every answer is of a document the tool gave,
// never of another, while requests and changes run at once (run with -race).
func TestLoadAnswersDynamicTool(t *testing.T) {
	tool := &swapTool{}
	tool.doc.Store(refDoc("v0"))
	srv := httptest.NewServer(NewHandler(tool, WithLogger(slog.New(slog.DiscardHandler))))
	defer srv.Close()
	get := func() string {
		resp, err := http.Get(srv.URL + "/opentool/load")
		if err != nil {
			t.Error(err)
			return ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if b := get(); !strings.Contains(b, `"title":"v0"`) || strings.Contains(b, "$ref") {
		t.Fatalf("v0: %s", b)
	}
	tool.doc.Store(refDoc("v1"))
	if b := get(); !strings.Contains(b, `"title":"v1"`) {
		t.Fatalf("after the change: %s", b)
	}

	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			tool.doc.Store(refDoc(fmt.Sprintf("v%d", i%3)))
		}
	}()
	var readers sync.WaitGroup
	for range 4 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for range 25 {
				b := get()
				var doc document.OpenTool
				if err := json.Unmarshal([]byte(b), &doc); err != nil || !strings.HasPrefix(doc.Info.Title, "v") || strings.Contains(b, "$ref") {
					t.Errorf("answer %s: %v", b, err)
					return
				}
			}
		}()
	}
	readers.Wait()
	close(stop)
	wg.Wait()
}
