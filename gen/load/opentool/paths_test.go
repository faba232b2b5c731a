package opentool

import (
	"errors"
	"strings"
	"testing"
)

// TestDeepProblemMessage: a document nested past the parser's limit is one
// problem whose message shows both ends of the path, briefly.
func TestDeepProblemMessage(t *testing.T) {
	doc := `{"opentool":"1.0.0","info":{"title":"t","version":"1"},"functions":[],"x":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + "}"
	_, err := LoadOpenTool([]byte(doc))
	var de *DocumentError
	if !errors.As(err, &de) || len(de.Problems) != 1 {
		t.Fatalf("LoadOpenTool: %v", err)
	}
	msg := err.Error()
	if len(msg) > 300 || !strings.HasPrefix(msg, "/x/0/0/0/…(9,992 more)…/0/0/0/0: invalid JSON: exceeded max depth") {
		t.Errorf("message of %d bytes: %.400q", len(msg), msg)
	}
	if p := de.Problems[0].Path; len(p) > maxStoredPath {
		t.Errorf("the problem keeps a path of %d bytes", len(p))
	}
}
