package openapi

import (
	"strconv"

	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// What OpenAPI 3.2 adds and the loader reads beyond what kin-openapi gives
// as 3.0/3.1 objects: the querystring parameter (here), the QUERY method
// and additionalOperations (operations in operations.go, which orders them),
// and the tags' summary, parent and kind (docTags), which kin-openapi's Tag
// does not keep and the loader reads from the source tree.

// querystringParam adds the argument of pp, a parameter "in": "querystring":
// one argument that is the whole query string, serialised per its content's
// media type: application/x-www-form-urlencoded (an object's members as
// form fields) or JSON (the value's JSON text, percent-encoded).
func (b *oaBuilder) querystringParam(fn *model.Function, pp opParam, a *opArgs) {
	prm := pp.p
	for _, f := range a.args.Fields {
		if f.HTTP != nil && f.HTTP.In == model.InQueryString {
			b.warn(pp.loc, "a second querystring parameter %q: an operation has one query string; left out", source.ClipValue(prm.Name))
			return
		}
	}
	mt, c := pickMedia(prm.Content)
	if c == nil || c.Schema == nil {
		b.warn(pp.loc, "the querystring parameter %q has no content with a schema (want application/x-www-form-urlencoded or JSON): left out", source.ClipValue(prm.Name))
		return
	}
	kind := model.MediaKind(mt)
	if kind != "form" && kind != "json" {
		b.warn(pp.loc.add("content", mt), "the querystring parameter %q has the media type %q, want application/x-www-form-urlencoded or JSON: left out", source.ClipValue(prm.Name), source.ClipValue(mt))
		return
	}
	f := &model.Field{JSONName: a.name(prm.Name, model.InQueryString), Required: prm.Required}
	b.naming.Param(a.args, f)
	pt := b.conv(c.Schema, pp.loc.add("content", mt, "schema"), model.ParamPlace(fn, f, prm.Name))
	if kind == "form" && !pt.object {
		// A form is name=value pairs: only an object's members make one.
		b.warn(pp.loc.add("content", mt, "schema"), "the querystring parameter %q is a form whose schema is not an object: left out", source.ClipValue(prm.Name))
		return
	}
	f.Doc = model.JoinDoc(prm.Description, pt.note)
	b.setNullable(f, pt)
	f.HTTP = &model.FieldHTTP{In: model.InQueryString, Name: prm.Name, JSON: kind == "json"}
	a.add(f, pt, prm.Description)
}

// docTags returns the document's tags as the OpenTool document keeps them,
// with OpenAPI 3.2's summary, parent and kind read from the source tree, in
// document order; nil when the document declares none.
func (b *oaBuilder) docTags() []document.Tag {
	var out []document.Tag
	loc := oaLoc{file: b.root}.add("tags")
	for i, t := range b.doc.Tags {
		if t == nil || t.Name == "" {
			continue
		}
		tag := document.Tag{Name: t.Name, Description: t.Description}
		if n := b.node(loc.add(strconv.Itoa(i))); n != nil && n.Kind == jsontree.Object {
			for _, m := range n.Members {
				if m.Value == nil || m.Value.Kind != jsontree.String {
					continue
				}
				switch m.Key {
				case "summary":
					tag.Summary = m.Value.Str
				case "parent":
					tag.Parent = m.Value.Str
				case "kind":
					tag.Kind = m.Value.Str
				}
			}
		}
		out = append(out, tag)
	}
	b.checkTagParents(out, loc)
	return out
}

// checkTagParents warns of a parent that names no tag and of parents that
// form a cycle, and drops those parents, so that the tags form a forest.
func (b *oaBuilder) checkTagParents(tags []document.Tag, loc oaLoc) {
	index := make(map[string]int, len(tags))
	for i, t := range tags {
		if _, ok := index[t.Name]; !ok {
			index[t.Name] = i
		}
	}
	for i := range tags {
		t := &tags[i]
		if t.Parent == "" {
			continue
		}
		if _, ok := index[t.Parent]; !ok {
			b.warn(loc.add(strconv.Itoa(i), "parent"), "tag %q has the parent %q, which no tag is: the parent is left out", source.ClipValue(t.Name), source.ClipValue(t.Parent))
			t.Parent = ""
			continue
		}
		// Follow the parents; coming back to t is a cycle.
		for p, steps := t.Parent, 0; p != "" && steps <= len(tags); steps++ {
			if p == t.Name {
				b.warn(loc.add(strconv.Itoa(i), "parent"), "tag %q is its own ancestor through its parent %q: the parent is left out", source.ClipValue(t.Name), source.ClipValue(t.Parent))
				t.Parent = ""
				break
			}
			j, ok := index[p]
			if !ok {
				break
			}
			p = tags[j].Parent
		}
	}
}
