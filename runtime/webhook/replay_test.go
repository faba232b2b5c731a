package webhook

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A captured request is refused again however the headers the signature
// does not cover are changed: each scheme's replay key is what is signed.
func TestReplayVariantsRefused(t *testing.T) {
	body := `{"name":"a"}`
	now := time.Now()
	type variant struct {
		name string
		h    http.Header
	}
	clone := func(h http.Header, k, v string) http.Header {
		c := h.Clone()
		if v == "" {
			c.Del(k)
		} else {
			c.Set(k, v)
		}
		return c
	}
	ts := strconv.FormatInt(now.Unix(), 10)

	stv, _ := NewStripe("whsec_new", "whsec_old")
	oldStripe, _ := NewStripe("whsec_old")
	v1 := strings.TrimPrefix(stv.Sign(now, []byte(body)), "t="+ts+",")
	v1old := strings.TrimPrefix(oldStripe.Sign(now, []byte(body)), "t="+ts+",")
	stripeCaptured := http.Header{"Stripe-Signature": {"t=" + ts + "," + v1 + "," + v1old}}
	stripe := []variant{
		{"v0 appended", clone(stripeCaptured, "Stripe-Signature", "t="+ts+","+v1+","+v1old+",v0=00")},
		{"spaces", clone(stripeCaptured, "Stripe-Signature", " t="+ts+" , "+v1+" ,"+v1old+" ")},
		{"reordered", clone(stripeCaptured, "Stripe-Signature", v1old+","+v1+",t="+ts)},
		{"extra v1", clone(stripeCaptured, "Stripe-Signature", "t="+ts+",v1="+strings.Repeat("ab", 32)+","+v1+",v1=00")},
		{"only the old secret's v1", clone(stripeCaptured, "Stripe-Signature", "t="+ts+","+v1old)},
		{"uppercase hex", clone(stripeCaptured, "Stripe-Signature", "t="+ts+",v1="+strings.ToUpper(strings.TrimPrefix(v1, "v1=")))},
	}

	ghv, _ := NewGitHub("s3cret")
	ghCaptured := http.Header{"X-Hub-Signature-256": {ghv.Sign([]byte(body))}, "X-Github-Delivery": {"72d3162e-cc78-11e3-81ab-4c9367dc0958"}}
	github := []variant{
		{"new delivery id", clone(ghCaptured, "X-GitHub-Delivery", "00000000-0000-0000-0000-000000000001")},
		{"no delivery id", clone(ghCaptured, "X-GitHub-Delivery", "")},
		{"uppercase hex", clone(ghCaptured, "X-Hub-Signature-256", "sha256="+strings.ToUpper(strings.TrimPrefix(ghv.Sign([]byte(body)), "sha256=")))},
		{"other event header", clone(ghCaptured, "X-GitHub-Event", "push")},
	}

	sv, _ := NewStandard(vecSecret)
	stdCaptured := sv.Header("msg_1", now, []byte(body))
	sig := stdCaptured.Get("Webhook-Signature")
	standard := []variant{
		{"spaces", clone(stdCaptured, "Webhook-Signature", "  "+sig+"  ")},
		{"extra v1", clone(stdCaptured, "Webhook-Signature", "v1,AAAA "+sig+" v1,"+strings.Repeat("A", 44))},
		{"asymmetric entry", clone(stdCaptured, "Webhook-Signature", "v1a,AAAA "+sig)},
	}

	for _, tc := range []struct {
		scheme   string
		secrets  []string
		captured http.Header
		variants []variant
		// a variant a changed header makes unverifiable (401), not a replay
		forged http.Header
	}{
		{SchemeStripe, []string{"whsec_new", "whsec_old"}, stripeCaptured, stripe, clone(stripeCaptured, "Stripe-Signature", "t="+strconv.FormatInt(now.Unix()+1, 10)+","+v1)},
		{SchemeGitHub, []string{"s3cret"}, ghCaptured, github, nil},
		{SchemeStandard, []string{vecSecret}, stdCaptured, standard, clone(stdCaptured, "Webhook-Id", "msg_2")},
	} {
		t.Run(tc.scheme, func(t *testing.T) {
			s, calls := testServer(t, func(string) error { return nil }, WithVerifier("", mustVerifier(t, tc.scheme, tc.secrets)))
			if st, b := post(t, s.URL+"/ping", tc.captured, body); st != http.StatusAccepted {
				t.Fatalf("captured request: %d %s", st, b)
			}
			if st, _ := post(t, s.URL+"/ping", tc.captured, body); st != http.StatusConflict {
				t.Errorf("captured request again: %d, want 409", st)
			}
			for _, v := range tc.variants {
				if st, b := post(t, s.URL+"/ping", v.h, body); st != http.StatusConflict {
					t.Errorf("%s: %d %s, want 409 (a replay)", v.name, st, b)
				}
			}
			if tc.forged != nil {
				if st, _ := post(t, s.URL+"/ping", tc.forged, body); st != http.StatusUnauthorized {
					t.Errorf("a signed field changed: %d, want 401", st)
				}
			}
			if n := calls.Load(); n != 1 {
				t.Errorf("the method ran %d times, want 1", n)
			}
			// Another body is another message.
			other := `{"name":"b"}`
			var h http.Header
			switch tc.scheme {
			case SchemeStripe:
				h = http.Header{"Stripe-Signature": {stv.Sign(now, []byte(other))}}
			case SchemeGitHub:
				h = http.Header{"X-Hub-Signature-256": {ghv.Sign([]byte(other))}}
			default:
				h = sv.Header("msg_3", now, []byte(other))
			}
			if st, b := post(t, s.URL+"/ping", h, other); st != http.StatusAccepted {
				t.Errorf("another message: %d %s", st, b)
			}
		})
	}
}

func mustVerifier(t *testing.T, scheme string, secrets []string) Verifier {
	t.Helper()
	v, err := NewVerifier(scheme, secrets...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
