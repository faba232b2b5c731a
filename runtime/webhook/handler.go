package webhook

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// DefaultMaxBytes bounds the body a receiver reads (WithMaxBytes).
const DefaultMaxBytes = 1 << 20

// Route is one event a Handler receives: generated code makes one per
// webhook or callback of the document.
type Route struct {
	// Name is the event's name, its path under the handler: "/" + Name.
	Name string
	// Method is the HTTP method the document gives it (POST mostly).
	Method string
	// Scheme is the signature scheme the document declares for it
	// (SchemeStandard when it declares none).
	Scheme string
	// Status is the status of a success: the first 2xx the document
	// documents, else 204.
	Status int
	// Serve decodes and checks the event and calls the receiver's method:
	// an error from Invalid is a 400, any other the receiver's (500, or the
	// status its HTTPStatus method gives).
	Serve func(ctx context.Context, r *Request) error
}

// Request is a verified request, for Route.Serve.
type Request struct {
	Header  http.Header
	Body    []byte
	Message Message
}

// Option configures a Handler.
type Option func(*config)

type config struct {
	secrets   []string
	verifiers map[string]Verifier // by scheme; "" for every scheme
	unsigned  bool
	tolerance time.Duration
	maxBytes  int64
	store     ReplayStore
	noReplay  bool
	now       func() time.Time
	logf      func(format string, args ...any)
}

// WithSecret verifies every event with secrets (several during a rotation:
// the newest first) in the scheme the document declares for it: see
// NewVerifier for their forms.
func WithSecret(secrets ...string) Option {
	return func(c *config) { c.secrets = append(c.secrets, secrets...) }
}

// WithVerifier verifies the events of scheme (SchemeStandard, SchemeGitHub,
// SchemeStripe; "" for every event) with v instead.
func WithVerifier(scheme string, v Verifier) Option {
	return func(c *config) { c.verifiers[scheme] = v }
}

// WithoutVerification accepts unsigned events: only for a receiver behind
// something that has verified them, or a test.
func WithoutVerification() Option { return func(c *config) { c.unsigned = true } }

// WithTolerance sets how far a signed time may be from the clock (default
// DefaultTolerance) for the verifiers WithSecret makes, and how long message
// ids are remembered (at least ten minutes for schemes that sign no time).
func WithTolerance(d time.Duration) Option { return func(c *config) { c.tolerance = d } }

// WithMaxBytes bounds the body (default DefaultMaxBytes): a larger one is a
// 413.
func WithMaxBytes(n int64) Option { return func(c *config) { c.maxBytes = n } }

// WithReplayStore keeps the ids of messages received in s (default: a
// MemoryStore of DefaultReplayEntries), shared by every replica that uses it.
func WithReplayStore(s ReplayStore) Option { return func(c *config) { c.store = s } }

// WithoutReplayProtection receives a message again as often as it comes.
func WithoutReplayProtection() Option { return func(c *config) { c.noReplay = true } }

// WithClock sets the clock signed times are checked against (default
// time.Now).
func WithClock(now func() time.Time) Option { return func(c *config) { c.now = now } }

// WithLogf logs the errors of the receiver's methods that become a 500
// (default log.Printf); their text is never sent to the sender.
func WithLogf(logf func(format string, args ...any)) Option {
	return func(c *config) { c.logf = logf }
}

// Handler is the http.Handler of a receiver: it routes by path ("/" + a
// route's Name; "/" alone when there is one route), refuses another method
// (405), reads the body up to the limit (413), verifies its signature
// (401), refuses a message received before (409), and has the route decode,
// check (400) and handle it (the route's status; 500 or the error's).
type Handler struct {
	routes    map[string]*route
	only      *route
	maxBytes  int64
	store     ReplayStore
	retention time.Duration
	now       func() time.Time
	logf      func(format string, args ...any)
}

type route struct {
	Route
	verify Verifier // nil: unsigned
}

// NewHandler returns the handler of routes. Every route needs a verifier
// (WithSecret, WithVerifier) unless WithoutVerification is given; a route
// whose scheme is SchemeNone needs WithoutVerification.
func NewHandler(routes []Route, opts ...Option) (*Handler, error) {
	c := &config{verifiers: map[string]Verifier{}, maxBytes: DefaultMaxBytes, now: time.Now, logf: log.Printf}
	for _, o := range opts {
		o(c)
	}
	h := &Handler{routes: map[string]*route{}, maxBytes: c.maxBytes, now: c.now, logf: c.logf}
	h.retention = c.tolerance
	if h.retention <= 0 {
		h.retention = DefaultTolerance
	}
	if !c.noReplay {
		h.store = c.store
		if h.store == nil {
			h.store = NewMemoryStore(0)
		}
	}
	made := map[string]Verifier{}
	for _, r := range routes {
		if r.Scheme == "" {
			r.Scheme = SchemeStandard
		}
		if r.Status == 0 {
			r.Status = http.StatusNoContent
		}
		rt := &route{Route: r}
		v, err := c.verifier(r.Scheme, made)
		if err != nil {
			return nil, fmt.Errorf("webhook: event %q: %w", r.Name, err)
		}
		rt.verify = v
		if _, dup := h.routes[r.Name]; dup {
			return nil, fmt.Errorf("webhook: two events named %q", r.Name)
		}
		h.routes[r.Name] = rt
	}
	if len(routes) == 1 {
		h.only = h.routes[routes[0].Name]
	}
	return h, nil
}

// verifier returns the verifier of scheme, made once (in made).
func (c *config) verifier(scheme string, made map[string]Verifier) (Verifier, error) {
	if v := c.verifiers[scheme]; v != nil {
		return v, nil
	}
	if v := c.verifiers[""]; v != nil {
		return v, nil
	}
	if c.unsigned {
		return nil, nil
	}
	if scheme == SchemeNone {
		return nil, errors.New("the document declares no signature: give WithoutVerification or WithVerifier")
	}
	if len(c.secrets) == 0 {
		return nil, errors.New("no secret: give WithSecret, WithVerifier or WithoutVerification")
	}
	if v := made[scheme]; v != nil {
		return v, nil
	}
	v, err := NewVerifier(scheme, c.secrets...)
	if err != nil {
		return nil, err
	}
	switch v := v.(type) {
	case *Standard:
		v.Tolerance = c.tolerance
	case *Stripe:
		v.Tolerance = c.tolerance
	}
	made[scheme] = v
	return v, nil
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/")
	rt := h.routes[name]
	if rt == nil && name == "" {
		rt = h.only
	}
	if rt == nil {
		fail(w, http.StatusNotFound, "no webhook event here")
		return
	}
	if r.Method != rt.Method {
		w.Header().Set("Allow", rt.Method)
		fail(w, http.StatusMethodNotAllowed, "want "+rt.Method)
		return
	}
	status, msg := h.serve(rt, r)
	if status/100 == 2 {
		w.WriteHeader(status)
		return
	}
	fail(w, status, msg)
}

// serve handles a request routed to rt and returns the status to answer.
func (h *Handler) serve(rt *route, r *http.Request) (int, string) {
	if r.ContentLength > h.maxBytes {
		return http.StatusRequestEntityTooLarge, ErrTooLarge.Error()
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, h.maxBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return http.StatusRequestEntityTooLarge, ErrTooLarge.Error()
		}
		return http.StatusBadRequest, "webhook: reading the body: " + err.Error()
	}
	now := h.now()
	var m Message
	if rt.verify != nil {
		if m, err = rt.verify.Verify(r.Header, body, now); err != nil {
			return Status(err), err.Error()
		}
	}
	ctx := r.Context()
	key := ""
	if h.store != nil && m.ID != "" {
		key = rt.Scheme + " " + m.ID
		fresh, err := h.store.Remember(ctx, key, h.expiry(m, now))
		if err != nil {
			h.logf("webhook: replay store: %v", err)
			return http.StatusServiceUnavailable, "webhook: replay store unavailable"
		}
		if !fresh {
			return http.StatusConflict, ErrReplay.Error()
		}
	}
	err = h.call(ctx, rt, &Request{Header: r.Header, Body: body, Message: m})
	if err == nil {
		return rt.Status, ""
	}
	if key != "" {
		_ = h.store.Forget(ctx, key) // the sender may retry it
	}
	var inv *invalid
	if errors.As(err, &inv) {
		return http.StatusBadRequest, inv.Error()
	}
	if s := Status(err); s != http.StatusInternalServerError {
		return s, http.StatusText(s)
	}
	h.logf("webhook: event %q: %v", rt.Name, err)
	return http.StatusInternalServerError, http.StatusText(http.StatusInternalServerError)
}

// expiry is how long the id of m is remembered: past the tolerance after its
// signed time, so that it cannot be replayed within it, or the retention
// from now (at least ten minutes) when it has none.
func (h *Handler) expiry(m Message, now time.Time) time.Time {
	if !m.Time.IsZero() {
		return m.Time.Add(h.retention + time.Second)
	}
	return now.Add(max(h.retention, 10*time.Minute))
}

// call runs the route's Serve, a panic in it an error.
func (h *Handler) call(ctx context.Context, rt *route, req *Request) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return rt.Serve(ctx, req)
}

// fail answers status with a JSON body {"error": msg}.
func fail(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]string{"error": strings.ToValidUTF8(msg, "\uFFFD")})
	_, _ = w.Write(append(b, '\n'))
}

// Status is the HTTP status of an error of this package or of a receiver's
// method: 401 for ErrUnsigned, ErrSignature, ErrTimestamp; 409 ErrReplay;
// 413 ErrTooLarge; 400 for Invalid; the status of an error with an
// HTTPStatus() int method (4xx or 5xx); else 500.
func Status(err error) int {
	switch {
	case errors.Is(err, ErrUnsigned), errors.Is(err, ErrSignature), errors.Is(err, ErrTimestamp):
		return http.StatusUnauthorized
	case errors.Is(err, ErrReplay):
		return http.StatusConflict
	case errors.Is(err, ErrTooLarge):
		return http.StatusRequestEntityTooLarge
	}
	var inv *invalid
	if errors.As(err, &inv) {
		return http.StatusBadRequest
	}
	var hs interface{ HTTPStatus() int }
	if errors.As(err, &hs) {
		if s := hs.HTTPStatus(); s >= 400 && s <= 599 {
			return s
		}
	}
	return http.StatusInternalServerError
}

// invalid is an event the document's schema refuses.
type invalid struct{ err error }

func (e *invalid) Error() string { return e.err.Error() }
func (e *invalid) Unwrap() error { return e.err }

// Invalid marks err, the decoder's violations of an event, as the sender's
// fault: the handler answers 400 with its text.
func Invalid(err error) error {
	if err == nil {
		return nil
	}
	return &invalid{err}
}

// ---- the arguments object of an event --------------------------------------------

// Fields says how an event's fields come from a request, for Args.
type Fields struct {
	// Body is the member the body goes under ("" when the event has none);
	// BodyKind how: BodyJSON as it is (an empty body leaves the member out),
	// BodyText as a JSON string, BodyBinary as base64.
	Body     string
	BodyKind BodyKind
	Headers  []Header
}

// BodyKind is how a body becomes a member of an event (Fields.BodyKind).
type BodyKind uint8

// The kinds of body.
const (
	BodyJSON BodyKind = iota
	BodyText
	BodyBinary
)

// Header is a header an event declares as a parameter.
type Header struct {
	Name   string // the header
	Member string // its member in the event's arguments object
	// Literal is set for a number, integer or boolean header: its value
	// goes in as a JSON literal when it is one (else as a string, which the
	// decoder refuses with its path); JSON for a header whose value is JSON.
	Literal bool
	JSON    bool
}

// Args returns the event of r as a JSON object, the form the generated
// decoders check and decode: each declared header present under its member,
// the body under f.Body. A body that is not valid JSON is an Invalid error.
func (r *Request) Args(f Fields) ([]byte, error) {
	b := []byte{'{'}
	sep := func() {
		if len(b) > 1 {
			b = append(b, ',')
		}
	}
	for _, hd := range f.Headers {
		vals := r.Header.Values(hd.Name)
		if len(vals) == 0 {
			continue
		}
		v := vals[0]
		sep()
		b = appendString(b, hd.Member)
		b = append(b, ':')
		switch {
		case hd.JSON && json.Valid([]byte(v)), hd.Literal && isLiteral(v):
			b = append(b, v...)
		default:
			b = appendString(b, v)
		}
	}
	if f.Body != "" && len(r.Body) > 0 {
		var val []byte
		switch f.BodyKind {
		case BodyJSON:
			if !json.Valid(r.Body) {
				return nil, Invalid(errors.New("webhook: the body is not valid JSON"))
			}
			val = r.Body
		case BodyText:
			if !utf8.Valid(r.Body) {
				return nil, Invalid(errors.New("webhook: the body is not UTF-8 text"))
			}
			val = appendString(nil, string(r.Body))
		default:
			val = appendString(nil, base64.StdEncoding.EncodeToString(r.Body))
		}
		sep()
		b = appendString(b, f.Body)
		b = append(b, ':')
		b = append(b, val...)
	}
	return append(b, '}'), nil
}

// isLiteral reports whether v is a JSON number or boolean.
func isLiteral(v string) bool {
	if v == "true" || v == "false" {
		return true
	}
	var n json.Number
	return v != "" && v[0] != '"' && json.Unmarshal([]byte(v), &n) == nil
}

func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(strings.ToValidUTF8(s, "\uFFFD"))
	return append(b, q...)
}
