package openapi

import (
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// streamResponse makes fn a streaming function when the success response r
// can be read as a stream (Server-Sent Events, NDJSON: model.StreamKind),
// preferred over the other media types it offers; it reports whether it did.
// Each event is a value of the media type's schema: JSON, or for SSE without
// a schema or with a plain string one, the event's data as text. A second
// streamed success response is read as the first.
func (b *oaBuilder) streamResponse(fn *model.Function, r *model.Response, content openapi3.Content, loc oaLoc, status string, dfn *document.Function) bool {
	var mt string
	for _, k := range sortedKeysOf(content) {
		if model.StreamKind(k) != "" && content[k] != nil {
			mt = k
			break
		}
	}
	if mt == "" {
		return false
	}
	kind := model.StreamKind(mt)
	if fn.Stream {
		r.Type, r.Media = fn.Result, model.StreamKind(fn.HTTP.StreamMedia)
		return true
	}
	if fn.Result != nil {
		return false // a success response that is not a stream came first
	}
	// The schema of each item: OpenAPI 3.2's itemSchema (for SSE, an event
	// whole), else the schema (in 3.2, of the whole stream as an array).
	media := content[mt]
	sr, sloc := media.Schema, loc.add("content", mt, "schema")
	events := false
	switch {
	case media.ItemSchema != nil:
		sr, sloc = media.ItemSchema, loc.add("content", mt, "itemSchema")
		events = kind == "sse"
	case sr != nil && sr.Value != nil && strings.HasPrefix(b.doc.OpenAPI, "3.2") && sr.Value.Type.Is(openapi3.TypeArray) && sr.Value.Items != nil:
		sr, sloc = sr.Value.Items, sloc.add("items")
		events = kind == "sse"
	case kind == "sse" && sr != nil && sr.Value != nil && isEventMap(sr.Value, 0):
		events = true // event names mapped to shapes, as OpenAI's documents do
	}
	var pt *oaType
	if kind == "sse" && !events && (sr == nil || sr.Value != nil && sr.Value.Type.Is(openapi3.TypeString) && sr.Value.Format == "" && len(sr.Value.Enum) == 0) {
		pt = &oaType{ref: &model.TypeRef{Kind: model.RefString}, schema: &document.Schema{Type: document.TypeString}}
	} else {
		pt = b.conv(sr, sloc, model.ResponsePlace(fn, status, true))
	}
	if events {
		b.eventTypes(sr, pt.ref, sloc, map[*model.Type]bool{})
	}
	fn.Stream = true
	fn.Result = pt.ref
	fn.HTTP.StreamMedia = mt
	fn.HTTP.StreamEvents = events
	r.Type, r.Media = pt.ref, kind
	if !pt.object {
		fn.ResultName = "result"
	}
	doc := r.Doc
	switch {
	case events:
		doc = model.JoinDoc(doc, "One value per event of the "+mt+" response: the event whole, its name, data, id and retry.")
	case kind == "sse":
		doc = model.JoinDoc(doc, "One value per event of the "+mt+" response.")
	default:
		doc = model.JoinDoc(doc, "One value per line of the "+mt+" response.")
	}
	dfn.Stream = map[string]*document.Return{"data": {Name: "result", Description: doc, Schema: pt.schema}}
	return true
}

// The members of a Server-Sent Event, as OpenAPI 3.2 models one.
var eventMembers = map[string]bool{"event": true, "data": true, "id": true, "retry": true}

// isEventSchema reports whether s is a Server-Sent Event: an object with a
// data member and no member an event does not have.
func isEventSchema(s *openapi3.Schema) bool {
	if s == nil || s.Properties["data"] == nil {
		return false
	}
	for k := range s.Properties {
		if !eventMembers[k] {
			return false
		}
	}
	return true
}

// eventNames are the names of the events an event schema stands for: the
// const or enum of its event member; nil when it names none.
func eventNames(s *openapi3.Schema) []string {
	p := s.Properties["event"]
	if p == nil || p.Value == nil {
		return nil
	}
	if c, ok := p.Value.Const.(string); ok {
		return []string{c}
	}
	var out []string
	for _, e := range p.Value.Enum {
		str, ok := e.(string)
		if !ok {
			return nil
		}
		out = append(out, str)
	}
	return out
}

// alternatives are the alternatives of a oneOf (else anyOf) schema, null
// left out as union leaves it out, and the keyword.
func alternatives(s *openapi3.Schema) ([]*openapi3.SchemaRef, []int, string) {
	key, alts := "oneOf", s.OneOf
	if len(alts) == 0 {
		key, alts = "anyOf", s.AnyOf
	}
	var out []*openapi3.SchemaRef
	var at []int
	for i, a := range alts {
		if a != nil && a.Value != nil && a.Value.Type != nil && len(*a.Value.Type) == 1 && (*a.Value.Type)[0] == openapi3.TypeNull {
			continue
		}
		out, at = append(out, a), append(at, i)
	}
	return out, at, key
}

// isEventMap reports whether s maps the names of Server-Sent Events to
// their shapes: a oneOf or anyOf whose every alternative is an event schema
// that names its events, or such a map.
func isEventMap(s *openapi3.Schema, depth int) bool {
	alts, _, _ := alternatives(s)
	if len(alts) == 0 || depth > 8 {
		return false
	}
	for _, a := range alts {
		if a == nil || a.Value == nil {
			return false
		}
		if !(isEventSchema(a.Value) && len(eventNames(a.Value)) > 0) && !isEventMap(a.Value, depth+1) {
			return false
		}
	}
	return true
}

// eventTypes prepares the types of the items of a text/event-stream
// response read whole (Operation.StreamEvents), which the runtime gives as
// {"event", "data", "id", "retry"}, data a string: a data member that is
// not text holds its value's JSON text (Field.JSONText), the type of an
// OpenAPI 3.2 contentSchema when the document gives one; a union whose
// variants each name their events is picked by the event's name (the
// discriminator "event") unless the document says otherwise. It returns
// the names of the events the type stands for, nil when it does not name
// them.
func (b *oaBuilder) eventTypes(sr *openapi3.SchemaRef, ref *model.TypeRef, loc oaLoc, seen map[*model.Type]bool) []string {
	if sr == nil || sr.Value == nil || ref == nil || ref.Kind != model.RefNamed {
		return nil
	}
	t := ref.Named
	for i := 0; t.Kind == model.KindAlias && t.Underlying != nil && t.Underlying.Kind == model.RefNamed && i < 100; i++ {
		t = t.Underlying.Named
	}
	if seen[t] {
		return nil
	}
	seen[t] = true
	s := sr.Value
	switch t.Kind {
	case model.KindStruct:
		if !isEventSchema(s) {
			return nil
		}
		for _, f := range t.Fields {
			if f.JSONName != "data" {
				continue
			}
			if p := s.Properties["data"]; p != nil && p.Value != nil && p.Value.ContentSchema != nil && model.MediaKind(p.Value.ContentMediaType) == "json" {
				pt := b.conv(p.Value.ContentSchema, loc.add("properties", "data", "contentSchema"), model.MemberPlace(t, f))
				b.setNullable(f, pt)
				if ds := b.docSchemaOf(sr); ds != nil {
					for i, m := range ds.Properties {
						if m.Name == "data" {
							ds.Properties[i].Schema = pt.schema
						}
					}
				}
			}
			if !isText(f.Type) {
				f.JSONText, t.CustomJSON = true, true
			}
		}
		return eventNames(s)
	case model.KindUnion:
		alts, at, key := alternatives(s)
		if len(alts) != len(t.Variants) {
			return nil
		}
		tags := make([][]string, len(alts))
		var all []string
		named := map[string]bool{}
		complete := true // every variant names its events, none another's
		for i, a := range alts {
			tags[i] = b.eventTypes(a, t.Variants[i].Type, loc.add(key, strconv.Itoa(at[i])), seen)
			complete = complete && len(tags[i]) > 0
			for _, n := range tags[i] {
				complete = complete && !named[n]
				named[n] = true
			}
			all = append(all, tags[i]...)
		}
		if !complete {
			return nil // the variants are tried in turn
		}
		if t.Discriminator != "" {
			return all
		}
		t.Discriminator = "event"
		ds := b.docSchemaOf(sr)
		for i, v := range t.Variants {
			v.Tags = append([]string(nil), tags[i]...)
			sort.Strings(v.Tags)
			if ds != nil && i < len(ds.OneOf) {
				ds.OneOf[i] = b.tagged(ds.OneOf[i], "event", v.Tags)
			} else if ds != nil && i < len(ds.AnyOf) {
				ds.AnyOf[i] = b.tagged(ds.AnyOf[i], "event", v.Tags)
			}
		}
		if ds != nil {
			ds.Description = model.JoinDoc(ds.Description, "The event's name (the member \"event\") tells which variant it is.")
		}
		return all
	}
	return nil
}
