package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The signature schemes a document may name (x-webhook-signature), as
// [NewVerifier] takes them.
const (
	SchemeStandard = "standard" // Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature
	SchemeGitHub   = "github"   // GitHub: X-Hub-Signature-256: sha256=<hex>
	SchemeStripe   = "stripe"   // Stripe: Stripe-Signature: t=<unix>,v1=<hex>
	SchemeNone     = "none"     // no signature: the receiver must be built WithoutVerification
)

// DefaultTolerance is how far a signed timestamp may be from the receiver's
// clock, either way, as Standard Webhooks and Stripe recommend.
const DefaultTolerance = 5 * time.Minute

// The errors of verification; [Status] maps each to its HTTP status.
var (
	// ErrUnsigned: the request carries no signature of the scheme (401).
	ErrUnsigned = errors.New("webhook: unsigned request")
	// ErrSignature: no signature matches any secret (401).
	ErrSignature = errors.New("webhook: no signature matches")
	// ErrTimestamp: the signed timestamp is malformed or outside the
	// tolerance (401): an old message replayed, or a clock far off.
	ErrTimestamp = errors.New("webhook: timestamp outside the tolerance")
	// ErrReplay: a message already received (409).
	ErrReplay = errors.New("webhook: message already received")
	// ErrTooLarge: the body is over the receiver's limit (413).
	ErrTooLarge = errors.New("webhook: body too large")
)

// Message is what a verified signature says of the message.
type Message struct {
	// ID identifies the message for replay protection, from what is signed
	// only (a header the signature does not cover would let a replay pass as
	// new): webhook-id (Standard Webhooks, signed with the body), the
	// SHA-256 of the body (GitHub: "sha256:<hex>"), the SHA-256 of the signed
	// time and body (Stripe: "t=<unix>,sha256:<hex>"); "" when there is none.
	ID string
	// Time is when it was signed; zero when the scheme signs no time (GitHub).
	Time time.Time
}

// A Verifier checks the signature of a request's body.
type Verifier interface {
	// Verify checks header's signature of body at time now and returns what
	// it says of the message, or an error among ErrUnsigned, ErrSignature and
	// ErrTimestamp (wrapped).
	Verify(header http.Header, body []byte, now time.Time) (Message, error)
}

// NewVerifier returns the verifier of scheme (SchemeStandard, SchemeGitHub,
// SchemeStripe) with secrets, the first signing and all verifying (several
// during a rotation): for Standard Webhooks "whsec_" followed by base64 (the
// prefix optional), for GitHub and Stripe the secret's text as the key.
func NewVerifier(scheme string, secrets ...string) (Verifier, error) {
	switch scheme {
	case SchemeStandard, "":
		return NewStandard(secrets...)
	case SchemeGitHub:
		return NewGitHub(secrets...)
	case SchemeStripe:
		return NewStripe(secrets...)
	}
	return nil, fmt.Errorf("webhook: unknown signature scheme %q (want standard, github or stripe)", scheme)
}

// textKeys returns secrets as keys, refusing none or an empty one.
func textKeys(scheme string, secrets []string) ([][]byte, error) {
	if len(secrets) == 0 {
		return nil, fmt.Errorf("webhook: %s: no secret", scheme)
	}
	keys := make([][]byte, len(secrets))
	for i, s := range secrets {
		if s == "" {
			return nil, fmt.Errorf("webhook: %s: secret %d is empty", scheme, i+1)
		}
		keys[i] = []byte(s)
	}
	return keys, nil
}

func mac(key []byte, parts ...[]byte) []byte {
	m := hmac.New(sha256.New, key)
	for _, p := range parts {
		m.Write(p)
	}
	return m.Sum(nil)
}

// digest is the hex SHA-256 of parts concatenated.
func digest(parts ...[]byte) string {
	d := sha256.New()
	for _, p := range parts {
		d.Write(p)
	}
	return hex.EncodeToString(d.Sum(nil))
}

// within checks a Unix timestamp in seconds against now and tolerance (<= 0:
// DefaultTolerance).
func within(ts string, now time.Time, tolerance time.Duration) (time.Time, error) {
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || sec < 0 {
		return time.Time{}, fmt.Errorf("%w: %q is not a Unix time", ErrTimestamp, clip(ts))
	}
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	t := time.Unix(sec, 0)
	if d := now.Sub(t); d > tolerance || d < -tolerance {
		return t, fmt.Errorf("%w: signed at %s, %s from now (tolerance %s)", ErrTimestamp, t.UTC().Format(time.RFC3339), d.Round(time.Second), tolerance)
	}
	return t, nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// ---- Standard Webhooks ---------------------------------------------------------

// Standard verifies the Standard Webhooks scheme
// (https://www.standardwebhooks.com): HMAC-SHA256 of "id.timestamp.body"
// keyed by the secret's bytes, base64 in webhook-signature as a
// space-separated list of "v1,<base64>" (entries of other versions
// ignored), webhook-timestamp within Tolerance of now.
type Standard struct {
	keys      [][]byte
	Tolerance time.Duration // 0: DefaultTolerance
}

// NewStandard returns the verifier of secrets, each "whsec_<base64>" (the
// prefix optional); the first signs.
func NewStandard(secrets ...string) (*Standard, error) {
	if len(secrets) == 0 {
		return nil, errors.New("webhook: standard: no secret")
	}
	v := &Standard{}
	for i, s := range secrets {
		k, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, "whsec_"))
		if err != nil || len(k) == 0 {
			return nil, fmt.Errorf("webhook: standard: secret %d is not whsec_ and base64", i+1)
		}
		v.keys = append(v.keys, k)
	}
	return v, nil
}

// Sign returns the webhook-signature of a message with the first secret.
func (v *Standard) Sign(id string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "v1," + base64.StdEncoding.EncodeToString(mac(v.keys[0], []byte(id), []byte{'.'}, []byte(ts), []byte{'.'}, body))
}

// Header returns the three headers of a message signed with the first
// secret, for a sender or a test.
func (v *Standard) Header(id string, t time.Time, body []byte) http.Header {
	h := http.Header{}
	h.Set("Webhook-Id", id)
	h.Set("Webhook-Timestamp", strconv.FormatInt(t.Unix(), 10))
	h.Set("Webhook-Signature", v.Sign(id, t, body))
	return h
}

// Verify implements Verifier.
func (v *Standard) Verify(h http.Header, body []byte, now time.Time) (Message, error) {
	id, ts, sig := h.Get("Webhook-Id"), h.Get("Webhook-Timestamp"), h.Get("Webhook-Signature")
	if id == "" || ts == "" || sig == "" {
		return Message{}, fmt.Errorf("%w: want webhook-id, webhook-timestamp and webhook-signature", ErrUnsigned)
	}
	t, err := within(ts, now, v.Tolerance)
	if err != nil {
		return Message{}, err
	}
	var sums [][]byte
	for _, k := range v.keys {
		sums = append(sums, mac(k, []byte(id), []byte{'.'}, []byte(ts), []byte{'.'}, body))
	}
	for _, entry := range strings.Fields(sig) {
		ver, b64, ok := strings.Cut(entry, ",")
		if !ok || ver != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			continue
		}
		for _, s := range sums {
			if hmac.Equal(got, s) {
				return Message{ID: id, Time: t}, nil
			}
		}
	}
	return Message{}, ErrSignature
}

// ---- GitHub ----------------------------------------------------------------------

// GitHub verifies GitHub's scheme: X-Hub-Signature-256 is "sha256=" and the
// hex HMAC-SHA256 of the body keyed by the secret's text. It signs neither a
// time nor X-GitHub-Delivery: replay protection keys on the body's digest
// (the one thing signed) for as long as the replay store keeps ids.
type GitHub struct{ keys [][]byte }

// NewGitHub returns the verifier of secrets; the first signs.
func NewGitHub(secrets ...string) (*GitHub, error) {
	keys, err := textKeys(SchemeGitHub, secrets)
	return &GitHub{keys: keys}, err
}

// Sign returns the X-Hub-Signature-256 of body with the first secret.
func (v *GitHub) Sign(body []byte) string {
	return "sha256=" + hex.EncodeToString(mac(v.keys[0], body))
}

// Verify implements Verifier.
func (v *GitHub) Verify(h http.Header, body []byte, now time.Time) (Message, error) {
	sig := h.Get("X-Hub-Signature-256")
	if sig == "" {
		return Message{}, fmt.Errorf("%w: want X-Hub-Signature-256", ErrUnsigned)
	}
	hexSum, ok := strings.CutPrefix(sig, "sha256=")
	got, err := hex.DecodeString(hexSum)
	if !ok || err != nil {
		return Message{}, ErrSignature
	}
	for _, k := range v.keys {
		if hmac.Equal(got, mac(k, body)) {
			return Message{ID: "sha256:" + digest(body)}, nil
		}
	}
	return Message{}, ErrSignature
}

// ---- Stripe ------------------------------------------------------------------------

// Stripe verifies Stripe's scheme: Stripe-Signature is a comma-separated
// list of t=<Unix time> and v1=<hex HMAC-SHA256 of "t.body"> entries (one
// per secret during a rotation; other schemes ignored), keyed by the
// secret's text ("whsec_…" as it is), t within Tolerance of now.
type Stripe struct {
	keys      [][]byte
	Tolerance time.Duration // 0: DefaultTolerance
}

// NewStripe returns the verifier of secrets; the first signs.
func NewStripe(secrets ...string) (*Stripe, error) {
	keys, err := textKeys(SchemeStripe, secrets)
	return &Stripe{keys: keys}, err
}

// Sign returns the Stripe-Signature of body at t with the first secret.
func (v *Stripe) Sign(t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac(v.keys[0], []byte(ts), []byte{'.'}, body))
}

// Verify implements Verifier.
func (v *Stripe) Verify(h http.Header, body []byte, now time.Time) (Message, error) {
	sig := h.Get("Stripe-Signature")
	if sig == "" {
		return Message{}, fmt.Errorf("%w: want Stripe-Signature", ErrUnsigned)
	}
	var ts string
	var sigs [][]byte
	for _, item := range strings.Split(sig, ",") {
		k, val, _ := strings.Cut(strings.TrimSpace(item), "=")
		switch k {
		case "t":
			ts = val
		case "v1":
			if b, err := hex.DecodeString(val); err == nil {
				sigs = append(sigs, b)
			}
		}
	}
	if ts == "" || len(sigs) == 0 {
		return Message{}, fmt.Errorf("%w: Stripe-Signature has no t= or no v1=", ErrUnsigned)
	}
	t, err := within(ts, now, v.Tolerance)
	if err != nil {
		return Message{}, err
	}
	for _, k := range v.keys {
		sum := mac(k, []byte(ts), []byte{'.'}, body)
		for _, s := range sigs {
			if hmac.Equal(s, sum) {
				// Keyed on what is signed, not on the header's text, which
				// takes other entries, spaces and any order.
				return Message{ID: "t=" + ts + ",sha256:" + digest([]byte(ts), []byte{'.'}, body), Time: t}, nil
			}
		}
	}
	return Message{}, ErrSignature
}
