package model

import (
	"strconv"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// Webhook is an event the API sends: an OpenAPI 3.1 webhook or a callback of
// an operation. The package's receiver (Package.Webhooks) has one method per
// event, which takes the event's type: the headers it declares as
// parameters and its body, decoded and checked as arguments are.
type Webhook struct {
	// Name is the event's name and its path under the receiver's handler
	// ("/" + Name): a webhook's key, or a callback's name (with the method
	// when its path item has several operations).
	Name string
	// Fn carries the event as a function the receiver never calls: its
	// GoName is the receiver's method, its Doc the event's, its Args the
	// event's type (nil when the event has no header nor body), and HTTP
	// the method and, for a callback, the URL expression as its Path.
	Fn *Function
	// Callback is, for a callback, the wire name of the operation that
	// declares it ("" for a webhook).
	Callback string
	// Scheme is the signature scheme: standard, github, stripe or none.
	Scheme string
	// Schema is the JSON schema of the event's value (its type's), for the
	// wait functions of the tool (runtime/webhook.WaitTool).
	Schema *document.Schema
	// Status is the status of a success: the first 2xx the document gives
	// the event, 0 for none (the receiver answers 204).
	Status int
}

// Webhook asks for the names of w: its method on the receiver (from word)
// and its event type (when w.Fn.Args is set).
func (n *Naming) Webhook(w *Webhook, word string) {
	n.add(nameRequest{kind: nameWebhook, of: w, word: word})
}

// makeWebhookNames makes the names of w: the method in hooks, the event type
// in types.
func makeWebhookNames(types, hooks *Scope, w *Webhook, word string) {
	fn := w.Fn
	fn.GoName = hooks.Take(GoNameOr(word, "Event"))
	if t := fn.Args; t != nil {
		t.Name = types.Take(fn.GoName + "Event")
		kind := "the webhook "
		if w.Callback != "" {
			kind = "the callback "
		}
		t.Doc = t.Name + " is " + kind + strconv.Quote(w.Name) + ": the headers it declares and its body."
	}
}
