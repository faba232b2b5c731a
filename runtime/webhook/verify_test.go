package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// The test vector of the Standard Webhooks specification (the signing test
// of its reference libraries, github.com/standard-webhooks/standard-webhooks,
// libraries/*/ tests): this secret, message id, time and payload sign to
// this signature. Written here as data; the code below computes it.
const (
	vecSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	vecID     = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	vecTime   = 1614265330
	vecBody   = `{"test": 2432232314}`
	vecSig    = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
	// A valid-looking signature of another key, from the same tests.
	otherSig = "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc="
)

func vecHeader(sig string) http.Header {
	h := http.Header{}
	h.Set("webhook-id", vecID)
	h.Set("webhook-timestamp", strconv.Itoa(vecTime))
	h.Set("webhook-signature", sig)
	return h
}

func TestStandardVector(t *testing.T) {
	v, err := NewStandard(vecSecret)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(vecTime, 0)
	if got := v.Sign(vecID, at, []byte(vecBody)); got != vecSig {
		t.Fatalf("Sign = %s, want %s", got, vecSig)
	}
	// The secret without its prefix is the same key.
	bare, err := NewStandard(vecSecret[len("whsec_"):])
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		v    *Standard
		h    http.Header
		body string
		now  time.Time
		want error
	}{
		{"vector", v, vecHeader(vecSig), vecBody, at, nil},
		{"no prefix", bare, vecHeader(vecSig), vecBody, at.Add(-time.Minute), nil},
		{"several signatures", v, vecHeader(otherSig + " v2,xyz " + vecSig + " " + otherSig), vecBody, at, nil},
		{"other version only", v, vecHeader("v1a," + vecSig[3:]), vecBody, at, ErrSignature},
		{"wrong signature", v, vecHeader(otherSig), vecBody, at, ErrSignature},
		{"body changed", v, vecHeader(vecSig), `{"test": 2432232315}`, at, ErrSignature},
		{"old", v, vecHeader(vecSig), vecBody, at.Add(DefaultTolerance + time.Second), ErrTimestamp},
		{"future", v, vecHeader(vecSig), vecBody, at.Add(-DefaultTolerance - time.Second), ErrTimestamp},
		{"edge", v, vecHeader(vecSig), vecBody, at.Add(DefaultTolerance), nil},
		{"bad base64", v, vecHeader("v1,!!!"), vecBody, at, ErrSignature},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := tc.v.Verify(tc.h, []byte(tc.body), tc.now)
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Fatalf("Verify = %v, want %v", err, tc.want)
			}
			if err == nil && (m.ID != vecID || m.Time.Unix() != vecTime) {
				t.Fatalf("message = %+v", m)
			}
		})
	}
	for _, drop := range []string{"webhook-id", "webhook-timestamp", "webhook-signature"} {
		h := vecHeader(vecSig)
		h.Del(drop)
		if _, err := v.Verify(h, []byte(vecBody), at); !errors.Is(err, ErrUnsigned) || Status(err) != 401 {
			t.Errorf("without %s: %v", drop, err)
		}
	}
	h := vecHeader(vecSig)
	h.Set("webhook-timestamp", "12a")
	if _, err := v.Verify(h, []byte(vecBody), at); !errors.Is(err, ErrTimestamp) {
		t.Errorf("bad timestamp: %v", err)
	}
}

func TestStandardWrongSecretAndRotation(t *testing.T) {
	at := time.Unix(vecTime, 0)
	wrong, _ := NewStandard("whsec_" + "c2VjcmV0LW9mLWFub3RoZXItc2VuZGVy") // "secret-of-another-sender"
	if _, err := wrong.Verify(vecHeader(vecSig), []byte(vecBody), at); !errors.Is(err, ErrSignature) {
		t.Fatalf("wrong secret: %v", err)
	}
	// A rotation: the new secret first, the old still accepted, and a
	// message signed with each (one header carrying both) is accepted.
	rot, err := NewStandard("whsec_c2VjcmV0LW9mLWFub3RoZXItc2VuZGVy", vecSecret)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rot.Verify(vecHeader(vecSig), []byte(vecBody), at); err != nil {
		t.Fatalf("old secret during rotation: %v", err)
	}
	newSig := rot.Sign(vecID, at, []byte(vecBody))
	if newSig == vecSig {
		t.Fatal("the first secret must sign")
	}
	if _, err := rot.Verify(vecHeader(newSig+" "+vecSig), []byte(vecBody), at); err != nil {
		t.Fatalf("both signatures: %v", err)
	}
	old, _ := NewStandard(vecSecret)
	if _, err := old.Verify(vecHeader(newSig), []byte(vecBody), at); !errors.Is(err, ErrSignature) {
		t.Fatalf("new signature with only the old secret: %v", err)
	}
	for _, bad := range [][]string{nil, {"whsec_%%%"}, {""}} {
		if _, err := NewStandard(bad...); err == nil {
			t.Errorf("NewStandard(%q) accepted", bad)
		}
	}
}

// hmacHex is the hex HMAC-SHA256 of msg, computed independently of the
// package's helpers.
func hmacHex(key, msg string) string {
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte(msg))
	return hex.EncodeToString(m.Sum(nil))
}

func TestGitHub(t *testing.T) {
	body := []byte(`{"action":"opened","number":7}`)
	v, err := NewGitHub("new-secret", "old-secret")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := v.Sign(body), "sha256="+hmacHex("new-secret", string(body)); got != want {
		t.Fatalf("Sign = %s, want %s", got, want)
	}
	for _, tc := range []struct {
		name, sig string
		want      error
	}{
		{"new", "sha256=" + hmacHex("new-secret", string(body)), nil},
		{"old", "sha256=" + hmacHex("old-secret", string(body)), nil},
		{"wrong", "sha256=" + hmacHex("other", string(body)), ErrSignature},
		{"sha1", "sha1=" + hmacHex("new-secret", string(body))[:40], ErrSignature},
		{"not hex", "sha256=zz", ErrSignature},
		{"none", "", ErrUnsigned},
	} {
		h := http.Header{}
		if tc.sig != "" {
			h.Set("X-Hub-Signature-256", tc.sig)
		}
		h.Set("X-GitHub-Delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958")
		m, err := v.Verify(h, body, time.Now())
		if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
		if sum := sha256.Sum256(body); err == nil && m.ID != "sha256:"+hex.EncodeToString(sum[:]) {
			t.Errorf("%s: id %q, want the body's digest (X-GitHub-Delivery is not signed)", tc.name, m.ID)
		}
	}
}

func TestStripe(t *testing.T) {
	body := []byte(`{"id":"evt_1","type":"charge.succeeded"}`)
	now := time.Unix(1700000000, 0)
	v, err := NewStripe("whsec_test_new", "whsec_test_old")
	if err != nil {
		t.Fatal(err)
	}
	ts := strconv.FormatInt(now.Unix(), 10)
	if got, want := v.Sign(now, body), "t="+ts+",v1="+hmacHex("whsec_test_new", ts+"."+string(body)); got != want {
		t.Fatalf("Sign = %s, want %s", got, want)
	}
	for _, tc := range []struct {
		name, sig string
		now       time.Time
		want      error
	}{
		{"signed", "t=" + ts + ",v1=" + hmacHex("whsec_test_new", ts+"."+string(body)), now, nil},
		{"old secret among others", "t=" + ts + ",v1=" + hmacHex("x", "y") + ",v0=abc,v1=" + hmacHex("whsec_test_old", ts+"."+string(body)), now, nil},
		{"wrong secret", "t=" + ts + ",v1=" + hmacHex("whsec_other", ts+"."+string(body)), now, ErrSignature},
		{"old", "t=" + ts + ",v1=" + hmacHex("whsec_test_new", ts+"."+string(body)), now.Add(6 * time.Minute), ErrTimestamp},
		{"time changed", "t=" + strconv.FormatInt(now.Unix()+1, 10) + ",v1=" + hmacHex("whsec_test_new", ts+"."+string(body)), now, ErrSignature},
		{"no time", "v1=" + hmacHex("whsec_test_new", ts+"."+string(body)), now, ErrUnsigned},
		{"none", "", now, ErrUnsigned},
	} {
		h := http.Header{}
		if tc.sig != "" {
			h.Set("Stripe-Signature", tc.sig)
		}
		_, err := v.Verify(h, body, tc.now)
		if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestNewVerifier(t *testing.T) {
	for _, s := range []string{"standard", "github", "stripe"} {
		if _, err := NewVerifier(s, "whsec_c2VjcmV0"); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	if _, err := NewVerifier("hmac-md5", "x"); err == nil {
		t.Error("unknown scheme accepted")
	}
	if _, err := NewVerifier("github"); err == nil {
		t.Error("no secret accepted")
	}
}
