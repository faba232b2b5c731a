package openapi

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// The events an API sends: OpenAPI 3.1 webhooks (keyed by name) and the
// callbacks of operations (keyed by name, then by a URL expression the
// subscriber fills). Each operation of theirs is a model.Webhook: the
// receiver's method takes its event type, the struct of the headers it
// declares as parameters and of its body, decoded and checked as arguments
// are. Parameters in the path, query or cookie of a callback URL are the
// subscriber's own and left out.

// signatureExt is the extension that names a webhook's signature scheme,
// on the document, a webhook's (or callback's) path item or its operation:
// standard, github, stripe or none.
const signatureExt = "x-webhook-signature"

// signatureHeaders are the headers whose declaration as a parameter names
// the scheme, when no extension does.
var signatureHeaders = map[string]string{
	"webhook-signature":   "standard",
	"x-hub-signature-256": "github",
	"stripe-signature":    "stripe",
}

// webhooks builds the document's webhooks, then the callbacks of its
// operations, in document order.
func (b *oaBuilder) webhooks() {
	var names unique
	root := oaLoc{file: b.root}
	if len(b.doc.Webhooks) > 0 {
		loc := root.add("webhooks")
		for _, k := range b.ordered(loc, sortedKeysOf(b.doc.Webhooks)) {
			if item := b.doc.Webhooks[k]; item != nil {
				b.eventItem(k, "", "", item, loc.add(k), &names)
			}
		}
	}
	if b.doc.Paths == nil {
		return
	}
	ploc := root.add("paths")
	for _, p := range b.ordered(ploc, b.doc.Paths.Keys()) {
		item := b.doc.Paths.Value(p)
		if item == nil {
			continue
		}
		for _, m := range itemMethods(item) {
			op := item.GetOperation(strings.ToUpper(m))
			if op == nil || len(op.Callbacks) == 0 {
				continue
			}
			cloc := ploc.add(p, m, "callbacks")
			owner := wireName(op.OperationID, strings.ToUpper(m), p)
			for _, cb := range b.ordered(cloc, sortedKeysOf(op.Callbacks)) {
				ref := op.Callbacks[cb]
				if ref == nil || ref.Value == nil {
					continue
				}
				exprs := ref.Value.Map()
				for _, expr := range b.ordered(cloc.add(cb), sortedKeysOf(exprs)) {
					if item := exprs[expr]; item != nil {
						b.eventItem(cb, owner, expr, item, cloc.add(cb, expr), &names)
					}
				}
			}
		}
	}
}

// itemMethods are the methods of item's operations, lower case, in the
// order of httpMethods.
func itemMethods(item *openapi3.PathItem) []string {
	var out []string
	for _, m := range httpMethods {
		if item.GetOperation(strings.ToUpper(m)) != nil {
			out = append(out, m)
		}
	}
	return out
}

// eventItem builds the events of the path item of a webhook or callback
// named name: one per operation, named name, or name.method when it has
// several.
func (b *oaBuilder) eventItem(name, callback, expr string, item *openapi3.PathItem, loc oaLoc, names *unique) {
	methods := itemMethods(item)
	for _, m := range methods {
		ev := name
		if len(methods) > 1 {
			ev += "." + m
		}
		b.event(names.name(eventName(ev)), callback, expr, strings.ToUpper(m), item, item.GetOperation(strings.ToUpper(m)), loc.add(m))
	}
}

// eventName is an event's name as a path segment: letters, digits and
// -_. kept, other runs of characters one _, at most 50 bytes.
func eventName(s string) string {
	var out strings.Builder
	under := false
	for _, r := range s {
		if r < 128 && (model.IsLetterOrDigit(r) || r == '-' || r == '.') || r == '_' {
			out.WriteRune(r)
			under = r == '_'
		} else if !under && out.Len() > 0 {
			out.WriteByte('_')
			under = true
		}
	}
	n := strings.Trim(out.String(), "_")
	if len(n) > 50 { // wait_ and a number keep a wait function's name within 64
		n = n[:50]
	}
	if n == "" {
		n = "event"
	}
	return n
}

// event builds one event: the operation op (at loc) of the path item of
// the webhook or callback.
func (b *oaBuilder) event(name, callback, expr, method string, item *openapi3.PathItem, op *openapi3.Operation, loc oaLoc) {
	fn := &model.Function{Name: name, Doc: op.Summary}
	if op.Description != "" && op.Description != op.Summary {
		fn.Doc = model.JoinDoc(fn.Doc, op.Description)
	}
	fn.HTTP = &model.Operation{Method: method, Path: expr}
	w := &model.Webhook{Name: name, Fn: fn, Callback: callback}
	word := op.OperationID
	if word == "" {
		word = name
	}
	b.naming.Webhook(w, word) // before its fields' types, named after it
	dfn := document.Function{Name: name}
	a := &opArgs{args: &model.Type{Kind: model.KindStruct}, dfn: &dfn, names: map[string]bool{}}
	params, _ := opParams(item, op, loc)
	var headers []string
	for _, pp := range params {
		if !strings.EqualFold(pp.p.In, "header") {
			b.warn(pp.loc, "a webhook parameter in %q is not received: left out", source.ClipValue(pp.p.In))
			continue
		}
		headers = append(headers, strings.ToLower(pp.p.Name))
		b.parameter(fn, "", pp, a)
	}
	if rb := op.RequestBody; rb != nil && rb.Value != nil {
		b.eventBody(fn, rb.Value, loc.add("requestBody"), a)
	}
	if len(a.args.Fields) > 0 {
		fn.Args = a.args
		b.pkg.Types = append(b.pkg.Types, a.args)
	}
	w.Schema = &document.Schema{Type: document.TypeObject}
	for _, prm := range dfn.Parameters {
		s := document.Schema{}
		if prm.Schema != nil {
			s = *prm.Schema
		}
		if prm.Description != "" && s.Description == "" && s.Ref == "" {
			s.Description = prm.Description
		}
		w.Schema.Properties = append(w.Schema.Properties, document.NamedSchema{Name: prm.Name, Schema: &s})
		if prm.Required {
			w.Schema.Required = append(w.Schema.Required, prm.Name)
		}
	}
	w.Scheme = b.signatureScheme(loc, headers, op.Extensions, item.Extensions, b.doc.Extensions)
	w.Status = successStatus(op)
	b.pkg.Webhooks = append(b.pkg.Webhooks, w)
}

// eventBody adds the body of an event: one field, of the schema of its JSON
// (else text, else binary) media type.
func (b *oaBuilder) eventBody(fn *model.Function, rb *openapi3.RequestBody, loc oaLoc, a *opArgs) {
	mt, media := pickMedia(rb.Content)
	if media == nil {
		return
	}
	switch model.MediaKind(mt) {
	case "json", "text", "binary":
	default:
		b.warn(loc.add("content", mt), "a webhook body of type %q is not received: its body is left out", source.ClipValue(mt))
		return
	}
	fn.HTTP.BodyMedia, fn.HTTP.BodyRequired = mt, rb.Required
	mloc := loc.add("content", mt, "schema")
	if sr := media.Schema; model.MediaKind(mt) == "text" && sr != nil && sr.Value != nil && sr.Value.Type.Is(openapi3.TypeString) {
		// Text checked against its schema (a request's text body is not).
		f := &model.Field{JSONName: a.name("body", model.InBody), Required: rb.Required}
		b.naming.Body(a.args, f)
		pt := b.conv(sr, mloc, model.BodyPlace(fn))
		f.Doc = model.JoinDoc(rb.Description, pt.note)
		b.setNullable(f, pt)
		f.HTTP = &model.FieldHTTP{In: model.InBody, Name: mt}
		a.add(f, pt, rb.Description)
		return
	}
	b.wholeBody(fn, rb, mt, media.Schema, mloc, a)
}

// signatureScheme is the scheme an event's signature is in: the first
// extension that names one (the operation's, its path item's, the
// document's), else the scheme of a signature header it declares, else
// standard.
func (b *oaBuilder) signatureScheme(loc oaLoc, headers []string, exts ...map[string]any) string {
	for _, ext := range exts {
		v, ok := ext[signatureExt]
		if !ok {
			continue
		}
		s, _ := v.(string)
		switch s = strings.ToLower(s); s {
		case "standard", "github", "stripe", "none":
			return s
		}
		b.warn(loc, "%s is %q, want standard, github, stripe or none: standard is used", signatureExt, source.ClipValue(fmt.Sprint(v)))
		return "standard"
	}
	for _, h := range headers {
		if s, ok := signatureHeaders[h]; ok {
			return s
		}
	}
	return "standard"
}

// successStatus is the first 2xx status op documents, 0 for none.
func successStatus(op *openapi3.Operation) int {
	if op.Responses == nil {
		return 0
	}
	keys := op.Responses.Keys()
	sort.Strings(keys)
	for _, k := range keys {
		if n, err := strconv.Atoi(k); err == nil && n >= 200 && n <= 299 {
			return n
		}
	}
	return 0
}

// walkCallback checks the path items of the callback n at ptr (unused
// $refs among a map of callbacks were dropped before: unusedRefs).
func (c *checker) walkCallback(file, ptr string, n *jsontree.Node) {
	for _, m := range n.Members {
		if !strings.HasPrefix(m.Key, "x-") {
			c.walk(file, ptr+jsontree.Pointer(m.Key), m.Value, shPathItem)
		}
	}
}
