package openapi

import (
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// requestBody adds the arguments of the request body: the members of an
// object body as arguments of their own, else one argument for the body.
func (b *oaBuilder) requestBody(fn *model.Function, rb *openapi3.RequestBody, loc oaLoc, a *opArgs) {
	mt, media := pickMedia(rb.Content)
	if media == nil {
		return
	}
	hop := fn.HTTP
	hop.BodyMedia = mt
	hop.BodyRequired = rb.Required
	kind := model.MediaKind(mt)
	mloc := loc.add("content", mt, "schema")
	sr := media.Schema
	if kind == "binary" || kind == "text" || sr == nil || sr.Value == nil {
		b.wholeBody(fn, rb, mt, sr, mloc, a)
		return
	}
	// The members of an object body, after merging allOf.
	var m objectMembers
	if !b.bodyObject(&m, sr, mloc, 0) || !m.hasProperties() {
		if kind == "json" {
			b.wholeBody(fn, rb, mt, sr, mloc, a)
		} else {
			b.warn(mloc, "%s %s body must be an object with properties: the body is left out", indefinite(mt), mt)
		}
		return
	}
	members, seen, collide := b.bodyMembers(m, a.args)
	if collide && kind == "json" {
		b.wholeBody(fn, rb, mt, sr, mloc, a)
		return
	}
	for _, u := range b.undeclared(m, seen) {
		members = append(members, property{u.name, anySchema(), u.loc, true})
	}
	if kind == "json" && sr.Ref != "" && b.embedBody(fn, sr, mloc, members, a) {
		return
	}
	for _, mb := range members {
		b.bodyMemberArg(fn, media, mb, a)
	}
}

// wholeBody adds one argument for the whole request body rb, of media type
// mt and schema sr (at mloc).
func (b *oaBuilder) wholeBody(fn *model.Function, rb *openapi3.RequestBody, mt string, sr *openapi3.SchemaRef, mloc oaLoc, a *opArgs) {
	f := &model.Field{JSONName: a.name("body", model.InBody), Required: rb.Required}
	b.naming.Body(a.args, f)
	var pt *oaType
	switch model.MediaKind(mt) {
	case "binary":
		pt = &oaType{ref: &model.TypeRef{Kind: model.RefBytes}, schema: &document.Schema{Type: document.TypeString, Format: "byte"}}
	case "text":
		pt = &oaType{ref: &model.TypeRef{Kind: model.RefString}, schema: &document.Schema{Type: document.TypeString}}
	default:
		pt = b.conv(sr, mloc, model.BodyPlace(fn))
	}
	f.Doc = model.JoinDoc(rb.Description, pt.note)
	b.setNullable(f, pt)
	f.HTTP = &model.FieldHTTP{In: model.InBody, Name: mt}
	doc := rb.Description
	if doc == "" {
		doc = "The request body (" + mt + ")."
	}
	a.add(f, pt, doc)
}

// bodyObject adds to m the object schema sr (at l) and the parts of its
// allOf, and reports whether they all are plain objects whose members can
// be arguments.
func (b *oaBuilder) bodyObject(m *objectMembers, sr *openapi3.SchemaRef, l oaLoc, depth int) bool {
	if sr == nil || sr.Value == nil || depth > 32 {
		return false
	}
	if sr.Ref != "" {
		_, l = b.refKey(sr)
	}
	v := sr.Value
	if len(v.OneOf) > 0 || len(v.AnyOf) > 0 || v.Nullable || v.AdditionalProperties.Schema != nil {
		return false
	}
	if v.Type != nil && !v.Type.Is(openapi3.TypeObject) {
		return false
	}
	for i, part := range v.AllOf {
		if !b.bodyObject(m, part, l.add("allOf", strconv.Itoa(i)), depth+1) {
			return false
		}
	}
	if len(v.Properties) > 0 || len(v.Required) > 0 { // a part may only require
		m.schemas = append(m.schemas, v)
		m.locs = append(m.locs, l)
	}
	return true
}

// bodyMembers returns the members of the object body m that are sent, in
// order, the names of all its properties (seen), and whether a member has
// the name of an argument in args already (collide).
func (b *oaBuilder) bodyMembers(m objectMembers, args *model.Type) (members []property, seen map[string]bool, collide bool) {
	props, seen := b.properties(m)
	for _, p := range props {
		if p.sr != nil && p.sr.Value != nil && p.sr.Value.ReadOnly {
			continue // never sent
		}
		members = append(members, p)
		for _, f := range args.Fields {
			if f.JSONName == p.name {
				collide = true
			}
		}
	}
	return members, seen, collide
}

// bodyMemberArg adds the argument of member mb of the request body media.
func (b *oaBuilder) bodyMemberArg(fn *model.Function, media *openapi3.MediaType, mb property, a *opArgs) {
	// A required member is a required argument even when the document
	// does not mark the body required (often forgotten, and never set
	// for Swagger 2.0 form parameters).
	f := &model.Field{JSONName: a.name(mb.name, "body"), Required: mb.required}
	b.naming.Member(a.args, f)
	pt := b.conv(mb.sr, mb.loc, model.BodyMemberPlace(fn, f, mb.name))
	if mb.sr != nil && mb.sr.Value != nil && mb.sr.Ref == "" {
		f.Doc = schemaDoc(mb.sr.Value)
	}
	desc := f.Doc
	f.Doc = model.JoinDoc(f.Doc, pt.note)
	b.setNullable(f, pt)
	h := &model.FieldHTTP{In: model.InBodyProp, Name: mb.name, Style: "form", Explode: true}
	if enc := media.Encoding[mb.name]; enc != nil {
		h.ContentType = enc.ContentType
		if enc.Style != "" {
			h.Style = enc.Style
		}
		if enc.Explode != nil {
			h.Explode = *enc.Explode
		}
		h.AllowReserved = enc.AllowReserved
	}
	f.HTTP = h
	a.add(f, pt, desc)
}

// embedBody makes the JSON object body whose schema is the component sr (at
// mloc) one embedded field of the arguments (model.Field.Embedded), when the
// component's struct holds exactly the members sent (members) and encoding/json
// can flatten it; and reports whether it did. The declaration still lists
// each member as an argument, with the schema the component gives it, so
// that the tool's arguments are the same either way; but the members' Go
// fields, their decoder and the statements that send them are the
// component's, once, rather than a copy in every operation that sends it.
func (b *oaBuilder) embedBody(fn *model.Function, sr *openapi3.SchemaRef, mloc oaLoc, members []property, a *opArgs) bool {
	pt := b.conv(sr, mloc, model.BodyPlace(fn))
	if pt.nullable || pt.ref.Kind != model.RefNamed {
		return false
	}
	t := pt.ref.Named
	n := b.byType[t]
	if n == nil || t.Kind != model.KindStruct || t.CustomJSON || n.schema == nil || len(t.Fields) != len(members) || len(n.schema.Properties) != len(members) {
		return false
	}
	for i, f := range t.Fields {
		if f.JSONName != members[i].name || n.schema.Properties[i].Name != f.JSONName || !model.ValidTagName(f.JSONName) || f.JSONText {
			return false
		}
	}
	for i, mb := range members {
		a.name(mb.name, "body")
		desc := ""
		if mb.sr != nil && mb.sr.Value != nil && mb.sr.Ref == "" {
			desc = schemaDoc(mb.sr.Value)
		}
		a.dfn.Parameters = append(a.dfn.Parameters, document.Parameter{Name: mb.name, Description: desc, Schema: n.schema.Properties[i].Schema, Required: mb.required})
	}
	if !b.bodies[t] {
		b.bodies[t] = true
		for _, f := range t.Fields {
			f.HTTP = &model.FieldHTTP{In: model.InBodyProp, Name: f.JSONName, Style: "form", Explode: true}
			if !f.Required && f.Nullable && f.Type.Kind != model.RefRaw {
				b.naming.NullFlag(t, f)
			}
		}
	}
	f := &model.Field{Embedded: true, Type: pt.ref, Required: true, HTTP: &model.FieldHTTP{In: model.InBodyMembers, Name: fn.HTTP.BodyMedia}}
	b.naming.Embed(a.args, f)
	a.args.Fields = append(a.args.Fields, f)
	return true
}
