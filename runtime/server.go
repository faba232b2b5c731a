package runtime

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/opentoolgen/opentoolgen/internal/inflight"
	"github.com/opentoolgen/opentoolgen/internal/jsonrpc"
	"github.com/opentoolgen/opentoolgen/internal/lograte"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// DefaultMaxBodyBytes is the largest request body the server reads unless
// WithMaxBodyBytes says otherwise.
const DefaultMaxBodyBytes = 4 << 20

// ServerOption configures [NewHandler] and [Serve].
type ServerOption func(*serverConfig)

type serverConfig struct {
	version         string
	keys            [][]byte
	prefix          string
	maxBody         int64
	logger          *slog.Logger
	shutdownTimeout time.Duration
	readTimeout     time.Duration
	writeTimeout    time.Duration
	bodyMemory      int64
	logEvery        time.Duration
	valueHeaders    map[string]string // WithCallValueHeaders: header → call value name
	anyHost         bool              // WithAnyHost
	interceptors    []intercept.Func  // WithInterceptors
	noStop          bool              // WithNoRemoteStop
	onStop          func()            // WithStopFunc (stop.go)
}

// WithVersion sets the version GET /version reports (default "1.0.0").
func WithVersion(v string) ServerOption { return func(c *serverConfig) { c.version = v } }

// WithAPIKeys makes every request carry "Authorization: Bearer <key>" with one of
// keys; others get HTTP 401. Keys are compared in constant time (of their
// SHA-256 digests, so that not even a key's length leaks); empty keys are ignored.
func WithAPIKeys(keys ...string) ServerOption {
	return func(c *serverConfig) { c.keys = append(c.keys, digests(keys)...) }
}

// digests returns the SHA-256 digests of the non-empty keys.
func digests(keys []string) [][]byte {
	var out [][]byte
	for _, k := range keys {
		if k != "" {
			sum := sha256.Sum256([]byte(k))
			out = append(out, sum[:])
		}
	}
	return out
}

// RequireAPIKeys returns a handler that passes to h only the requests that
// carry "Authorization: Bearer <key>" with one of keys, compared as
// [WithAPIKeys] compares them, and answers the others HTTP 401 as
// [NewHandler] does (with a WWW-Authenticate header). It guards handlers
// that are not an OpenTool server's, such as an MCP endpoint served beside
// one. Empty keys are ignored; without keys it returns h.
func RequireAPIKeys(h http.Handler, keys ...string) http.Handler {
	ds := digests(keys)
	if len(ds) == 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !authorized(ds, r) {
			unauthorized(w)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// WithPrefix sets the path prefix (default "/opentool"; "" or "/" serves at the root).
func WithPrefix(p string) ServerOption {
	return func(c *serverConfig) { c.prefix = strings.TrimRight(p, "/") }
}

// WithMaxBodyBytes sets the largest request body accepted; larger ones get HTTP 413.
func WithMaxBodyBytes(n int64) ServerOption { return func(c *serverConfig) { c.maxBody = n } }

// WithLogger sets the logger for tool panics, invalid results and server errors
// (default: slog.Default()).
func WithLogger(l *slog.Logger) ServerOption { return func(c *serverConfig) { c.logger = l } }

// WithShutdownTimeout bounds how long [Serve] waits for calls in flight when its
// context is cancelled (default 30s); after it, remaining connections are closed.
func WithShutdownTimeout(d time.Duration) ServerOption {
	return func(c *serverConfig) { c.shutdownTimeout = d }
}

// WithReadTimeout bounds the time a client has to send a request's body,
// counted from the moment the handler starts (default 30s; 0 or less: no
// bound). A body still arriving then is answered with HTTP 408.
//
// The handler sets the read and write deadlines of its requests' connections
// itself (through what http.ResponseController uses), so they replace the
// ReadTimeout and WriteTimeout of an http.Server that serves [NewHandler].
func WithReadTimeout(d time.Duration) ServerOption {
	return func(c *serverConfig) { c.readTimeout = d }
}

// WithWriteTimeout bounds the time the server spends writing an answer, and
// each event of a stream (default 30s; 0 or less: no bound). It starts when
// the answer is ready, not when the request arrives: a tool may take longer.
// A client that does not read a stream for this long is dropped.
func WithWriteTimeout(d time.Duration) ServerOption {
	return func(c *serverConfig) { c.writeTimeout = d }
}

// WithBodyMemory bounds the memory the server holds for request bodies that
// are still arriving, all requests together (default 32 MiB, or twice the
// largest body if that is more; never less than one largest body). The first
// 16 KiB of each body are not counted. A larger body waits while the memory
// is lent to others and is answered HTTP 503 if its read deadline passes
// first: clients that stall halfway through large bodies pin no more than
// this.
func WithBodyMemory(n int64) ServerOption { return func(c *serverConfig) { c.bodyMemory = n } }

// WithAnyHost serves requests whatever their Host header. By default a
// request that arrives on a loopback address (127.0.0.1, [::1]) with a Host
// header that does not name a loopback host is answered HTTP 403, as the MCP
// SDK's streamable HTTP handler does: a web page whose domain an attacker
// points at 127.0.0.1 (DNS rebinding) cannot reach a server that listens on
// this machine only. Use it behind a proxy on the same machine that passes
// on the public Host.
func WithAnyHost() ServerOption { return func(c *serverConfig) { c.anyHost = true } }

func newServerConfig(opts []ServerOption) *serverConfig {
	c := &serverConfig{version: "1.0.0", prefix: DefaultPrefix, maxBody: DefaultMaxBodyBytes, shutdownTimeout: 30 * time.Second,
		readTimeout: 30 * time.Second, writeTimeout: 30 * time.Second, logEvery: lograte.Every}
	for _, o := range opts {
		o(c)
	}
	if c.logger == nil {
		c.logger = slog.Default()
	}
	if c.maxBody <= 0 {
		c.maxBody = DefaultMaxBodyBytes
	}
	if c.bodyMemory <= 0 {
		c.bodyMemory = max(32<<20, 2*c.maxBody)
	}
	c.bodyMemory = max(c.bodyMemory, (c.maxBody+bodyChunk)/bodyChunk*bodyChunk) // one largest body fits
	return c
}

type handler struct {
	// What bounds the cost of hostile callers and failing tools.
	bodies *bodyBudget
	logs   *lograte.Limiter

	tool    Tool
	stream  StreamTool // nil when tool does not stream
	metered bool       // tool runs interceptors: calls carry their headers as metadata
	cfg     *serverConfig
	version []byte // the body of /version
	loads   loadAnswers
}

// NewHandler returns the HTTP handler of an OpenTool server for tool:
// GET {prefix}/version, POST {prefix}/call, GET {prefix}/load,
// POST {prefix}/streamCall (Server-Sent Events; for a tool that implements
// [StreamTool]) and POST {prefix}/stop, which answers {"status":"stopped"}
// and stops the server that serves the handler ([Serve], [ServeListener],
// [ServeHandler]; or calls the function of [WithStopFunc]) as the end of its
// context does. /stop needs the API key as every route does; without API
// keys only a peer on a loopback address may stop the server.
// [WithNoRemoteStop] leaves it out.
func NewHandler(tool Tool, opts ...ServerOption) http.Handler {
	cfg := newServerConfig(opts)
	tool = Intercept(tool, cfg.interceptors...)
	h := &handler{tool: tool, cfg: cfg, bodies: newBodyBudget(cfg.bodyMemory), logs: lograte.New(cfg.logEvery)}
	h.stream, _ = tool.(StreamTool)
	_, h.metered = tool.(interface{ intercepted() *interceptedTool })
	h.version, _ = json.Marshal(Version{Version: cfg.version})
	return h
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Deadlines: the body must be in by readBy; an answer written right away,
	// or after the body, gets the write timeout (a stale deadline of an earlier
	// request on the connection would fail it). Answers written later extend it.
	dl := deadlinesOf(w)
	var readBy time.Time
	if h.cfg.readTimeout > 0 && r.ContentLength != 0 {
		readBy = time.Now().Add(h.cfg.readTimeout)
		if dl != nil {
			dl.SetReadDeadline(readBy)
		}
	}
	if dl != nil && h.cfg.writeTimeout > 0 {
		at := readBy
		if at.IsZero() {
			at = time.Now()
		}
		dl.SetWriteDeadline(at.Add(h.cfg.writeTimeout))
	}
	path := r.URL.Path
	if !strings.HasPrefix(path, h.cfg.prefix) {
		h.writeHTTPError(w, http.StatusNotFound, "not found: "+path)
		return
	}
	route := path[len(h.cfg.prefix):]
	if !h.cfg.anyHost && !loopbackHost(r) {
		h.writeHTTPError(w, http.StatusForbidden, "forbidden: the Host "+quote(r.Host)+" does not name this machine, where the request arrived")
		return
	}
	if len(h.cfg.keys) > 0 && !authorized(h.cfg.keys, r) {
		unauthorized(w)
		return
	}
	if len(h.cfg.valueHeaders) > 0 {
		r = r.WithContext(withHeaderValues(r.Context(), h.cfg.valueHeaders, r))
	}
	switch route {
	case "/call":
		if h.method(w, r, http.MethodPost) {
			h.serveCall(w, r, dl, readBy)
		}
	case "/streamCall":
		if h.method(w, r, http.MethodPost) {
			h.serveStreamCall(w, r, dl, readBy)
		}
	case "/version":
		if h.method(w, r, http.MethodGet) {
			writeJSON(w, http.StatusOK, h.version)
		}
	case "/load":
		if h.method(w, r, http.MethodGet) {
			h.serveLoad(w, r)
		}
	case "/stop":
		h.serveStop(w, r)
	default:
		h.writeHTTPError(w, http.StatusNotFound, "not found: "+path)
	}
}

// loopbackHost reports whether r may be served as to its Host: it arrived
// on an address that is not a loopback one, or its Host names a loopback
// host (localhost, 127.0.0.0/8, [::1]).
func loopbackHost(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil || !isLoopback(local.String()) {
		return true
	}
	return isLoopback(r.Host)
}

// isLoopback reports whether addr (a host, or host:port) names this machine.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// authorized reports whether r carries "Authorization: Bearer <key>" with a
// key of one of the digests keys.
func authorized(keys [][]byte, r *http.Request) bool {
	auth := r.Header.Get("Authorization")
	const bearer = "bearer "
	if len(auth) < len(bearer) || !strings.EqualFold(auth[:len(bearer)], bearer) {
		return false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(auth[len(bearer):])))
	ok := 0
	for _, k := range keys { // every key is compared: no early exit
		ok |= subtle.ConstantTimeCompare(got[:], k)
	}
	return ok == 1
}

// unauthorized answers HTTP 401 with a JSON-RPC body, as for any request that
// fails before it reaches a tool.
func unauthorized(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="opentool"`)
	writeHTTPError(w, http.StatusUnauthorized, ErrUnauthorized.Message)
}

func (h *handler) method(w http.ResponseWriter, r *http.Request, want string) bool {
	if r.Method == want || (want == http.MethodGet && r.Method == http.MethodHead) {
		return true
	}
	if want == http.MethodGet {
		w.Header().Set("Allow", "GET, HEAD")
	} else {
		w.Header().Set("Allow", want)
	}
	h.writeHTTPError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed, want %s", r.Method, want))
	return false
}

// writeHTTPError answers a request that failed before it reached a tool: the body
// is still a JSON-RPC response, with the HTTP status as code.
func (h *handler) writeHTTPError(w http.ResponseWriter, status int, msg string) {
	writeHTTPError(w, status, msg)
}

func writeHTTPError(w http.ResponseWriter, status int, msg string) {
	buf := getBuffer()
	defer putBuffer(buf)
	appendResponse(buf, nil, &Error{Code: status, Message: msg}, nil)
	writeJSON(w, status, buf.Bytes())
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	hd := w.Header()
	hd["Content-Type"] = jsonContentType
	hd["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	w.Write(body)
}

var jsonContentType = []string{"application/json"}

// parsed is a request that passed the protocol checks.
type parsed struct {
	method string
	params json.RawMessage // nil or a JSON object
	id     json.RawMessage // echoed as sent; "null" when absent
}

// readRequest reads and checks a JSON-RPC request. On failure it has answered
// and returns false. The body must arrive by readBy (zero: no bound), when dl
// stops the reads; dl's read deadline is lifted once the body is in, so that it
// does not end the call.
func (h *handler) readRequest(w http.ResponseWriter, r *http.Request, buf *bytes.Buffer, dl connDeadlines, readBy time.Time) (parsed, bool) {
	// "application/json", what nearly every client sends, skips the parse (and its map).
	if ct := r.Header.Get("Content-Type"); ct != "" && ct != "application/json" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || !isJSONMediaType(mt) {
			h.writeProtocolError(w, http.StatusUnsupportedMediaType, nil,
				&Error{Code: CodeInvalidRequest, Message: "Content-Type must be application/json, got " + quote(ct)})
			return parsed{}, false
		}
	}
	body, ok := h.receiveBody(w, r, buf, dl, readBy)
	if !ok {
		return parsed{}, false
	}
	inBuf := buf.Len() > 0 // else body is a slice of its own
	p, status, id, e := parseRequest(body)
	if e != nil {
		h.writeProtocolError(w, status, id, e)
		return p, false
	}
	if inBuf { // the tool may keep its arguments, and buf is reused for the answer
		b := make([]byte, len(p.params)+len(p.id))
		n := copy(b, p.params)
		copy(b[n:], p.id)
		if p.params != nil {
			p.params = b[:n:n]
		}
		p.id = b[n:]
	}
	return p, true
}

// receiveBody reads the request's body into buf within its bounds. On
// failure it has answered and returns false.
func (h *handler) receiveBody(w http.ResponseWriter, r *http.Request, buf *bytes.Buffer, dl connDeadlines, readBy time.Time) ([]byte, bool) {
	if r.ContentLength > h.cfg.maxBody {
		h.tooLarge(w)
		return nil, false
	}
	body, err := h.readBody(r, buf, readBy)
	if readBy.IsZero() {
		h.extendWrite(dl) // the body took as long as it took
	}
	switch {
	case err == nil:
		if dl != nil && !readBy.IsZero() {
			dl.SetReadDeadline(time.Time{})
		}
		return body, true
	case err == errBodyTooLarge:
		h.tooLarge(w)
	case err == errBodyBusy:
		w.Header().Set("Connection", "close")
		w.Header().Set("Retry-After", "1")
		h.writeProtocolError(w, http.StatusServiceUnavailable, nil,
			&Error{Code: CodeInvalidRequest, Message: "the server is busy with other request bodies: try again"})
	case errors.Is(err, os.ErrDeadlineExceeded):
		msg := "the request body did not arrive in time"
		if !readBy.IsZero() {
			msg = "the request body did not arrive within " + h.cfg.readTimeout.String()
		}
		w.Header().Set("Connection", "close")
		h.writeProtocolError(w, http.StatusRequestTimeout, nil, &Error{Code: CodeInvalidRequest, Message: msg})
	default:
		h.writeProtocolError(w, http.StatusBadRequest, nil, &Error{Code: CodeParseError, Message: "reading request body: " + err.Error()})
	}
	return nil, false
}

// parseRequest checks body as one JSON-RPC request. When it is not one, it
// returns the error to answer, with its HTTP status and the id to answer it
// with (nil: none).
func parseRequest(body []byte) (p parsed, status int, id json.RawMessage, e *Error) {
	invalid := func(status int, id json.RawMessage, code int, msg string) (parsed, int, json.RawMessage, *Error) {
		return p, status, id, &Error{Code: code, Message: msg}
	}
	body = bytes.TrimLeft(body, " \t\r\n")
	if len(body) > 0 && body[0] == '[' {
		return invalid(http.StatusBadRequest, nil, CodeInvalidRequest, "batch requests are not supported: send one JSON-RPC request object")
	}
	if !json.Valid(body) {
		var v struct{}
		msg := "invalid JSON"
		if err := json.Unmarshal(body, &v); err != nil {
			msg = err.Error()
		}
		return invalid(http.StatusBadRequest, nil, CodeParseError, "parse error: "+msg)
	}
	var env jsonrpc.Envelope
	switch kind := document.KindOf(body); kind {
	case "object":
		env = jsonrpc.Parse(body)
	case "null": // no member at all
	default:
		return invalid(http.StatusBadRequest, nil, CodeInvalidRequest, "request must be a JSON object, got "+kind)
	}
	p.id = env.ID
	if len(p.id) == 0 {
		p.id = nullJSON
	} else if c := p.id[0]; c == '{' || c == '[' || c == 't' || c == 'f' {
		return invalid(http.StatusBadRequest, nullJSON, CodeInvalidRequest, "id must be a string, a number or null")
	}
	p.id = jsonrpc.CanonicalID(p.id)
	if env.Repeated != "" {
		id := p.id
		if env.IDRepeated {
			id = nullJSON
		}
		return invalid(http.StatusBadRequest, id, CodeInvalidRequest,
			"the request repeats the member "+quote(env.Repeated)+" (member names match case-insensitively)")
	}
	var ok bool
	if p.method, ok = jsonrpc.Method(env.Method); !ok || p.method == "" {
		return invalid(http.StatusBadRequest, p.id, CodeInvalidRequest, "method must be a non-empty string")
	}
	if !jsonrpc.IsNull(env.Params) {
		if !jsonrpc.IsObject(env.Params) {
			return invalid(http.StatusOK, p.id, CodeInvalidParams, "params must be a JSON object of named arguments")
		}
		p.params = env.Params
	}
	return p, 0, nil, nil
}

var nullJSON = json.RawMessage("null")

// isJSONMediaType reports whether a request's media type (lower case, as
// mime.ParseMediaType returns it) is JSON: application/json, a +json type, or
// the media types of JSON-RPC over HTTP.
func isJSONMediaType(mt string) bool {
	switch mt {
	case "application/json", "application/json-rpc", "application/jsonrequest":
		return true
	}
	return strings.HasSuffix(mt, "+json")
}

func (h *handler) tooLarge(w http.ResponseWriter) {
	h.writeProtocolError(w, http.StatusRequestEntityTooLarge, nil,
		&Error{Code: CodeInvalidRequest, Message: fmt.Sprintf("request body larger than %d bytes", h.cfg.maxBody)})
}

func (h *handler) writeProtocolError(w http.ResponseWriter, status int, id json.RawMessage, e *Error) {
	buf := getBuffer()
	defer putBuffer(buf)
	appendResponse(buf, nil, e, id)
	writeJSON(w, status, buf.Bytes())
}

func (h *handler) serveCall(w http.ResponseWriter, r *http.Request, dl connDeadlines, readBy time.Time) {
	buf := getBuffer()
	defer putBuffer(buf)
	p, ok := h.readRequest(w, r, buf, dl, readBy)
	if !ok {
		return
	}
	result, err := h.call(h.callContext(r, p.id), p)
	h.extendWrite(dl)
	buf.Reset()
	if err != nil {
		appendResponse(buf, nil, asError(err), p.id)
	} else {
		appendResponse(buf, result, nil, p.id)
	}
	writeJSON(w, http.StatusOK, buf.Bytes())
}

// callContext is the context of the call r carries: with the call context
// of its headers when a Propagator is set, and its headers as the metadata of
// the tool's interceptors when it has some (with the intercept.Call they get:
// one allocation for both). Without either, r's own.
func (h *handler) callContext(r *http.Request, id json.RawMessage) context.Context {
	ctx := r.Context()
	if intercept.Propagating() {
		ctx = intercept.ExtractMetadata(ctx, intercept.HeaderMetadata(r.Header))
	}
	if h.metered {
		ctx = intercept.WithServedCall(ctx, intercept.FrontOpenTool, intercept.HeaderMetadata(r.Header), idText(id))
	}
	return ctx
}

// idText is a JSON-RPC request id as intercept.Call.RequestID has it: a
// string's value, a number as sent, "" for null or none.
func idText(id json.RawMessage) string {
	switch {
	case len(id) == 0 || string(id) == "null":
		return ""
	case id[0] == '"':
		var s string
		if json.Unmarshal(id, &s) == nil {
			return s
		}
		return ""
	}
	return string(id)
}

// call runs the tool, turning a panic or an invalid result into an internal error.
func (h *handler) call(ctx context.Context, p parsed) (result json.RawMessage, err error) {
	defer func() {
		if v := recover(); v != nil {
			h.logPanic(p.method, v)
			result, err = nil, InternalError("internal error: the tool failed while calling "+quote(p.method))
		}
	}()
	result, err = h.tool.Call(ctx, p.method, p.params)
	if err != nil {
		return nil, asError(err) // here, so that a panicking Error method is recovered too
	}
	return h.checkResult(p.method, result)
}

func (h *handler) checkResult(method string, result json.RawMessage) (json.RawMessage, error) {
	if len(result) == 0 {
		return emptyObject, nil
	}
	if !json.Valid(result) || !jsonrpc.IsObject(result) {
		if log, _, suppressed := h.logs.Allow(lograte.Result, method); log {
			h.cfg.logger.Error("opentool: tool returned a result that is not a JSON object", "function", lograte.Name(method), "result", truncate(result, 200),
				"suppressed", suppressed)
		}
		return nil, InternalError("internal error: the tool returned a result that is not a JSON object")
	}
	return result, nil
}

// appendResponse writes a JSON-RPC response. The result member is always an
// object (the reference clients require it), error is null on success.
//
//	{"jsonrpc":"2.0","result":{…},"error":null,"id":…}
func appendResponse(buf *bytes.Buffer, result json.RawMessage, e *Error, id json.RawMessage) {
	buf.WriteString(`{"jsonrpc":"2.0","result":`)
	if e != nil || len(result) == 0 {
		buf.WriteString("{}")
	} else {
		jsonrpc.WriteValidUTF8(buf, result)
	}
	buf.WriteString(`,"error":`)
	if e == nil {
		buf.WriteString("null")
	} else {
		appendErrorObject(buf, e)
	}
	buf.WriteString(`,"id":`)
	if len(id) == 0 {
		buf.WriteString("null")
	} else {
		buf.Write(id)
	}
	buf.WriteByte('}')
}

// appendErrorObject writes the JSON-RPC error object of e, as it travels:
// {"code":…,"message":…,"data":…}, data left out when it is not valid JSON.
func appendErrorObject(buf *bytes.Buffer, e *Error) {
	buf.WriteString(`{"code":`)
	buf.WriteString(strconv.Itoa(e.Code))
	buf.WriteString(`,"message":`)
	jsonrpc.WriteString(buf, e.Message)
	if len(e.Data) > 0 && json.Valid(e.Data) {
		buf.WriteString(`,"data":`)
		jsonrpc.WriteValidUTF8(buf, e.Data)
	}
	buf.WriteByte('}')
}

// logPanic logs a panic of the tool in function fn: the first of fn with its
// stack, later ones at most once per interval, with the number not logged.
func (h *handler) logPanic(fn string, v any) {
	log, full, suppressed := h.logs.Allow(lograte.Panic, fn)
	switch {
	case full:
		h.cfg.logger.Error("opentool: tool panicked", "function", lograte.Name(fn), "panic", truncatePanic(v), "stack", string(debug.Stack()))
	case log:
		h.cfg.logger.Error("opentool: tool panicked", "function", lograte.Name(fn), "panic", truncatePanic(v), "suppressed", suppressed)
	}
}

// truncatePanic is a panic's value for the log, at most 4 KiB of it.
func truncatePanic(v any) string {
	s := fmt.Sprint(v)
	if len(s) > 4<<10 {
		return truncate([]byte(s), 4<<10)
	}
	return s
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

func (h *handler) serveLoad(w http.ResponseWriter, r *http.Request) {
	doc, err := h.load(r.Context())
	if err != nil {
		h.writeHTTPError(w, http.StatusInternalServerError, "loading the OpenTool document: "+err.Error())
		return
	}
	if doc == nil {
		writeJSON(w, http.StatusOK, emptyObject)
		return
	}
	ans, err := h.loads.get(doc, h.cfg.logger)
	if err != nil {
		h.writeHTTPError(w, http.StatusInternalServerError, "encoding the OpenTool document: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, ans.body(r.URL.RawQuery))
}

func (h *handler) load(ctx context.Context) (doc *document.OpenTool, err error) {
	defer func() {
		if v := recover(); v != nil {
			if log, full, suppressed := h.logs.Allow(lograte.Load, ""); full {
				h.cfg.logger.Error("opentool: tool panicked in Load", "panic", truncatePanic(v), "stack", string(debug.Stack()))
			} else if log {
				h.cfg.logger.Error("opentool: tool panicked in Load", "panic", truncatePanic(v), "suppressed", suppressed)
			}
			doc, err = nil, errors.New("the tool failed")
		}
	}()
	return h.tool.Load(ctx)
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuffer() *bytes.Buffer { return bufPool.Get().(*bytes.Buffer) }

func putBuffer(b *bytes.Buffer) {
	if b.Cap() > 1<<20 { // do not keep huge buffers alive
		return
	}
	b.Reset()
	bufPool.Put(b)
}

// Serve serves tool over HTTP on addr (host:port) until ctx is cancelled or
// a client sends POST {prefix}/stop (see [NewHandler]), then shuts down
// gracefully: the listener closes at once (new connections are
// refused), calls and streams in flight run to completion, and Serve returns
// nil. WithShutdownTimeout bounds that grace period: after it, the contexts of
// the calls and streams still running are cancelled and their connections
// closed, Serve waits up to 2s more for their handlers to return, and it
// returns context.DeadlineExceeded.
func Serve(ctx context.Context, addr string, tool Tool, opts ...ServerOption) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return ServeListener(ctx, ln, tool, opts...)
}

// ServeListener is [Serve] on an existing listener, which it closes.
func ServeListener(ctx context.Context, ln net.Listener, tool Tool, opts ...ServerOption) error {
	return serve(ctx, ln, NewHandler(tool, opts...), newServerConfig(opts))
}

// ServeHandler is [ServeListener] for any handler, such as a mux that mounts
// [NewHandler] beside other endpoints: the same HTTP server (header and idle
// timeouts, header size limit) and the same graceful shutdown when ctx is
// cancelled, or when a [NewHandler] it serves answers POST /stop. Of opts, [WithShutdownTimeout], [WithLogger], [WithReadTimeout]
// and [WithWriteTimeout] apply here; the handler's own options are given
// where it is made. Every request starts with the deadlines of those
// timeouts: its body must arrive within the read timeout, and its answer be
// written within both, so that a request refused before any handler reads its
// body (an HTTP 401 of [RequireAPIKeys]) cannot hold its connection. A
// handler that takes longer (a stream) sets its own deadlines, as
// [NewHandler] does. Requests that outlive ctx without end (a stream that
// only the client ends) should end when ctx does: the shutdown waits for
// them.
func ServeHandler(ctx context.Context, ln net.Listener, h http.Handler, opts ...ServerOption) error {
	cfg := newServerConfig(opts)
	if cfg.readTimeout > 0 || cfg.writeTimeout > 0 {
		inner := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if dl := deadlinesOf(w); dl != nil {
				now := time.Now()
				var read time.Duration
				if cfg.readTimeout > 0 && r.ContentLength != 0 {
					read = cfg.readTimeout
					dl.SetReadDeadline(now.Add(read))
				}
				if cfg.writeTimeout > 0 {
					dl.SetWriteDeadline(now.Add(read + cfg.writeTimeout))
				}
			}
			inner.ServeHTTP(w, r)
		})
	}
	return serve(ctx, ln, h, cfg)
}

func serve(ctx context.Context, ln net.Listener, h http.Handler, cfg *serverConfig) error {
	conns := &newConns{m: map[net.Conn]struct{}{}}
	// Every request's context derives from base, cancelled when the grace
	// period ends; handlers counts the requests being handled.
	base, cancelBase := context.WithCancel(context.Background())
	defer cancelBase()
	base, stopped := withStop(base) // POST /stop (stop.go)
	handlers := &inflight.Counter{}
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			handlers.Add(1)
			defer handlers.Add(-1)
			h.ServeHTTP(w, r)
		}),
		BaseContext:       func(net.Listener) context.Context { return base },
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(cfg.logger.Handler(), slog.LevelWarn),
		ConnState:         conns.track,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	case <-stopped:
	}
	sctx, cancel := context.WithTimeout(context.Background(), cfg.shutdownTimeout)
	defer cancel()
	// http.Server.Shutdown waits 5s before it treats a connection that never
	// carried a request as idle (Go issue 22682); clients dial such spare
	// connections under concurrency. Close them now: no request is lost, the
	// client has written nothing on them and retries elsewhere.
	go func() {
		for {
			conns.closeNew()
			select {
			case <-sctx.Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	err := srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		// Connections first, then contexts: a call cut off must not get to
		// answer its context's error on a connection still open (the caller
		// would see a tool error instead of the connection closing).
		srv.Close()
		cancelBase()
		waitCtx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		handlers.Wait(waitCtx)
		cancel()
	}
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return err
}

// newConns tracks the connections that have not yet carried a request.
type newConns struct {
	mu sync.Mutex
	m  map[net.Conn]struct{}
}

func (c *newConns) track(conn net.Conn, state http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if state == http.StateNew {
		c.m[conn] = struct{}{}
	} else {
		delete(c.m, conn)
	}
}

func (c *newConns) closeNew() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for conn := range c.m {
		conn.Close()
		delete(c.m, conn)
	}
}
