package gen

import (
	"bytes"
	"testing"
)

// TestNoAddressOfDeref checks that decoders of union variants without a
// decoder of their own (raw and any values, as in GitHub's REST API) take x,
// not &*x (staticcheck SA4001).
func TestNoAddressOfDeref(t *testing.T) {
	doc := `{"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
  "paths": {"/g": {"patch": {"operationId": "update",
    "requestBody": {"content": {"application/json": {"schema": {"oneOf": [{}, {"nullable": true}]}}}},
    "responses": {"204": {"description": "ok"}}}}}}`
	res, err := Generate("u.json", []byte(doc), Options{Package: "u"})
	if err != nil {
		t.Fatal(err)
	}
	seen := false
	for _, f := range res.Files {
		if bytes.Contains(f.Content, []byte("&*x")) {
			t.Errorf("%s has &*x:\n%s", f.Name, f.Content)
		}
		seen = seen || bytes.Contains(f.Content, []byte("decode.Variant("))
	}
	if !seen {
		t.Fatal("the document made no union decoder: the test does not test")
	}
}
