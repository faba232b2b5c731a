package openapi

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/checked"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// enumType is the JSON type of enum values, "" when they mix types.
func enumType(values []any) string {
	typ := ""
	for _, v := range values {
		var t string
		switch x := v.(type) {
		case string:
			t = openapi3.TypeString
		case bool:
			t = openapi3.TypeBoolean
		case float64:
			t = openapi3.TypeInteger
			if x != float64(int64(x)) {
				t = openapi3.TypeNumber
			}
		case json.Number:
			t = openapi3.TypeInteger
			if _, err := x.Int64(); err != nil {
				t = openapi3.TypeNumber
			}
		case nil:
			continue
		default:
			return ""
		}
		if typ != "" && typ != t {
			if typ == openapi3.TypeInteger && t == openapi3.TypeNumber || typ == openapi3.TypeNumber && t == openapi3.TypeInteger {
				typ = openapi3.TypeNumber
				continue
			}
			return ""
		}
		typ = t
	}
	return typ
}

// scalar is the type of a string, integer, number or boolean schema, with its
// format and constraints (b.constrain).
func (b *oaBuilder) scalar(s *openapi3.Schema, typ string, loc oaLoc, ds *document.Schema) *model.TypeRef {
	var r *model.TypeRef
	switch typ {
	case openapi3.TypeString:
		switch s.Format {
		case "date-time":
			r = &model.TypeRef{Kind: model.RefTime}
		case "date":
			r = &model.TypeRef{Kind: model.RefDate} // its other constraints are the string's
		case "byte", "binary":
			r = &model.TypeRef{Kind: model.RefBytes}
		default:
			r = &model.TypeRef{Kind: model.RefString}
		}
	case openapi3.TypeInteger:
		r = &model.TypeRef{Kind: model.RefInt}
		if s.Format == "int32" {
			r.Bits = 32
		}
	case openapi3.TypeNumber:
		r = &model.TypeRef{Kind: model.RefFloat}
		if s.Format == "float" {
			r.Bits = 32
		}
	default:
		r = &model.TypeRef{Kind: model.RefBool}
	}
	if r.Kind == model.RefTime || r.Kind == model.RefBytes {
		// The type checks the format; no other constraint is checked.
		ds.Format = s.Format
		return r
	}
	r.Check = b.constrain(s, typ, loc, ds, r.Kind)
	return r
}

// constrain puts in ds the format and the constraints of a string, integer,
// number or boolean schema s (a value of kind k), and returns the checks of
// the decoders (model.ConstraintsOf): what ds keeps, the decoders check. A
// format or pattern they cannot check is dropped from ds with a warning, as
// are bounds that no value meets (b.conflicts).
func (b *oaBuilder) constrain(s *openapi3.Schema, typ string, loc oaLoc, ds *document.Schema, k model.RefKind) *model.Constraints {
	b.format(s, typ, loc, ds)
	switch typ {
	case openapi3.TypeString:
		ds.MinLength, ds.MaxLength = countBounds(s.MinLength, s.MaxLength)
		if s.Pattern != "" {
			if _, err := regexp.Compile(s.Pattern); err != nil {
				b.warn(loc.add("pattern"), "pattern %q is not checked: Go's regexp package does not accept it (%v)", source.ClipValue(s.Pattern), source.ClipTo(strings.TrimPrefix(err.Error(), "error parsing regexp: "), 120))
			} else {
				ds.Pattern = s.Pattern
			}
		}
	case openapi3.TypeInteger, openapi3.TypeNumber:
		b.bounds(s, ds)
	}
	b.conflicts(s, loc, ds)
	c := model.ConstraintsOf(ds, k)
	if c != nil && c.Pattern != "" {
		b.naming.Pattern(c)
	}
	return c
}

// format puts the format of s, of JSON type typ ("" when it has none or
// several: a union, an untyped value), in ds when the decoders check it
// (checked.Format); else it warns at its place.
func (b *oaBuilder) format(s *openapi3.Schema, typ string, loc oaLoc, ds *document.Schema) {
	if s.Format == "" {
		return
	}
	if ok, why := checked.Format(typ, s.Format); !ok {
		b.warn(loc.add("format"), "format %q is not checked: %s", source.ClipValue(s.Format), why)
		return
	}
	ds.Format = s.Format
}

// conflicts drops from ds the bounds that no value meets
// (checked.Conflicts), with a warning at the upper bound's place.
func (b *oaBuilder) conflicts(s *openapi3.Schema, loc oaLoc, ds *document.Schema) {
	for _, c := range checked.Conflicts(ds) {
		loKey, lo := b.boundLiteral(s, loc, c.Lo, ds)
		hiKey, hi := b.boundLiteral(s, loc, c.Hi, ds)
		b.warn(loc.add(hiKey), "%s", c.Warning(loKey, lo, hi))
		c.Drop(ds)
	}
}

// boundLiteral returns the member of s that holds the bound key of ds and
// its literal: key's own, or for OpenAPI 3.0's boolean exclusiveMinimum
// (exclusiveMaximum) the minimum (maximum) it makes exclusive.
func (b *oaBuilder) boundLiteral(s *openapi3.Schema, loc oaLoc, key string, ds *document.Schema) (string, string) {
	var v float64
	switch key {
	case "minimum":
		v = *ds.Minimum
	case "exclusiveMinimum":
		v = *ds.ExclusiveMinimum
		if s.ExclusiveMin.Bool != nil {
			key = "minimum"
		}
	case "maximum":
		v = *ds.Maximum
	case "exclusiveMaximum":
		v = *ds.ExclusiveMaximum
		if s.ExclusiveMax.Bool != nil {
			key = "maximum"
		}
	case "minLength":
		v = float64(*ds.MinLength)
	case "maxLength":
		v = float64(*ds.MaxLength)
	case "minItems":
		v = float64(*ds.MinItems)
	case "maxItems":
		v = float64(*ds.MaxItems)
	case "minProperties":
		v = float64(*ds.MinProperties)
	case "maxProperties":
		v = float64(*ds.MaxProperties)
	}
	if n := b.node(loc.add(key)); n != nil && n.Kind == jsontree.Number {
		return key, n.Str
	}
	return key, strconv.FormatFloat(v, 'g', -1, 64)
}

// bounds puts the bounds of a number schema in ds: minimum, maximum,
// exclusive ones in JSON Schema's form (OpenAPI 3.0's boolean
// exclusiveMinimum makes minimum the exclusive bound; 3.1's is the number),
// multipleOf.
func (b *oaBuilder) bounds(s *openapi3.Schema, ds *document.Schema) {
	if s.Min != nil {
		v := *s.Min
		if s.ExclusiveMin.Bool != nil && *s.ExclusiveMin.Bool {
			ds.ExclusiveMinimum = &v
		} else {
			ds.Minimum = &v
		}
	}
	if s.Max != nil {
		v := *s.Max
		if s.ExclusiveMax.Bool != nil && *s.ExclusiveMax.Bool {
			ds.ExclusiveMaximum = &v
		} else {
			ds.Maximum = &v
		}
	}
	if v := s.ExclusiveMin.Value; v != nil && ds.ExclusiveMinimum == nil {
		x := *v
		ds.ExclusiveMinimum = &x
	}
	if v := s.ExclusiveMax.Value; v != nil && ds.ExclusiveMaximum == nil {
		x := *v
		ds.ExclusiveMaximum = &x
	}
	if m := s.MultipleOf; m != nil && *m > 0 && !math.IsInf(*m, 0) {
		x := *m
		ds.MultipleOf = &x
	}
}

// arrayBounds puts minItems, maxItems and uniqueItems of an array schema in
// ds, what no value meets dropped with a warning (b.conflicts).
func (b *oaBuilder) arrayBounds(s *openapi3.Schema, loc oaLoc, ds *document.Schema) {
	defer b.conflicts(s, loc, ds)
	ds.MinItems, ds.MaxItems = countBounds(s.MinItems, s.MaxItems)
	ds.UniqueItems = s.UniqueItems
}

// objectBounds puts minProperties and maxProperties of an object schema in
// ds, what no value meets dropped with a warning (b.conflicts).
func (b *oaBuilder) objectBounds(s *openapi3.Schema, loc oaLoc, ds *document.Schema) {
	defer b.conflicts(s, loc, ds)
	ds.MinProperties, ds.MaxProperties = countBounds(s.MinProps, s.MaxProps)
}

// countBounds are the bounds of a count (of runes, items, properties) as
// the served schema has them: lo when the document's minimum is above 0, hi
// when it sets a maximum.
func countBounds(minimum uint64, maximum *uint64) (lo, hi *int64) {
	if minimum > 0 {
		v := int64(minimum)
		lo = &v
	}
	if maximum != nil {
		v := int64(*maximum)
		hi = &v
	}
	return lo, hi
}

// enumKey is what an enum value of type typ means, to find values listed
// twice: the string, or the number as Go's constants compare them (1 and
// 1.0 are one integer, one float64); false for a value of no such kind.
func enumKey(v any, typ string) (any, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		if n, err := x.Int64(); err == nil && typ == openapi3.TypeInteger {
			return n, true
		}
		f, err := x.Float64()
		if err != nil {
			return nil, false
		}
		v = f
	}
	f, ok := v.(float64)
	if !ok {
		return nil, false
	}
	if typ == openapi3.TypeInteger && f == float64(int64(f)) {
		return int64(f), true
	}
	return f, true
}

// enumOf are the values a schema allows: its enum, else its const (OpenAPI
// 3.1) as the one value.
func enumOf(s *openapi3.Schema) []any {
	if len(s.Enum) == 0 && s.Const != nil {
		return []any{s.Const}
	}
	return s.Enum
}

// enum makes an enum type of a string, integer or number schema; nil when the
// values do not fit the type. A value the enum lists again (Stripe lists one
// api_version 98 times) is kept once, with a warning at its second place:
// two equal constants would be duplicate cases of the type's Valid.
func (b *oaBuilder) enum(s *openapi3.Schema, loc oaLoc, at *model.Place, self *model.Type, typ string, nullable bool, ds *document.Schema) *oaType {
	var vals []any
	type repeat struct {
		first, again int // indexes in enumOf(s)
		n            int // times the value is listed
	}
	seen := map[any]*repeat{} // a value's meaning (string, int64 or float64) → where
	var repeats []*repeat
	for i, v := range enumOf(s) {
		if key, ok := enumKey(v, typ); ok {
			if r := seen[key]; r != nil {
				if r.n++; r.n == 2 {
					r.again = i
					repeats = append(repeats, r)
				}
				continue
			}
			seen[key] = &repeat{first: i, n: 1}
		}
		switch x := v.(type) {
		case nil:
			nullable = true
			continue
		case string:
			if typ != openapi3.TypeString {
				return nil
			}
			vals = append(vals, x)
		case float64:
			if typ == openapi3.TypeString {
				return nil
			}
			if typ == openapi3.TypeInteger && x != float64(int64(x)) {
				return nil
			}
			vals = append(vals, json.Number(strconv.FormatFloat(x, 'g', -1, 64)))
		case json.Number:
			if typ == openapi3.TypeString {
				return nil
			}
			vals = append(vals, x)
		default:
			return nil
		}
	}
	if len(vals) == 0 {
		return nil
	}
	for _, r := range repeats {
		v, _ := json.Marshal(enumOf(s)[r.first])
		b.warn(loc.add("enum", strconv.Itoa(r.again)), "the enum lists the value %s %d times (first at index %d): kept once", source.ClipTo(string(v), 100), r.n, r.first)
	}
	// The enum's type checks the constraints of its values too: what ds
	// serves, the decoder checks.
	check := b.constrain(s, typ, loc, ds, enumRefKind(typ))
	ds.Enum = vals
	var t *model.Type
	key := ""
	if self == nil {
		if key = enumTypeKey(typ, ds); key != "" {
			t = b.enums[key]
		}
	}
	if t != nil {
		b.sharedAt(t, at)
	} else {
		t = b.inlineType(s, at, self)
		b.naming.Enum(t, &document.Schema{Type: typ, Enum: vals})
		t.Underlying.Check = check
		if key != "" {
			b.enums[key] = t
			b.sharedFirst[t] = at
		}
	}
	ds.Nullable = nullable
	ot := &oaType{ref: &model.TypeRef{Kind: model.RefNamed, Named: t}, schema: ds, nullable: nullable}
	if self == nil {
		b.inline[s] = ot
	}
	return ot
}

// recursion returns the type of the inline schema s met again inside its own
// members (at l): the same Go type, and in the OpenTool document a reference
// to s's schema, which becomes an entry of the document's schemas named after
// where s is.
func (b *oaBuilder) recursion(s *openapi3.Schema, ot *oaType, l oaLoc) *oaType {
	name, ok := b.promoted[s]
	if !ok {
		toks := strings.Split(strings.TrimPrefix(l.ptr, "/"), "/")
		if len(toks) > 4 {
			toks = toks[len(toks)-4:]
		}
		for i, t := range toks {
			toks[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
		}
		name = b.docNames.name(strings.Join(toks, "."))
		if b.promoted == nil {
			b.promoted = map[*openapi3.Schema]string{}
		}
		b.promoted[s] = name
		b.extra = append(b.extra, document.NamedSchema{Name: name, Schema: ot.schema})
	}
	cp := *ot
	cp.schema = &document.Schema{Ref: document.RefPrefix + pointerEscaper.Replace(name)}
	return &cp
}

// enter marks the inline schema s at l as being converted, until the
// function it returns is called.
func (b *oaBuilder) enter(s *openapi3.Schema, l oaLoc) func() {
	if b.building == nil {
		b.building = map[*openapi3.Schema]oaLoc{}
	}
	b.building[s] = l
	return func() { delete(b.building, s) }
}

// enumRefKind is the kind of the values of an enum of JSON type typ, as
// model.Naming.Enum makes its type's.
func enumRefKind(typ string) model.RefKind {
	switch typ {
	case openapi3.TypeString:
		return model.RefString
	case openapi3.TypeInteger:
		return model.RefInt
	}
	return model.RefFloat
}

// enumTypeKey is what makes two inline enums one Go type: the schema ds their
// values and constraints serve (its description included, which is the
// type's doc; enumKey is a value's), but for what belongs to each use (a
// default, null); "" when it cannot be written.
func enumTypeKey(typ string, ds *document.Schema) string {
	cp := *ds
	cp.Default, cp.Nullable = nil, false
	j, err := json.Marshal(&cp)
	if err != nil {
		return ""
	}
	return typ + "\x00" + string(j)
}

// nameShared asks for the names of the inline types that several places
// use (model.Naming.Shared), once every other name is asked for: after the
// shortest name of their places when they are enums or hold no inline type
// of their own (whose names follow the name of the first place).
func (b *oaBuilder) nameShared() {
	for _, t := range b.sharedTypes {
		places := append([]*model.Place{b.sharedFirst[t]}, b.sharedPlaces[t]...)
		b.naming.Shared(t, places, t.Kind == model.KindEnum || !b.holdsInline(t), b.titles[t])
	}
}

// holdsInline reports whether the struct or union t refers to an inline
// type (one not of a named schema).
func (b *oaBuilder) holdsInline(t *model.Type) bool {
	var inline func(r *model.TypeRef) bool
	inline = func(r *model.TypeRef) bool {
		switch r.Kind {
		case model.RefSlice, model.RefMap:
			return inline(r.Elem)
		case model.RefNamed:
			return b.byType[r.Named] == nil
		}
		return false
	}
	for _, f := range t.Fields {
		if inline(f.Type) {
			return true
		}
	}
	for _, v := range t.Variants {
		if inline(v.Type) {
			return true
		}
	}
	return t.Kind != model.KindStruct && t.Kind != model.KindUnion
}
