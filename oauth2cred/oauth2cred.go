// Package oauth2cred gives generated OpenAPI clients OAuth 2 access tokens
// from golang.org/x/oauth2, as rest.TokenSource values: the client
// credentials flow from a token URL and scopes (the document's flow), and any
// oauth2.TokenSource for the flows where a user signs in (authorization code,
// implicit, device). Tokens are fetched once and again when they expire.
//
//	src := oauth2cred.ClientCredentials(ctx, clientcredentials.Config{
//		ClientID: id, ClientSecret: secret,
//		TokenURL: "https://auth.example.com/token", Scopes: []string{"pets:read"},
//	})
//	c, err := petstore.NewClient("", petstore.WithCredential("petstore_auth", rest.TokenCredential(src)))
//
// The client credentials flow keeps the client secret safe:
//
//   - A token request follows a redirect only within the token URL's origin
//     (scheme, host, port); a redirect to another origin fails the request,
//     which would carry the secret there (in its Authorization header or, on
//     a 307 or 308, in its body).
//   - A token is fetched within the context of the call that needs it: a call
//     with a 2 s deadline waits at most 2 s for the token endpoint. Calls that
//     need a token at the same time wait for one fetch, each within its own
//     context.
//   - The error of a failed fetch is a [*TokenError], which never shows the
//     secret (in Error, nor with any fmt verb): it has the endpoint's status,
//     error code, description and URI, with the secret, if the endpoint
//     echoed it, replaced by "[redacted]". It does not hold the
//     *oauth2.RetrieveError, whose body and request do.
//
// The runtime package does not import this one: it stays standard library only.
package oauth2cred

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/opentoolgen/opentoolgen/internal/redirect"
	"github.com/opentoolgen/opentoolgen/runtime/rest"
)

// ClientCredentials returns the tokens of OAuth 2's client credentials flow
// as cfg describes it, each fetched within the context of the call that needs
// it and kept until it expires (ten seconds early, as oauth2 renews). ctx
// gives the token requests their HTTP client (the *http.Client under
// oauth2.HTTPClient, else http.DefaultClient; it is not changed) and, when it
// ends, ends them too: it should live as long as the client, not be one
// call's context.
func ClientCredentials(ctx context.Context, cfg clientcredentials.Config) rest.TokenSource {
	hc, _ := ctx.Value(oauth2.HTTPClient).(*http.Client)
	if hc == nil {
		hc = http.DefaultClient
	}
	cp := *hc
	next := hc.CheckRedirect
	cp.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		for _, v := range append(via[1:], req) {
			if redirect.Origin(v.URL) != redirect.Origin(via[0].URL) {
				return errTokenRedirect
			}
		}
		if next != nil {
			return next(req, via)
		}
		return redirect.Limit(via)
	}
	s := &ccSource{base: ctx, cfg: cfg, hc: &cp, sem: make(chan struct{}, 1)}
	return s.token
}

// errTokenRedirect is why a token request redirected to another origin fails.
var errTokenRedirect = errors.New("the token endpoint redirected to another origin, which would receive the client secret")

// ccSource is the token source of ClientCredentials.
type ccSource struct {
	base context.Context
	cfg  clientcredentials.Config
	hc   *http.Client
	sem  chan struct{} // held while the token is checked or fetched
	tok  *oauth2.Token
}

// waiting, set only by tests, is called by a call that is about to wait for
// another's check or fetch of the token.
var waiting func()

func (s *ccSource) token(ctx context.Context) (string, error) {
	select {
	case s.sem <- struct{}{}:
	default:
		if waiting != nil {
			waiting()
		}
		select {
		case s.sem <- struct{}{}:
		case <-ctx.Done():
			return "", s.fail(0, context.Cause(ctx))
		}
	}
	defer func() { <-s.sem }()
	if s.tok.Valid() {
		return s.tok.AccessToken, nil
	}
	if s.base.Err() != nil {
		return "", s.fail(0, fmt.Errorf("the token source's context ended: %w", context.Cause(s.base)))
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.base, cancel)()
	t, err := s.cfg.Token(context.WithValue(rctx, oauth2.HTTPClient, s.hc))
	if err != nil {
		if ctx.Err() != nil { // the call gave up: say so, not what the transport saw
			err = context.Cause(ctx)
		}
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			return "", s.retrieveError(re)
		}
		return "", s.fail(0, err)
	}
	if t.AccessToken == "" {
		return "", errors.New("oauth2cred: the token endpoint gave an empty access token")
	}
	s.tok = t
	return t.AccessToken, nil
}

// TokenError is the error of a failed token request of [ClientCredentials]:
// what the token endpoint answered (StatusCode, and RFC 6749's error
// parameters when it sent them), or why no answer came (Unwrap: a context's
// error, a network error). No field, and no way of printing it, shows the
// client secret: wherever the endpoint echoed it, it reads "[redacted]".
type TokenError struct {
	// TokenURL is the endpoint asked.
	TokenURL string
	// StatusCode is the HTTP status of the endpoint's answer (0 when none
	// came).
	StatusCode int
	// ErrorCode, ErrorDescription and ErrorURI are RFC 6749's error,
	// error_description and error_uri ("invalid_client", …).
	ErrorCode, ErrorDescription, ErrorURI string

	body  string // a clip of a body that was not an RFC 6749 error
	cause error  // why no answer came, the secret's text redacted
}

func (e *TokenError) Error() string {
	var b strings.Builder
	b.WriteString("oauth2cred: token request to ")
	b.WriteString(e.TokenURL)
	if e.StatusCode != 0 {
		b.WriteString(": HTTP ")
		b.WriteString(strconv.Itoa(e.StatusCode))
		if t := http.StatusText(e.StatusCode); t != "" {
			b.WriteString(" " + t)
		}
	}
	if e.ErrorCode != "" {
		b.WriteString(": " + strconv.Quote(e.ErrorCode))
		if e.ErrorDescription != "" {
			b.WriteString(" " + strconv.Quote(e.ErrorDescription))
		}
		if e.ErrorURI != "" {
			b.WriteString(" " + strconv.Quote(e.ErrorURI))
		}
	} else if e.body != "" {
		b.WriteString(": " + e.body)
	}
	if e.cause != nil {
		b.WriteString(": " + e.cause.Error())
	}
	return b.String()
}

// Unwrap returns why no answer came (context.DeadlineExceeded, a network
// error…), nil when the endpoint answered.
func (e *TokenError) Unwrap() error { return e.cause }

// GoString is Error: %#v shows no more than %v.
func (e *TokenError) GoString() string {
	return "&oauth2cred.TokenError{" + strconv.Quote(e.Error()) + "}"
}

// redactedError is an error whose text had the secret removed; it keeps the
// original for errors.Is and errors.As (a context's error, a network error:
// nothing that holds the token request or its answer).
type redactedError struct {
	text string
	err  error
}

func (e *redactedError) Error() string    { return e.text }
func (e *redactedError) Unwrap() error    { return e.err }
func (e *redactedError) GoString() string { return strconv.Quote(e.text) }

func (s *ccSource) fail(status int, cause error) *TokenError {
	return &TokenError{TokenURL: s.redact(s.cfg.TokenURL), StatusCode: status, cause: &redactedError{s.redact(cause.Error()), cause}}
}

func (s *ccSource) retrieveError(re *oauth2.RetrieveError) *TokenError {
	e := &TokenError{TokenURL: s.redact(s.cfg.TokenURL), ErrorCode: s.redact(re.ErrorCode),
		ErrorDescription: s.redact(re.ErrorDescription), ErrorURI: s.redact(re.ErrorURI)}
	if re.Response != nil {
		e.StatusCode = re.Response.StatusCode
	}
	if e.ErrorCode == "" {
		body := strings.Join(strings.Fields(strings.ToValidUTF8(s.redact(string(re.Body)), "\uFFFD")), " ")
		if len(body) > 200 {
			body = strings.ToValidUTF8(body[:200], "") + "…"
		}
		e.body = body
	}
	return e
}

// redact replaces in text the client secret, as written and in the forms a
// token request carries it (URL-escaped, in the basic authorization, JSON
// escaped), by "[redacted]".
func (s *ccSource) redact(text string) string {
	secret := s.cfg.ClientSecret
	if secret == "" {
		return text
	}
	j, _ := json.Marshal(secret)
	forms := []string{
		secret, url.QueryEscape(secret), url.PathEscape(secret), string(j[1 : len(j)-1]),
		base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(s.cfg.ClientID) + ":" + url.QueryEscape(secret))),
		base64.StdEncoding.EncodeToString([]byte(s.cfg.ClientID + ":" + secret)),
	}
	for _, f := range forms {
		text = strings.ReplaceAll(text, f, "[redacted]")
	}
	return text
}

// FromTokenSource returns the access tokens of ts, which should cache them
// (oauth2.ReuseTokenSource; Config.TokenSource does). ts takes no context: a
// token it fetches is not bounded by the call's (ClientCredentials is).
func FromTokenSource(ts oauth2.TokenSource) rest.TokenSource {
	return func(context.Context) (string, error) {
		t, err := ts.Token()
		if err != nil {
			return "", err
		}
		if t.AccessToken == "" {
			return "", errors.New("oauth2cred: the token source gave an empty access token")
		}
		return t.AccessToken, nil
	}
}
