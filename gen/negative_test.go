package gen

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	yaml "github.com/oasdiff/yaml3"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

const negativeDir = "../testdata/negative"

// negativeCases returns the documents of testdata/negative: each <case>.json,
// .yaml or .yml is rejected with exactly the diagnostics in <case>.txt, one per
// line.
func negativeCases(t testing.TB) []string {
	t.Helper()
	var cases []string
	for _, pat := range []string{"*.json", "*.yaml", "*.yml"} {
		m, err := filepath.Glob(filepath.Join(negativeDir, pat))
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, m...)
	}
	if len(cases) == 0 {
		t.Fatal("no negative cases")
	}
	return cases
}

// TestNegative checks the diagnostics of every document in testdata/negative
// against its .txt file; -update rewrites them.
func TestNegative(t *testing.T) {
	seen := map[string]string{}
	for _, path := range negativeCases(t) {
		name := filepath.Base(path)
		want := strings.TrimSuffix(path, filepath.Ext(path)) + ".txt"
		if other, dup := seen[want]; dup {
			t.Fatalf("%s and %s share %s", other, name, want)
		}
		seen[want] = name
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Generate(name, data, Options{Package: "negative"})
			var ge *source.Error
			if !errors.As(err, &ge) {
				t.Fatalf("Generate: got %v, %v; want an *Error", res, err)
			}
			var got strings.Builder
			for _, d := range ge.Diagnostics {
				got.WriteString(d.String())
				got.WriteByte('\n')
				if d.Warning {
					t.Errorf("a warning among the errors: %s", d)
				}
				if d.File != name || d.Line <= 0 || d.Col <= 0 {
					t.Errorf("no position: %s", d)
				}
			}
			if ge.Error() != strings.TrimSuffix(got.String(), "\n") {
				t.Errorf("Error() = %q, want the diagnostics one per line", ge.Error())
			}
			checkPositions(t, name, data, ge.Diagnostics)
			if *update {
				if err := os.WriteFile(want, []byte(got.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			wantText, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (run go test ./gen -update)", err)
			}
			if diff := cmp.Diff(string(wantText), got.String()); diff != "" {
				t.Errorf("diagnostics differ from %s (-want +got):\n%s", want, diff)
			}
		})
	}
}

// checkPositions checks, independently of the generator, that every
// diagnostic points at the value its path names (or at the key of that
// member), or for a missing member at the object that lacks it, and that
// diagnostics come in document order.
func checkPositions(t *testing.T, name string, data []byte, diags []source.Diagnostic) {
	t.Helper()
	var locate func(path string) (valueLine, valueCol, keyLine, keyCol int, found bool)
	if source.LooksLikeYAML(name) {
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
			return // a YAML syntax error: nothing to walk
		}
		locate = func(path string) (int, int, int, int, bool) {
			v, k, found := findYAML(doc.Content[0], path)
			if k == nil {
				k = v
			}
			return v.Line, v.Column, k.Line, k.Column, found
		}
	} else {
		root, err := jsontree.Parse(data)
		if err != nil {
			return // a JSON syntax error: its position is pinned by the .txt
		}
		locate = func(path string) (int, int, int, int, bool) {
			n, key, found := findJSON(root, path)
			vl, vc := jsontree.LineCol(data, n.Offset)
			kl, kc := vl, vc
			if key >= 0 {
				kl, kc = jsontree.LineCol(data, key)
			}
			return vl, vc, kl, kc, found
		}
	}
	prevLine, prevCol := 0, 0
	for _, d := range diags {
		if d.Line < prevLine || d.Line == prevLine && d.Col < prevCol {
			t.Errorf("not in document order: %s after %d:%d", d, prevLine, prevCol)
		}
		prevLine, prevCol = d.Line, d.Col
		if d.Path == "" {
			continue
		}
		vl, vc, kl, kc, found := locate(d.Path)
		if d.Line == vl && d.Col == vc || found && d.Line == kl && d.Col == kc {
			continue
		}
		if found {
			t.Errorf("%s: want %d:%d, the value at %s", d, vl, vc, d.Path)
		} else {
			t.Errorf("%s: want %d:%d, the object %s lacks the member in", d, vl, vc, d.Path)
		}
	}
}

// findJSON returns the value at path, or the nearest enclosing value when
// there is none (found false), and the offset of the member's key (-1 when the
// value is no object member).
func findJSON(root *jsontree.Node, path string) (n *jsontree.Node, keyOffset int64, found bool) {
	n, keyOffset = root, -1
	for _, tok := range splitPointer(path) {
		switch n.Kind {
		case jsontree.Object:
			next := -1
			for i, m := range n.Members {
				if m.Key == tok {
					next = i
				}
			}
			if next < 0 {
				return n, keyOffset, false
			}
			keyOffset = n.Members[next].KeyOffset
			n = n.Members[next].Value
		case jsontree.Array:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Items) {
				return n, keyOffset, false
			}
			n, keyOffset = n.Items[i], -1
		default:
			return n, keyOffset, false
		}
	}
	return n, keyOffset, true
}

// findYAML is findJSON for a YAML tree. Problems inside what an alias refers
// to are reported at the alias.
func findYAML(n *yaml.Node, path string) (v, key *yaml.Node, found bool) {
	v = n
	for _, tok := range splitPointer(path) {
		if v.Kind == yaml.AliasNode {
			return v, nil, true
		}
		switch v.Kind {
		case yaml.MappingNode:
			var next *yaml.Node
			for i := 0; i+1 < len(v.Content); i += 2 {
				if v.Content[i].Value == tok {
					key, next = v.Content[i], v.Content[i+1]
				}
			}
			if next == nil {
				return v, key, false
			}
			v = next
		case yaml.SequenceNode:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v.Content) {
				return v, key, false
			}
			v, key = v.Content[i], nil
		default:
			return v, key, false
		}
	}
	return v, key, true
}

func splitPointer(path string) []string {
	if path == "" {
		return nil
	}
	toks := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, t := range toks {
		toks[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
	}
	return toks
}

// TestNegativePackageName checks that a bad package name is refused before the
// document is read.
func TestNegativePackageName(t *testing.T) {
	for _, pkg := range []string{"", "_", "1x", "func", "a-b", "a b"} {
		if _, err := Generate("x.json", []byte(`{}`), Options{Package: pkg}); err == nil {
			t.Errorf("Generate with package %q: no error", pkg)
		}
	}
}

// TestNegativeEmpty covers inputs with nothing in them.
func TestNegativeEmpty(t *testing.T) {
	for _, c := range []struct{ name, data string }{
		{"empty.json", ""},
		{"space.json", " \n\t\n"},
		{"empty.yaml", ""},
		{"comment.yaml", "# nothing\n"},
		{"null.json", "null"},
		{"string.yaml", "just a string\n"},
		{"number.json", "42"},
	} {
		_, err := Generate(c.name, []byte(c.data), Options{Package: "p"})
		var ge *source.Error
		if !errors.As(err, &ge) || len(ge.Diagnostics) == 0 {
			t.Errorf("%s: got %v, want an *Error", c.name, err)
			continue
		}
		if d := ge.Diagnostics[0]; d.File != c.name || !strings.HasPrefix(d.String(), c.name+":") {
			t.Errorf("%s: %s does not name the file", c.name, d)
		}
	}
}
