package openapi

import (
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/runtime"
)

func (b *oaBuilder) requestBody(fn *model.Function, rb *openapi3.RequestBody, loc oaLoc, args *model.Type, argName func(n string, in model.In) string, addField func(*model.Field, *oaType, string)) {
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
	whole := func() {
		f := &model.Field{JSONName: argName("body", model.InBody), Required: rb.Required}
		b.naming.Body(args, f)
		var pt *oaType
		switch kind {
		case "binary":
			pt = &oaType{ref: &model.TypeRef{Kind: model.RefBytes}, schema: &runtime.Schema{Type: runtime.TypeString, Format: "byte"}}
		case "text":
			pt = &oaType{ref: &model.TypeRef{Kind: model.RefString}, schema: &runtime.Schema{Type: runtime.TypeString}}
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
		addField(f, pt, doc)
	}
	if kind == "binary" || kind == "text" || sr == nil || sr.Value == nil {
		whole()
		return
	}
	// The members of an object body, after merging allOf.
	var m objectMembers
	var collect func(sr *openapi3.SchemaRef, l oaLoc, depth int) bool
	collect = func(sr *openapi3.SchemaRef, l oaLoc, depth int) bool {
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
			if !collect(part, l.add("allOf", strconv.Itoa(i)), depth+1) {
				return false
			}
		}
		if len(v.Properties) > 0 || len(v.Required) > 0 { // a part may only require
			m.schemas = append(m.schemas, v)
			m.locs = append(m.locs, l)
		}
		return true
	}
	if !collect(sr, mloc, 0) || !m.hasProperties() {
		if kind == "json" {
			whole()
		} else {
			b.warn(mloc, "%s %s body must be an object with properties: the body is left out", indefinite(mt), mt)
		}
		return
	}
	type member struct {
		name string
		sr   *openapi3.SchemaRef
		loc  oaLoc
		req  bool
	}
	var members []member
	seen := map[string]bool{}
	required := map[string]bool{}
	for _, s := range m.schemas {
		for _, r := range s.Required {
			required[r] = true
		}
	}
	collide := false
	for i, s := range m.schemas {
		keys := make([]string, 0, len(s.Properties))
		for k := range s.Properties {
			keys = append(keys, k)
		}
		ploc := m.locs[i].add("properties")
		for _, k := range b.ordered(ploc, keys) {
			if seen[k] {
				continue
			}
			seen[k] = true
			if s.Properties[k] != nil && s.Properties[k].Value != nil && s.Properties[k].Value.ReadOnly {
				continue // never sent
			}
			members = append(members, member{k, s.Properties[k], ploc.add(k), required[k]})
			for _, f := range args.Fields {
				if f.JSONName == k {
					collide = true
				}
			}
		}
	}
	if collide && kind == "json" {
		whole()
		return
	}
	for _, u := range b.undeclared(m, seen) {
		members = append(members, member{u.name, anySchema(), u.loc, true})
	}
	for _, mb := range members {
		// A required member is a required argument even when the document
		// does not mark the body required (often forgotten, and never set
		// for Swagger 2.0 form parameters).
		f := &model.Field{JSONName: argName(mb.name, "body"), Required: mb.req}
		b.naming.Member(args, f)
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
		addField(f, pt, desc)
	}
}

// responses reads the documented responses: the success type is the result,
// the others become typed errors.
