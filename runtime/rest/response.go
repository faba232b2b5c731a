package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// A response read, and the errors of documented and undocumented responses.

// Response is a response read by [Request.Send].
type Response struct {
	StatusCode   int
	Header       http.Header
	Body         []byte
	method, path string
	strict       bool     // DecodeChecked checks the body
	secrets      []string // the credential values the request sent
}

// Is reports whether the status matches a documented status: "200", "2XX"
// (any 2xx), "default" (anything).
func (r *Response) Is(status string) bool {
	switch {
	case status == "default":
		return true
	case len(status) == 3 && (status[1] == 'X' || status[1] == 'x'):
		return r.StatusCode/100 == int(status[0]-'0')
	}
	n, err := strconv.Atoi(status)
	return err == nil && n == r.StatusCode
}

// Success reports whether the status is 2xx.
func (r *Response) Success() bool { return r.StatusCode >= 200 && r.StatusCode < 300 }

// Decode decodes the JSON body into v; an empty body leaves v alone.
func (r *Response) Decode(v any) error {
	if len(bytes.TrimSpace(r.Body)) == 0 {
		return nil
	}
	if err := json.Unmarshal(r.Body, v); err != nil {
		// The API answered what its document does not say: a bad gateway for
		// the tool's caller, not a fault of the call's arguments (a decoder's
		// invalid-params error must not reach the caller as one).
		return &runtime.Error{Code: http.StatusBadGateway, Message: fmt.Sprintf("%s %s: HTTP %d: the response does not match the document: %v", r.method, r.path, r.StatusCode, err)}
	}
	return nil
}

// HeaderValue reads the header name of the response into dst: a *string,
// *int64, *float64 or *bool, or a pointer to a pointer of one of them, which
// stays nil when the header is absent (a plain value then keeps its zero
// value). A value that is not of the type is an error, as a body that does
// not match the document is.
func (r *Response) HeaderValue(name string, dst any) error {
	vals, ok := r.Header[textproto.CanonicalMIMEHeaderKey(name)]
	if !ok || len(vals) == 0 {
		return nil
	}
	v := strings.TrimSpace(vals[0])
	bad := func(want string) error {
		return &runtime.Error{Code: http.StatusBadGateway, Message: fmt.Sprintf("%s %s: HTTP %d: the response's header %s is %s, not %s as the document says", r.method, r.path, r.StatusCode, name, strconv.Quote(clip(v, 64)), want)}
	}
	switch d := dst.(type) {
	case *string:
		*d = v
	case **string:
		*d = &v
	case *int64, **int64:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return bad("an integer")
		}
		if p, ok := d.(**int64); ok {
			*p = &n
		} else {
			*d.(*int64) = n
		}
	case *float64, **float64:
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return bad("a number")
		}
		if p, ok := d.(**float64); ok {
			*p = &n
		} else {
			*d.(*float64) = n
		}
	case *bool, **bool:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return bad("a boolean")
		}
		if p, ok := d.(**bool); ok {
			*p = &b
		} else {
			*d.(*bool) = b
		}
	default:
		return fmt.Errorf("header %s: cannot read into %T", strconv.Quote(name), dst)
	}
	return nil
}

// clip shortens s to at most n bytes for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Unexpected returns the error of an undocumented response.
func (r *Response) Unexpected() error {
	return &StatusError{StatusCode: r.StatusCode, Header: r.Header, Body: r.Body, Operation: r.method + " " + r.path, secrets: r.secrets}
}

// APIError is a documented error response: its status and its body decoded
// as the document says (Body), next to the raw body. Match it with errors.As:
//
//	var e *rest.APIError[petstore.Error]
//	if errors.As(err, &e) { … e.StatusCode, e.Body.Message … }
type APIError[T any] struct {
	StatusCode int
	Header     http.Header
	Body       T
	Raw        []byte
	// Operation is the method and path template ("GET /pets/{petId}").
	Operation string
	// DecodeErr is set when the body did not decode as T.
	DecodeErr error

	secrets []string // the credential values the request sent
}

func (e *APIError[T]) Error() string {
	return restErrorText(e.Operation, e.StatusCode, e.Raw)
}

// HTTPStatus returns the status code.
func (e *APIError[T]) HTTPStatus() int { return e.StatusCode }

// RawBody returns the body as received.
func (e *APIError[T]) RawBody() []byte { return e.Raw }

// WireBody returns the body as a tool answers it (runtime.ToolError): the
// credential values the request sent, wherever the API echoed them, read
// "[redacted]".
func (e *APIError[T]) WireBody() []byte { return redactSecrets(e.Raw, e.secrets) }

// NewAPIError returns the *APIError[T] of a documented error response.
func NewAPIError[T any](r *Response) error {
	e := &APIError[T]{StatusCode: r.StatusCode, Header: r.Header, Raw: r.Body, Operation: r.method + " " + r.path, secrets: r.secrets}
	if len(bytes.TrimSpace(r.Body)) > 0 {
		e.DecodeErr = json.Unmarshal(r.Body, &e.Body)
	}
	return e
}

// StatusError is a response whose status the document does not describe
// (or describes without a body): its status and raw body.
type StatusError struct {
	StatusCode int
	Header     http.Header
	Body       []byte
	Operation  string

	secrets []string // the credential values the request sent
}

func (e *StatusError) Error() string { return restErrorText(e.Operation, e.StatusCode, e.Body) }

// HTTPStatus returns the status code.
func (e *StatusError) HTTPStatus() int { return e.StatusCode }

// RawBody returns the body as received.
func (e *StatusError) RawBody() []byte { return e.Body }

// WireBody returns the body as a tool answers it (runtime.ToolError): the
// credential values the request sent, wherever the API echoed them, read
// "[redacted]".
func (e *StatusError) WireBody() []byte { return redactSecrets(e.Body, e.secrets) }

// redactSecrets returns body with each of secrets (those of 4 bytes or
// more: a shorter one would match by chance) replaced by "[redacted]";
// body itself when none occurs.
func redactSecrets(body []byte, secrets []string) []byte {
	out := body
	for _, s := range secrets {
		if len(s) < 4 || !bytes.Contains(out, []byte(s)) {
			continue
		}
		out = bytes.ReplaceAll(out, []byte(s), []byte("[redacted]"))
	}
	return out
}

func restErrorText(op string, status int, body []byte) string {
	var b strings.Builder
	if op != "" && op != " " {
		b.WriteString(op)
		b.WriteString(": ")
	}
	b.WriteString("HTTP ")
	b.WriteString(strconv.Itoa(status))
	if t := http.StatusText(status); t != "" {
		b.WriteString(" ")
		b.WriteString(t)
	}
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(body), "\uFFFD")), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	if s != "" {
		b.WriteString(": ")
		b.WriteString(s)
	}
	return b.String()
}
