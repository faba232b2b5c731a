package runtime

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/opentoolgen/opentoolgen/internal/sse"
)

// Server-Sent Events of POST /streamCall, as the Dart reference sends them:
//
//	event:start
//	data:{"start":"<function>"}
//
//	event:data
//	data:{"jsonrpc":"2.0","result":{…},"error":null,"id":…}   (once per result)
//
//	event:error
//	data:{"jsonrpc":"2.0","result":{},"error":{…},"id":…}     (ends the stream)
//
//	event:done
//	data:{"done":"<function>"}                                 (ends the stream)
const (
	EventStart = "start"
	EventData  = "data"
	EventError = "error"
	EventDone  = "done"
)

func (h *handler) serveStreamCall(w http.ResponseWriter, r *http.Request, dl connDeadlines, readBy time.Time) {
	buf := getBuffer()
	defer putBuffer(buf)
	p, ok := h.readRequest(w, r, buf, dl, readBy)
	if !ok {
		return
	}
	if h.stream == nil {
		h.writeProtocolError(w, http.StatusOK, p.id, &Error{Code: CodeMethodNotFound, Message: "this tool has no streaming functions: " + quote(p.method)})
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	sw := sse.NewWriter(w, dl, h.cfg.writeTimeout) // dl nil: none
	defer sw.Close()                               // a tool goroutine that emits after the handler returned gets an error

	ctx := h.callContext(r, p.id)
	name, _ := json.Marshal(p.method)
	if sw.Event(EventStart, []byte(`{"start":`+string(name)+`}`)) != nil {
		return
	}
	emit := func(result json.RawMessage) error {
		if err := ctx.Err(); err != nil { // the caller has gone
			return err
		}
		res, err := h.checkResult(p.method, result)
		if err != nil {
			return err
		}
		b := getBuffer()
		defer putBuffer(b)
		appendResponse(b, res, nil, p.id)
		return sw.Event(EventData, b.Bytes())
	}
	err := h.runStream(ctx, p, emit)
	if sw.Failed() || ctx.Err() != nil { // the caller has gone: nothing more can be sent
		return
	}
	if err != nil {
		b := getBuffer()
		appendResponse(b, nil, err.(*Error), p.id)
		sw.Event(EventError, b.Bytes())
		putBuffer(b)
	} else {
		sw.Event(EventDone, []byte(`{"done":`+string(name)+`}`))
	}
}

// runStream runs the tool's stream; the error it returns, if any, is an *Error.
func (h *handler) runStream(ctx context.Context, p parsed, emit func(json.RawMessage) error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			h.logPanic(p.method, v)
			err = InternalError("internal error: the tool failed while calling " + quote(p.method))
		}
	}()
	if err := h.stream.StreamCall(ctx, p.method, p.params, emit); err != nil {
		return asError(err) // here, so that a panicking Error method is recovered too
	}
	return nil
}
