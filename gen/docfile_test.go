package gen

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/gen/emit"
)

// longText is a description of about n bytes in paragraphs, with mid in its
// middle.
func longText(n int, mid string) string {
	para := strings.Repeat("The quick brown fox jumps over the lazy dog, again and again. ", 8)
	var b strings.Builder
	for b.Len() < n/2 {
		b.WriteString(para + "\n\n")
	}
	b.WriteString(mid + "\n\n")
	for b.Len() < n {
		b.WriteString(para + "\n\n")
	}
	b.WriteString("The end.")
	return b.String()
}

// longDocument is an OpenTool document with long descriptions everywhere a
// description goes: the document, a function, a parameter, a property.
func longDocument(n int, extra string) []byte {
	text := func(where string) string { return longText(n, "MIDDLE-OF-"+where+extra) }
	doc := map[string]any{
		"opentool": "1.0.0",
		"info":     map[string]any{"title": "Long", "version": "1", "description": text("INFO")},
		"functions": []any{map[string]any{
			"name": "f", "description": text("FUNCTION"),
			"parameters": []any{map[string]any{"name": "p", "required": true, "description": text("PARAMETER"),
				"schema": map[string]any{"type": "object", "description": text("SCHEMA"), "properties": map[string]any{
					"q": map[string]any{"type": "string", "description": text("PROPERTY")}}}}},
			"return": map[string]any{"name": "r", "schema": map[string]any{"type": "string"}},
		}},
	}
	b, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return b
}

// TestLongDescriptionsOnce: a long description is written once, in the
// embedded document (opentool.gen.json, which document.gen.go embeds); doc comments carry its beginning, say how much is left
// out, and keep its last paragraph when short.
func TestLongDescriptionsOnce(t *testing.T) {
	for _, extra := range []string{"", " with `code`"} { // a raw literal, an interpreted one
		data := longDocument(1<<20, extra)
		res, err := Generate("long.json", data, Options{Package: "long"})
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, f := range res.Files {
			total += len(f.Content)
			for _, where := range []string{"INFO", "FUNCTION", "PARAMETER", "SCHEMA", "PROPERTY"} {
				n := bytes.Count(f.Content, []byte("MIDDLE-OF-"+where))
				if want := map[bool]int{true: 1, false: 0}[f.Name == emit.DocumentFile]; n != want {
					t.Errorf("%s: the middle of the %s description is there %d times, want %d", f.Name, where, n, want)
				}
			}
			if f.Name != emit.DocumentFile && len(f.Content) > 32<<10 {
				t.Errorf("%s has %d bytes", f.Name, len(f.Content))
			}
		}
		if total > len(data)+64<<10 {
			t.Errorf("%d bytes of files for a document of %d", total, len(data))
		}
		client := string(fileNamed(t, res, "client.gen.go"))
		if !strings.Contains(client, " bytes of the description are left out here; the document has the whole text.)\n//\n// The end.\n") {
			t.Errorf("client.gen.go does not say that the description is cut, or lost its end:\n%.3000s", client)
		}
		// The documents keep every byte; -document writes the embedded one.
		if !bytes.Equal(res.Document, fileNamed(t, res, emit.DocumentFile)) {
			t.Errorf("Result.Document is not %s", emit.DocumentFile)
		}
		var back struct {
			Info struct{ Description string }
		}
		if err := json.Unmarshal(res.Document, &back); err != nil || back.Info.Description != longText(1<<20, "MIDDLE-OF-INFO"+extra) {
			t.Errorf("Result.Document lost the description (%v)", err)
		}
	}
}

func fileNamed(t *testing.T, res *Result, name string) []byte {
	t.Helper()
	for _, f := range res.Files {
		if f.Name == name {
			return f.Content
		}
	}
	t.Fatalf("no %s", name)
	return nil
}

// TestLongDescriptionsCompile vets packages whose embedded document is
// large, with text a Go raw string could not hold.
func TestLongDescriptionsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping go vet of generated packages")
	}
	dir, err := os.MkdirTemp("../testdata", "tmp-long-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	var pkgs []string
	for name, extra := range map[string]string{"longraw": "", "longquoted": " `code`\r\x00\ufeff"} {
		res, err := Generate(name+".json", longDocument(300<<10, extra), Options{Package: name})
		if err != nil {
			t.Fatal(err)
		}
		pdir := filepath.Join(dir, name)
		if err := os.MkdirAll(pdir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Files {
			if err := os.WriteFile(filepath.Join(pdir, f.Name), f.Content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		pkgs = append(pkgs, "./testdata/"+filepath.Base(dir)+"/"+name)
	}
	goTool(t, nil, append([]string{"vet"}, pkgs...)...)
}
