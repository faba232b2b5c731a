package runtime

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/opentoolgen/opentoolgen/internal/jsonrpc"
	"github.com/opentoolgen/opentoolgen/internal/redirect"
	"github.com/opentoolgen/opentoolgen/internal/sse"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// DefaultMaxResponseBytes is the largest response body the client reads unless
// WithMaxResponseBytes says otherwise.
const DefaultMaxResponseBytes = 64 << 20

// Client calls an OpenTool server. It is safe for concurrent use.
type Client struct {
	base      string // "http://host:port/opentool", no trailing slash
	hc        *http.Client
	auth      string // "Bearer <key>" or ""
	header    http.Header
	maxResp   int64
	redirect  RedirectPolicy
	idPrefix  string
	seq       atomic.Uint64
	callURL   string
	streamURL string
	// sawDone: the server has ended a stream with a done event, so it is not a
	// Dart reference server of the kind that ends streams by closing them.
	sawDone atomic.Bool
}

// ClientOption configures [NewClient].
type ClientOption func(*Client)

// WithAPIKey sends "Authorization: Bearer <key>" with every request.
func WithAPIKey(key string) ClientOption {
	return func(c *Client) {
		if key != "" {
			c.auth = "Bearer " + key
		} else {
			c.auth = ""
		}
	}
}

// WithHTTPClient sets the HTTP client (default: a client of its own whose
// transport keeps up to 256 idle connections per host, with no overall timeout:
// use the context for deadlines). hc is not changed: the client sends with a
// copy whose CheckRedirect keeps the API key and the headers of WithHeader
// from other origins (see [WithCrossOriginRedirect]) and then calls hc's own.
func WithHTTPClient(hc *http.Client) ClientOption {
	return func(c *Client) {
		if hc != nil {
			c.hc = hc
		}
	}
}

// WithHeader adds a header to every request.
func WithHeader(key, value string) ClientOption {
	return func(c *Client) { c.header.Add(key, value) }
}

// WithMaxResponseBytes bounds the size of a response body the client accepts.
func WithMaxResponseBytes(n int64) ClientOption { return func(c *Client) { c.maxResp = n } }

var defaultTransport = func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 1024
	t.MaxIdleConnsPerHost = 256
	t.IdleConnTimeout = 90 * time.Second
	return t
}()

// NewClient returns a client of the OpenTool server at baseURL, which is
// "http(s)://host:port/opentool" as in the specification.
func NewClient(baseURL string, opts ...ClientOption) *Client {
	c := &Client{
		base:    strings.TrimRight(baseURL, "/"),
		hc:      &http.Client{Transport: defaultTransport},
		header:  http.Header{},
		maxResp: DefaultMaxResponseBytes,
	}
	for _, o := range opts {
		o(c)
	}
	names := make([]string, 0, len(c.header))
	for k := range c.header {
		names = append(names, k)
	}
	c.hc = c.redirect.guard(redirect.CanonicalHeaders(names)).Client(c.hc)
	var rnd [6]byte
	rand.Read(rnd[:])
	c.idPrefix = hex.EncodeToString(rnd[:]) + "-"
	c.callURL = c.base + "/call"
	c.streamURL = c.base + "/streamCall"
	return c
}

// BaseURL returns the server address the client calls.
func (c *Client) BaseURL() string { return c.base }

// NewID returns a call id unique to this client (and, with high probability,
// across clients).
func (c *Client) NewID() string {
	var b [48]byte // one allocation: the string
	return string(strconv.AppendUint(append(b[:0], c.idPrefix...), c.seq.Add(1), 10))
}

func (c *Client) newRequest(ctx context.Context, method, url string, body []byte, accept string) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, err
	}
	h := req.Header
	for k, v := range c.header {
		h[k] = v
	}
	if md := intercept.OutgoingMetadata(ctx); md != nil {
		for _, k := range md.Keys() {
			h.Set(k, md.Get(k))
		}
	}
	if intercept.Propagating() {
		intercept.InjectMetadata(ctx, intercept.HeaderMetadata(h))
	}
	if body != nil {
		h["Content-Type"] = jsonContentType
	}
	if accept == "application/json" {
		h["Accept"] = jsonContentType // shared, never modified
	} else {
		h["Accept"] = []string{accept}
	}
	if c.auth != "" {
		h["Authorization"] = []string{c.auth}
	}
	return req, nil
}

// do sends req and classifies transport failures: a cancelled context is returned
// as is (errors.Is(err, context.Canceled)); anything else that kept the request
// from reaching a server is ErrNoAccess.
func (c *Client) do(req *http.Request) (*http.Response, error) {
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctxErr := req.Context().Err(); ctxErr != nil {
			return nil, fmt.Errorf("opentool: %s %s: %w", req.Method, req.URL.Path, ctxErr)
		}
		return nil, clientError(ClassNoAccess, CodeNoAccess, ErrNoAccess.Message, err)
	}
	return resp, nil
}

func (c *Client) readBody(resp *http.Response) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.maxResp+1))
	if err != nil {
		if ctxErr := resp.Request.Context().Err(); ctxErr != nil {
			return nil, fmt.Errorf("opentool: %s %s: %w", resp.Request.Method, resp.Request.URL.Path, ctxErr)
		}
		return nil, clientError(ClassResponseNull, resp.StatusCode, "reading the response: "+err.Error(), err)
	}
	if int64(len(body)) > c.maxResp {
		return nil, clientError(ClassResponseNull, resp.StatusCode, fmt.Sprintf("response larger than %d bytes", c.maxResp), nil)
	}
	return body, nil
}

// statusError classifies a response by its HTTP status alone, for the statuses
// that say the call never reached a tool.
func statusError(status int, body []byte) *Error {
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return clientError(ClassUnauthorized, CodeUnauthorized, ErrUnauthorized.Message, httpStatusError(status, body))
	case http.StatusNotFound, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return clientError(ClassNoAccess, CodeNoAccess, ErrNoAccess.Message, httpStatusError(status, body))
	}
	return nil
}

type httpError struct {
	status int
	body   string
}

func (e *httpError) Error() string {
	s := "HTTP " + strconv.Itoa(e.status) + " " + http.StatusText(e.status)
	if e.body != "" {
		s += ": " + e.body
	}
	return s
}

func httpStatusError(status int, body []byte) error {
	return &httpError{status: status, body: snippet(body)}
}

// snippet is a short, single-line excerpt of a body for error messages.
func snippet(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// decodeResponse turns a /call response (status and body) into the result
// object or the error of the spec's exception list.
func decodeResponse(status int, body []byte) (json.RawMessage, error) {
	if e := statusError(status, body); e != nil {
		return nil, e
	}
	ok := status >= 200 && status < 300
	var resp response
	if len(bytes.TrimSpace(body)) == 0 || json.Unmarshal(body, &resp) != nil {
		if ok {
			return nil, clientError(ClassResponseNull, status, ErrResponseNull.Message+": the body is not a JSON-RPC response", httpStatusError(status, body))
		}
		return nil, clientError(ClassErrorNull, status, ErrErrorNull.Message+": the server failed without a JSON-RPC error", httpStatusError(status, body))
	}
	if !jsonrpc.IsNull(resp.Error) {
		return nil, decodeCallError(status, resp.Error)
	}
	if !ok {
		return nil, clientError(ClassErrorNull, status, ErrErrorNull.Message+": the server failed without a JSON-RPC error", httpStatusError(status, body))
	}
	if jsonrpc.IsNull(resp.Result) {
		return nil, clientError(ClassResponseNull, status, ErrResponseNull.Message, nil)
	}
	return resp.Result, nil
}

// decodeCallError reads a JSON-RPC error member liberally: an object with code
// and message (where the message may itself be a JSON object with code and
// message, as the reference tools send), or a bare string.
func decodeCallError(status int, raw json.RawMessage) *Error {
	var e struct {
		Code    json.Number     `json:"code"`
		Message json.RawMessage `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	out := &Error{Class: ClassCall, Code: CodeToolError}
	if json.Unmarshal(raw, &e) != nil {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			out.Message = s
		} else {
			out.Message = string(raw)
		}
		if status >= 400 {
			out.Code = status
		}
		return out
	}
	if n, err := e.Code.Int64(); err == nil {
		out.Code = int(n)
	}
	var msg string
	if json.Unmarshal(e.Message, &msg) != nil && len(e.Message) > 0 {
		msg = string(e.Message)
	}
	out.Message = msg
	if !jsonrpc.IsNull(e.Data) {
		out.Data = e.Data
	}
	// {"code":500,"message":"{\"code\":405,\"message\":\"Function Not Supported\"}"}
	if t := strings.TrimSpace(msg); strings.HasPrefix(t, "{") {
		var inner struct {
			Code    *json.Number `json:"code"`
			Message *string      `json:"message"`
		}
		if json.Unmarshal([]byte(t), &inner) == nil && inner.Message != nil {
			out.Message = *inner.Message
			if inner.Code != nil {
				if n, err := inner.Code.Int64(); err == nil {
					out.Code = int(n)
				}
			}
		}
	}
	return out
}

// appendRequest writes a JSON-RPC request: params is a JSON object or empty.
//
//	{"jsonrpc":"2.0","method":"…","params":{…},"id":"…"}
func appendRequest(buf *bytes.Buffer, method string, params json.RawMessage, id string) {
	buf.WriteString(`{"jsonrpc":"2.0","method":`)
	jsonrpc.WriteString(buf, method)
	buf.WriteString(`,"params":`)
	if len(params) == 0 {
		buf.WriteString("{}")
	} else {
		buf.Write(params)
	}
	buf.WriteString(`,"id":`)
	jsonrpc.WriteString(buf, id)
	buf.WriteByte('}')
}

// Version returns the server's version (GET /version).
func (c *Client) Version(ctx context.Context) (Version, error) {
	var v Version
	body, err := c.get(ctx, "/version")
	if err != nil {
		return v, err
	}
	if err := json.Unmarshal(body, &v); err != nil || v.Version == "" {
		return v, clientError(ClassResponseNull, http.StatusOK, ErrResponseNull.Message+": /version did not answer {\"version\":…}", httpStatusError(http.StatusOK, body))
	}
	return v, nil
}

// Load returns the server's OpenTool document (GET /load), or nil, nil when the
// server has none: it answers {} or, like the reference servers, an object that
// has neither "opentool" nor "functions". It asks for the document with its
// $refs (GET /load?refs=keep, which servers of this package answer with the
// document as the tool has it) and reads the inlined form that the reference
// servers, and servers of this package without the parameter, answer as well.
func (c *Client) Load(ctx context.Context) (*document.OpenTool, error) {
	body, err := c.get(ctx, "/load?refs=keep")
	if err != nil {
		return nil, err
	}
	t := bytes.TrimSpace(body)
	if len(t) == 0 || string(t) == "null" || string(t) == "{}" {
		return nil, nil
	}
	var doc document.OpenTool
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, clientError(ClassResponseNull, http.StatusOK, ErrResponseNull.Message+": /load did not answer an OpenTool document", err)
	}
	if doc.OpenTool == "" && doc.Functions == nil {
		// Not a document: {} with spaces, or what the reference servers answer
		// when they have none, {"code":404,"message":"Json Parser NOT implement"}.
		return nil, nil
	}
	return &doc, nil
}

func (c *Client) get(ctx context.Context, path string) ([]byte, error) {
	req, err := c.newRequest(ctx, http.MethodGet, c.base+path, nil, "application/json")
	if err != nil {
		return nil, err
	}
	resp, err := c.do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := c.readBody(resp)
	if err != nil {
		return nil, err
	}
	if e := statusError(resp.StatusCode, body); e != nil {
		return nil, e
	}
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		if _, err := decodeResponse(resp.StatusCode, body); err != nil {
			return nil, err
		}
	}
	return body, nil
}

// Call calls a function (POST /call). A call without ID gets a unique one. A
// tool error is an *Error of class ClassCall carrying the server's code.
func (c *Client) Call(ctx context.Context, fc FunctionCall) (ToolReturn, error) {
	if fc.ID == "" {
		fc.ID = c.NewID()
	}
	result, err := c.call(ctx, fc.Name, fc.Arguments, fc.ID)
	if err != nil {
		return ToolReturn{ID: fc.ID}, err
	}
	return ToolReturn{ID: fc.ID, Result: result}, nil
}

func (c *Client) call(ctx context.Context, name string, params json.RawMessage, id string) (json.RawMessage, error) {
	if len(params) > 0 && !jsonrpc.IsNull(params) && !jsonrpc.IsObject(params) {
		return nil, errArgsNotObject()
	}
	if jsonrpc.IsNull(params) {
		params = nil
	}
	buf := getBuffer()
	appendRequest(buf, name, params, id)
	body := append([]byte(nil), buf.Bytes()...) // the transport may read it after we return
	putBuffer(buf)
	req, err := c.newRequest(ctx, http.MethodPost, c.callURL, body, "application/json")
	if err != nil {
		return nil, err
	}
	resp, err := c.do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	rbody, err := c.readBody(resp)
	if err != nil {
		return nil, err
	}
	return decodeResponse(resp.StatusCode, rbody)
}

// Invoke calls name with args through c, as [Invoke] does; generated clients
// of earlier versions call it.
func (c *Client) Invoke(ctx context.Context, name string, args any, resultName string, out any) error {
	return Invoke(ctx, c, name, args, resultName, out)
}

func resultError(name string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return clientError(ClassResponseNull, http.StatusOK, "the result of "+quote(name)+" does not match its declared type: "+err.Error(), err)
}

// StreamCall calls a streaming function (POST /streamCall) and yields one
// ToolReturn per data event. An error event, a failed request or a broken stream
// is yielded once as an error and ends the sequence. Stopping the iteration early
// closes the connection.
//
// A stream that ends without a done or error event was cut short: its end is an
// error of class [ClassNoAccess] wrapping io.ErrUnexpectedEOF (except from a Dart
// reference server of the versions that end streams by closing them). A
// server without a streaming endpoint, or without a streaming function of that
// name, gives a [ClassCall] error with [ErrNoStreaming] in its chain.
func (c *Client) StreamCall(ctx context.Context, fc FunctionCall) iter.Seq2[ToolReturn, error] {
	if fc.ID == "" {
		fc.ID = c.NewID()
	}
	return func(yield func(ToolReturn, error) bool) {
		for raw, err := range c.stream(ctx, fc.Name, fc.Arguments, fc.ID) {
			if !yield(ToolReturn{ID: fc.ID, Result: raw}, err) || err != nil {
				return
			}
		}
	}
}

// Stream calls the streaming function name through c, as [InvokeStream] does;
// generated clients of earlier versions call it.
func Stream[T any](ctx context.Context, c *Client, name string, args any, resultName string) iter.Seq2[T, error] {
	return InvokeStream[T](ctx, c, name, args, resultName)
}

// stream calls a streaming function with the call id id; "" gives each range
// over the sequence a new id.
func (c *Client) stream(ctx context.Context, name string, params json.RawMessage, id string) iter.Seq2[json.RawMessage, error] {
	return func(yield func(json.RawMessage, error) bool) {
		c.streamTo(ctx, name, params, id, yield)
	}
}

// streamTo makes one call of the streaming function name, yielding each result
// object to yield until it answers false: the body of [Client.stream]'s
// sequence, which [InvokeStream] calls directly on a *Client so that its
// callback does not escape (no allocation more than the client's own stream).
func (c *Client) streamTo(ctx context.Context, name string, params json.RawMessage, id string, yield func(json.RawMessage, error) bool) {
	{
		if len(params) > 0 && !jsonrpc.IsNull(params) && !jsonrpc.IsObject(params) {
			yield(nil, errArgsNotObject())
			return
		}
		if jsonrpc.IsNull(params) {
			params = nil
		}
		if id == "" {
			id = c.NewID()
		}
		buf := getBuffer()
		appendRequest(buf, name, params, id)
		body := append([]byte(nil), buf.Bytes()...)
		putBuffer(buf)
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		req, err := c.newRequest(ctx, http.MethodPost, c.streamURL, body, "text/event-stream")
		if err != nil {
			yield(nil, err)
			return
		}
		resp, err := c.do(req)
		if err != nil {
			yield(nil, err)
			return
		}
		defer resp.Body.Close()
		mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		if mt != "text/event-stream" {
			// Not a stream: an error answered as a plain JSON-RPC response.
			rbody, err := c.readBody(resp)
			if err != nil {
				yield(nil, err)
				return
			}
			if resp.StatusCode == http.StatusNotFound {
				// The server answered, so it is running: it has no streaming
				// endpoint (the TypeScript reference server has none).
				yield(nil, noStreamingError(req, rbody))
				return
			}
			result, err := decodeResponse(resp.StatusCode, rbody)
			if err != nil {
				yield(nil, notStreamed(err))
				return
			}
			yield(result, nil) // a server that answered with a single result
			return
		}
		// The limit is per event: a stream may go on for as long as it likes.
		rd := &sse.Reader{R: bufio.NewReaderSize(resp.Body, 16<<10), Max: c.maxResp}
		for {
			ev, err := rd.Next()
			if err != nil {
				if err == io.EOF {
					if !c.endsByClosing(resp) {
						yield(nil, clientError(ClassNoAccess, CodeNoAccess, "the stream broke: it ended without a done or error event", io.ErrUnexpectedEOF))
					}
					return
				}
				if ctxErr := ctx.Err(); ctxErr != nil {
					yield(nil, fmt.Errorf("opentool: stream %s: %w", name, ctxErr))
				} else if err == sse.ErrTooLarge {
					yield(nil, clientError(ClassResponseNull, http.StatusOK, fmt.Sprintf("a stream event is larger than %d bytes", c.maxResp), err))
				} else {
					yield(nil, clientError(ClassNoAccess, CodeNoAccess, "the stream broke: "+err.Error(), err))
				}
				return
			}
			switch ev.Name {
			case EventStart:
				continue
			case EventDone:
				c.sawDone.Store(true)
				return
			case EventError:
				yield(nil, notStreamed(errorEvent(ev.Data)))
				return
			case EventData, "":
				result, err := decodeResponse(http.StatusOK, ev.Data)
				if err != nil {
					yield(nil, err)
					return
				}
				if !yield(result, nil) {
					return
				}
			}
		}
	}
}

// ErrNoStreaming is in the chain of the error of a streaming call that cannot
// stream: the server has no streaming endpoint (it answered POST
// {base}/streamCall with HTTP 404 although it is running: the TypeScript
// reference server has no /streamCall), or it answered -32601, method not
// found, as a server of this package does when its tool has no streaming
// function of that name ([Local] answers as such a server would). That error
// is of class [ClassCall]; test for this case with errors.Is(err,
// ErrNoStreaming).
var ErrNoStreaming = errors.New("opentool: no streaming function of that name")

// notStreamed puts ErrNoStreaming in the chain of a streaming call's -32601
// call error.
func notStreamed(err error) error {
	if e, ok := err.(*Error); ok && e.Class == ClassCall && e.Code == CodeMethodNotFound && e.cause == nil {
		e.cause = ErrNoStreaming
	}
	return err
}

// errArgsNotObject is the error of arguments that are not a JSON object, which
// the client does not send.
func errArgsNotObject() *Error {
	return &Error{Code: CodeInvalidParams, Message: "arguments must be a JSON object"}
}

// noStreaming is the cause of the error of a 404 on /streamCall: the HTTP
// answer, and ErrNoStreaming for errors.Is.
type noStreaming struct{ http error }

func (e *noStreaming) Error() string   { return e.http.Error() }
func (e *noStreaming) Unwrap() []error { return []error{ErrNoStreaming, e.http} }
func noStreamingError(req *http.Request, body []byte) *Error {
	return clientError(ClassCall, http.StatusNotFound,
		"the server does not stream: it answered 404 to POST "+req.URL.Path+", so it has no streaming endpoint",
		&noStreaming{httpStatusError(http.StatusNotFound, body)})
}

// endsByClosing reports whether a stream that ended without done or error is
// complete all the same: the Dart reference server (package:shelf, which says so
// in X-Powered-By unless told not to) ended successful streams by closing them
// from its first streaming version until its commit 4ff5aa5 (January 2026),
// which sends done, under the same version number. So a shelf server's stream
// without done is complete until that server has sent done once.
func (c *Client) endsByClosing(resp *http.Response) bool {
	return !c.sawDone.Load() && strings.Contains(resp.Header.Get("X-Powered-By"), "package:shelf")
}

// errorEvent is the error an error event carries: a JSON-RPC response with its
// error as the Dart reference sends for an error the tool reports, the bare
// {"code":…,"message":…,"id":…} it sends when the tool throws, or whatever
// else, which still ends the stream with a call error.
func errorEvent(data []byte) error {
	var resp response
	if json.Unmarshal(data, &resp) == nil && !jsonrpc.IsNull(resp.Error) {
		return decodeCallError(http.StatusOK, resp.Error)
	}
	var bare struct {
		Message json.RawMessage `json:"message"`
	}
	if json.Unmarshal(data, &bare) == nil && len(bare.Message) > 0 && !jsonrpc.IsNull(bare.Message) {
		return decodeCallError(http.StatusOK, data)
	}
	return clientError(ClassCall, CodeToolError, "the stream ended with an error event", errors.New("event data: "+snippet(data)))
}
