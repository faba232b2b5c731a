package mcpbridge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// DefaultMaxLineBytes is the longest line a [StdioTransport] reads unless
// its MaxLineBytes says otherwise: the largest request body OpenTool HTTP
// reads (runtime.DefaultMaxBodyBytes), as one line is one request.
const DefaultMaxLineBytes = runtime.DefaultMaxBodyBytes

// batchVersion is the first protocol version without JSON-RPC batches.
const batchVersion = "2025-06-18"

// StdioTransport is the server's side of MCP over standard input and output
// (newline-delimited JSON, as mcp.StdioTransport and mcp.IOTransport),
// which a client's malformed line does not end. [ServeStdio] serves over
// it. Each line is checked before the SDK reads it:
//
//   - a line that is not JSON is answered with a parse error (-32700, id
//     null);
//   - JSON that is not a JSON-RPC 2.0 message, or an empty batch, or a batch
//     that repeats a request's id, or a batch when the negotiated protocol
//     version has none (2025-06-18 on), is answered with an invalid request
//     (-32600, the id when there is one), the batch as a whole;
//   - a line longer than MaxLineBytes is answered with an invalid request
//     (-32600, id null) and skipped without being kept in memory;
//   - empty lines are skipped;
//
// and the session goes on. The other messages go to the SDK's
// mcp.IOTransport unchanged (batches of older protocol versions included).
type StdioTransport struct {
	Reader io.Reader // nil: os.Stdin; never closed
	Writer io.Writer // nil: os.Stdout; never closed
	// MaxLineBytes bounds a line, its newline excepted; zero or negative is
	// DefaultMaxLineBytes.
	MaxLineBytes int
	// Logger, when set, is told of each line answered with an error (at
	// level Warn).
	Logger *slog.Logger
}

// Connect implements mcp.Transport.
func (t *StdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	in, out := t.Reader, t.Writer
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	max := t.MaxLineBytes
	if max <= 0 {
		max = DefaultMaxLineBytes
	}
	pr, pw := io.Pipe()
	f := &lineFilter{in: in, to: pw, out: &stdioOut{w: out}, max: max, logger: t.Logger}
	go f.run()
	// The filter has bounded each line: the SDK's own bound must not cut one.
	return (&mcp.IOTransport{Reader: pr, Writer: f.out, MaxLineLength: max + 2}).Connect(ctx)
}

// stdioOut writes whole messages to the client, one Write at a time (the
// SDK writes each message in one call), learns the negotiated protocol
// version from the answer to initialize, and keeps the requests not yet
// answered, so that the end of the client's input waits for their answers.
type stdioOut struct {
	mu      sync.Mutex
	w       io.Writer
	initID  *jsonrpc.ID // the initialize request whose answer is awaited
	version string      // the negotiated protocol version
	pending map[jsonrpc.ID]bool
	settled chan struct{} // closed when pending empties or the connection closes
	closed  bool
}

func (o *stdioOut) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.initID != nil || len(o.pending) > 0 {
		o.answered(bytes.TrimSpace(p))
	}
	return o.w.Write(p)
}

// answered notes the responses of msg, a message or a batch the SDK writes.
func (o *stdioOut) answered(msg []byte) {
	if len(msg) > 0 && msg[0] == '[' {
		var batch []json.RawMessage
		json.Unmarshal(msg, &batch)
		for _, m := range batch {
			o.answered(m)
		}
		return
	}
	m, err := jsonrpc.DecodeMessage(msg)
	r, ok := m.(*jsonrpc.Response)
	if err != nil || !ok {
		return
	}
	if o.initID != nil && r.ID == *o.initID {
		var res struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if r.Error == nil && json.Unmarshal(r.Result, &res) == nil {
			o.version = res.ProtocolVersion
		}
		o.initID = nil
	}
	o.forgetLocked(r.ID)
}

// expect notes a request passed to the SDK, whose answer is awaited.
func (o *stdioOut) expect(id jsonrpc.ID) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.pending == nil {
		o.pending = map[jsonrpc.ID]bool{}
	}
	o.pending[id] = true
}

// forget notes a request that will not be answered (the client cancelled it).
func (o *stdioOut) forget(id jsonrpc.ID) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.forgetLocked(id)
}

func (o *stdioOut) forgetLocked(id jsonrpc.ID) {
	delete(o.pending, id)
	if len(o.pending) == 0 && o.settled != nil {
		close(o.settled)
		o.settled = nil
	}
}

// drain returns when every request passed to the SDK is answered or
// cancelled, or the connection is closed.
func (o *stdioOut) drain() {
	o.mu.Lock()
	if o.closed || len(o.pending) == 0 {
		o.mu.Unlock()
		return
	}
	if o.settled == nil {
		o.settled = make(chan struct{})
	}
	ch := o.settled
	o.mu.Unlock()
	<-ch
}

// Close does not close the writer (the transport does not own it); it ends
// a drain.
func (o *stdioOut) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed = true
	if o.settled != nil {
		close(o.settled)
		o.settled = nil
	}
	return nil
}

func (o *stdioOut) awaitInit(id jsonrpc.ID) {
	o.mu.Lock()
	o.initID = &id
	o.mu.Unlock()
}

func (o *stdioOut) batches() (bool, string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.version < batchVersion, o.version
}

// lineFilter reads lines from in, answers the malformed ones on out, and
// passes the others on to the SDK.
type lineFilter struct {
	in     io.Reader
	to     *io.PipeWriter
	out    *stdioOut
	max    int
	logger *slog.Logger
}

func (f *lineFilter) run() {
	r := bufio.NewReaderSize(f.in, 64<<10)
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		long := len(line)+len(chunk) > f.max+1 // the newline is not counted
		if !long {
			line = append(line, chunk...)
		}
		if err == bufio.ErrBufferFull && !long {
			continue
		}
		if long {
			// Skip to the end of the line, keeping nothing.
			for err == bufio.ErrBufferFull {
				_, err = r.ReadSlice('\n')
			}
			f.answer(nil, -32600, "Invalid Request: a line longer than "+strconv.Itoa(f.max)+" bytes")
		} else if werr := f.pass(line); werr != nil {
			return // the connection is closed
		}
		line = line[:0]
		if err != nil {
			if err == io.EOF {
				// The client has closed its output: what it asked is
				// answered before the SDK sees the end (MCP's stdio
				// shutdown closes the server's input, then waits).
				f.out.drain()
				err = nil
			}
			f.to.CloseWithError(err) // nil: EOF, the client has closed the connection
			return
		}
	}
}

// pass checks one line and passes it on to the SDK, or answers it.
func (f *lineFilter) pass(line []byte) error {
	msg := bytes.TrimSpace(line)
	if len(msg) == 0 {
		return nil
	}
	if !json.Valid(msg) {
		var v json.RawMessage
		err := json.Unmarshal(msg, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			err = fmt.Errorf("%v (byte %d)", se, se.Offset)
		}
		f.answer(nil, -32700, fmt.Sprintf("Parse error: %v", err))
		return nil
	}
	ids, problem := f.check(msg)
	if problem != "" {
		f.answer(idOf(msg), -32600, "Invalid Request: "+problem)
		return nil
	}
	for _, id := range ids {
		f.out.expect(id)
	}
	_, err := f.to.Write(append(msg, '\n'))
	return err
}

// check returns what is wrong with msg, valid JSON, as the SDK would read
// it ("" for nothing), and otherwise the ids of the requests it holds.
func (f *lineFilter) check(msg []byte) ([]jsonrpc.ID, string) {
	if msg[0] != '[' {
		m, err := jsonrpc.DecodeMessage(msg)
		if err != nil {
			return nil, "not a JSON-RPC 2.0 message: " + err.Error()
		}
		if id, ok := f.request(m); ok {
			return []jsonrpc.ID{id}, ""
		}
		return nil, ""
	}
	var batch []json.RawMessage
	if err := json.Unmarshal(msg, &batch); err != nil {
		return nil, "not a batch of JSON-RPC 2.0 messages: " + err.Error()
	}
	if len(batch) == 0 {
		return nil, "an empty batch"
	}
	if ok, version := f.out.batches(); !ok {
		return nil, "JSON-RPC batches are not part of protocol version " + version
	}
	var ids []jsonrpc.ID
	for i, raw := range batch {
		m, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			return nil, fmt.Sprintf("message %d of the batch is not a JSON-RPC 2.0 message: %v", i, err)
		}
		if id, ok := f.request(m); ok {
			if slices.Contains(ids, id) {
				return nil, fmt.Sprintf("message %d of the batch repeats the id %v", i, id.Raw())
			}
			ids = append(ids, id)
		}
	}
	return ids, ""
}

// request returns the id of m when m is a request, which the SDK answers;
// it notes an initialize request, and a cancellation, whose request will
// not be answered.
func (f *lineFilter) request(m jsonrpc.Message) (jsonrpc.ID, bool) {
	r, ok := m.(*jsonrpc.Request)
	if !ok {
		return jsonrpc.ID{}, false
	}
	if r.Method == "notifications/cancelled" {
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(r.Params, &p) == nil && len(p.RequestID) > 0 {
			if c, err := jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","method":"c","id":` + string(p.RequestID) + `}`)); err == nil {
				f.out.forget(c.(*jsonrpc.Request).ID)
			}
		}
	}
	if !r.ID.IsValid() {
		return jsonrpc.ID{}, false
	}
	if r.Method == "initialize" {
		f.out.awaitInit(r.ID)
	}
	return r.ID, true
}

// idOf returns the "id" member of a JSON object when it is a string or a
// number, as it is written; nil otherwise.
func idOf(msg []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(msg, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	if c := m.ID[0]; c == '"' || c == '-' || c >= '0' && c <= '9' {
		return m.ID
	}
	return nil
}

// answer writes an error response with id (nil: null).
func (f *lineFilter) answer(id json.RawMessage, code int64, message string) {
	if f.logger != nil {
		f.logger.Warn("MCP over stdio: a line from the client is answered with an error", "code", code, "message", message)
	}
	// Not jsonrpc.EncodeMessage: it leaves out a null id.
	if id == nil {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(errorResponse{"2.0", id, &jsonrpc.Error{Code: code, Message: message}})
	if err != nil {
		return
	}
	f.out.Write(append(b, '\n'))
}

type errorResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *jsonrpc.Error  `json:"error"`
}
