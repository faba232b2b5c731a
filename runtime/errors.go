package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// JSON-RPC 2.0 error codes used by the server, and the HTTP-derived codes of the
// OpenTool client exception list.
const (
	CodeParseError     = -32700 // the body is not valid JSON
	CodeInvalidRequest = -32600 // the body is JSON but not a valid request object
	CodeMethodNotFound = -32601 // no such function
	CodeInvalidParams  = -32602 // the arguments do not match the function's parameters
	CodeInternalError  = -32603 // the tool panicked or produced an invalid result

	// CodeToolError is the code a tool error carries when the tool does not choose
	// one, as in the specification's example.
	CodeToolError = 500

	CodeUnauthorized = 401 // OpenToolServerUnauthorizedException
	CodeNoAccess     = 404 // OpenToolServerNoAccessException
)

// Class tells which case of the OpenTool client exception list (or of the server's
// protocol errors) an [Error] belongs to. Compare errors with errors.Is against the
// Err* values below, which match on class.
type Class string

const (
	ClassResponseNull Class = "responseNull" // ResponseNullException: no usable response body
	ClassErrorNull    Class = "errorNull"    // ErrorNullException: the request failed without an error object
	ClassUnauthorized Class = "unauthorized" // OpenToolServerUnauthorizedException (401)
	ClassNoAccess     Class = "noAccess"     // OpenToolServerNoAccessException (404: server not reachable)
	ClassCall         Class = "call"         // OpenToolServerCallException: the server answered with an error object
)

// Error is the one error type of the OpenTool protocol in Go. On the wire it is the
// JSON-RPC error object {"code":…,"message":…,"data":…}. On the client it also
// records which exception class it belongs to and, where there is one, the cause
// (the dial error, the HTTP status, …), available through errors.Unwrap.
//
// Tools return an *Error to choose the code the caller sees; any other error
// becomes code 500 with the error's text as message.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
	// Class is set on errors produced by the client; empty on the server side.
	Class Class `json:"class,omitempty"`

	cause error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("opentool: ")
	if e.Class != "" {
		b.WriteString(string(e.Class))
		b.WriteString(": ")
	}
	b.WriteString("code ")
	b.WriteString(strconv.Itoa(e.Code))
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if len(e.Data) > 0 {
		b.WriteString(" (data: ")
		writeClipped(&b, e.Data)
		b.WriteString(")")
	}
	if e.cause != nil {
		b.WriteString(": ")
		b.WriteString(e.cause.Error())
	}
	return b.String()
}

// Unwrap returns the cause of a client-side error (a dial error, a context error, …).
func (e *Error) Unwrap() error { return e.cause }

// Is reports whether target is an *Error of the same class (for the Err* values,
// which carry a class) or, for a target without class, of the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	if t.Class != "" {
		return t.Class == e.Class
	}
	return t.Code == e.Code
}

// Values of each client exception class, for errors.Is. Their Code and Message are
// the specification's defaults.
var (
	ErrResponseNull = &Error{Class: ClassResponseNull, Message: "Response is null"}
	ErrErrorNull    = &Error{Class: ClassErrorNull, Message: "Error is null"}
	ErrUnauthorized = &Error{Class: ClassUnauthorized, Code: CodeUnauthorized, Message: "Please check API Key is VALID or NOT"}
	ErrNoAccess     = &Error{Class: ClassNoAccess, Code: CodeNoAccess, Message: "Please check OpenTool Server is RUNNING or NOT"}
	ErrCall         = &Error{Class: ClassCall}
)

func clientError(class Class, code int, msg string, cause error) *Error {
	return &Error{Class: class, Code: code, Message: msg, cause: cause}
}

// NewError returns a tool error with the given code and message.
func NewError(code int, message string) *Error {
	return &Error{Code: code, Message: message}
}

// Errorf returns a tool error with code 500 and a formatted message.
func Errorf(format string, args ...any) *Error {
	return &Error{Code: CodeToolError, Message: fmt.Sprintf(format, args...)}
}

// MethodNotFound is the server's answer to a call of an unknown function.
func MethodNotFound(name string) *Error {
	return &Error{Code: CodeMethodNotFound, Message: "method not found: " + strconv.Quote(name)}
}

// InternalError is the server's answer when a tool panics or misbehaves. The
// message says what happened without leaking the tool's internals.
func InternalError(message string) *Error {
	return &Error{Code: CodeInternalError, Message: message}
}

// Violation is one reason why the arguments of a call are invalid. Path is a JSON
// pointer into the arguments object ("" for the object itself, "/loc/0/city", …);
// one longer than 16 KiB is kept abbreviated ("/a/b/c/d/…(990 more)…/w/x/y/z"),
// and String abbreviates those over 256 bytes. A call's arguments are reported
// with at most 100 violations, the last of which then counts those left out.
type Violation struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (v Violation) String() string {
	if v.Path == "" {
		return v.Message
	}
	return jsontree.ShortPointer(v.Path) + ": " + v.Message
}

// InvalidParams returns the -32602 error listing every violation. Its Data is the
// JSON array of violations; the message names them too, for clients that only
// show the message.
func InvalidParams(violations ...Violation) *Error {
	var b strings.Builder
	b.WriteString("invalid params")
	for i, v := range violations {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(v.String())
	}
	if violations == nil {
		violations = []Violation{} // Data is always an array
	}
	data, _ := json.Marshal(violations)
	return &Error{Code: CodeInvalidParams, Message: b.String(), Data: data}
}

// Violations returns the violations carried by an invalid-params error, or nil.
func (e *Error) Violations() []Violation {
	if e == nil || e.Code != CodeInvalidParams || len(e.Data) == 0 {
		return nil
	}
	var vs []Violation
	if json.Unmarshal(e.Data, &vs) != nil {
		return nil
	}
	return vs
}

// asError turns any error a tool returned into the wire error. An *Error without
// a code gets the default tool error code, 500.
func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		if e == nil { // a typed nil *Error in a non-nil error: a bug of the tool
			return InternalError("internal error: the tool returned a nil *runtime.Error")
		}
		// A client-side error relayed by a tool (for example a tool that calls
		// another OpenTool server) travels as a plain error object.
		if e.Class != "" || e.cause != nil || e.Code == 0 {
			code := e.Code
			if code == 0 {
				code = CodeToolError
			}
			return &Error{Code: code, Message: e.Message, Data: e.Data}
		}
		return e
	}
	return &Error{Code: CodeToolError, Message: err.Error()}
}

// HTTPError is implemented by the errors of responses with an error status
// (those of runtime/rest's client).
type HTTPError interface {
	error
	HTTPStatus() int
	RawBody() []byte
}

// ToolError turns the error of a REST call into the error an OpenTool caller
// sees: an HTTP error keeps its status as code, its body as data (as JSON when
// it is JSON, else as a string); other errors pass through. The body is the
// error's WireBody when it has one (those of runtime/rest: the credentials
// the request sent, wherever the API echoed them, read "[redacted]").
func ToolError(err error) error {
	var he HTTPError
	if !errors.As(err, &he) {
		return err
	}
	body := he.RawBody()
	if wb, ok := he.(interface{ WireBody() []byte }); ok {
		body = wb.WireBody()
	}
	status := he.HTTPStatus()
	msg := "HTTP " + strconv.Itoa(status)
	if t := http.StatusText(status); t != "" {
		msg += " " + t
	}
	e := &Error{Code: status, Message: msg}
	raw := bytes.TrimSpace(body)
	switch {
	case len(raw) == 0:
	case json.Valid(raw):
		e.Data = append(json.RawMessage(nil), raw...)
	default:
		e.Data, _ = json.Marshal(strings.ToValidUTF8(string(raw), "\uFFFD"))
	}
	return e
}

// writeClipped writes data, or its first maxErrorData bytes and how many
// were left out.
func writeClipped(b *strings.Builder, data []byte) {
	if len(data) <= maxErrorData {
		b.Write(data)
		return
	}
	cut := maxErrorData
	for cut > 0 && !utf8.RuneStart(data[cut]) {
		cut--
	}
	b.Write(data[:cut])
	b.WriteString("…(")
	b.WriteString(strconv.Itoa(len(data) - cut))
	b.WriteString(" more bytes)")
}

// maxErrorData bounds the data an [Error]'s message shows; Data itself is
// kept whole.
const maxErrorData = 512
