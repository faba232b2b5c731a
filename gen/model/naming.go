package model

import (
	"go/token"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// The names of a package: a builder (the OpenAPI loader, FromOpenTool)
// knows its format and nothing of Go, so it makes no identifier. It records,
// in a Naming, each thing that needs one (a type, a field, a variant, a
// method, an enum's constants, a client option, the variable of a pattern)
// in the order it meets them, with the document's words: the name of a
// schema, member, parameter, scheme or operation, and for a type that has no
// name of its own its Place (the member of that type, the request body of
// that function, an element of that place…). Name then makes every
// identifier, in that order, with GoName and Scope: a name taken first is
// kept and a later one gets a number, as the builder met them, so that the
// names depend on the document alone.

// Naming is the list of the Go names a loader asks for, in the order it
// asks (Package.Naming); its zero value is empty and ready to use. Name makes
// the names.
type Naming struct {
	reqs []nameRequest
}

// nameKind says what a nameRequest names.
type nameKind uint8

const (
	nameSchema    nameKind = iota // the type of a named schema: typ, word
	nameType                      // a type with no name of its own: typ, at the *Place
	nameArgs                      // the argument struct typ of the *Function
	nameConsts                    // the constants of the enum type typ
	nameMember                    // the *Field of a member of typ
	nameParam                     // the *Field of a parameter in typ
	nameBody                      // the *Field of a whole request body in typ
	nameVariant                   // the *Variant of typ
	nameMethod                    // the *Function's method, from word
	nameOption                    // the client option of the *SecurityScheme
	namePattern                   // the variable of the pattern of the *Constraints
	nameServerVar                 // the client option (and enum type) of the *ServerVariable
	nameServers                   // the type and constants of the *API's Servers
	nameNullFlag                  // the null flag of the *Field of typ
	nameHeaders                   // the response type typ and the method of the *Function
	nameWebhook                   // the receiver's method and event type of the *Webhook (webhooks.go)
	namePaging                    // the iterator method of the *Function's Paging
	nameEmbed                     // the embedded *Field of typ (Field.Embedded) and its type's BodySender
	nameShared                    // typ again, used at the []*Place: after the shortest name of them
)

// nameRequest is one name asked for: one of a loader's thousands, so small.
type nameRequest struct {
	kind nameKind
	typ  *Type
	of   any // the *Place, *Function, *Field, *Variant or *SecurityScheme
	word string
	// title is the title of the schema of a shared type (nameShared).
	title string
}

func (n *Naming) add(r nameRequest) { n.reqs = append(n.reqs, r) }

// Schema asks for the name of t, the type of the schema the document names
// name.
func (n *Naming) Schema(t *Type, name string) {
	n.add(nameRequest{kind: nameSchema, typ: t, word: name})
}

// Type asks for the name of t, the type of the value at a place.
func (n *Naming) Type(t *Type, at *Place) { n.add(nameRequest{kind: nameType, typ: t, of: at}) }

// Args asks for the name of t, the struct of fn's arguments (its doc too).
func (n *Naming) Args(fn *Function, t *Type) { n.add(nameRequest{kind: nameArgs, typ: t, of: fn}) }

// Enum makes t the enum type of the values of s (of type string, integer or
// number) and asks for the names of its constants.
func (n *Naming) Enum(t *Type, s *document.Schema) {
	enumValues(t, s)
	n.add(nameRequest{kind: nameConsts, typ: t})
}

// Member asks for the name of the field f of the struct owner that carries
// the member f.JSONName.
func (n *Naming) Member(owner *Type, f *Field) {
	n.add(nameRequest{kind: nameMember, typ: owner, of: f})
}

// Param asks for the name of the field f of the argument struct owner that
// carries the parameter f.JSONName.
func (n *Naming) Param(owner *Type, f *Field) {
	n.add(nameRequest{kind: nameParam, typ: owner, of: f})
}

// Body asks for the name of the field f of the argument struct owner that
// carries a whole request body.
func (n *Naming) Body(owner *Type, f *Field) {
	n.add(nameRequest{kind: nameBody, typ: owner, of: f})
}

// Variant asks for the name of the variant v of the union owner (named after
// its type).
func (n *Naming) Variant(owner *Type, v *Variant) {
	n.add(nameRequest{kind: nameVariant, typ: owner, of: v})
}

// Method asks for the Go name of fn, made from the document's name of the
// function (an operationId, else its name on the wire).
func (n *Naming) Method(fn *Function, name string) {
	n.add(nameRequest{kind: nameMethod, of: fn, word: name})
}

// Option asks for the name of the client option of a security scheme, made
// from the scheme's name.
func (n *Naming) Option(s *SecurityScheme) { n.add(nameRequest{kind: nameOption, of: s}) }

// ServerVariable asks for the name of the client option that sets the
// variable v of the server's URL, made from the variable's name, and when v
// has an enum makes v.Type the type of its values and asks for the names of
// the type and its constants.
func (n *Naming) ServerVariable(v *ServerVariable) {
	if len(v.Enum) > 0 {
		values := make([]any, len(v.Enum))
		for i, e := range v.Enum {
			values[i] = e
		}
		v.Type = &Type{}
		enumValues(v.Type, &document.Schema{Type: document.TypeString, Enum: values})
	}
	n.add(nameRequest{kind: nameServerVar, of: v})
}

// Servers asks for the name of api.ServerType and of the constant of each
// of api.Servers, made from the server's description when it is a short
// name ("Production", "EU sandbox"), else from its URL.
func (n *Naming) Servers(api *API) { n.add(nameRequest{kind: nameServers, of: api}) }

// Headers asks for the name of t, the struct of the body and headers of the
// response of fn (Operation.Headers), and of the method that returns it;
// the names of its fields are asked for with Member after.
func (n *Naming) Headers(fn *Function, t *Type) {
	n.add(nameRequest{kind: nameHeaders, typ: t, of: fn})
}

// Embed asks for the name of the field f of the argument struct owner that
// embeds the struct of a request body (Field.Embedded): its type's name,
// which the field must have; and for the name of that type's BodySender.
func (n *Naming) Embed(owner *Type, f *Field) {
	n.add(nameRequest{kind: nameEmbed, typ: owner, of: f})
}

// Shared says that t, named at the first of places (Type, then Enum for its
// constants), is the type of the other places too (an OpenAPI document's
// inline schemas alike); title is its schema's title, if any.
//
// A type that places of several operations share is named for none of
// them (sharedName): after its title, else the component all its responses
// come through (Place.Via), else what it is (the schema types or members
// of its fields, an enum's parameter), with the role of its first place
// (Result, Response, Body); only when all these are taken, after its first
// place, then with more of its context (Place.take), then with a number. Its name depends on its own schema, never on
// an unrelated operation.
//
// A type the places of one operation, or only of other types, share is
// named after the shortest of their names (the least in byte order among
// the shortest), whichever place comes first, so that its name changes
// only when a use with a shorter name comes; the name it had stays taken.
// With rename false, it keeps its first place's name (the types named
// after it would not follow), and only its doc says it is shared.
//
// Ask for it after every other name.
func (n *Naming) Shared(t *Type, places []*Place, rename bool, title string) {
	r := nameRequest{kind: nameShared, typ: t, of: places, title: title}
	if rename {
		r.word = "rename"
	}
	n.add(r)
}

// Paging asks for the name of the iterator method of fn's Paging (FAll).
func (n *Naming) Paging(fn *Function) { n.add(nameRequest{kind: namePaging, of: fn}) }

// NullFlag asks for the name of the bool field of owner that sends null for
// the optional nullable argument f (Field.NullFlag), made from f's name.
func (n *Naming) NullFlag(owner *Type, f *Field) {
	n.add(nameRequest{kind: nameNullFlag, typ: owner, of: f})
}

// Pattern asks for the variable that holds the compiled c.Pattern (one per
// distinct pattern, in Package.Patterns).
func (n *Naming) Pattern(c *Constraints) { n.add(nameRequest{kind: namePattern, of: c}) }

// Name completes a model built: it makes the names its builder asked for
// (p.Naming, in the order it asked), then what follows from them (complete:
// pointers, decoders, the methods of every function). The OpenAPI loader
// calls it; FromOpenTool and FromOpenDyn call it on the models they build.
func Name(p *Package) {
	if n := p.Naming; n != nil {
		p.Naming = nil
		n.name(p)
	}
	complete(p)
}

// complete decides what follows from a model built and named, whoever built
// it: pointers (decidePointers, BreakValueCycles), decoders, the methods of
// every function. Every function's arguments are a struct of its own, named
// for it, even when another function's have the same fields: an alias of
// another operation's struct would show no fields in go doc and carry the
// other operation's name.
func complete(p *Package) {
	decidePointers(p)
	BreakValueCycles(p.Types)
	MarkDecoders(p)
	NameMethods(p)
}

// name makes the names asked for, in order: package-level identifiers in one
// scope (never the names the package's files declare), methods in another,
// fields and variants in one per struct or union.
func (n *Naming) name(p *Package) {
	var types, methods *Scope
	switch p.Kind {
	case PackageOpenAPI:
		types, methods = NewScope(reservedOpenAPINames...), NewScope()
	case PackageOpenDyn:
		types = NewScope(append(append([]string(nil), reservedPackageNames...), reservedOpenDynNames...)...)
		methods = NewScope(reservedLibraryMethods...)
	default:
		types, methods = NewScope(reservedPackageNames...), NewScope()
	}
	members := map[*Type]*Scope{}
	hooks := NewScope()             // the methods of the webhooks' receiver
	patterns := map[string]string{} // pattern → variable
	scope := func(owner *Type, reserved []string) *Scope {
		s := members[owner]
		if s == nil {
			s = NewScope(reserved...)
			members[owner] = s
		}
		return s
	}
	// The document's schemas are named first: a schema's name is the one a
	// developer looks for, so a name made from a place yields to it.
	shared := map[*Type]*nameRequest{}
	for i := range n.reqs {
		r := &n.reqs[i]
		switch r.kind {
		case nameSchema:
			r.typ.Name = types.Take(GoNameOr(r.word, "Schema"))
			r.typ.Schema = r.word
			r.typ.Origin = r.typ.Name + " is the schema " + strconv.Quote(r.word) + " of the document."
		case nameShared:
			if places := r.of.([]*Place); acrossOperations(places) {
				shared[r.typ] = r
			}
		}
	}
	p.ServiceName = "Service"
	if types.Has(p.ServiceName) {
		p.ServiceName = "ToolService"
	}
	p.ServiceName = types.Take(p.ServiceName)
	for i := range n.reqs {
		r := &n.reqs[i]
		switch r.kind {
		case nameType:
			at := r.of.(*Place)
			at.make(types)
			if sr := shared[r.typ]; sr != nil {
				r.typ.Name = sharedName(types, r.typ, at, sr.of.([]*Place), sr.title)
			} else {
				r.typ.Name = at.take(types, r.typ)
			}
			r.typ.Origin = r.typ.Name + " is " + at.origin + "."
		case nameArgs:
			t, fn := r.typ, r.of.(*Function)
			t.Name = types.Take(fn.GoName + "Args")
			t.Doc = t.Name + " are the arguments of " + strconv.Quote(fn.Name)
			if fn.HTTP != nil {
				t.Doc += " (" + fn.HTTP.Method + " " + fn.HTTP.Path + ")"
			}
			t.Doc += "."
		case nameConsts:
			nameValues(types, r.typ)
		case nameMember, nameParam, nameBody:
			f := r.of.(*Field)
			f.Name = scope(r.typ, reservedFieldNames).Take(GoNameOr(f.JSONName, fieldFallback[r.kind]))
		case nameVariant:
			v := r.of.(*Variant)
			v.Name = scope(r.typ, reservedVariantNames).Take(variantName(v.Type))
		case nameMethod:
			fn := r.of.(*Function)
			fn.GoName = methods.Take(GoNameOr(r.word, "Call"))
		case nameOption:
			sc := r.of.(*SecurityScheme)
			sc.Option = types.Take("With" + GoNameOr(schemeWord(sc.Name), "Credential"))
			if sc.ClientCredentials != nil {
				sc.FlowOption = types.Take(sc.Option + "ClientCredentials")
			}
		case nameServerVar:
			v := r.of.(*ServerVariable)
			v.Option = types.Take("WithServer" + GoNameOr(v.Name, "Variable"))
			if t := v.Type; t != nil {
				t.Name = types.Take("Server" + GoNameOr(v.Name, "Variable"))
				t.Doc = t.Name + " is a value of the variable " + strconv.Quote(v.Name) + " of the server's URL, for " + v.Option + "."
				nameValues(types, t)
			}
		case nameServers:
			nameServerConsts(types, r.of.(*API))
		case nameShared:
			if shared[r.typ] != nil {
				describeShared(types, r.typ, r.of.([]*Place))
			} else {
				renameShared(types, r.typ, r.of.([]*Place), r.word == "rename")
			}
		case nameEmbed:
			nameEmbedded(p, types, scope(r.typ, reservedFieldNames), r.typ, r.of.(*Field))
		case nameNullFlag:
			f := r.of.(*Field)
			f.NullFlag = scope(r.typ, reservedFieldNames).Take(f.Name + "Null")
		case nameHeaders:
			fn := r.of.(*Function)
			r.typ.Name = types.Take(fn.GoName + "Response")
			r.typ.Doc = r.typ.Name + " is the response of " + fn.GoName + ": its body and the headers the document declares."
			fn.HTTP.HeadersMethod = methods.Take(fn.GoName + "WithHeaders")
			scope(r.typ, append([]string{"Body"}, reservedFieldNames...))
		case nameWebhook:
			makeWebhookNames(types, hooks, r.of.(*Webhook), r.word)
		case namePaging:
			fn := r.of.(*Function)
			fn.HTTP.Paging.Method = methods.Take(fn.GoName + "All")
			fn.HTTP.Paging.Gather = "gather" + fn.GoName
		case namePattern:
			namePatternVar(p, patterns, r.of.(*Constraints))
		}
	}
}

// renameShared names t, which the places use, after the shortest name of
// theirs (Naming.Shared), and its constants after it.
func renameShared(types *Scope, t *Type, places []*Place, rename bool) {
	best := places[0]
	own := best.operation() == nil // then not named after an operation's place
	for _, p := range places {
		p.make(types)
		if own && p.operation() != nil {
			continue
		}
		if rename && (len(p.hint) < len(best.hint) || len(p.hint) == len(best.hint) && p.hint < best.hint) {
			best = p
		}
	}
	if best != places[0] {
		t.Name = best.take(types, t)
		nameValues(types, t)
	}
	t.Origin = t.Name + " is " + best.origin + "; " + otherPlaces(len(places)-1)
}

// describeShared says in t's doc that the places of several operations
// share it (sharedName named it).
func describeShared(types *Scope, t *Type, places []*Place) {
	for _, p := range places {
		p.make(types)
	}
	fns := map[*Function]bool{}
	for _, p := range places {
		if fn := p.operation(); fn != nil {
			fns[fn] = true
		}
	}
	t.Origin = t.Name + " is " + places[0].origin + "; " + otherPlaces(len(places)-1)
	if len(fns) > 1 {
		t.Origin = strings.TrimSuffix(t.Origin, ".") + ", in " + strconv.Itoa(len(fns)) + " operations in all."
	}
}

// otherPlaces says that n other places use a shared type.
func otherPlaces(n int) string {
	if n == 1 {
		return "one other place with the same schema uses it too."
	}
	return strconv.Itoa(n) + " other places with the same schema use it too."
}

// acrossOperations reports whether places, the first in an operation, are
// in several operations or in an operation and elsewhere: a type they share
// is named for none of them. (A type first met in a named schema is named
// after the places outside operations: renameShared.)
func acrossOperations(places []*Place) bool {
	if places[0].operation() == nil {
		return false
	}
	var first *Function
	other := false
	for _, p := range places {
		fn := p.operation()
		switch {
		case fn == nil:
			other = true
		case first == nil:
			first = fn
		case fn != first:
			return true
		}
	}
	return other
}

// sharedName is the name of t, which the places of several operations
// share (Naming.Shared), asked for at the first of them, at: the first
// free of its title, the component of its responses, a name made from what
// it is with at's role, the same with more of its fields; else at's own
// name (Place.take: with more context, then numbered, when taken).
func sharedName(types *Scope, t *Type, at *Place, places []*Place, title string) string {
	var cands []string
	role := at.role()
	if title != "" {
		cands = append(cands, GoName(title), GoName(title)+role)
	}
	if via := commonVia(places); via != "" {
		cands = append(cands, GoName(via), GoName(via)+role)
	}
	if w := at.paramWord(); w != "" {
		cands = append(cands, w)
	}
	if subj := shapeWords(t, 1); subj != "" {
		cands = append(cands, subj+role)
	}
	if subj := shapeWords(t, 3); subj != "" {
		cands = append(cands, subj+role)
	}
	for _, c := range cands {
		if c != "" && c != role && !types.Has(BoundName(c)) {
			return types.Take(c)
		}
	}
	return at.take(types, t)
}

// commonVia is the component that every place in an operation comes
// through (Place.Via), or "".
func commonVia(places []*Place) string {
	via := ""
	for _, p := range places {
		if p.operation() == nil {
			continue
		}
		if p.via == "" || via != "" && p.via != via {
			return ""
		}
		via = p.via
	}
	return via
}

// shapeWords names what the struct, union or enum t is, for a type shared
// by several operations: the name of the schema type of its first field
// that has one (with List for an array, Map for a map), else the names of
// its first n fields; the schema types of its first n variants, joined by
// Or; "" when it has neither. With n > 1 it says more: the fields' schema
// types or names, up to n of them.
func shapeWords(t *Type, n int) string {
	var b strings.Builder
	switch t.Kind {
	case KindStruct:
		if n == 1 {
			for _, f := range t.Fields {
				if w := schemaRefWord(f.Type); w != "" {
					return w
				}
			}
			if len(t.Fields) > 0 {
				return GoName(t.Fields[0].JSONName)
			}
			return ""
		}
		for i, f := range t.Fields {
			if i == n {
				break
			}
			w := schemaRefWord(f.Type)
			if w == "" {
				w = GoName(f.JSONName)
			}
			b.WriteString(w)
		}
	case KindUnion:
		for i, v := range t.Variants {
			w := schemaRefWord(v.Type)
			if w == "" {
				return ""
			}
			if i == max(n, 2) {
				break
			}
			if i > 0 {
				b.WriteString("Or")
			}
			b.WriteString(w)
		}
	}
	return b.String()
}

// schemaRefWord is the name of the document's schema that r refers to (with
// List for an array of it, Map for a map of it), or "".
func schemaRefWord(r *TypeRef) string {
	suffix := ""
	for ; r != nil; r = r.Elem {
		switch r.Kind {
		case RefSlice:
			suffix = "List" + suffix
			continue
		case RefMap:
			suffix = "Map" + suffix
			continue
		case RefNamed:
			if r.Named.Schema != "" && r.Named.Name != "" {
				return r.Named.Name + suffix
			}
		}
		return ""
	}
	return ""
}

// nameEmbedded names the field f of the arguments args that embeds a
// request body's struct (Field.Embedded): its name is the struct's, unless a
// parameter has taken it (fields is the scope of args' fields), when f
// embeds an alias of the struct named after args ("UpdateUserArgsBody").
func nameEmbedded(p *Package, types, fields *Scope, args *Type, f *Field) {
	body := f.Type.Named
	if body.BodySender == "" {
		body.BodySender = "send" + body.Name
	}
	if !fields.Has(body.Name) {
		f.Name = fields.Take(body.Name)
		return
	}
	name := types.Take(args.Name + "Body")
	for fields.Has(name) {
		name = types.Take(args.Name + "Body")
	}
	alias := &Type{Name: name, Kind: KindAlias, Underlying: &TypeRef{Kind: RefNamed, Named: body}}
	alias.Doc = name + " is " + body.Name + ", under the name that " + args.Name + " embeds it by: a parameter has the name " + body.Name + "."
	p.Types = append(p.Types, alias)
	f.Type = &TypeRef{Kind: RefNamed, Named: alias}
	f.Name = fields.Take(name)
}

// nameServerConsts names api.ServerType and the constant of each of its servers.
func nameServerConsts(types *Scope, api *API) {
	api.ServerType = types.Take("Server")
	for i, sv := range api.Servers {
		// The type's name leads: no X before a digit (Server127001).
		name := api.ServerType + Camel(serverWord(sv))
		if name == api.ServerType || !token.IsIdentifier(name) {
			name = api.ServerType + "Index" + strconv.Itoa(i)
		}
		sv.Const = types.Take(name)
	}
}

// namePatternVar gives c's pattern its package variable: one per distinct
// pattern (patterns: pattern → variable), pattern1, pattern2… in the order
// first asked.
func namePatternVar(p *Package, patterns map[string]string, c *Constraints) {
	v, ok := patterns[c.Pattern]
	if !ok {
		v = "pattern" + strconv.Itoa(len(patterns)+1)
		patterns[c.Pattern] = v
		p.Patterns = append(p.Patterns, PatternVar{Name: v, Expr: c.Pattern})
	}
	c.PatternVar = v
}

// serverWord is what the constant that chooses a server is named after: its
// description when that is a short name (at most four words, 32 bytes),
// else its URL without the scheme and variables.
func serverWord(sv *Server) string {
	d := strings.TrimSuffix(strings.TrimSpace(sv.Doc), ".")
	if d != "" && len(d) <= 32 && len(strings.Fields(d)) <= 4 && !strings.ContainsAny(d, "\n:/") {
		return d
	}
	u := sv.URL
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	var b strings.Builder
	depth := 0
	for _, r := range u {
		switch {
		case r == '{':
			depth++
		case r == '}':
			depth = max(depth-1, 0)
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// schemeWord is what a security scheme's client option is named after: its
// name without the minor version a version ends with (oauth_2_0 and
// OAuth2.0 → OAuth2, so WithOAuth2, not WithOAuth20).
func schemeWord(name string) string {
	ws := Words(name)
	for len(ws) > 1 && strings.Trim(ws[len(ws)-1], "0") == "" && strings.ContainsAny(ws[len(ws)-2][len(ws[len(ws)-2])-1:], "0123456789") {
		ws = ws[:len(ws)-1]
	}
	return strings.Join(ws, " ")
}

// fieldFallback is the name of a field whose document name has no letter
// or digit.
var fieldFallback = [...]string{nameMember: "Field", nameParam: "Arg", nameBody: "Body"}

// variantName is the name of a union's variant: its type's.
func variantName(r *TypeRef) string {
	switch r.Kind {
	case RefNamed:
		return r.Named.Name
	case RefString:
		return "String"
	case RefInt:
		return "Int"
	case RefFloat:
		return "Float"
	case RefBool:
		return "Bool"
	case RefSlice:
		return "Array"
	case RefMap:
		return "Object"
	case RefTime:
		return "Time"
	case RefDate:
		return "Date"
	case RefBytes:
		return "Bytes"
	}
	return "Value"
}

// A Place is where a value sits in the document, said in the document's
// words and relative to things that have names (a type, a function, a field):
// a type made for a value that has no name of its own is named after its
// place (Naming.Type), and its doc comment says it (Type.Origin). A place
// refers to its parent, whose names are made before its own are needed.
type Place struct {
	kind  placeKind
	n     int // placeVariant: the variant's number; placeResponse: 1 for a success
	typ   *Type
	fn    *Function
	field *Field
	up    *Place
	word  string // the parameter, the member, the status
	via   string // placeResponse: the component response it comes through
	// hint and origin are made once, when the place is first named after;
	// full is hint before NestedName shortened it (the parent's whole
	// name and the member's), for take.
	hint, origin, full string
	made               bool
}

type placeKind uint8

const (
	placeSchema     placeKind = iota // the definition of the named schema typ
	placeMember                      // the member field of the struct typ
	placeVariant                     // variant n of the union typ
	placeParam                       // the parameter word of fn, carried by field
	placeToolParam                   // the parameter word of the tool fn, carried by field
	placeResult                      // the result of the tool fn
	placeBody                        // the request body of fn
	placeBodyMember                  // the member word of fn's request body, carried by field
	placeResponse                    // the response word (a status) of fn
	placeItem                        // an element of the array at up
	placeValue                       // a value of the map at up
)

// SchemaPlace is the definition of the named schema whose type is t.
func SchemaPlace(t *Type) *Place { return &Place{kind: placeSchema, typ: t} }

// MemberPlace is the member f.JSONName of the object whose struct is owner,
// carried by its field f.
func MemberPlace(owner *Type, f *Field) *Place {
	return &Place{kind: placeMember, typ: owner, field: f}
}

// VariantPlace is the alternative number n (from 1) of the union owner.
func VariantPlace(owner *Type, n int) *Place { return &Place{kind: placeVariant, typ: owner, n: n} }

// ParamPlace is the parameter named param of the function fn, carried by
// the field f of its arguments.
func ParamPlace(fn *Function, f *Field, param string) *Place {
	return &Place{kind: placeParam, fn: fn, field: f, word: param}
}

// ToolParamPlace is the parameter named param of the function fn of a tool
// (OpenTool), carried by the field f of its arguments: its types are named
// after the field alone while that name is free (a tool's parameters are
// few and tell what they are), else after the function and the field.
func ToolParamPlace(fn *Function, f *Field, param string) *Place {
	return &Place{kind: placeToolParam, fn: fn, field: f, word: param}
}

// ResultPlace is the result of the function fn of a tool (OpenTool).
func ResultPlace(fn *Function) *Place { return &Place{kind: placeResult, fn: fn} }

// BodyPlace is the request body of the function fn.
func BodyPlace(fn *Function) *Place { return &Place{kind: placeBody, fn: fn} }

// BodyMemberPlace is the member of the request body of fn, carried by the
// field f of its arguments.
func BodyMemberPlace(fn *Function, f *Field, member string) *Place {
	return &Place{kind: placeBodyMember, fn: fn, field: f, word: member}
}

// ResponsePlace is the body of fn's response of a status ("200", "4XX",
// "default"), a success or not.
func ResponsePlace(fn *Function, status string, success bool) *Place {
	p := &Place{kind: placeResponse, fn: fn, word: status}
	if success {
		p.n = 1
	}
	return p
}

// Via records that the response at p is the component response of that
// name (a $ref to #/components/responses/name): a type all the
// operations' responses through it share is named after it.
func (p *Place) Via(component string) *Place {
	p.via = component
	return p
}

// operation is the function p is in (through the elements and values it
// nests in), nil for a place in a named schema or another type.
func (p *Place) operation() *Function {
	for p.up != nil {
		p = p.up
	}
	switch p.kind {
	case placeParam, placeToolParam, placeResult, placeBody, placeBodyMember, placeResponse:
		return p.fn
	}
	return nil
}

// role is the word that says what the type at p is, in a name of its own:
// Result for a success (or a tool's result), Response for another
// response, Body for a request body, "" elsewhere.
func (p *Place) role() string {
	for p.up != nil {
		p = p.up
	}
	switch p.kind {
	case placeResult:
		return "Result"
	case placeResponse:
		if p.n == 1 {
			return "Result"
		}
		return "Response"
	case placeBody:
		return "Body"
	}
	return ""
}

// paramWord is the name a type of the parameter (or request body member) at
// p takes without its function's: the field's, with Item or Value for an
// element or value nested in it; "" for other places.
func (p *Place) paramWord() string {
	suffix := ""
	for ; p.up != nil; p = p.up {
		if p.kind == placeItem {
			suffix = "Item" + suffix
		} else {
			suffix = "Value" + suffix
		}
	}
	switch p.kind {
	case placeParam, placeToolParam, placeBodyMember:
		return GoNameOr(p.field.JSONName, "Arg") + suffix
	}
	return ""
}

// Item is the place of the elements of the array at p.
func (p *Place) Item() *Place { return &Place{kind: placeItem, up: p} }

// Value is the place of the values of the map at p.
func (p *Place) Value() *Place { return &Place{kind: placeValue, up: p} }

// make makes the name wanted for a type at p (hint) and the words that say
// where p is (origin), from the names of what p is relative to; types is
// the scope of the package's names as it is when p is first named after.
func (p *Place) make(types *Scope) {
	if p.made {
		return
	}
	p.made = true
	switch p.kind {
	case placeSchema:
		p.hint, p.origin = p.typ.Name, "the schema "+p.typ.Name
	case placeMember:
		p.hint, p.full = NestedName(types, p.typ.Name, p.field.Name), p.typ.Name+p.field.Name
		p.origin = "the " + strconv.Quote(p.field.JSONName) + " member of " + p.typ.Name
	case placeVariant:
		n := strconv.Itoa(p.n)
		p.hint, p.origin = NestedName(types, p.typ.Name, "Variant"+n), "variant "+n+" of "+p.typ.Name
		p.full = p.typ.Name + "Variant" + n
	case placeParam:
		p.hint = p.fn.GoName + p.field.Name
		p.origin = "the " + strconv.Quote(p.word) + " parameter of " + strconv.Quote(p.fn.Name)
	case placeToolParam:
		p.hint = p.field.Name
		if types.Has(p.hint) {
			p.hint = p.fn.GoName + p.field.Name
		}
		p.origin = "the " + strconv.Quote(p.word) + " parameter of " + strconv.Quote(p.fn.Name)
	case placeResult:
		p.hint, p.origin = p.fn.GoName+"Result", "the result of "+strconv.Quote(p.fn.Name)
	case placeBody:
		p.hint, p.origin = p.fn.GoName+"Body", "the request body of "+strconv.Quote(p.fn.Name)
	case placeBodyMember:
		p.hint = p.fn.GoName + p.field.Name
		p.origin = "the " + strconv.Quote(p.word) + " member of the request body of " + strconv.Quote(p.fn.Name)
	case placeResponse:
		p.hint = p.fn.GoName + "Result"
		if p.n == 0 {
			p.hint = p.fn.GoName + GoName(strings.ToLower(p.word)) + "Response"
		}
		p.origin = "the " + p.word + " response of " + strconv.Quote(p.fn.Name)
	case placeItem:
		p.up.make(types)
		p.hint, p.origin = NestedName(types, p.up.hint, "Item"), NestedOrigin("an element of ", p.up.origin)
		p.full = p.up.full + "Item"
	case placeValue:
		p.up.make(types)
		p.hint, p.origin = NestedName(types, p.up.hint, "Value"), NestedOrigin("a value of ", p.up.origin)
		p.full = p.up.full + "Value"
	}
	if p.full == "" {
		p.full = p.hint
	}
}

// take takes the name of a type at p in types: its hint, or when another
// type has taken it, a name with more of its context (take's
// contextName: more of the parent's words, BusinessHoursCustomHoursItem
// then HandlingBusinessHoursCustomHoursItem), and only when none is free,
// for a union t the hint with Union (kindName), then the hint with a
// number.
func (p *Place) take(types *Scope, t *Type) string {
	if types.Has(BoundName(p.hint)) {
		if name := contextName(types, p.full, p.hint); name != "" {
			return types.Take(name)
		}
		if name := kindName(p.hint, t); name != "" && !types.Has(BoundName(name)) {
			return types.Take(name)
		}
	}
	return types.Take(p.hint)
}

// kindName is the name of the union t at a place whose name (hint) is
// taken, when no name with more context is free: the hint with Union, ""
// for another kind. Its name is most often taken by one of its own
// variants, a component named like the place (the member "acss_debit" of
// PaymentOptions, anyOf the schema payment_options_acss_debit or another),
// whose parents have no more words to add; PaymentOptionsAcssDebitUnion
// says the type is the choice of which PaymentOptionsAcssDebit is one
// variant, where PaymentOptionsAcssDebit2 would read as a second version
// of it.
func kindName(hint string, t *Type) string {
	if t == nil || t.Kind != KindUnion {
		return ""
	}
	return hint + "Union"
}

// contextName is the shortest name free in types that ends full (a type's
// name with all its parents' words), starts where a word of it does, is
// longer than hint and within maxNestedName bytes; "" when there is none.
func contextName(types *Scope, full, hint string) string {
	rs := []rune(full)
	for i := len(rs) - 1; i > 0; i-- {
		if !wordStart(rs, i) {
			continue
		}
		name := string(rs[i:])
		if len(name) > maxNestedName {
			break
		}
		if r, _ := utf8.DecodeRuneInString(name); len(name) > len(hint) && unicode.IsUpper(r) && !types.Has(name) {
			return name
		}
	}
	return ""
}
