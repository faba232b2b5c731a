package oauth2cred_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/opentoolgen/opentoolgen/oauth2cred"
	"github.com/opentoolgen/opentoolgen/runtime/rest"
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
	c := rest.NewClient(api.URL)
	c.SetCredential("oauth", rest.TokenCredential(src))
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
	c.SetCredential("oauth", rest.TokenCredential(src))
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
	c.SetCredential("oauth", rest.TokenCredential(bad))
	err := call()
	if err == nil || !strings.Contains(err.Error(), `"oauth"`) || strings.Contains(err.Error(), "wrong-secret") {
		t.Errorf("refused client: %v", err)
	}
	if len(seen) != 2 {
		t.Errorf("the API was called without a token")
	}
}

// tokenEndpoint is a token endpoint of the test's own that checks the client
// (basic auth or form) and records every request's secret-bearing parts.
type tokenEndpoint struct {
	*httptest.Server
	mu   sync.Mutex
	hits []string // "path auth form" of each request
	n    atomic.Int64
}

func newTokenEndpoint(t *testing.T, route func(w http.ResponseWriter, r *http.Request) bool) *tokenEndpoint {
	te := &tokenEndpoint{}
	te.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		te.mu.Lock()
		te.hits = append(te.hits, r.URL.Path+" "+r.Header.Get("Authorization")+" "+r.PostForm.Encode())
		te.mu.Unlock()
		if route != nil && route(w, r) {
			return
		}
		id, secret, ok := r.BasicAuth()
		if !ok {
			id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
		}
		if id != "app" || secret != "s3cr3t/+&key" {
			http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":"tok-%d","token_type":"bearer","expires_in":3600}`, te.n.Add(1))
	}))
	t.Cleanup(te.Close)
	return te
}

func (te *tokenEndpoint) requests() []string {
	te.mu.Lock()
	defer te.mu.Unlock()
	return append([]string(nil), te.hits...)
}

const testSecret = "s3cr3t/+&key"

func ccConfig(tokenURL string) clientcredentials.Config {
	return clientcredentials.Config{ClientID: "app", ClientSecret: testSecret, TokenURL: tokenURL}
}

// TestTokenRedirect: a token endpoint that redirects to another port gets
// nothing sent there (neither the basic authorization nor, on a 307, the
// form with the secret), and the call fails saying why; a redirect within the
// endpoint's origin is followed.
func TestTokenRedirect(t *testing.T) {
	other := newTokenEndpoint(t, nil)
	for _, status := range []int{http.StatusFound, http.StatusTemporaryRedirect} {
		te := newTokenEndpoint(t, func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path == "/token" {
				w.Header().Set("Location", other.URL+"/token")
				w.WriteHeader(status)
				return true
			}
			return false
		})
		for _, style := range []oauth2.AuthStyle{oauth2.AuthStyleAutoDetect, oauth2.AuthStyleInHeader, oauth2.AuthStyleInParams} {
			cfg := ccConfig(te.URL + "/token")
			cfg.AuthStyle = style
			_, err := oauth2cred.ClientCredentials(context.Background(), cfg)(t.Context())
			if err == nil || !strings.Contains(err.Error(), "redirected to another origin") {
				t.Errorf("%d, auth style %d: %v", status, style, err)
			}
			if got := other.requests(); len(got) != 0 {
				t.Fatalf("%d, auth style %d: the other origin got %q", status, style, got)
			}
		}
	}

	te := newTokenEndpoint(t, func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path == "/token" {
			w.Header().Set("Location", "/token2")
			w.WriteHeader(http.StatusTemporaryRedirect)
			return true
		}
		return false
	})
	tok, err := oauth2cred.ClientCredentials(context.Background(), ccConfig(te.URL+"/token"))(t.Context())
	if err != nil || tok != "tok-1" {
		t.Errorf("a redirect within the origin: %q, %v", tok, err)
	}
}

// TestTokenContext: the fetch ends with the call's context, while the token
// endpoint is still thinking; a later call with time enough gets the token; a
// token source whose own context ended fetches no more.
func TestTokenContext(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)
	te := newTokenEndpoint(t, func(w http.ResponseWriter, r *http.Request) bool {
		{ // every request waits until released
			select {
			case <-release:
			case <-r.Context().Done():
				return true
			}
		}
		return false
	})
	src := oauth2cred.ClientCredentials(context.Background(), ccConfig(te.URL))

	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		_, err := src(ctx)
		done <- err
	}()
	select {
	case err := <-done:
		var te *oauth2cred.TokenError
		if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &te) {
			t.Errorf("error %v, want the call's deadline in a *TokenError", err)
		}
	case <-time.After(20 * time.Second):
		free()
		t.Fatal("the token fetch did not end with the call's context")
	}

	// Two calls wait for one fetch; the endpoint answers once released, when
	// one call fetches and the other waits for it.
	waits := make(chan struct{}, 2)
	oauth2cred.SetWaiting(t, func() { waits <- struct{}{} })
	results := make(chan string, 2)
	for range 2 {
		go func() {
			tok, err := src(t.Context())
			if err != nil {
				tok = err.Error()
			}
			results <- tok
		}()
	}
	select {
	case <-waits:
	case <-time.After(20 * time.Second): // a watchdog
		free()
		t.Fatal("no call waited for the other's fetch")
	}
	free()
	if a, b := <-results, <-results; a != "tok-1" || b != "tok-1" || te.n.Load() != 1 {
		t.Errorf("concurrent calls got %q and %q, %d tokens issued; want tok-1 from one fetch", a, b, te.n.Load())
	}

	ctx, cancel := context.WithCancel(context.Background())
	src = oauth2cred.ClientCredentials(ctx, ccConfig(te.URL))
	cancel()
	if _, err := src(t.Context()); err == nil || !errors.Is(err, context.Canceled) {
		t.Errorf("a source whose context ended: %v", err)
	}
}

// TestTokenErrorNoSecret: an endpoint that echoes the secret (in its error
// description, in a plain body, the authorization it got) gives an error that
// shows it with no fmt verb, directly or through the REST call that needed
// the token; errors.As gives the status and error code.
func TestTokenErrorNoSecret(t *testing.T) {
	te := newTokenEndpoint(t, func(w http.ResponseWriter, r *http.Request) bool {
		id, secret, _ := r.BasicAuth()
		if secret == "" {
			secret = r.PostForm.Get("client_secret")
		}
		switch r.URL.Path {
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			b, _ := json.Marshal(map[string]string{"error": "invalid_client", "error_description": "client " + id + " with secret " + secret + " (" + r.Header.Get("Authorization") + ") is unknown", "error_uri": "https://auth.example/?s=" + url.QueryEscape(secret)})
			w.Write(b)
		default:
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, "<html>bad request %s %s %s</html>", secret, r.Header.Get("Authorization"), r.PostForm.Encode())
		}
		return true
	})
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{}`)) }))
	defer api.Close()
	for _, path := range []string{"/json", "/plain"} {
		src := oauth2cred.ClientCredentials(context.Background(), ccConfig(te.URL+path))
		_, err := src(t.Context())
		c := rest.NewClient(api.URL)
		c.SetCredential("oauth", rest.TokenCredential(src))
		r := c.NewRequest("GET", "/pets")
		r.Security("oauth")
		_, callErr := r.Send(t.Context())
		for _, e := range []error{err, callErr} {
			if e == nil {
				t.Fatalf("%s: no error", path)
			}
			for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
				text := fmt.Sprintf(verb, e)
				if verb == "%x" {
					b, _ := hex.DecodeString(text)
					text = string(b)
				}
				for _, form := range []string{testSecret, url.QueryEscape(testSecret), "s3cr3t"} {
					if strings.Contains(text, form) {
						t.Errorf("%s: %s shows the secret: %s", path, verb, text)
					}
				}
			}
			var tokErr *oauth2cred.TokenError
			if !errors.As(e, &tokErr) {
				t.Fatalf("%s: %v is not a *TokenError", path, e)
			}
			wantStatus, wantCode := http.StatusUnauthorized, "invalid_client"
			if path == "/plain" {
				wantStatus, wantCode = http.StatusBadRequest, ""
			}
			if tokErr.StatusCode != wantStatus || tokErr.ErrorCode != wantCode || !strings.Contains(e.Error(), "[redacted]") {
				t.Errorf("%s: status %d, code %q, text %v", path, tokErr.StatusCode, tokErr.ErrorCode, e)
			}
			var re *oauth2.RetrieveError
			if errors.As(e, &re) {
				t.Errorf("%s: the *oauth2.RetrieveError, which holds the secret, is in the chain", path)
			}
		}
	}
}
