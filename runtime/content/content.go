// Package content carries what a tool's answer holds beside its result
// object, as MCP carries it: content items (text, images, audio, resources)
// and progress notifications, through a call's context.
package content

import (
	"context"
	"encoding/json"
	"sync"
)

// Item is one item of the content of a tool's answer beside its result
// object, as an MCP tool result carries it: text, an image, audio, a link to
// a resource, an embedded resource. It encodes to JSON as MCP's content
// objects do ({"type": "image", "data": "<base64>", "mimeType": "image/png"},
// …), so that a bridge re-serves it as it came.
//
// A typed client gets the content of a call by putting a destination on the
// call's context ([With]): the result object comes back as usual,
// the content beside it.
type Item struct {
	// Type is "text", "image", "audio", "resource_link" or "resource" (a
	// type another server invents is kept as it is).
	Type string `json:"type"`
	// Text is the text of a "text" content.
	Text string `json:"text,omitempty"`
	// Data are the bytes of an "image" or "audio" content (base64 in JSON).
	Data []byte `json:"data,omitempty"`
	// MIMEType is the media type of an image, audio or resource link.
	MIMEType string `json:"mimeType,omitempty"`
	// URI, Name, Title, Description and Size describe a "resource_link".
	URI         string `json:"uri,omitempty"`
	Name        string `json:"name,omitempty"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Size        *int64 `json:"size,omitempty"`
	// Resource is the resource a "resource" content embeds.
	Resource *Resource `json:"resource,omitempty"`
	// Icons, Annotations and Meta are kept as they came (JSON).
	Icons       json.RawMessage `json:"icons,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// Resource is the resource an embedded "resource" [Item] holds:
// its text, or its bytes (Blob, base64 in JSON).
type Resource struct {
	URI      string          `json:"uri"`
	MIMEType string          `json:"mimeType,omitempty"`
	Text     string          `json:"text,omitempty"`
	Blob     []byte          `json:"blob,omitempty"`
	Meta     json.RawMessage `json:"_meta,omitempty"`
}

type contentKey struct{}

// contentSink is where the content of the calls of one context goes.
type contentSink struct {
	mu  sync.Mutex
	dst *[]Item
}

// With returns a context whose calls append the content of their
// answers to *dst: the calls of a typed client through a Caller that knows
// content (runtime.Local of an mcpbridge.Tool, which puts every content
// item of the MCP result there, in order, text included), and the tools a
// server calls (mcpbridge's server answers a call with the content its tool
// put there, as it came, instead of the result's JSON as text). A nil dst
// stops the content of an outer With from reaching its
// destination: a tool that calls another one with its own context passes
// that call's content on to its caller unless it does so.
//
// The destination may take the content of several calls, also concurrent
// ones; read it after they have returned.
func With(ctx context.Context, dst *[]Item) context.Context {
	if dst == nil {
		return context.WithValue(ctx, contentKey{}, (*contentSink)(nil))
	}
	return context.WithValue(ctx, contentKey{}, &contentSink{dst: dst})
}

// Wanted reports whether ctx has a destination for content
// ([With]): a Caller or Tool that has content to give checks it
// before converting any.
func Wanted(ctx context.Context) bool {
	s, _ := ctx.Value(contentKey{}).(*contentSink)
	return s != nil
}

// Add appends content to the destination of ctx ([With]) and
// reports whether there is one.
func Add(ctx context.Context, content ...Item) bool {
	s, _ := ctx.Value(contentKey{}).(*contentSink)
	if s == nil {
		return false
	}
	s.mu.Lock()
	*s.dst = append(*s.dst, content...)
	s.mu.Unlock()
	return true
}

// Progress is a progress notification of a call under way (MCP's
// notifications/progress): Progress increases with each; Total, when not
// zero, is what Progress reaches at the end; Message says what is being
// done.
type Progress struct {
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"`
	Message  string  `json:"message,omitempty"`
}

type progressKey struct{}

// WithProgress returns a context whose calls report their progress to fn:
// a typed client's calls, and its streaming calls (the generated FSeq
// iterators and StreamCall), through a Caller that knows progress
// (runtime.Local of an mcpbridge.Tool asks the MCP server for progress
// notifications and hands them to fn), and the tools a server calls
// (mcpbridge's server sends what a tool reports with [ReportProgress] to a
// client that asked for progress). fn may be called from another goroutine
// than the call's, one notification at a time, and not after the call has
// returned; a nil fn stops an outer WithProgress.
func WithProgress(ctx context.Context, fn func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// WantsProgress reports whether ctx has a progress function
// ([WithProgress]).
func WantsProgress(ctx context.Context) bool {
	fn, _ := ctx.Value(progressKey{}).(func(Progress))
	return fn != nil
}

// ReportProgress hands p to the progress function of ctx ([WithProgress])
// and reports whether there is one: what a tool calls to say how far it is.
func ReportProgress(ctx context.Context, p Progress) bool {
	fn, _ := ctx.Value(progressKey{}).(func(Progress))
	if fn == nil {
		return false
	}
	fn(p)
	return true
}
