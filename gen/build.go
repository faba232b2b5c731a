package gen

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// Names the generated package declares itself; types derived from the document
// never take them.
var reservedPackageNames = []string{"Service", "Client", "NewClient", "NewTool", "Document", "Declarations"}

// Method names every generated struct may carry; fields never take them.
var reservedFieldNames = []string{"MarshalJSON", "UnmarshalJSON"}

// builder turns an OpenTool document into the model. The document has been
// validated by runtime.LoadOpenTool: references resolve and do not loop.
type builder struct {
	doc     *runtime.OpenTool
	pkg     *Package
	types   *scope           // package-level identifiers
	schemas map[string]*Type // named types of doc.Schemas, by schema name
}

// buildOpenTool builds the model of an OpenTool document.
func buildOpenTool(doc *runtime.OpenTool, pkgName, source string) *Package {
	return buildOpenToolWith(doc, pkgName, source, nil, nil)
}

// buildOpenToolWith is buildOpenTool for a package that declares more names
// than an OpenTool package: types never take reservedTypes, function methods
// never take reservedMethods.
func buildOpenToolWith(doc *runtime.OpenTool, pkgName, source string, reservedTypes, reservedMethods []string) *Package {
	b := &builder{
		doc: doc,
		pkg: &Package{
			Name: pkgName, Source: source, Kind: "opentool",
			Title: doc.Info.Title, Version: doc.Info.Version, Doc: doc.Info.Description,
			Document: doc,
		},
		types:   newScope(append(append([]string(nil), reservedPackageNames...), reservedTypes...)...),
		schemas: map[string]*Type{},
	}
	// Schemas first: they own their names.
	for _, s := range doc.Schemas {
		t := &Type{Name: b.types.take(goNameOr(s.Name, "Schema")), Doc: s.Schema.Description}
		t.Origin = t.Name + " is the schema " + strconv.Quote(s.Name) + " of the document."
		b.schemas[s.Name] = t
		b.pkg.Types = append(b.pkg.Types, t)
	}
	for _, s := range doc.Schemas {
		b.defineSchema(b.schemas[s.Name], s.Schema)
	}
	methods := newScope(reservedMethods...)
	for i := range doc.Functions {
		b.pkg.Functions = append(b.pkg.Functions, b.function(&doc.Functions[i], methods))
	}
	breakValueCycles(b.pkg.Types)
	markDecoders(b.pkg)
	return b.pkg
}

// defineSchema gives a named schema its definition.
func (b *builder) defineSchema(t *Type, s *runtime.Schema) {
	if s.Ref != "" {
		t.Kind = KindAlias
		t.Underlying = b.ref(s, t.Name, "")
		return
	}
	switch {
	case s.Type == runtime.TypeObject && len(s.Properties) > 0:
		t.Kind = KindStruct
		t.Fields = b.fields(t.Name, s)
	case len(s.Enum) > 0 && (s.Type == runtime.TypeString || s.Type == runtime.TypeInteger || s.Type == runtime.TypeNumber):
		b.defineEnum(t, s)
	default:
		t.Kind = KindNamed
		t.Underlying = b.plain(s, t.Name, "the schema "+t.Name)
	}
}

// fields returns the fields of an object schema's properties.
func (b *builder) fields(owner string, s *runtime.Schema) []*Field {
	names := newScope(reservedFieldNames...)
	var out []*Field
	for _, p := range s.Properties {
		goName := names.take(goNameOr(p.Name, "Field"))
		f := &Field{Name: goName, JSONName: p.Name, Doc: p.Schema.Description, Required: contains(s.Required, p.Name)}
		f.Type = b.ref(p.Schema, owner+goName, "the "+strconv.Quote(p.Name)+" member of "+owner)
		f.Pointer = !f.Required && needsPointer(f.Type)
		out = append(out, f)
	}
	return out
}

// needsPointer reports whether an optional value of type r needs a pointer to be
// told apart from its zero value: everything but slices, maps and any, whose nil
// already means absent.
func needsPointer(r *TypeRef) bool {
	switch r.Kind {
	case RefSlice, RefMap, RefAny:
		return false
	case RefNamed:
		if r.Named.Kind == KindNamed || r.Named.Kind == KindAlias {
			return needsPointer(r.Named.Underlying)
		}
	}
	return true
}

// ref returns the type of a value described by s; hint names the types an
// inline object or enum needs.
func (b *builder) ref(s *runtime.Schema, hint, origin string) *TypeRef {
	if s == nil {
		return &TypeRef{Kind: RefAny}
	}
	if s.Ref != "" {
		name, _ := runtime.RefName(s.Ref)
		if t := b.schemas[name]; t != nil {
			return &TypeRef{Kind: RefNamed, Named: t}
		}
		return &TypeRef{Kind: RefAny} // unreachable after validation
	}
	switch {
	case s.Type == runtime.TypeObject && len(s.Properties) > 0:
		t := &Type{Name: b.types.take(hint), Doc: s.Description, Kind: KindStruct}
		t.Origin = t.Name + " is " + origin + "."
		b.pkg.Types = append(b.pkg.Types, t)
		t.Fields = b.fields(t.Name, s)
		return &TypeRef{Kind: RefNamed, Named: t}
	case len(s.Enum) > 0 && (s.Type == runtime.TypeString || s.Type == runtime.TypeInteger || s.Type == runtime.TypeNumber):
		t := &Type{Name: b.types.take(hint), Doc: s.Description}
		t.Origin = t.Name + " is " + origin + "."
		b.pkg.Types = append(b.pkg.Types, t)
		b.defineEnum(t, s)
		return &TypeRef{Kind: RefNamed, Named: t}
	}
	return b.plain(s, hint, origin)
}

// plain returns the type of a schema that needs no named type of its own.
func (b *builder) plain(s *runtime.Schema, hint, origin string) *TypeRef {
	switch s.Type {
	case runtime.TypeString:
		return &TypeRef{Kind: RefString}
	case runtime.TypeInteger:
		return &TypeRef{Kind: RefInt}
	case runtime.TypeNumber:
		return &TypeRef{Kind: RefFloat}
	case runtime.TypeBoolean:
		return &TypeRef{Kind: RefBool}
	case runtime.TypeArray:
		return &TypeRef{Kind: RefSlice, Elem: b.ref(s.Items, hint+"Item", "an element of "+origin)}
	case runtime.TypeObject:
		if len(s.Properties) > 0 {
			return b.ref(s, hint, origin)
		}
		if s.AdditionalProperties != nil {
			return &TypeRef{Kind: RefMap, Elem: b.ref(s.AdditionalProperties, hint+"Value", "a value of "+origin)}
		}
		return &TypeRef{Kind: RefMap, Elem: &TypeRef{Kind: RefAny}}
	}
	return &TypeRef{Kind: RefAny}
}

// defineEnum makes t an enum type with one constant per value of s.Enum.
func (b *builder) defineEnum(t *Type, s *runtime.Schema) {
	t.Kind = KindEnum
	switch s.Type {
	case runtime.TypeString:
		t.Underlying = &TypeRef{Kind: RefString}
	case runtime.TypeInteger:
		t.Underlying = &TypeRef{Kind: RefInt}
	default:
		t.Underlying = &TypeRef{Kind: RefFloat}
	}
	for i, v := range s.Enum {
		var suffix string
		var val any
		switch x := v.(type) {
		case string:
			suffix, val = camel(x), x
			switch {
			case x == "":
				suffix = "Empty"
			case suffix == "":
				suffix = "Value" + strconv.Itoa(i+1)
			}
		case json.Number:
			if n, err := x.Int64(); err == nil && s.Type == runtime.TypeInteger {
				val = n
				suffix = strings.Replace(strconv.FormatInt(n, 10), "-", "Minus", 1)
			} else {
				f, _ := x.Float64()
				val = f
				suffix = "Value" + strconv.Itoa(i+1)
			}
		case float64:
			if s.Type == runtime.TypeInteger {
				val = int64(x)
				suffix = strings.Replace(strconv.FormatInt(int64(x), 10), "-", "Minus", 1)
			} else {
				val = x
				suffix = "Value" + strconv.Itoa(i+1)
			}
		default:
			continue // rejected by the loader
		}
		t.Values = append(t.Values, EnumValue{Name: b.types.take(t.Name + suffix), Value: val})
	}
}

// function builds the model of one function.
func (b *builder) function(f *runtime.Function, methods *scope) *Function {
	fn := &Function{Name: f.Name, Doc: f.Description, Stream: f.IsStream()}
	fn.GoName = methods.take(goNameOr(f.Name, "Call"))
	if len(f.Parameters) > 0 {
		args := &Type{Name: b.types.take(fn.GoName + "Args"), Kind: KindStruct}
		args.Doc = args.Name + " are the arguments of " + strconv.Quote(f.Name) + "."
		b.pkg.Types = append(b.pkg.Types, args)
		names := newScope(reservedFieldNames...)
		for _, p := range f.Parameters {
			goName := names.take(goNameOr(p.Name, "Arg"))
			fld := &Field{Name: goName, JSONName: p.Name, Doc: p.Description, Required: p.Required}
			hint := goName
			if b.types.has(hint) {
				hint = fn.GoName + goName
			}
			fld.Type = b.ref(p.Schema, hint, "the "+strconv.Quote(p.Name)+" parameter of "+strconv.Quote(f.Name))
			fld.Pointer = !fld.Required && needsPointer(fld.Type)
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
		fn.Result = b.ref(ret.Schema, fn.GoName+"Result", "the result of "+strconv.Quote(f.Name))
		if !b.isObject(ret.Schema) {
			fn.ResultName = ret.Name
		}
	}
	return fn
}

// isObject reports whether values of s are JSON objects (and so travel as the
// result itself rather than wrapped under the return's name).
func (b *builder) isObject(s *runtime.Schema) bool {
	r, err := b.doc.Resolve(s)
	return err == nil && r != nil && r.Type == runtime.TypeObject
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// breakValueCycles makes pointers of the required struct fields that would make
// a type contain itself by value (type Node struct{ Next Node }), so that
// recursive schemas give finite Go types. Fields are visited in declaration
// order, so the choice is deterministic.
func breakValueCycles(types []*Type) {
	for _, t := range types {
		for _, f := range t.Fields {
			if f.Pointer {
				continue
			}
			if target := valueStruct(f.Type); target != nil && reaches(target, t, map[*Type]bool{}) {
				f.Pointer = true
			}
		}
	}
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

// reaches reports whether from contains to by value (from == to included).
func reaches(from, to *Type, seen map[*Type]bool) bool {
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
		if next := valueStruct(f.Type); next != nil && reaches(next, to, seen) {
			return true
		}
	}
	return false
}

// markDecoders names the decode function of every type that arguments reach,
// and of every type a generated UnmarshalJSON decodes with one (structs whose
// member names a struct tag cannot carry, which it marks, and unions), with
// everything those reach.
func markDecoders(p *Package) {
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
	}
	for _, t := range p.Types {
		if t.Kind == KindUnion {
			visit(t) // UnmarshalJSON uses the decoder
		}
		if t.Kind == KindStruct {
			for _, f := range t.Fields {
				if !validTagName(f.JSONName) {
					t.CustomJSON = true
				}
			}
			if t.CustomJSON {
				visit(t) // UnmarshalJSON uses the decoder
			}
		}
	}
}

// validTagName reports whether encoding/json can carry name in a struct tag.
func validTagName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case c == ',' || c == '"' || c == '\\' || c == '`' || c == '\'':
			return false
		case !isLetterOrDigit(c):
			return false
		}
	}
	return true
}
