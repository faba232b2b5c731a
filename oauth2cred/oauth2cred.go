// Package oauth2cred gives generated OpenAPI clients OAuth 2 access tokens
// from golang.org/x/oauth2, as runtime.TokenSource values: the client
// credentials flow from a token URL and scopes (the document's flow), and any
// oauth2.TokenSource for the flows where a user signs in (authorization code,
// implicit, device). Tokens are fetched once and again when they expire.
//
//	src := oauth2cred.ClientCredentials(ctx, clientcredentials.Config{
//		ClientID: id, ClientSecret: secret,
//		TokenURL: "https://auth.example.com/token", Scopes: []string{"pets:read"},
//	})
//	c := petstore.NewClient("", petstore.WithCredential("petstore_auth", runtime.TokenCredential(src)))
//
// The runtime package does not import this one: it stays standard library only.
package oauth2cred

import (
	"context"
	"errors"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// ClientCredentials returns the tokens of OAuth 2's client credentials flow
// as cfg describes it. ctx is the context of the token requests (an
// *http.Client under oauth2.HTTPClient sends them); it should outlive the
// token source, not be one call's context.
func ClientCredentials(ctx context.Context, cfg clientcredentials.Config) runtime.TokenSource {
	return FromTokenSource(cfg.TokenSource(ctx))
}

// FromTokenSource returns the access tokens of ts, which should cache them
// (oauth2.ReuseTokenSource; Config.TokenSource does).
func FromTokenSource(ts oauth2.TokenSource) runtime.TokenSource {
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
