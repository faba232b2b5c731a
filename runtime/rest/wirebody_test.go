package rest

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// TestWireBodyRedacts: an API that echoes the request's credentials in an
// error body (its headers, query and cookies as it got them): the error's
// body as a tool answers it (runtime.ToolError's data) has each credential
// read "[redacted]", for every kind of credential; the Go error keeps the
// raw body.
func TestWireBodyRedacts(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, "refused: "+r.Header.Get("Authorization")+" "+r.Header.Get("X-Key")+" "+r.URL.RawQuery+" "+r.Header.Get("Cookie"))
	}))
	defer api.Close()
	for name, c := range map[string]struct {
		cred    Credential
		secrets []string
	}{
		"bearer": {BearerCredential("tok-SECRET-1"), []string{"tok-SECRET-1"}},
		"token":  {TokenCredential(func(context.Context) (string, error) { return "oauth-SECRET-2", nil }), []string{"oauth-SECRET-2"}},
		"basic":  {BasicCredential("ada", "pw-SECRET-3"), []string{"pw-SECRET-3", "YWRhOnB3LVNFQ1JFVC0z"}},
		"header": {APIKeyCredential("header", "X-Key", "key-SECRET-4"), []string{"key-SECRET-4"}},
		"query":  {APIKeyCredential("query", "api_key", "qkey-SECRET-5"), []string{"qkey-SECRET-5"}},
		"cookie": {APIKeyCredential("cookie", "session", "ck-SECRET-6"), []string{"ck-SECRET-6"}},
	} {
		cl := NewClient(api.URL)
		cl.SetCredential("s", c.cred)
		r := cl.NewRequest("GET", "/things")
		r.Security("s")
		res, err := r.Send(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		apiErr := res.Unexpected()
		var e *runtime.Error
		if !errors.As(runtime.ToolError(apiErr), &e) || e.Code != http.StatusUnauthorized {
			t.Fatalf("%s: %v", name, runtime.ToolError(apiErr))
		}
		raw := string(apiErr.(*StatusError).Body)
		echoed := false
		for _, s := range c.secrets {
			if strings.Contains(string(e.Data), s) || !strings.Contains(string(e.Data), "[redacted]") {
				t.Errorf("%s: the tool's error data %s holds %q", name, e.Data, s)
			}
			echoed = echoed || strings.Contains(raw, s)
		}
		if !echoed {
			t.Errorf("%s: the Go error's body %q does not hold the credential", name, raw)
		}
	}
}
