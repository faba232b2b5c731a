package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSlowLoadNote: a document the fast path gives up on (a "$REF" of
// another case) is noted once on stderr, not with -q, and a document it
// loads is not noted.
func TestSlowLoadNote(t *testing.T) {
	dir := t.TempDir()
	slow := filepath.Join(dir, "slow.json")
	doc := `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{"A":{"$REF":"#/components/schemas/B"},"B":{"type":"string"}}}}`
	if err := os.WriteFile(slow, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	fast := filepath.Join(dir, "fast.json")
	if err := os.WriteFile(fast, []byte(strings.Replace(doc, "$REF", "$ref", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"-check", "-o", filepath.Join(dir, "a"), slow}, 1},
		{[]string{"-check", "-q", "-o", filepath.Join(dir, "b"), slow}, 0},
		{[]string{"-check", "-o", filepath.Join(dir, "c"), fast}, 0},
	} {
		var stdout, stderr bytes.Buffer
		_ = generate(c.args, &stdout, &stderr) // the note comes before any later error
		if got := strings.Count(stderr.String(), "was loaded the slower way"); got != c.want {
			t.Errorf("%v: %d notes, want %d; stderr:\n%s", c.args, got, c.want, stderr.String())
		}
	}
}
