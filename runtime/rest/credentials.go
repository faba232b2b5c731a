package rest

import (
	"context"
	"fmt"
	"io"
	"maps"
	"strconv"
)

// Credential authenticates requests for one security scheme of the document.
// Its String method never shows the secret.
//
// The secret sits behind a pointer, so that a struct that holds a Credential
// printed with %v or %#v (where fmt does not call methods of unexported
// fields) shows an address, not the secret.
type Credential struct{ *secret }

type secret struct {
	kind  string      // "apiKey", "bearer", "basic", "token"
	in    string      // header, query, cookie (apiKey)
	name  string      // header, query parameter or cookie name (apiKey); user (basic)
	value string      // key, token or password
	token TokenSource // token
}

// TokenSource gives the access token of a request: an OAuth 2 token source
// (package oauth2cred adapts golang.org/x/oauth2's, with refresh), or a
// caller's own. It must be safe for concurrent use; it is called for every
// request, so it should cache its token until it expires.
type TokenSource func(ctx context.Context) (string, error)

// TokenCredential is a token from src sent as "Authorization: Bearer <token>",
// asked for at every request. An error from src fails the call; the error
// names the scheme, never a token.
func TokenCredential(src TokenSource) Credential {
	return Credential{&secret{kind: "token", token: src}}
}

type credentialsKey struct{}

// WithCredentials returns a context whose calls carry creds (security scheme
// name → credential) instead of the client's own for those schemes: one
// client serves many users, each call with its user's credentials, and no
// credential is kept in process-wide state.
func WithCredentials(ctx context.Context, creds map[string]Credential) context.Context {
	merged := map[string]Credential{}
	if prev, ok := ctx.Value(credentialsKey{}).(map[string]Credential); ok {
		maps.Copy(merged, prev)
	}
	maps.Copy(merged, creds)
	return context.WithValue(ctx, credentialsKey{}, merged)
}

// APIKeyCredential is an API key sent in a header, query parameter or cookie
// (in is "header", "query" or "cookie") named name.
func APIKeyCredential(in, name, key string) Credential {
	return Credential{&secret{kind: "apiKey", in: in, name: name, value: key}}
}

// BearerCredential is a token sent as "Authorization: Bearer <token>" (HTTP
// bearer, OAuth 2 and OpenID Connect access tokens).
func BearerCredential(token string) Credential {
	return Credential{&secret{kind: "bearer", value: token}}
}

// BasicCredential is HTTP basic authentication.
func BasicCredential(user, password string) Credential {
	return Credential{&secret{kind: "basic", name: user, value: password}}
}

// String describes the credential without its secret.
func (c Credential) String() string {
	if c.secret == nil {
		return "no credential"
	}
	switch c.kind {
	case "apiKey":
		return "API key in " + c.in + " " + strconv.Quote(c.name)
	case "basic":
		return "basic auth for " + strconv.Quote(c.name)
	case "bearer":
		return "bearer token"
	case "token":
		return "bearer token from a token source"
	}
	return "no credential"
}

// GoString keeps the secret out of %#v too.
func (c Credential) GoString() string { return "rest.Credential(" + c.String() + ")" }

// Format writes String (GoString for %#v) whatever the verb.
func (c Credential) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		io.WriteString(f, c.GoString())
		return
	}
	formatAs(f, verb, c.String())
}

// SetCredential sets the credential of the security scheme named scheme. It
// is sent with the requests of the operations that accept that scheme.
func (c *Client) SetCredential(scheme string, cred Credential) {
	if c.creds == nil {
		c.creds = map[string]Credential{}
	}
	c.creds[scheme] = cred
}
