package callere2e

import (
	"strings"
	"testing"

	catalog "github.com/opentoolgen/opentoolgen/testdata/golden/catalog"
)

// TestNewToolNilService: a nil Service is refused when the Tool is made,
// with an error naming it, not a panic on every call after.
func TestNewToolNilService(t *testing.T) {
	tool, err := catalog.NewTool(nil)
	if err == nil || tool != nil {
		t.Fatalf("NewTool(nil) = %v, %v; want an error", tool, err)
	}
	if !strings.Contains(err.Error(), "catalog.NewTool: svc is nil") {
		t.Errorf("error %q does not name the nil Service", err)
	}
}
