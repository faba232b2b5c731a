package oauth2cred_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/oauth2/clientcredentials"

	"github.com/opentoolgen/opentoolgen/oauth2cred"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// TestClientCredentials runs the flow against a token endpoint and an API
// that wants its tokens: one token for calls while it is valid, a new one when
// it has expired.
func TestClientCredentials(t *testing.T) {
	var issued atomic.Int64
	expiresIn := 3600
	tokens := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, secret, _ := r.BasicAuth()
		if r.FormValue("grant_type") != "client_credentials" || id != "app" || secret != "app-secret" || r.FormValue("scope") != "pets:read pets:write" {
			http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
			return
		}
		n := issued.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":"tok-%d","token_type":"bearer","expires_in":%d}`, n, expiresIn)
	}))
	defer tokens.Close()
	var seen []string
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.Header.Get("Authorization"))
		w.Write([]byte(`{}`))
	}))
	defer api.Close()

	src := oauth2cred.ClientCredentials(t.Context(), clientcredentials.Config{
		ClientID: "app", ClientSecret: "app-secret", TokenURL: tokens.URL, Scopes: []string{"pets:read", "pets:write"},
	})
	c := runtime.NewRESTClient(api.URL)
	c.SetCredential("oauth", runtime.TokenCredential(src))
	call := func() error {
		r := c.NewRequest("GET", "/pets")
		r.Security("oauth")
		_, err := r.Send(t.Context())
		return err
	}
	for range 3 {
		if err := call(); err != nil {
			t.Fatal(err)
		}
	}
	if issued.Load() != 1 || strings.Join(seen, ",") != "Bearer tok-1,Bearer tok-1,Bearer tok-1" {
		t.Errorf("%d tokens issued, calls sent %v; want one token for all", issued.Load(), seen)
	}

	// Tokens that expire at once (oauth2 renews ten seconds early): a new one per call.
	expiresIn = 1
	src = oauth2cred.ClientCredentials(t.Context(), clientcredentials.Config{
		ClientID: "app", ClientSecret: "app-secret", TokenURL: tokens.URL, Scopes: []string{"pets:read", "pets:write"},
	})
	c.SetCredential("oauth", runtime.TokenCredential(src))
	seen = nil
	for range 2 {
		if err := call(); err != nil {
			t.Fatal(err)
		}
	}
	if strings.Join(seen, ",") != "Bearer tok-2,Bearer tok-3" {
		t.Errorf("expiring tokens: calls sent %v, want a new token each", seen)
	}

	// A refused client: the call fails naming the scheme; the secret is not in the error.
	bad := oauth2cred.ClientCredentials(t.Context(), clientcredentials.Config{ClientID: "app", ClientSecret: "wrong-secret", TokenURL: tokens.URL})
	c.SetCredential("oauth", runtime.TokenCredential(bad))
	err := call()
	if err == nil || !strings.Contains(err.Error(), `"oauth"`) || strings.Contains(err.Error(), "wrong-secret") {
		t.Errorf("refused client: %v", err)
	}
	if len(seen) != 2 {
		t.Errorf("the API was called without a token")
	}
}
