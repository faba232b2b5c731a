package openapi

import (
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/model"
)

// idempotencyHeader returns the header of the idempotency key operation op
// declares, "" for none: a header parameter named Idempotency-Key (in any
// case, or any name holding "idempotency"), the operation's
// x-idempotency-key (true for Idempotency-Key, or the header's name), or
// Fern's x-fern-idempotent: true with the document's
// x-fern-idempotency-headers (the first of them). fn's arguments have been
// built: a parameter's name is that of its argument's HTTP.
func (b *oaBuilder) idempotencyHeader(fn *model.Function, op *openapi3.Operation) string {
	if fn.Args != nil {
		for _, f := range fn.Args.Fields {
			if f.HTTP != nil && f.HTTP.In == model.InHeader && strings.Contains(strings.ToLower(f.HTTP.Name), "idempotency") && isText(f.Type) {
				return f.HTTP.Name
			}
		}
	}
	switch v := op.Extensions["x-idempotency-key"].(type) {
	case bool:
		if v {
			return "Idempotency-Key"
		}
	case string:
		if validHeaderName(v) {
			return v
		}
	}
	if op.Extensions["x-fern-idempotent"] == true {
		list, _ := b.doc.Extensions["x-fern-idempotency-headers"].([]any)
		for _, h := range list {
			m, _ := h.(map[string]any)
			if name, _ := m["header"].(string); validHeaderName(name) {
				return name
			}
		}
		return "Idempotency-Key"
	}
	return ""
}

// validHeaderName reports whether s is a header name (an HTTP token).
func validHeaderName(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("!#$%&'*+-.^_`|~", r)) {
			return false
		}
	}
	return true
}
