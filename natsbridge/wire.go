package natsbridge

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// Headers of the messages natsbridge sends besides micro's error headers.
const (
	// StreamHeader marks a streaming call and the messages of its answer: a
	// request with "1" asks for a stream; the service answers "start" (with
	// ControlHeader), then one "item" per result, and ends with "done" or
	// "error" (with micro's error headers).
	StreamHeader = "Opentool-Stream"
	// ControlHeader names the subject on which the caller of a stream gives
	// credit for more items, asks whether the stream is alive ("ping", a
	// request) and ends it early ("cancel").
	ControlHeader = "Opentool-Stream-Control"
	// WindowHeader carries, on a streaming request, how many items the
	// caller takes ahead of its credit, and on the stream's start how many
	// the service sends (the smaller of that and its own window): the
	// caller gives credit each half window.
	WindowHeader = "Opentool-Stream-Window"
	// CallHeader carries a call's id, unique to the caller, with which the
	// caller cancels the call by publishing it on the prefix's cancel
	// subject, _OPENTOOL.CANCEL.PREFIX (see [CancelSubject]).
	CallHeader = "Opentool-Call"
	// CreditHeader carries the number of items the caller has taken, on a
	// credit message.
	CreditHeader = "Opentool-Stream-Credit"
)

// Values of StreamHeader.
const (
	streamAsk    = "1"
	streamStart  = "start"
	streamItem   = "item"
	streamDone   = "done"
	streamError  = "error"
	streamCancel = "cancel"
	streamPing   = "ping"
	streamCredit = "credit"
)

// errorMsg is the answer carrying e: micro's error headers (the code as
// decimal text, the message on one line, for the nats CLI and other micro
// clients) and, as the body, the JSON-RPC error object {"code":…,"message":…,
// "data":…} a /call answer carries, from which the caller decodes it exactly.
func errorMsg(e *runtime.Error) *nats.Msg {
	body, _ := json.Marshal(struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data,omitempty"`
	}{e.Code, strings.ToValidUTF8(e.Message, "\uFFFD"), validData(e.Data)})
	return &nats.Msg{Data: body, Header: nats.Header{
		micro.ErrorCodeHeader: {strconv.Itoa(e.Code)},
		micro.ErrorHeader:     {headerText(e.Message)},
	}}
}

func validData(d json.RawMessage) json.RawMessage {
	if len(d) == 0 || !json.Valid(d) {
		return nil
	}
	return d
}

// headerText is s as a header value: one line, at most 1 KiB.
func headerText(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\r' || r == '\n' {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	if len(s) > 1024 {
		s = strings.ToValidUTF8(s[:1024], "") + "…"
	}
	return s
}

// isError reports whether m is an error answer (micro's convention).
func isError(m *nats.Msg) bool { return m.Header.Get(micro.ErrorCodeHeader) != "" }

// decodeError is the call error m carries: the body's error object when it
// is one, else micro's headers with the body as data (from a service that is
// not natsbridge's).
func decodeError(m *nats.Msg) *runtime.Error {
	var body struct {
		Code    *int            `json:"code"`
		Message *string         `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if json.Unmarshal(m.Data, &body) == nil && body.Code != nil && body.Message != nil {
		e := &runtime.Error{Class: runtime.ClassCall, Code: *body.Code, Message: *body.Message}
		if len(body.Data) > 0 && !bytes.Equal(body.Data, []byte("null")) {
			e.Data = body.Data
		}
		return e
	}
	e := &runtime.Error{Class: runtime.ClassCall, Code: runtime.CodeToolError, Message: m.Header.Get(micro.ErrorHeader)}
	if n, err := strconv.Atoi(m.Header.Get(micro.ErrorCodeHeader)); err == nil {
		e.Code = n
	}
	if d := bytes.TrimSpace(m.Data); len(d) > 0 {
		if json.Valid(d) {
			e.Data = append(json.RawMessage(nil), d...)
		} else {
			e.Data, _ = json.Marshal(strings.ToValidUTF8(string(d), "\uFFFD"))
		}
	}
	return e
}

// CancelSubject is the subject on which the callers of the tool served under
// prefix cancel calls: every service of the prefix listens, and the one
// running the call whose id (CallHeader) a message carries cancels its
// context, as a server does when an HTTP client goes.
func CancelSubject(prefix string) string { return "_OPENTOOL.CANCEL." + prefix }
