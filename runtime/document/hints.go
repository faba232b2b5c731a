package document

import "net/http"

// Hints are what a tool knows of the effects of one of its functions, in the
// terms of MCP's tool annotations: each is nil when unknown, and a client then
// assumes MCP's default for it (ReadOnly false, Destructive true, Idempotent
// false, OpenWorld true). Destructive and Idempotent mean something only for a
// function that is not read-only. They are hints for a model or a user
// interface, never a guarantee: a client must not trust them from a server it
// does not trust. In JSON they are MCP's annotations (readOnlyHint, …).
type Hints struct {
	// ReadOnly: the function does not modify its environment.
	ReadOnly *bool `json:"readOnlyHint,omitempty"`
	// Destructive: the function may update or remove what exists (true), or
	// only adds to its environment (false).
	Destructive *bool `json:"destructiveHint,omitempty"`
	// Idempotent: calling the function again with the same arguments has no
	// further effect.
	Idempotent *bool `json:"idempotentHint,omitempty"`
	// OpenWorld: the function reaches an open world of external entities (a
	// web API, the Internet), not only a closed domain of its own.
	OpenWorld *bool `json:"openWorldHint,omitempty"`
}

// MethodHints returns the hints of a function that is an HTTP request with the
// given method (upper case, as net/http's Method constants), from the method's
// semantics in RFC 9110. Every such call reaches a web API: OpenWorld is true.
//
//   - GET, HEAD, OPTIONS, TRACE and QUERY (the safe methods; QUERY, OpenAPI
//     3.2's, is a GET with a body, safe and idempotent as the IETF's draft
//     "The HTTP QUERY Method" defines it): ReadOnly.
//   - DELETE: Destructive and Idempotent.
//   - PUT: Idempotent; it replaces what the URL names, so Destructive is left
//     unset, which MCP reads as true.
//   - POST, PATCH and any other method: not ReadOnly, not Idempotent;
//     Destructive unset (MCP's default, true): a POST may as well delete as
//     add, and the method does not say which.
func MethodHints(method string) Hints {
	h := Hints{ReadOnly: new(false), OpenWorld: new(true)}
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace, "QUERY":
		*h.ReadOnly = true
	case http.MethodDelete:
		h.Destructive, h.Idempotent = new(true), new(true)
	case http.MethodPut:
		h.Idempotent = new(true)
	default:
		h.Idempotent = new(false)
	}
	return h
}

// FunctionHints returns the hints the document's function name carries
// (Function.Hints, from an MCP listing), false when it has none: the Hints
// method of a package generated from a listing.
func FunctionHints(doc *OpenTool, name string) (Hints, bool) {
	if doc == nil {
		return Hints{}, false
	}
	for i := range doc.Functions {
		if f := &doc.Functions[i]; f.Name == name && f.Hints != nil {
			return *f.Hints, true
		}
	}
	return Hints{}, false
}
