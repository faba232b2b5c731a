package openapi

import (
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// objectMembers are the schemas whose properties make one struct (one
// schema, or the parts of an allOf), with their places.
type objectMembers struct {
	schemas []*openapi3.Schema
	locs    []oaLoc
}

// pathTemplateNames returns the names in braces in the path template p, in
// order, once each.
func pathTemplateNames(p string) []string {
	var out []string
	for {
		i := strings.IndexByte(p, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(p[i:], '}')
		if j < 0 {
			return out
		}
		if name := p[i+1 : i+j]; name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
		p = p[i+j+1:]
	}
}

// hasProperties reports whether any of the schemas declares properties.
func (m objectMembers) hasProperties() bool {
	for _, s := range m.schemas {
		if len(s.Properties) > 0 {
			return true
		}
	}
	return false
}

// property is a property of the schemas of an object, with its place and
// whether one of them requires it.
type property struct {
	name     string
	sr       *openapi3.SchemaRef
	loc      oaLoc
	required bool
}

// properties returns the properties the schemas of m declare, in document
// order, each once (the first schema that declares it gives its schema), and
// their names (seen).
func (b *oaBuilder) properties(m objectMembers) (props []property, seen map[string]bool) {
	seen = map[string]bool{}
	required := map[string]bool{}
	for _, s := range m.schemas {
		for _, r := range s.Required {
			required[r] = true
		}
	}
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
			props = append(props, property{k, s.Properties[k], ploc.add(k), required[k]})
		}
	}
	return props, seen
}

// undeclaredMember is a member that a schema requires and none declares.
type undeclaredMember struct {
	name string
	loc  oaLoc // of the name in the required list
}

// undeclared returns the members the schemas require that are not among
// their properties (declared), in order, with a warning for each: they are
// kept, with any JSON value, since a request without them is refused.
func (b *oaBuilder) undeclared(m objectMembers, declared map[string]bool) []undeclaredMember {
	var out []undeclaredMember
	done := map[string]bool{}
	for i, s := range m.schemas {
		for j, r := range s.Required {
			if declared[r] || done[r] {
				continue
			}
			done[r] = true
			l := m.locs[i].add("required", strconv.Itoa(j))
			b.warn(l, "the member %q is required but not among the properties: it takes any JSON value", source.ClipValue(r))
			out = append(out, undeclaredMember{r, l})
		}
	}
	return out
}

// anySchema is the schema of any JSON value.
func anySchema() *openapi3.SchemaRef { return &openapi3.SchemaRef{Value: &openapi3.Schema{}} }

// inlineType returns self, or when it is nil a new type for the schema s at
// a place.
func (b *oaBuilder) inlineType(s *openapi3.Schema, at *model.Place, self *model.Type) *model.Type {
	if self != nil {
		return self
	}
	t := &model.Type{Doc: schemaDoc(s)}
	if s.Title != "" {
		b.titles[t] = s.Title
	}
	b.naming.Type(t, at)
	b.pkg.Types = append(b.pkg.Types, t)
	return t
}

// object makes a struct of the properties of members.
func (b *oaBuilder) object(s *openapi3.Schema, loc oaLoc, at *model.Place, self *model.Type, nullable bool, ds *document.Schema, members objectMembers) *oaType {
	t := b.inlineType(s, at, self)
	t.Kind = model.KindStruct
	ds.Type = openapi3.TypeObject
	ot := &oaType{ref: &model.TypeRef{Kind: model.RefNamed, Named: t}, schema: ds, nullable: nullable, object: true}
	if self == nil {
		b.inline[s] = ot // before the fields: a recursive inline schema ends here
		defer b.enter(s, loc)()
	}
	saved := b.anon
	b.anon = 0 // a field's type starts a type expression
	defer func() { b.anon = saved }()
	props, seen := b.properties(members)
	for _, pr := range props {
		k, p := pr.name, pr.sr
		f := &model.Field{JSONName: k, Required: pr.required}
		b.naming.Member(t, f)
		pt := b.conv(p, pr.loc, model.MemberPlace(t, f))
		if p != nil && p.Value != nil {
			f.WriteOnly = f.Required && p.Value.WriteOnly
			f.Doc = schemaDoc(p.Value)
			if p.Ref != "" && f.Doc == schemaDoc(p.Value) {
				f.Doc = "" // the type's doc says it
			}
		}
		f.Doc = model.JoinDoc(f.Doc, pt.note)
		b.setNullable(f, pt)
		t.Fields = append(t.Fields, f)
		ds.Properties = append(ds.Properties, document.NamedSchema{Name: k, Schema: pt.schema})
		if f.Required {
			ds.Required = append(ds.Required, k)
		}
	}
	for _, u := range b.undeclared(members, seen) {
		f := &model.Field{JSONName: u.name, Required: true}
		b.naming.Member(t, f)
		pt := b.conv(anySchema(), u.loc, model.MemberPlace(t, f))
		b.setNullable(f, pt)
		t.Fields = append(t.Fields, f)
		ds.Properties = append(ds.Properties, document.NamedSchema{Name: u.name, Schema: pt.schema})
		ds.Required = append(ds.Required, u.name)
	}
	if ds.Properties == nil {
		ds.Properties = document.Schemas{}
	}
	if ap := s.AdditionalProperties; ap.Schema != nil || ap.Has != nil && *ap.Has {
		t.Doc = model.JoinDoc(t.Doc, "Members other than the fields are not kept (additionalProperties).")
	}
	return ot
}

// setNullable sets a field's pointer-ness from its type.
func (b *oaBuilder) setNullable(f *model.Field, pt *oaType) {
	f.Type = pt.ref
	f.Nullable = pt.nullable
}
