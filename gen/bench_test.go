package gen

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"testing"
)

// synthDocument returns an OpenTool document of n functions, each with a
// string, an enum, an optional integer, a nested object (two levels) and an
// array of objects as parameters, and an object result: the shape of the
// generator's speed target (2,000 functions).
func synthDocument(n int) []byte {
	type obj = map[string]any
	fns := make([]any, 0, n)
	for i := 0; i < n; i++ {
		nested := obj{"type": "object", "properties": obj{
			"street": obj{"type": "string", "description": "street"},
			"geo": obj{"type": "object", "properties": obj{
				"lat": obj{"type": "number"}, "lon": obj{"type": "number"},
			}, "required": []string{"lat", "lon"}},
		}, "required": []string{"street"}}
		fns = append(fns, obj{
			"name":        fmt.Sprintf("function_%04d", i),
			"description": fmt.Sprintf("Function number %d of the synthetic document.", i),
			"parameters": []any{
				obj{"name": "query", "schema": obj{"type": "string"}, "required": true, "description": "what to look for"},
				obj{"name": "mode", "schema": obj{"type": "string", "enum": []string{"fast", "exact", "fuzzy"}}, "required": true},
				obj{"name": "limit", "schema": obj{"type": "integer"}, "required": false},
				obj{"name": "address", "schema": nested, "required": false},
				obj{"name": "items", "schema": obj{"type": "array", "items": obj{"$ref": "#/schemas/Item"}}, "required": false},
			},
			"return": obj{"name": "result", "schema": obj{"type": "object", "properties": obj{
				"count": obj{"type": "integer"}, "items": obj{"type": "array", "items": obj{"$ref": "#/schemas/Item"}},
			}}},
		})
	}
	doc := obj{
		"opentool":  "1.0.0",
		"info":      obj{"title": "Synthetic", "version": "1.0.0"},
		"functions": fns,
		"schemas": obj{"Item": obj{"type": "object", "properties": obj{
			"id": obj{"type": "integer"}, "name": obj{"type": "string"}, "tags": obj{"type": "array", "items": obj{"type": "string"}},
		}, "required": []string{"id"}}},
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic(err)
	}
	return b
}

var (
	synthOut = flag.String("synth-out", "", "TestWriteSynthetic writes the synthetic document to this file")
	synthN   = flag.Int("synth-n", 2000, "the number of functions of the document -synth-out writes")
)

// TestWriteSynthetic writes the synthetic document for scripts/bench-gen.sh
// (peak memory of the command); without -synth-out it only checks that the
// document generates.
func TestWriteSynthetic(t *testing.T) {
	if *synthOut != "" {
		if err := os.WriteFile(*synthOut, synthDocument(*synthN), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	res, err := Generate("synth.json", synthDocument(20), Options{Package: "synth"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) == 0 {
		t.Fatal("no files")
	}
}

// BenchmarkGenerate2000 measures the whole pipeline (load, model, emit, format)
// for the 2,000-function document.
func BenchmarkGenerate2000(b *testing.B) {
	data := synthDocument(2000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Generate("synth.json", data, Options{Package: "synth"}); err != nil {
			b.Fatal(err)
		}
	}
}
