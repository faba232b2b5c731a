package openapi

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// allOf merges the parts of an allOf (and the schema's own properties) into
// one struct.
func (b *oaBuilder) allOf(s *openapi3.Schema, loc oaLoc, at *model.Place, self *model.Type, nullable bool, ds *document.Schema) *oaType {
	var m objectMembers
	var add func(sr *openapi3.SchemaRef, l oaLoc, depth int) bool
	add = func(sr *openapi3.SchemaRef, l oaLoc, depth int) bool {
		if sr == nil || sr.Value == nil || depth > 32 {
			return false
		}
		if sr.Ref != "" {
			_, l = b.refKey(sr)
		}
		v := sr.Value
		for i, part := range v.AllOf {
			if !add(part, l.add("allOf", strconv.Itoa(i)), depth+1) {
				return false
			}
		}
		if len(v.OneOf) > 0 || len(v.AnyOf) > 0 {
			return false
		}
		if v.Type != nil && !v.Type.Is(openapi3.TypeObject) && !v.Type.Includes(openapi3.TypeObject) {
			return false
		}
		m.schemas = append(m.schemas, v)
		m.locs = append(m.locs, l)
		if ds.Description == "" {
			ds.Description = schemaDoc(v)
		}
		return true
	}
	ok := true
	for i, part := range s.AllOf {
		if !add(part, loc.add("allOf", strconv.Itoa(i)), 0) {
			ok = false
			break
		}
	}
	if ok {
		m.schemas = append(m.schemas, s)
		m.locs = append(m.locs, loc)
		return b.object(s, loc, at, self, nullable, ds, m)
	}
	note := "Untyped: the parts of this allOf are not all objects, so they cannot be merged."
	ds.Description = model.JoinDoc(ds.Description, note)
	return &oaType{ref: &model.TypeRef{Kind: model.RefRaw}, schema: ds, nullable: nullable, note: note}
}

// union makes a type of a oneOf or anyOf with several alternatives: a struct
// with one field per variant, decoded by discriminator or by trying each.
func (b *oaBuilder) union(s *openapi3.Schema, loc oaLoc, at *model.Place, self *model.Type, nullable bool, ds *document.Schema) *oaType {
	t := b.inlineType(s, at, self)
	t.Kind = model.KindUnion
	t.CustomJSON = true
	ot := &oaType{ref: &model.TypeRef{Kind: model.RefNamed, Named: t}, schema: ds, nullable: nullable}
	if self == nil {
		b.inline[s] = ot
		defer b.enter(s, loc)()
	}
	key, alts := "oneOf", s.OneOf
	if len(alts) == 0 {
		key, alts = "anyOf", s.AnyOf
	}
	saved := b.anon
	b.anon = 0 // a variant's type starts a type expression
	defer func() { b.anon = saved }()
	allObjects := true
	var docAlts []*document.Schema
	var varAlts []*openapi3.SchemaRef // the schema of each variant
	for i, a := range alts {
		if a != nil && a.Value != nil && a.Value.Type != nil && len(*a.Value.Type) == 1 && (*a.Value.Type)[0] == openapi3.TypeNull {
			continue
		}
		vt := b.conv(a, loc.add(key, strconv.Itoa(i)), model.VariantPlace(t, i+1))
		v := &model.Variant{Type: vt.ref}
		b.naming.Variant(t, v)
		if vt.ref.Kind == model.RefNamed {
			if n := b.namedOf(vt.ref.Named); n != nil {
				v.Tags = append(v.Tags, n.docName)
			}
		}
		allObjects = allObjects && vt.object
		t.Variants = append(t.Variants, v)
		varAlts = append(varAlts, a)
		docAlts = append(docAlts, vt.schema)
	}
	ot.object = allObjects
	if allObjects {
		ds.Type = document.TypeObject // for OpenTool readers that require a type
	}
	if key == "oneOf" {
		ds.OneOf = docAlts
	} else {
		ds.AnyOf = docAlts
	}
	if d := s.Discriminator; d != nil && d.PropertyName != "" {
		t.Discriminator = d.PropertyName
		shared := b.variantTags(t, varAlts, d, loc)
		for i, v := range t.Variants {
			// The document says which values of the member pick this
			// variant, so that a declaration made from it does too.
			docAlts[i] = b.tagged(docAlts[i], d.PropertyName, v.Tags)
		}
		if key == "oneOf" {
			ds.OneOf = docAlts
		} else {
			ds.AnyOf = docAlts
		}
		how := "The member " + strconv.Quote(d.PropertyName) + " tells which variant the value is."
		if shared {
			how = "The member " + strconv.Quote(d.PropertyName) + " tells which variant the value is; variants that share a value of it are told apart by their other members."
		}
		ds.Description = model.JoinDoc(ds.Description, how)
	}
	return ot
}

// variantTags sets the discriminator values that pick each variant of the
// union t (of schemas alts), which has discriminator d: the values its mapping
// gives a variant; for a variant it does not name, the values the variant's
// own schema pins its member to (an enum or a const, else a string default:
// Telegram's InlineQueryResultCachedAudio, "type" default "audio", which
// InlineQueryResultAudio is mapped from too), else its schema's name. A value
// the mapping gives a variant whose own schema excludes it can never pick it:
// a warning, and the variant is picked by its own values instead. Several
// variants may share a value: the decoder tries them in document order. It
// reports whether some do.
func (b *oaBuilder) variantTags(t *model.Type, alts []*openapi3.SchemaRef, d *openapi3.Discriminator, loc oaLoc) bool {
	prop := d.PropertyName
	mapped := make([]bool, len(t.Variants))
	var tags []string
	for k := range d.Mapping {
		tags = append(tags, k)
	}
	sort.Strings(tags)
	for _, tag := range tags {
		target := d.Mapping[tag].Ref
		name := target
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = pointerUnescaper.Replace(name[i+1:])
		}
		v, _ := b.mappedVariant(t, name)
		if v == nil {
			b.warn(loc.add("discriminator", "mapping", tag), "discriminator value %q maps to %q, which is not one of the variants", source.ClipValue(tag), source.ClipTo(target, 120))
			continue
		}
		i := slices.Index(t.Variants, v)
		if !mapped[i] {
			mapped[i] = true
			v.Tags = nil // an explicit mapping replaces the implicit value (the name)
		}
		if own := pinnedValues(discriminatorSchema(schemaOf(alts[i]), prop, 0)); own != nil && !slices.Contains(own, tag) {
			b.warn(loc.add("discriminator", "mapping", tag), "discriminator value %q maps to %q, whose %q is %s; the variant is picked by those values instead, in the decoder and the declarations",
				source.ClipValue(tag), source.ClipTo(target, 120), source.ClipValue(prop), valueList(own))
			continue
		}
		v.Tags = append(v.Tags, tag)
	}
	for i, v := range t.Variants {
		if mapped[i] && len(v.Tags) > 0 {
			continue
		}
		ps := discriminatorSchema(schemaOf(alts[i]), prop, 0)
		if own := pinnedValues(ps); own != nil {
			v.Tags = own
		} else if def, ok := ps.defaultString(); ok && !mapped[i] {
			v.Tags = []string{def}
		}
	}
	seen := map[string]bool{}
	shared := false
	for _, v := range t.Variants {
		for _, tag := range v.Tags {
			shared = shared || seen[tag]
			seen[tag] = true
		}
	}
	return shared
}

// maxDiscriminatorDepth bounds the search for a discriminator member through
// allOf parts.
const maxDiscriminatorDepth = 8

// discriminatorSchema returns the schema of the member prop of the object
// schema s, looked for in its properties and those of its allOf parts; a
// member's schema that only wraps another (allOf of one) is that other.
func discriminatorSchema(s *openapi3.Schema, prop string, depth int) *discSchema {
	if s == nil || depth > maxDiscriminatorDepth {
		return nil
	}
	if p := s.Properties[prop]; p != nil && p.Value != nil {
		ps := p.Value
		for k := 0; k < maxDiscriminatorDepth && len(ps.Enum) == 0 && ps.Const == nil && len(ps.AllOf) == 1 && ps.AllOf[0] != nil && ps.AllOf[0].Value != nil; k++ {
			ps = ps.AllOf[0].Value
		}
		return &discSchema{ps}
	}
	for _, a := range s.AllOf {
		if a != nil {
			if ps := discriminatorSchema(a.Value, prop, depth+1); ps != nil {
				return ps
			}
		}
	}
	return nil
}

// schemaOf returns the schema sr refers to, or nil.
func schemaOf(sr *openapi3.SchemaRef) *openapi3.Schema {
	if sr == nil {
		return nil
	}
	return sr.Value
}

// discSchema is the schema of a discriminator member.
type discSchema struct{ s *openapi3.Schema }

// defaultString returns the member's default when it is a string.
func (d *discSchema) defaultString() (string, bool) {
	if d == nil {
		return "", false
	}
	v, ok := d.s.Default.(string)
	return v, ok
}

// pinnedValues returns the string values a discriminator member's schema
// allows (its const or enum, in document order); nil when it does not list
// them.
func pinnedValues(d *discSchema) []string {
	if d == nil {
		return nil
	}
	var out []string
	if c, ok := d.s.Const.(string); ok {
		out = append(out, c)
	}
	for _, e := range d.s.Enum {
		if str, ok := e.(string); ok && !slices.Contains(out, str) {
			out = append(out, str)
		}
	}
	return out
}

// valueList quotes values for a message: at most four, then how many more.
func valueList(vals []string) string {
	var parts []string
	for i, v := range vals {
		if i == 4 {
			parts = append(parts, fmt.Sprintf("… (%d values)", len(vals)))
			break
		}
		parts = append(parts, strconv.Quote(source.ClipValue(v)))
	}
	if len(vals) == 1 {
		return parts[0]
	}
	return "one of " + strings.Join(parts, ", ")
}

// tagged returns the OpenTool schema of a variant of a discriminated union
// whose member prop takes one of tags: a copy of the variant's object schema
// (a reference resolved one level) with that member's values listed, or the
// schema itself when it is not an object with properties.
func (b *oaBuilder) tagged(alt *document.Schema, prop string, tags []string) *document.Schema {
	if len(tags) == 0 || alt == nil {
		return alt
	}
	base := alt
	if alt.Ref != "" {
		name, ok := document.RefName(alt.Ref)
		if !ok {
			return alt
		}
		base = nil
		for _, n := range b.namedList {
			if n.docName == name {
				base = n.schema
				break
			}
		}
	}
	if base == nil || base.Type != document.TypeObject || len(base.Properties) == 0 {
		return alt
	}
	enum := make([]any, len(tags))
	for i, tag := range tags {
		enum[i] = tag
	}
	cp := *base
	cp.Properties = append(document.Schemas(nil), base.Properties...)
	found := false
	for i, p := range cp.Properties {
		if p.Name == prop {
			ps := document.Schema{Type: document.TypeString}
			if p.Schema != nil && p.Schema.Ref == "" {
				ps = *p.Schema
			}
			ps.Enum = enum
			cp.Properties[i].Schema = &ps
			found = true
		}
	}
	if !found {
		cp.Properties = append(cp.Properties, document.NamedSchema{Name: prop, Schema: &document.Schema{Type: document.TypeString, Enum: enum}})
	}
	if !slices.Contains(cp.Required, prop) {
		cp.Required = append(append([]string(nil), cp.Required...), prop)
	}
	return &cp
}

// namedOf returns the named schema of a type, or nil.
func (b *oaBuilder) namedOf(t *model.Type) *oaNamed { return b.byType[t] }

// mappedVariant returns the variant of the union t whose schema a
// discriminator's mapping names (the last token of its reference, or a
// schema name), and that schema: the first whose name is the same, else the
// first whose name is the same but for case and punctuation ("pet_dog" for
// "PetDog"); nil when none is.
func (b *oaBuilder) mappedVariant(t *model.Type, name string) (*model.Variant, *oaNamed) {
	for _, exact := range []bool{true, false} {
		for _, v := range t.Variants {
			if v.Type.Kind != model.RefNamed {
				continue
			}
			n := b.namedOf(v.Type.Named)
			if n != nil && (n.docName == name || !exact && looseName(n.docName) == looseName(name)) {
				return v, n
			}
		}
	}
	return nil, nil
}

// looseName is a name's letters and digits, in lower case.
func looseName(s string) string {
	return strings.Map(func(r rune) rune {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// unique hands out document names (the OpenTool document's schema names,
// the functions' names on the wire) that differ from those it handed out
// before: a name handed out again gets the smallest number ≥ 2 that makes it
// new (pet, pet2); its zero value is ready to use.
type unique struct {
	used map[string]bool
	// next is, per name handed out more than once, the number to try first.
	next map[string]int
}

func (u *unique) name(base string) string {
	if u.used == nil {
		u.used, u.next = map[string]bool{}, map[string]int{}
	}
	name := base
	if u.used[name] {
		n := max(u.next[base], 2)
		for name = base + strconv.Itoa(n); u.used[name]; name = base + strconv.Itoa(n) {
			n++
		}
		u.next[base] = n + 1
	}
	u.used[name] = true
	return name
}
