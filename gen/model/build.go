package model

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// builder turns an OpenTool document into the model. The document has been
// validated by the loader (gen/load/opentool): references resolve and do not
// loop. It makes no name: it asks them of a Naming, in the order it meets
// what needs one, as the OpenAPI loader does, and Name makes them.
type builder struct {
	doc     *document.OpenTool
	pkg     *Package
	naming  *Naming
	schemas map[string]*Type // named types of doc.Schemas, by schema name
	// anon counts the slices and maps around the value being typed in the
	// type expression being built (see maxAnonymousNesting).
	anon int
}

// check returns r with the constraints of s that apply to it (ConstraintsOf),
// the variable of a pattern asked for.
func (b *builder) check(r *TypeRef, s *document.Schema) *TypeRef {
	r.Check = b.constraints(s, r.Kind)
	return r
}

// constraints returns ConstraintsOf(s, k), the variable of a pattern asked
// for (Naming.Pattern).
func (b *builder) constraints(s *document.Schema, k RefKind) *Constraints {
	c := ConstraintsOf(s, k)
	if c != nil && c.Pattern != "" {
		b.naming.Pattern(c)
	}
	return c
}

// MaxAnonymousNesting bounds the nesting of slices and maps in one Go type
// expression: an array of arrays deeper than that gets a named type every
// MaxAnonymousNesting levels ([][]…[]PItem…, with type PItem… [][]…), so
// that the decoder of each level does not spell out the whole type below it,
// which made the output grow with the square of the depth.
const MaxAnonymousNesting = 8

// FromOpenTool builds the model of an OpenTool document, names included.
func FromOpenTool(doc *document.OpenTool, source string) *Package {
	return fromOpenTool(doc, source, PackageOpenTool)
}

// fromOpenTool is FromOpenTool for a package of the kind kind (FromOpenDyn's
// declares more names, which Name never takes).
func fromOpenTool(doc *document.OpenTool, source string, kind PackageKind) *Package {
	b := &builder{
		doc: doc,
		pkg: &Package{
			Source: source, Kind: kind,
			Title: doc.Info.Title, Version: doc.Info.Version, Doc: doc.Info.Description,
			Document: doc,
		},
		naming:  &Naming{},
		schemas: map[string]*Type{},
	}
	// Schemas first: they own their names.
	for _, s := range doc.Schemas {
		t := &Type{Doc: s.Schema.Description}
		b.naming.Schema(t, s.Name)
		b.schemas[s.Name] = t
		b.pkg.Types = append(b.pkg.Types, t)
	}
	for _, s := range doc.Schemas {
		b.defineSchema(b.schemas[s.Name], s.Schema)
	}
	for i := range doc.Functions {
		b.pkg.Functions = append(b.pkg.Functions, b.function(&doc.Functions[i]))
	}
	b.pkg.Naming = b.naming
	Name(b.pkg)
	return b.pkg
}

// defineSchema gives a named schema its definition.
func (b *builder) defineSchema(t *Type, s *document.Schema) {
	at := SchemaPlace(t)
	if s.Ref != "" {
		t.Kind = KindAlias
		t.Underlying = b.ref(s, at)
		return
	}
	switch {
	case s.Type == document.TypeObject && len(s.Properties) > 0:
		t.Kind = KindStruct
		t.Fields = b.fields(t, s)
		t.Check = b.constraints(s, RefMap)
	case len(s.Enum) > 0 && (s.Type == document.TypeString || s.Type == document.TypeInteger || s.Type == document.TypeNumber):
		b.defineEnum(t, s)
	default:
		t.Kind = KindNamed
		t.Underlying = b.plain(s, at)
		if t.Underlying.Kind == RefDate {
			t.Kind = KindAlias // type T = civil.Date keeps its methods
		}
	}
}

// fields returns the fields of the struct owner, the properties of s.
func (b *builder) fields(owner *Type, s *document.Schema) []*Field {
	saved := b.anon
	b.anon = 0 // a field's type starts a type expression
	defer func() { b.anon = saved }()
	var out []*Field
	for _, p := range s.Properties {
		f := &Field{JSONName: p.Name, Doc: p.Schema.Description, Required: Contains(s.Required, p.Name)}
		b.naming.Member(owner, f)
		f.Type = b.ref(p.Schema, MemberPlace(owner, f))
		out = append(out, f)
	}
	return out
}

// ref returns the type of a value described by s; an inline object or enum
// gets a type named after its place at.
func (b *builder) ref(s *document.Schema, at *Place) *TypeRef {
	if s == nil {
		return &TypeRef{Kind: RefAny}
	}
	if s.Ref != "" {
		name, _ := document.RefName(s.Ref)
		if t := b.schemas[name]; t != nil {
			return &TypeRef{Kind: RefNamed, Named: t}
		}
		return &TypeRef{Kind: RefAny} // unreachable after validation
	}
	switch {
	case s.Type == document.TypeObject && len(s.Properties) > 0:
		t := &Type{Doc: s.Description, Kind: KindStruct}
		b.naming.Type(t, at)
		b.pkg.Types = append(b.pkg.Types, t)
		t.Fields = b.fields(t, s)
		t.Check = b.constraints(s, RefMap)
		return &TypeRef{Kind: RefNamed, Named: t}
	case len(s.Enum) > 0 && (s.Type == document.TypeString || s.Type == document.TypeInteger || s.Type == document.TypeNumber):
		t := &Type{Doc: s.Description}
		b.naming.Type(t, at)
		b.pkg.Types = append(b.pkg.Types, t)
		b.defineEnum(t, s)
		return &TypeRef{Kind: RefNamed, Named: t}
	}
	return b.plain(s, at)
}

// plain returns the type of a schema that needs no named type of its own.
func (b *builder) plain(s *document.Schema, at *Place) *TypeRef {
	switch s.Type {
	case document.TypeString:
		if s.Format == "date" && b.pkg.Kind != PackageOpenDyn {
			// civil.Date (a C library takes its dates as text)
			return b.check(&TypeRef{Kind: RefDate}, s)
		}
		return b.check(&TypeRef{Kind: RefString}, s)
	case document.TypeInteger:
		return b.check(&TypeRef{Kind: RefInt, Bits: intBits(s.Format)}, s)
	case document.TypeNumber:
		return b.check(&TypeRef{Kind: RefFloat, Bits: floatBits(s.Format)}, s)
	case document.TypeBoolean:
		return b.check(&TypeRef{Kind: RefBool}, s)
	case document.TypeArray:
		return b.nesting(at, func() *TypeRef {
			return b.check(&TypeRef{Kind: RefSlice, Elem: b.ref(s.Items, at.Item())}, s)
		})
	case document.TypeObject:
		if len(s.Properties) > 0 {
			return b.ref(s, at)
		}
		if s.AdditionalProperties != nil {
			return b.nesting(at, func() *TypeRef {
				return b.check(&TypeRef{Kind: RefMap, Elem: b.ref(s.AdditionalProperties, at.Value())}, s)
			})
		}
		return b.check(&TypeRef{Kind: RefMap, Elem: &TypeRef{Kind: RefAny}}, s)
	}
	return &TypeRef{Kind: RefAny}
}

// nesting returns the slice or map type that build makes, one level deeper
// in the type expression; at maxAnonymousNesting levels, a named type over
// it (named after its place at), which starts a new type expression.
func (b *builder) nesting(at *Place, build func() *TypeRef) *TypeRef {
	if b.anon < MaxAnonymousNesting {
		b.anon++
		defer func() { b.anon-- }()
		return build()
	}
	t := &Type{Kind: KindNamed}
	b.naming.Type(t, at)
	b.pkg.Types = append(b.pkg.Types, t)
	saved := b.anon
	b.anon = 1
	t.Underlying = build()
	b.anon = saved
	return &TypeRef{Kind: RefNamed, Named: t}
}

// defineEnum makes t an enum type with one constant per value of s.Enum.
func (b *builder) defineEnum(t *Type, s *document.Schema) {
	b.naming.Enum(t, s)
	t.Underlying.Check = b.constraints(s, t.Underlying.Kind)
}

// intBits is the size of an integer of OpenAPI's format: 32 for int32, else
// 0 (64).
func intBits(format string) int {
	if format == "int32" {
		return 32
	}
	return 0
}

// floatBits is the size of a number of OpenAPI's format: 32 for float, else
// 0 (64).
func floatBits(format string) int {
	if format == "float" {
		return 32
	}
	return 0
}

// enumValues makes t an enum type with one constant per distinct value of
// s.Enum (a value listed again is left out: equal constants would be
// duplicate cases of Valid), the constants still to be named (nameValues).
func enumValues(t *Type, s *document.Schema) {
	t.Kind = KindEnum
	switch s.Type {
	case document.TypeString:
		t.Underlying = &TypeRef{Kind: RefString}
	case document.TypeInteger:
		t.Underlying = &TypeRef{Kind: RefInt}
	default:
		t.Underlying = &TypeRef{Kind: RefFloat}
	}
	seen := make(map[any]bool, len(s.Enum))
	for i, v := range s.Enum {
		var suffix string
		var val any
		switch x := v.(type) {
		case string:
			suffix, val = Camel(x), x
			switch {
			case x == "":
				suffix = "Empty"
			case suffix == "":
				suffix = "Value" + strconv.Itoa(i+1)
			}
		case json.Number:
			if n, err := x.Int64(); err == nil && s.Type == document.TypeInteger {
				val = n
				suffix = strings.Replace(strconv.FormatInt(n, 10), "-", "Minus", 1)
			} else {
				f, _ := x.Float64()
				val = f
				suffix = "Value" + strconv.Itoa(i+1)
			}
		case float64:
			if s.Type == document.TypeInteger {
				val = int64(x)
				suffix = strings.Replace(strconv.FormatInt(int64(x), 10), "-", "Minus", 1)
			} else {
				val = x
				suffix = "Value" + strconv.Itoa(i+1)
			}
		default:
			continue // rejected by the loader
		}
		if seen[val] {
			continue // a value listed again: one constant (the loaders warn)
		}
		seen[val] = true
		t.Values = append(t.Values, EnumValue{Value: val, suffix: suffix})
	}
}

// nameValues names the constants of the enum type t in types: the type's
// name and the suffix of the value.
func nameValues(types *Scope, t *Type) {
	for i := range t.Values {
		t.Values[i].Name = types.Take(t.Name + t.Values[i].suffix)
	}
}

// function builds the model of one function.
func (b *builder) function(f *document.Function) *Function {
	fn := &Function{Name: f.Name, Doc: f.Description, Stream: f.IsStream()}
	b.naming.Method(fn, f.Name)
	if len(f.Parameters) > 0 {
		args := &Type{Kind: KindStruct}
		b.naming.Args(fn, args)
		b.pkg.Types = append(b.pkg.Types, args)
		for _, p := range f.Parameters {
			fld := &Field{JSONName: p.Name, Doc: p.Description, Required: p.Required}
			b.naming.Param(args, fld)
			fld.Type = b.ref(p.Schema, ToolParamPlace(fn, fld, p.Name))
			args.Fields = append(args.Fields, fld)
		}
		fn.Args = args
	}
	ret := f.Return
	if fn.Stream {
		ret = f.StreamData()
		if ret == nil {
			fn.Result = &TypeRef{Kind: RefMap, Elem: &TypeRef{Kind: RefAny}}
			return fn
		}
	}
	if ret != nil && ret.Schema != nil {
		fn.Result = b.ref(ret.Schema, ResultPlace(fn))
		if !b.isObject(ret.Schema) {
			fn.ResultName = ret.Name
		}
	}
	return fn
}

// isObject reports whether values of s are JSON objects (and so travel as the
// result itself rather than wrapped under the return's name).
func (b *builder) isObject(s *document.Schema) bool {
	r, err := b.doc.Resolve(s)
	return err == nil && r != nil && r.Type == document.TypeObject
}

// Contains reports whether list holds s.
func Contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// BreakValueCycles makes pointers of the required struct fields that would make
// a type contain itself by value (type Node struct{ Next Node }), so that
// recursive schemas give finite Go types. Fields are visited in declaration
// order, so the choice is deterministic.
//
// Only a field whose type is in the same strongly connected component of the
// Contains-by-value graph as its struct can close a cycle (making fields
// pointers only removes edges), so the search is confined to components: a
// chain of nested types costs linear time, not quadratic.
func BreakValueCycles(types []*Type) {
	comp := valueComponents(types)
	for _, t := range types {
		for _, f := range t.Fields {
			if f.Pointer {
				continue
			}
			if target := valueStruct(f.Type); target != nil && comp[target] == comp[t] && reaches(target, t, comp, map[*Type]bool{}) {
				f.Pointer = true
			}
		}
	}
}

// valueComponents numbers the strongly connected components of the graph in
// which a struct points to the structs its non-pointer fields contain by value
// (Tarjan's algorithm).
func valueComponents(types []*Type) map[*Type]int {
	index := map[*Type]int{}
	low := map[*Type]int{}
	onStack := map[*Type]bool{}
	comp := map[*Type]int{}
	var stack []*Type
	var visit func(t *Type)
	visit = func(t *Type) {
		index[t] = len(index) + 1
		low[t] = index[t]
		stack = append(stack, t)
		onStack[t] = true
		for _, f := range t.Fields {
			if f.Pointer {
				continue
			}
			next := valueStruct(f.Type)
			switch {
			case next == nil:
			case index[next] == 0:
				visit(next)
				low[t] = min(low[t], low[next])
			case onStack[next]:
				low[t] = min(low[t], index[next])
			}
		}
		if low[t] == index[t] {
			id := len(comp) + 1
			for {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[top] = false
				comp[top] = id
				if top == t {
					break
				}
			}
		}
	}
	for _, t := range types {
		if index[t] == 0 {
			visit(t)
		}
	}
	return comp
}

// valueStruct returns the struct type r embeds by value, or nil.
func valueStruct(r *TypeRef) *Type {
	if r.Kind != RefNamed {
		return nil
	}
	t := r.Named
	switch t.Kind {
	case KindStruct:
		return t
	case KindAlias, KindNamed:
		return valueStruct(t.Underlying)
	}
	return nil
}

// reaches reports whether from contains to by value (from == to included),
// looking only at the types of to's component.
func reaches(from, to *Type, comp map[*Type]int, seen map[*Type]bool) bool {
	if from == to {
		return true
	}
	if seen[from] {
		return false
	}
	seen[from] = true
	for _, f := range from.Fields {
		if f.Pointer {
			continue
		}
		if next := valueStruct(f.Type); next != nil && comp[next] == comp[to] && reaches(next, to, comp, seen) {
			return true
		}
	}
	return false
}

// MarkDecoders names the decode function of every type that arguments reach,
// or the JSON results of HTTP operations (CheckedResult), and of every type a generated UnmarshalJSON decodes with one (structs whose
// member names a struct tag cannot carry, which it marks, and unions), with
// everything those reach.
func MarkDecoders(p *Package) {
	var visitRef func(r *TypeRef)
	var visit func(t *Type)
	seen := map[*Type]bool{}
	visit = func(t *Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		if t.Kind != KindAlias { // an alias is decoded by its target's decoder
			t.Decoder = "decode" + t.Name
		}
		for _, f := range t.Fields {
			visitRef(f.Type)
		}
		for _, v := range t.Variants {
			visitRef(v.Type)
		}
		if t.Underlying != nil {
			visitRef(t.Underlying)
		}
	}
	visitRef = func(r *TypeRef) {
		switch r.Kind {
		case RefSlice, RefMap:
			visitRef(r.Elem)
		case RefNamed:
			visit(r.Named)
		}
	}
	for _, f := range p.Functions {
		if f.Args != nil {
			visit(f.Args)
		}
		if r := CheckedResult(f); r != nil {
			visitRef(r) // a client with strict responses decodes it
		}
	}
	for _, w := range p.Webhooks {
		if w.Fn.Args != nil {
			visit(w.Fn.Args) // the receiver decodes events as arguments
		}
	}
	for _, t := range p.Types {
		if t.Kind == KindUnion {
			visit(t) // UnmarshalJSON uses the decoder
		}
		if t.Kind == KindStruct {
			for _, f := range t.Fields {
				if !f.Embedded && !ValidTagName(f.JSONName) {
					t.CustomJSON = true
				}
			}
			if t.CustomJSON {
				visit(t) // UnmarshalJSON uses the decoder
			}
		}
	}
}
