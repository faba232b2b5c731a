package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// namedAt returns the named schema at key, creating it with a
// document name (made unique among the document's schemas).
func (b *oaBuilder) namedAt(key, name string) *oaNamed {
	if n := b.named[key]; n != nil {
		return n
	}
	t := &model.Type{}
	b.naming.Schema(t, name)
	n := &oaNamed{key: key, t: t, docName: b.docNames.name(name)}
	b.named[key] = n
	b.byType[t] = n
	b.namedList = append(b.namedList, n)
	b.pkg.Types = append(b.pkg.Types, t)
	return n
}

// refKey returns the location of the schema a reference points to.
func (b *oaBuilder) refKey(sr *openapi3.SchemaRef) (string, oaLoc) {
	if u := sr.RefPath(); u != nil && (u.Path != "" || u.Fragment != "") {
		file := u.Path
		if file == "" {
			file = b.root
		}
		file = path.Clean(file)
		// kin-openapi gives "#/components/…" as the fragment of some
		// references to the schema they are in.
		frag := strings.TrimLeft(u.Fragment, "#")
		return file + "#" + frag, oaLoc{file: file, ptr: frag}
	}
	ref := sr.Ref
	if strings.HasPrefix(ref, "#") {
		return path.Clean(b.root) + ref, oaLoc{file: b.root, ptr: ref[1:]}
	}
	file, frag, _ := strings.Cut(ref, "#")
	// kin-openapi v0.153.0 leaves RefPath unset on a reference to another
	// file whose cycle resolved to nothing: read it, as a reference of the
	// root document, relative to that document's directory.
	if file != "" && !strings.Contains(file, "://") && !path.IsAbs(file) {
		file = path.Join(path.Dir(b.root), file)
		return file + "#" + frag, oaLoc{file: file, ptr: frag}
	}
	return ref, oaLoc{file: file, ptr: frag}
}

// ref returns the named schema a reference points to, defining it on first use.
func (b *oaBuilder) ref(sr *openapi3.SchemaRef) *oaNamed {
	key, loc := b.refKey(sr)
	if n := b.named[key]; n != nil {
		if !n.defined && sr.Value != nil {
			b.define(n, &openapi3.SchemaRef{Value: sr.Value}, loc)
		}
		return n
	}
	name := loc.ptr
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	name = pointerUnescaper.Replace(name)
	if name == "" {
		name = strings.TrimSuffix(path.Base(loc.file), path.Ext(loc.file))
	}
	n := b.namedAt(key, name)
	if sr.Value != nil {
		b.define(n, b.definition(key, sr), loc)
	}
	return n
}

// definition returns the schema that defines the named schema at key: the
// component itself (which may be a reference, making an alias), or the
// resolved value.
func (b *oaBuilder) definition(key string, sr *openapi3.SchemaRef) *openapi3.SchemaRef {
	if name, ok := strings.CutPrefix(key, path.Clean(b.root)+"#/components/schemas/"); ok && b.doc.Components != nil {
		name = pointerUnescaper.Replace(name)
		if c := b.doc.Components.Schemas[name]; c != nil && c.Value != nil {
			return c
		}
	}
	return &openapi3.SchemaRef{Value: sr.Value}
}

// define gives a named schema its type and document schema.
func (b *oaBuilder) define(n *oaNamed, sr *openapi3.SchemaRef, loc oaLoc) {
	if n.defined {
		return
	}
	n.defined = true
	t := n.t
	s := sr.Value
	if sr.Ref != "" {
		// A component that is a reference to another schema: an alias (but
		// kin-openapi may report the component itself as the target).
		if target := b.ref(sr); target != n {
			t.Kind = model.KindAlias
			t.Underlying = &model.TypeRef{Kind: model.RefNamed, Named: target.t}
			n.object = target.object
			n.schema = &document.Schema{Ref: document.RefPrefix + pointerEscaper.Replace(target.docName)}
			return
		}
	}
	t.Doc = schemaDoc(s)
	ot := b.schemaType(s, loc, model.SchemaPlace(t), t)
	n.object = ot.object
	n.schema = ot.schema
	if ot.ref.Kind == model.RefNamed && ot.ref.Named == t {
		return // defined in place: struct, enum
	}
	switch ot.ref.Kind {
	case model.RefNamed, model.RefTime, model.RefDate, model.RefRaw, model.RefBytes, model.RefAny:
		// An alias keeps the JSON methods of the target.
		t.Kind = model.KindAlias
	default:
		t.Kind = model.KindNamed
	}
	t.Underlying = ot.ref
	if ot.note != "" {
		t.Doc = model.JoinDoc(t.Doc, ot.note)
	}
}

// conv converts the schema of the value at a place, which names the types an
// inline schema needs.
func (b *oaBuilder) conv(sr *openapi3.SchemaRef, loc oaLoc, at *model.Place) *oaType {
	if sr == nil {
		return &oaType{ref: &model.TypeRef{Kind: model.RefRaw}, schema: &document.Schema{}, note: "The document gives no schema: any JSON value."}
	}
	if sr.Ref != "" {
		saved := b.anon
		b.anon = 0 // a named schema's type is a type expression of its own
		n := b.ref(sr)
		b.anon = saved
		nullable := sr.Value != nil && sr.Value.Nullable
		return &oaType{
			ref:      &model.TypeRef{Kind: model.RefNamed, Named: n.t},
			schema:   &document.Schema{Ref: document.RefPrefix + pointerEscaper.Replace(n.docName)},
			nullable: nullable,
			object:   n.object || (sr.Value != nil && isObjectSchema(sr.Value)),
		}
	}
	if sr.Value == nil {
		return &oaType{ref: &model.TypeRef{Kind: model.RefRaw}, schema: &document.Schema{}, note: "The schema could not be resolved: any JSON value."}
	}
	if ot, ok := b.inline[sr.Value]; ok {
		if l, recursive := b.building[sr.Value]; recursive {
			return b.recursion(sr.Value, ot, l)
		}
		if ot.ref.Kind == model.RefNamed && b.sharedFirst[ot.ref.Named] != nil {
			// one schema at another place (a component response's, in
			// each operation that refers to it): one type for both
			b.sharedAt(ot.ref.Named, at)
		}
		return ot
	}
	key := ""
	if len(b.building) < maxShapeDepth {
		key = shapeKey(sr.Value)
	}
	if ot := b.componentLike(sr.Value, key, loc, at); ot != nil {
		return ot
	}
	if ot := b.shapes[key]; key != "" && ot != nil {
		b.sharedAt(ot.ref.Named, at)
		return ot
	}
	ot := b.schemaType(sr.Value, loc, at, nil)
	if key != "" && ot.ref.Kind == model.RefNamed && b.byType[ot.ref.Named] == nil && b.sharedFirst[ot.ref.Named] == nil {
		b.shapes[key] = ot
		b.sharedFirst[ot.ref.Named] = at
	}
	return ot
}

// componentLike is the type of the component whose schema the inline
// schema s is written the same as (its shapeKey is key: a bundled
// document's $refs written out), as a $ref to it would be, rather than a
// copy named after the place and numbered (AccountOptions2); nil when no
// component is alike, or when the one alike is an alias (an allOf of one
// $ref, a nullable $ref): the inline schema is then the type it refers to
// under its own name, not under the alias's.
func (b *oaBuilder) componentLike(s *openapi3.Schema, key string, loc oaLoc, at *model.Place) *oaType {
	if key == "" || len(b.componentShapes) == 0 {
		return nil
	}
	name := b.componentAlike(s, key)
	if name == "" {
		return nil
	}
	ref := &openapi3.SchemaRef{Ref: "#/components/schemas/" + pointerEscaper.Replace(name), Value: b.doc.Components.Schemas[name].Value}
	ot := b.conv(ref, loc, at)
	if ot.ref.Kind != model.RefNamed || ot.ref.Named.Kind == model.KindAlias {
		return nil
	}
	b.inline[s] = ot
	return ot
}

// maxShapeDepth is how deep in inline objects and unions an inline schema
// may be and still be compared with others (shapeKey): its key writes all
// the schema, so that comparing at every depth of a deeply nested schema
// would cost the square of its size.
const maxShapeDepth = 4

// shapeKey is what makes two inline object or union schemas one Go type:
// their JSON, descriptions and all (a schema of the same JSON converts to
// the same type and served schema, wherever it is); "" for other schemas,
// which make no type of their own or are enums (enumTypeKey), and for a
// schema that cannot be written. The JSON keeps each $ref as written, and
// a relative one names another schema from another file: the key ends with
// the schemas the $refs resolve to.
func shapeKey(s *openapi3.Schema) string {
	if len(s.Properties) == 0 && len(s.OneOf)+len(s.AnyOf) < 2 && len(s.AllOf) == 0 {
		return ""
	}
	j, err := json.Marshal(s)
	if err != nil {
		return ""
	}
	var b strings.Builder
	b.Write(j)
	refTargets(&b, s)
	return b.String()
}

// refTargets writes to b the address of the schema each $ref of s's inline
// subschemas resolves to, in a fixed order.
func refTargets(b *strings.Builder, s *openapi3.Schema) {
	walk := func(sr *openapi3.SchemaRef) {
		switch {
		case sr == nil || sr.Value == nil:
		case sr.Ref != "":
			fmt.Fprintf(b, "\x00%p", sr.Value)
		default:
			refTargets(b, sr.Value)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		walk(s.Properties[name])
	}
	for _, group := range [][]*openapi3.SchemaRef{s.AllOf, s.OneOf, s.AnyOf, {s.Items, s.Not, s.AdditionalProperties.Schema}} {
		for _, sr := range group {
			walk(sr)
		}
	}
}

// sharedAt records that the inline type t is used at another place too.
func (b *oaBuilder) sharedAt(t *model.Type, at *model.Place) {
	if b.sharedPlaces[t] == nil {
		b.sharedTypes = append(b.sharedTypes, t)
	}
	b.sharedPlaces[t] = append(b.sharedPlaces[t], at)
}

func isObjectSchema(s *openapi3.Schema) bool {
	return s.Type.Is(openapi3.TypeObject) || len(s.Properties) > 0 || len(s.AllOf) > 0 && s.Type == nil
}

// schemaType converts an inline schema. A struct or enum it needs is named
// after its place, or is self when self is not nil (a named schema being
// defined).
func (b *oaBuilder) schemaType(s *openapi3.Schema, loc oaLoc, at *model.Place, self *model.Type) *oaType {
	types, nullable := jsonTypes(s)
	ds := servedSchema(s, nullable)
	if ot := b.wrapperOrUnion(s, loc, at, self, nullable, ds); ot != nil {
		return ot
	}
	if len(s.AllOf) > 1 || len(s.AllOf) == 1 && len(s.Properties) > 0 {
		b.format(s, openapi3.TypeObject, loc, ds)
		return b.allOf(s, loc, at, self, nullable, ds)
	}
	if len(types) > 1 {
		return b.rawType(s, loc, nullable, ds, "Untyped: the value may be any of the JSON types "+strings.Join(types, ", ")+".")
	}
	typ := impliedType(s, types)
	ds.Type = typ
	switch typ {
	case openapi3.TypeObject:
		b.format(s, typ, loc, ds)
		return b.objectType(s, loc, at, self, nullable, ds)
	case openapi3.TypeArray:
		b.format(s, typ, loc, ds)
		return b.arrayType(s, loc, at, self, nullable, ds)
	case openapi3.TypeString, openapi3.TypeInteger, openapi3.TypeNumber, openapi3.TypeBoolean:
		if len(enumOf(s)) > 0 && typ != openapi3.TypeBoolean {
			if ot := b.enum(s, loc, at, self, typ, nullable, ds); ot != nil {
				return ot
			}
		}
		r := b.scalar(s, typ, loc, ds)
		return &oaType{ref: r, schema: ds, nullable: nullable}
	case "":
		if s.Not != nil {
			return b.rawType(s, loc, nullable, ds, "Untyped: the schema only says what the value is not (not); any other JSON value.")
		}
		if len(s.Properties) == 0 && s.Items == nil {
			return b.rawType(s, loc, nullable, ds, "Untyped: the schema does not restrict the value; any JSON value.")
		}
	}
	return b.rawType(s, loc, nullable, ds, "Untyped: type "+strconv.Quote(typ)+" is not a JSON Schema type.")
}

// jsonTypes returns the types of schema s but null, and whether it may be
// null (nullable, or null among its types).
func jsonTypes(s *openapi3.Schema) (types []string, nullable bool) {
	nullable = s.Nullable
	if s.Type != nil {
		for _, t := range *s.Type {
			if t == openapi3.TypeNull {
				nullable = true
			} else {
				types = append(types, t)
			}
		}
	}
	return types, nullable
}

// servedSchema starts the schema the package serves for s: every constraint
// keyword put in it is one the decoders check (model.ConstraintsOf); a
// format is put by b.format, which warns about one they cannot check.
func servedSchema(s *openapi3.Schema, nullable bool) *document.Schema {
	ds := &document.Schema{Description: schemaDoc(s), Nullable: nullable}
	if s.Default != nil {
		if raw, err := json.Marshal(s.Default); err == nil {
			ds.Default = raw
		}
	}
	return ds
}

// rawType is the untyped (json.RawMessage) type of s, with note saying why.
func (b *oaBuilder) rawType(s *openapi3.Schema, loc oaLoc, nullable bool, ds *document.Schema, note string) *oaType {
	b.format(s, "", loc, ds)
	ds.Description = model.JoinDoc(ds.Description, note)
	return &oaType{ref: &model.TypeRef{Kind: model.RefRaw}, schema: ds, nullable: nullable, note: note}
}

// wrapperOrUnion is the type of a schema that only wraps one other (allOf:
// [$ref], nullable), or a oneOf/anyOf of one schema and null (nullableRef
// too); or of a union of several alternatives; nil for any other schema.
func (b *oaBuilder) wrapperOrUnion(s *openapi3.Schema, loc oaLoc, at *model.Place, self *model.Type, nullable bool, ds *document.Schema) *oaType {
	if len(s.AllOf) == 1 && len(s.Properties) == 0 && len(s.OneOf) == 0 && len(s.AnyOf) == 0 {
		if self != nil && s.AllOf[0] != nil && s.AllOf[0].Ref == "" && s.AllOf[0].Value != nil {
			// A named schema that wraps an inline one (Zoom's Meeting:
			// allOf: [{properties…}], description): the named schema's
			// type is the inline one's, defined in place, not an alias
			// of a type named after it and numbered (Meeting = Meeting2).
			ot := *b.schemaType(s.AllOf[0].Value, loc.add("allOf", "0"), at, self)
			ot.nullable = ot.nullable || nullable
			return b.wrapped(&ot, s)
		}
		ot := *b.conv(s.AllOf[0], loc.add("allOf", "0"), at)
		ot.nullable = ot.nullable || nullable
		return b.wrapped(&ot, s)
	}
	for _, alts := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
		if len(alts) == 0 {
			continue
		}
		if ot := b.nullableRef(s, alts, loc, at, ds); ot != nil {
			return ot
		}
		var rest []*openapi3.SchemaRef
		nullAlt := false
		for _, a := range alts {
			if a != nil && a.Value != nil && a.Value.Type != nil && len(*a.Value.Type) == 1 && (*a.Value.Type)[0] == openapi3.TypeNull {
				nullAlt = true
				continue
			}
			rest = append(rest, a)
		}
		if len(rest) == 1 && len(s.Properties) == 0 {
			key := "oneOf"
			if len(s.OneOf) == 0 {
				key = "anyOf"
			}
			ot := *b.conv(rest[0], loc.add(key, "0"), at)
			ot.nullable = ot.nullable || nullable || nullAlt
			return b.wrapped(&ot, s)
		}
		if len(rest) > 1 {
			b.format(s, "", loc, ds)
			return b.union(s, loc, at, self, nullable || nullAlt, ds)
		}
	}
	return nil
}

// nullableRef is the type of a oneOf/anyOf of exactly a $ref and an object
// of nothing else that may be null ({type: object, nullable: true}), as
// OpenAPI 3.0 documents made by OpenAPI.NET write a nullable reference
// (Microsoft Graph's, thousands of times): the referenced type, nullable,
// not a union of it and any object. Its schema stays the document's, which
// OpenAPI 3.0 has no other way to write. Nil for any other schema.
func (b *oaBuilder) nullableRef(s *openapi3.Schema, alts openapi3.SchemaRefs, loc oaLoc, at *model.Place, ds *document.Schema) *oaType {
	if len(alts) != 2 || len(s.Properties) != 0 || len(s.AllOf) != 0 || len(s.OneOf) != 0 && len(s.AnyOf) != 0 || s.Discriminator != nil {
		return nil
	}
	i := 0 // the $ref's
	switch {
	case alts[0] == nil || alts[1] == nil:
		return nil
	case alts[0].Ref != "" && alts[1].Ref == "" && isNullableObject(alts[1].Value):
	case alts[1].Ref != "" && alts[0].Ref == "" && isNullableObject(alts[0].Value):
		i = 1
	default:
		return nil
	}
	key := "anyOf"
	if len(s.OneOf) != 0 {
		key = "oneOf"
	}
	ot := *b.conv(alts[i], loc.add(key, strconv.Itoa(i)), at)
	ot.nullable = true
	docAlts := []*document.Schema{ot.schema, {Type: document.TypeObject, Nullable: true}}
	if i == 1 {
		docAlts[0], docAlts[1] = docAlts[1], docAlts[0]
	}
	cp := *ds
	if ot.object {
		cp.Type = document.TypeObject // for OpenTool readers that require a type
	}
	if key == "oneOf" {
		cp.OneOf = docAlts
	} else {
		cp.AnyOf = docAlts
	}
	ot.schema = &cp
	return &ot
}

// isNullableObject reports whether s is {"type": "object", "nullable":
// true} and nothing else: any object or null.
func isNullableObject(s *openapi3.Schema) bool {
	if s == nil || !s.Nullable || s.Type == nil || len(*s.Type) != 1 || (*s.Type)[0] != openapi3.TypeObject {
		return false
	}
	bare := openapi3.Schema{Type: s.Type, Nullable: true}
	j, err := json.Marshal(s)
	k, err2 := json.Marshal(&bare)
	return err == nil && err2 == nil && bytes.Equal(j, k)
}

// impliedType is the one type of s (types, null left out), or when it has
// none the type its members imply: "" when they imply none.
func impliedType(s *openapi3.Schema, types []string) string {
	if len(types) == 1 && types[0] != "" {
		return types[0]
	}
	switch {
	case len(s.Properties) > 0 || s.AdditionalProperties.Schema != nil:
		return openapi3.TypeObject
	case s.Items != nil || len(s.PrefixItems) > 0:
		return openapi3.TypeArray
	case len(enumOf(s)) > 0:
		return enumType(enumOf(s))
	}
	return ""
}

// objectType is the type of object schema s: a struct of its properties, a
// map of its additional properties' type, or a map of any values.
func (b *oaBuilder) objectType(s *openapi3.Schema, loc oaLoc, at *model.Place, self *model.Type, nullable bool, ds *document.Schema) *oaType {
	if len(s.Properties) > 0 {
		b.objectBounds(s, loc, ds)
		ot := b.object(s, loc, at, self, nullable, ds, objectMembers{schemas: []*openapi3.Schema{s}, locs: []oaLoc{loc}})
		if ot.ref.Kind == model.RefNamed && ot.ref.Named.Kind == model.KindStruct {
			ot.ref.Named.Check = model.ConstraintsOf(ds, model.RefMap)
		}
		return ot
	}
	if ap := s.AdditionalProperties; ap.Schema != nil {
		return b.nesting(at, self, func() *oaType {
			elem := b.conv(ap.Schema, loc.add("additionalProperties"), at.Value())
			ds.AdditionalProperties = elem.schema
			b.objectBounds(s, loc, ds)
			return &oaType{ref: &model.TypeRef{Kind: model.RefMap, Elem: elem.ref, Check: model.ConstraintsOf(ds, model.RefMap)}, schema: ds, nullable: nullable, object: true}
		})
	}
	b.objectBounds(s, loc, ds)
	return &oaType{ref: &model.TypeRef{Kind: model.RefMap, Elem: &model.TypeRef{Kind: model.RefAny}, Check: model.ConstraintsOf(ds, model.RefMap)}, schema: ds, nullable: nullable, object: true}
}

// arrayType is the type of array schema s: a tuple with prefixItems, else a
// slice of its items' type.
func (b *oaBuilder) arrayType(s *openapi3.Schema, loc oaLoc, at *model.Place, self *model.Type, nullable bool, ds *document.Schema) *oaType {
	if len(s.PrefixItems) > 0 {
		return b.tuple(s, loc, at, self, nullable, ds)
	}
	return b.nesting(at, self, func() *oaType {
		elem := b.conv(s.Items, loc.add("items"), at.Item())
		ds.Items = elem.schema
		b.arrayBounds(s, loc, ds)
		r := &model.TypeRef{Kind: model.RefSlice, Elem: elem.ref, Check: model.ConstraintsOf(ds, model.RefSlice)}
		return &oaType{ref: r, schema: ds, nullable: nullable}
	})
}

// tuple is the type of an array schema with prefixItems (OpenAPI 3.1, or
// an array of schemas in items, which check reads so): a tuple, whose items
// have a schema each. Go has no tuple type that a model, a Go caller and the
// declarations' profiles all take (OpenAI's and Gemini's schemas have no
// prefixItems), so a tuple whose items all have the same schema (a point
// [x, y]; the items after them too, unless items is false) is a slice of
// that schema's type, at most as long as the tuple when no more items are
// allowed; any other is a slice of untyped values (json.RawMessage) whose
// description lists the items' schemas.
func (b *oaBuilder) tuple(s *openapi3.Schema, loc oaLoc, at *model.Place, self *model.Type, nullable bool, ds *document.Schema) *oaType {
	closed := s.Items != nil && s.Items.Value != nil && s.Items.Value.Always != nil && !*s.Items.Value.Always
	parts := s.PrefixItems
	if s.Items != nil && !closed {
		parts = append(slices.Clone(parts), s.Items)
	}
	same := true
	for _, p := range parts[1:] {
		same = same && sameSchema(parts[0], p)
	}
	return b.nesting(at, self, func() *oaType {
		b.arrayBounds(s, loc, ds)
		if closed && ds.MaxItems == nil {
			v := int64(len(s.PrefixItems))
			ds.MaxItems = &v
		}
		c := model.ConstraintsOf(ds, model.RefSlice)
		if same {
			elem := b.conv(parts[0], loc.add("prefixItems", "0"), at.Item())
			ds.Items = elem.schema
			// The items' own descriptions, which the one items schema
			// cannot hold: "Items: 1. latitude; 2. longitude."
			var says []string
			for i, p := range s.PrefixItems {
				if p.Ref == "" && p.Value != nil && strings.TrimSpace(p.Value.Description) != "" {
					says = append(says, strconv.Itoa(i+1)+". "+strings.TrimSpace(p.Value.Description))
				}
			}
			if len(says) > 0 {
				ds.Description = model.JoinDoc(ds.Description, "Items: "+strings.Join(says, "; ")+".")
				if elem.schema.Ref == "" && elem.schema.Description != "" {
					cp := *elem.schema // the first item's description is in the list
					cp.Description = ""
					ds.Items = &cp
				}
			}
			return &oaType{ref: &model.TypeRef{Kind: model.RefSlice, Elem: elem.ref, Check: c}, schema: ds, nullable: nullable}
		}
		kinds := make([]string, len(s.PrefixItems))
		for i, p := range s.PrefixItems {
			kinds[i] = schemaKind(p)
		}
		more := "; any items after them"
		switch {
		case closed:
			more = "; no items after them"
		case s.Items != nil:
			more = "; items after them: " + schemaKind(s.Items)
		}
		note := "Untyped items: a tuple whose items have different schemas (" + strings.Join(kinds, ", ") + more + "); each item is any JSON value."
		ds.Items = &document.Schema{}
		ds.Description = model.JoinDoc(ds.Description, note)
		return &oaType{ref: &model.TypeRef{Kind: model.RefSlice, Elem: &model.TypeRef{Kind: model.RefRaw}, Check: c}, schema: ds, nullable: nullable, note: note}
	})
}

// sameSchema reports whether a and b are the same schema: the same
// reference, or inline schemas that differ in their descriptions at most.
func sameSchema(a, b *openapi3.SchemaRef) bool {
	if a == nil || b == nil || a.Ref != "" || b.Ref != "" {
		return a != nil && b != nil && a.Ref == b.Ref && a.Ref != ""
	}
	if a.Value == nil || b.Value == nil {
		return false
	}
	x, y := *a.Value, *b.Value
	x.Title, x.Description, x.Example, x.Examples = "", "", nil, nil
	y.Title, y.Description, y.Example, y.Examples = "", "", nil, nil
	jx, errx := json.Marshal(&x)
	jy, erry := json.Marshal(&y)
	return errx == nil && erry == nil && string(jx) == string(jy)
}

// schemaKind names the schema of a tuple's item for a description: the
// schema a reference names, else its type ("number", "string or null"), or
// "any value".
func schemaKind(sr *openapi3.SchemaRef) string {
	if sr == nil {
		return "any value"
	}
	if sr.Ref != "" {
		name := sr.Ref
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = pointerUnescaper.Replace(name[i+1:])
		}
		return source.ClipValue(name)
	}
	if sr.Value == nil || sr.Value.Type == nil || len(*sr.Value.Type) == 0 {
		return "any value"
	}
	return strings.Join(*sr.Value.Type, " or ")
}

// nesting returns the slice or map type that build makes, one level deeper
// in the type expression; at maxAnonymousNesting levels (and not for a named
// schema being defined, self), a named type over it (named after its place),
// which starts a new type expression.
func (b *oaBuilder) nesting(at *model.Place, self *model.Type, build func() *oaType) *oaType {
	if b.anon < model.MaxAnonymousNesting || self != nil {
		b.anon++
		defer func() { b.anon-- }()
		return build()
	}
	t := &model.Type{Kind: model.KindNamed}
	b.naming.Type(t, at)
	b.pkg.Types = append(b.pkg.Types, t)
	saved := b.anon
	b.anon = 1
	ot := *build()
	b.anon = saved
	t.Underlying = ot.ref
	ot.ref = &model.TypeRef{Kind: model.RefNamed, Named: t}
	return &ot
}

// wrapped is the type of a schema that wraps another: the other's, with the
// wrapper's description in the document.
func (b *oaBuilder) wrapped(ot *oaType, s *openapi3.Schema) *oaType {
	if d := schemaDoc(s); d != "" || s.Nullable {
		cp := *ot.schema
		if cp.Ref != "" {
			// A reference carries no other members in OpenTool: keep the reference.
			return ot
		}
		if d != "" {
			cp.Description = d
		}
		cp.Nullable = cp.Nullable || ot.nullable
		ot.schema = &cp
	}
	return ot
}
