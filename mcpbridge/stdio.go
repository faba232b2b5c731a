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
// SDK writes each message in one call), and learns the negotiated protocol
// version from the answer to initialize.
type stdioOut struct {
	mu      sync.Mutex
	w       io.Writer
	initID  *jsonrpc.ID // the initialize request whose answer is awaited
	version string      // the negotiated protocol version
}

func (o *stdioOut) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.initID != nil {
		if msg, err := jsonrpc.DecodeMessage(bytes.TrimSpace(p)); err == nil {
			if r, ok := msg.(*jsonrpc.Response); ok && r.ID == *o.initID {
				var res struct {
					ProtocolVersion string `json:"protocolVersion"`
				}
				if r.Error == nil && json.Unmarshal(r.Result, &res) == nil {
					o.version = res.ProtocolVersion
				}
				o.initID = nil
			}
		}
	}
	return o.w.Write(p)
}

// Close does not close the writer: the transport does not own it.
func (o *stdioOut) Close() error { return nil }

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
	if id, problem := f.check(msg); problem != "" {
		f.answer(id, -32600, "Invalid Request: "+problem)
		return nil
	}
	_, err := f.to.Write(append(msg, '\n'))
	return err
}

// check returns what is wrong with msg, valid JSON, as the SDK would read
// it ("" for nothing), and its id when it has one.
func (f *lineFilter) check(msg []byte) (json.RawMessage, string) {
	if msg[0] != '[' {
		m, err := jsonrpc.DecodeMessage(msg)
		if err != nil {
			return idOf(msg), "not a JSON-RPC 2.0 message: " + err.Error()
		}
		if r, ok := m.(*jsonrpc.Request); ok && r.Method == "initialize" && r.ID.IsValid() {
			f.out.awaitInit(r.ID)
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
	ids := map[jsonrpc.ID]bool{}
	for i, raw := range batch {
		m, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			return nil, fmt.Sprintf("message %d of the batch is not a JSON-RPC 2.0 message: %v", i, err)
		}
		if r, ok := m.(*jsonrpc.Request); ok && r.ID.IsValid() {
			if ids[r.ID] {
				return nil, fmt.Sprintf("message %d of the batch repeats the id %v", i, r.ID.Raw())
			}
			ids[r.ID] = true
		}
	}
	return nil, ""
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
