// Package declare writes the functions of an OpenTool document as the tool
// declarations an LLM provider takes: OpenAI's and Anthropic's (strict or
// not), Gemini's and MCP's ([Profile]), each in the provider's schema dialect
// and within its documented limits ([Limit]). Generated packages call it from
// their Declarations function and method; runtime's [runtime.Declarations] is
// the plain, provider-neutral view.
//
// It uses the standard library and package runtime only.
package declare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// Profile names the form in which an LLM provider takes tool declarations.
// [Functions] writes a document's functions in one; every profile writes the
// schemas in the provider's dialect (JSON Schema, or Gemini's OpenAPI subset),
// never OpenAPI's: no "nullable" outside Gemini (a type union with "null"
// instead), no "example", "discriminator", "xml" or "externalDocs".
type Profile string

// The profiles [Functions] writes.
const (
	// OpenAI is OpenAI's function tools:
	// [{"type":"function","function":{"name","description","parameters"}}].
	OpenAI Profile = "openai"
	// OpenAIStrict is OpenAI with "strict": true and OpenAI's
	// strict subset of JSON Schema: every object closed (additionalProperties
	// false) with every property required, an optional one as a union with
	// null (a generated Tool decodes null for an optional argument as absent);
	// keywords strict mode lacks (minLength, maxLength, default, most formats)
	// move into the description. A function strict mode cannot express (a map,
	// a value of any type) is declared with "strict": false and a warning.
	// A strict model sends null for each optional argument it leaves out;
	// generated Tools decode it as absent, but an explicit null is a value
	// for WithDefaults (the agent platforms' rule), so a defaulted argument
	// sent as null does not take its default.
	OpenAIStrict Profile = "openai-strict"
	// Anthropic is Anthropic's tools: [{"name","description","input_schema"}].
	Anthropic Profile = "anthropic"
	// AnthropicStrict is Anthropic with "strict": true and the
	// limits of Anthropic's strict tool use: objects closed, no numeric or
	// length bounds (moved into the description), minItems 0 or 1 only, no
	// recursive schemas (such a function is declared without "strict", with a
	// warning), at most 20 strict tools, 24 optional parameters and 16
	// parameters with a union type in all.
	AnthropicStrict Profile = "anthropic-strict"
	// Gemini is Gemini's tools: [{"functionDeclarations":[{"name",
	// "description","parameters"}]}], parameters in its OpenAPI-subset Schema:
	// upper-case types, "nullable", references inlined (a recursive one is
	// described and cut), no additionalProperties (a map is described), oneOf
	// as anyOf.
	Gemini Profile = "gemini"
	// MCP is the "tools" member of an MCP tools/list result:
	// [{"name","description","inputSchema","outputSchema"}], JSON Schema
	// 2020-12.
	MCP Profile = "mcp"
)

// Profiles lists every profile [Functions] writes.
func Profiles() []Profile {
	return []Profile{OpenAI, OpenAIStrict, Anthropic, AnthropicStrict, Gemini, MCP}
}

// ParseProfile returns the profile named s, or an error listing the profiles.
func ParseProfile(s string) (Profile, error) {
	for _, p := range Profiles() {
		if string(p) == s {
			return p, nil
		}
	}
	names := make([]string, 0, len(Profiles()))
	for _, p := range Profiles() {
		names = append(names, string(p))
	}
	return "", fmt.Errorf("opentool: unknown declaration profile %s (want one of %s)", quote(s), strings.Join(names, ", "))
}

// Declared is what [Functions] writes for one profile.
type Declared struct {
	Profile Profile
	// Tools is the JSON the provider's API takes in its "tools" member.
	Tools json.RawMessage
	// Names maps a declared tool name to its function's name, for the names
	// that had to change to fit the providers' rules (see [DeclaredNames]).
	Names map[string]string
	// Warnings say what the profile could not declare as the document
	// says, one line each, naming the function.
	Warnings []string
}

// LimitError is the error of [Functions] when the declarations exceed limits the
// provider documents: the request would be refused. Functions still returns the
// declarations with it.
type LimitError struct {
	Profile Profile
	Limits  []Limit
}

// Limit is one limit exceeded.
type Limit struct {
	Function string // "" for a limit of the whole set of tools
	What     string // what is counted, e.g. "tools", "levels of nesting"
	Count    int
	Max      int
}

func (e *LimitError) Error() string {
	var b strings.Builder
	b.WriteString("opentool: the ")
	b.WriteString(string(e.Profile))
	b.WriteString(" declarations exceed the provider's limits: ")
	for i, l := range e.Limits {
		if i > 0 {
			b.WriteString("; ")
		}
		if l.Function != "" {
			b.WriteString("function ")
			b.WriteString(quote(l.Function))
			b.WriteString(": ")
		}
		fmt.Fprintf(&b, "%d %s, at most %d", l.Count, l.What, l.Max)
	}
	return b.String()
}

// Provider limits, from the providers' documentation.
const (
	openAIMaxTools         = 128     // tools in one request
	openAIStrictMaxDepth   = 10      // levels of nesting of a strict schema
	openAIStrictMaxProps   = 5000    // object properties of a strict schema
	openAIStrictMaxEnums   = 1000    // enum values of a strict schema
	openAIStrictMaxStrings = 120_000 // bytes of property names, definition names and enum values
	anthropicMaxStrict     = 20      // strict tools in one request
	anthropicMaxOptional   = 24      // optional parameters of all strict tools
	anthropicMaxUnions     = 16      // parameters with a union type in all strict tools
	inlineMaxNodes         = 20_000  // schemas of one Gemini declaration once references are inlined
)

// Functions returns doc's functions declared as profile p's provider takes them.
// Declaring the served document of a Tool (its Document method) declares what
// it serves: fixed and environment arguments absent, defaulted ones optional.
// A function name that does not fit every provider's rules is declared under
// the name [DeclaredNames] gives, which a generated Tool's Call accepts.
//
// When the declarations exceed a limit the provider documents, Functions returns
// them with a *[LimitError] naming each limit and count.
func Functions(doc *runtime.OpenTool, p Profile) (*Declared, error) {
	if _, err := ParseProfile(string(p)); err != nil {
		return nil, err
	}
	if doc == nil {
		doc = &runtime.OpenTool{}
	}
	names := runtime.DeclaredNames(doc)
	out := &Declared{Profile: p}
	for fn, dn := range names {
		if dn != fn {
			if out.Names == nil {
				out.Names = map[string]string{}
			}
			out.Names[dn] = fn
		}
	}
	var limits []Limit
	var tools []any
	var strictTools, optional, unions int
	for i := range doc.Functions {
		f := &doc.Functions[i]
		name := names[f.Name]
		r := newProfileRules(p)
		params, stats, why := declareParameters(doc, f, r)
		if why != "" && r.strict {
			// Strict mode cannot say what the function takes: declare it
			// without strict mode rather than not at all.
			out.Warnings = append(out.Warnings, fmt.Sprintf("%s: function %s is declared without strict mode: %s", p, quote(f.Name), why))
			r = newProfileRules(nonStrict(p))
			params, stats, _ = declareParameters(doc, f, r)
		}
		if r.strict {
			strictTools++
			optional += stats.optional
			unions += stats.unions
		}
		if p == OpenAIStrict && r.strict {
			for _, l := range []Limit{
				{f.Name, "levels of nesting", nestingDepth(params), openAIStrictMaxDepth},
				{f.Name, "object properties", stats.props, openAIStrictMaxProps},
				{f.Name, "enum values", stats.enums, openAIStrictMaxEnums},
				{f.Name, "bytes of names and enum values", stats.strings, openAIStrictMaxStrings},
			} {
				if l.Count > l.Max {
					limits = append(limits, l)
				}
			}
		}
		if stats.cut {
			limits = append(limits, Limit{f.Name, "schemas once references are inlined (counting stopped there)", stats.nodes, inlineMaxNodes})
		}
		tools = append(tools, toolEntry(doc, f, name, p, r.strict, params))
	}
	n := len(doc.Functions)
	switch p {
	case OpenAI, OpenAIStrict:
		if n > openAIMaxTools {
			limits = append(limits, Limit{"", "tools", n, openAIMaxTools})
		}
	case AnthropicStrict:
		if strictTools > anthropicMaxStrict {
			limits = append(limits, Limit{"", "strict tools", strictTools, anthropicMaxStrict})
		}
		if optional > anthropicMaxOptional {
			limits = append(limits, Limit{"", "optional parameters in strict tools", optional, anthropicMaxOptional})
		}
		if unions > anthropicMaxUnions {
			limits = append(limits, Limit{"", "parameters with a union type in strict tools", unions, anthropicMaxUnions})
		}
	}
	var top any = tools
	if tools == nil {
		top = []any{}
	}
	if p == Gemini {
		if tools == nil {
			top = []any{}
		} else {
			top = []any{jsonObject{{"functionDeclarations", tools}}}
		}
	}
	out.Tools = appendValue(nil, top)
	if limits != nil {
		return out, &LimitError{Profile: p, Limits: limits}
	}
	return out, nil
}

// toolEntry is one function in the provider's shape.
func toolEntry(doc *runtime.OpenTool, f *runtime.Function, name string, p Profile, strict bool, params jsonObject) jsonObject {
	switch p {
	case OpenAI, OpenAIStrict:
		fn := jsonObject{{"name", name}}
		if f.Description != "" {
			fn = append(fn, member{"description", f.Description})
		}
		fn = append(fn, member{"parameters", params})
		if p == OpenAIStrict {
			fn = append(fn, member{"strict", strict})
		}
		return jsonObject{{"type", "function"}, {"function", fn}}
	case Anthropic, AnthropicStrict:
		t := jsonObject{{"name", name}}
		if f.Description != "" {
			t = append(t, member{"description", f.Description})
		}
		t = append(t, member{"input_schema", params})
		if strict {
			t = append(t, member{"strict", true})
		}
		return t
	case Gemini:
		t := jsonObject{{"name", name}}
		if f.Description != "" {
			t = append(t, member{"description", f.Description})
		}
		if len(f.Parameters) > 0 { // Gemini refuses an OBJECT without properties
			t = append(t, member{"parameters", params})
		}
		return t
	default: // MCP
		t := jsonObject{{"name", name}}
		if f.Description != "" {
			t = append(t, member{"description", f.Description})
		}
		t = append(t, member{"inputSchema", params})
		t = append(t, member{"outputSchema", runtime.OutputSchema(doc, f)})
		return t
	}
}

// profileRules are what a profile allows in a schema.
type profileRules struct {
	gemini      bool            // Gemini's OpenAPI subset: upper-case types, nullable, refs inlined
	strict      bool            // a strict profile (OpenAI or Anthropic)
	allRequired bool            // every property required, optional ones nullable (OpenAI strict)
	closed      bool            // additionalProperties false on every object
	noBounds    bool            // numeric and length bounds into the description (Anthropic strict)
	noLengths   bool            // minLength, maxLength into the description (OpenAI strict)
	noDefault   bool            // default into the description
	noPattern   bool            // pattern into the description
	noOneOf     bool            // oneOf written as anyOf
	noRecursion bool            // a recursive schema cannot be strict (Anthropic)
	formats     map[string]bool // formats kept; others into the description
	// What a dialect cannot say either; each goes into the description.
	noExclusive  bool // exclusiveMinimum, exclusiveMaximum (an integer's: the next integer, as minimum or maximum)
	noMultipleOf bool // multipleOf
	noUnique     bool // uniqueItems
	noPropCounts bool // minProperties, maxProperties
	noConst      bool // const (written as a one-value enum where the dialect has one)
}

// JSON Schema 2020-12's formats; OpenAPI's own (int32, binary, password, …)
// are not, so they go into descriptions.
var jsonSchemaFormats = setOf("date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
	"ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template", "json-pointer",
	"relative-json-pointer", "regex")

func setOf(s ...string) map[string]bool {
	m := make(map[string]bool, len(s))
	for _, v := range s {
		m[v] = true
	}
	return m
}

func newProfileRules(p Profile) profileRules {
	switch p {
	case OpenAIStrict:
		return profileRules{strict: true, allRequired: true, closed: true, noLengths: true, noDefault: true, noOneOf: true,
			noUnique: true, noPropCounts: true,
			formats: setOf("date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid")}
	case AnthropicStrict:
		return profileRules{strict: true, closed: true, noBounds: true, noDefault: true, noPattern: true, noOneOf: true, noRecursion: true,
			noExclusive: true, noMultipleOf: true, noUnique: true, noPropCounts: true, noConst: true,
			formats: setOf("date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid")}
	case Gemini:
		return profileRules{gemini: true, noOneOf: true, noExclusive: true, noMultipleOf: true, noUnique: true, noConst: true,
			formats: setOf("date-time", "enum", "float", "double", "int32", "int64")}
	default:
		return profileRules{formats: jsonSchemaFormats}
	}
}

func nonStrict(p Profile) Profile {
	switch p {
	case OpenAIStrict:
		return OpenAI
	case AnthropicStrict:
		return Anthropic
	}
	return p
}

// declStats counts what the providers' limits count in one declaration.
type declStats struct {
	props, enums, strings, nodes int
	optional, unions             int
	cut                          bool // Gemini: inlining stopped at inlineMaxNodes
}

// schemaWriter writes one function's parameters in a profile.
type schemaWriter struct {
	doc   *runtime.OpenTool
	r     profileRules
	used  map[string]bool // $defs referenced
	stack []string        // schemas being inlined (Gemini)
	stats declStats
	why   string // why strict mode cannot say this, "" when it can
}

// declareParameters returns the schema of f's parameters, what it counts, and
// for a strict profile why it cannot be strict ("" when it can).
func declareParameters(doc *runtime.OpenTool, f *runtime.Function, r profileRules) (jsonObject, declStats, string) {
	w := &schemaWriter{doc: doc, r: r, used: map[string]bool{}}
	props := make([]runtime.Parameter, len(f.Parameters))
	copy(props, f.Parameters)
	root := w.object(len(props), func(i int) (string, *runtime.Schema, string, bool) {
		p := props[i]
		return p.Name, p.Schema, p.Description, p.Required
	})
	if !r.gemini && len(w.used) > 0 {
		var defs jsonObject
		done := eachDef(doc, w.used, func(n string, def *runtime.Schema) {
			defs = append(defs, member{n, w.schema(def)})
			w.stats.strings += len(n)
		})
		sort.Slice(defs, func(i, j int) bool { return defs[i].key < defs[j].key })
		root = append(root, member{"$defs", defs})
		if r.noRecursion && w.why == "" {
			if n := recursiveSchema(doc, done); n != "" {
				w.why = "schema " + quote(n) + " is recursive"
			}
		}
	}
	return root, w.stats, w.why
}

// recursiveSchema returns the name of a schema among names that refers to
// itself, directly or not, or "".
func recursiveSchema(doc *runtime.OpenTool, names map[string]bool) string {
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(n string) bool
	visit = func(n string) bool {
		switch state[n] {
		case 1:
			return true
		case 2:
			return false
		}
		state[n] = 1
		found := false
		doc.Schemas.Get(n).Each(func(s *runtime.Schema) bool {
			if m, ok := runtime.RefName(s.Ref); ok && !found && doc.Schemas.Get(m) != nil && visit(m) {
				found = true
			}
			return !found
		})
		state[n] = 2
		return found
	}
	for _, n := range sorted {
		if visit(n) {
			return n
		}
	}
	return ""
}

// object writes an object schema of n properties given by prop.
func (w *schemaWriter) object(n int, prop func(int) (name string, s *runtime.Schema, desc string, required bool)) jsonObject {
	w.stats.nodes++
	o := jsonObject{{"type", w.typeName(runtime.TypeObject)}}
	props := jsonObject{}
	required := []string{}
	for i := 0; i < n; i++ {
		name, s, desc, req := prop(i)
		w.stats.props++
		w.stats.strings += len(name)
		if desc != "" && (s == nil || s.Description == "") {
			var cp runtime.Schema // the parameter's description is its schema's
			if s != nil {
				cp = *s
			}
			cp.Description = desc
			s = &cp
		}
		ps := w.schema(s)
		if !req {
			w.stats.optional++
			if w.r.allRequired {
				ps = w.nullable(ps)
				req = true
			}
		}
		if isUnion(ps) {
			w.stats.unions++
		}
		props = append(props, member{name, ps})
		if req {
			required = append(required, name)
		}
	}
	if n > 0 || !w.r.gemini {
		o = append(o, member{"properties", props})
	}
	if len(required) > 0 || w.r.allRequired {
		o = append(o, member{"required", required})
	}
	if w.r.closed {
		o = append(o, member{"additionalProperties", false})
	}
	return o
}

// schema writes s (nil: any value).
func (w *schemaWriter) schema(s *runtime.Schema) jsonObject {
	if s == nil {
		s = &runtime.Schema{}
	}
	if s.Ref != "" {
		return w.ref(s)
	}
	var notes []string
	o := jsonObject{}
	typ := s.Type
	alts, altKey := s.AnyOf, "anyOf"
	if len(s.OneOf) > 0 {
		alts, altKey = s.OneOf, "oneOf"
		if w.r.noOneOf {
			altKey = "anyOf"
		}
	}
	if typ == runtime.TypeObject && len(alts) == 0 {
		return w.objectSchema(s)
	}
	w.stats.nodes++
	if len(alts) > 0 && (w.r.strict || w.r.gemini) {
		// The alternatives say what the value is; a strict object would
		// need its own properties, and Gemini takes a type or anyOf.
		typ = ""
	}
	switch {
	case typ != "":
		o = append(o, member{"type", w.typeValue(typ, s.Nullable)})
		if s.Nullable && w.r.gemini {
			o = append(o, member{"nullable", true})
		}
	case len(alts) == 0 && len(s.Enum) == 0:
		if w.r.strict && w.why == "" {
			w.why = "a value of any type is not in the strict subset"
		}
	}
	if s.Description != "" {
		o = append(o, member{"description", s.Description})
	}
	w.enum(&o, &notes, s, typ)
	w.constant(&o, &notes, s, typ)
	w.format(&o, &notes, s, typ)
	w.checks(&o, &notes, s, typ)
	if typ == runtime.TypeArray || s.Items != nil {
		if s.Items != nil || w.r.gemini || w.r.strict {
			o = append(o, member{"items", w.schema(s.Items)})
		}
	}
	if len(alts) > 0 {
		w.alternatives(&o, s, typ, alts, altKey)
	}
	return describe(o, notes)
}

// enum writes s's enum (Gemini's holds strings only: other values go to the
// description).
func (w *schemaWriter) enum(o *jsonObject, notes *[]string, s *runtime.Schema, typ string) {
	if len(s.Enum) > 0 {
		enum := append([]any(nil), s.Enum...)
		if s.Nullable && !w.r.gemini && !containsNil(enum) {
			enum = append(enum, nil)
		}
		w.stats.enums += len(enum)
		for _, v := range enum {
			if str, ok := v.(string); ok {
				w.stats.strings += len(str)
			}
		}
		if w.r.gemini && typ != runtime.TypeString {
			// Gemini's enum holds strings only.
			*notes = append(*notes, "one of "+enumText(enum))
		} else {
			*o = append(*o, member{"enum", enum})
		}
	}
}

// constant writes s's const, or an enum of one value, or a note, as the
// profile takes it.
func (w *schemaWriter) constant(o *jsonObject, notes *[]string, s *runtime.Schema, typ string) {
	if c := compactJSON(s.Const); len(c) > 0 {
		switch {
		case !w.r.noConst:
			*o = append(*o, member{"const", json.RawMessage(c)})
		case len(s.Enum) > 0:
			// the enum says the rest
		case w.r.gemini && typ != runtime.TypeString:
			*notes = append(*notes, "always "+string(c))
		default:
			var v any
			if json.Unmarshal(c, &v) == nil {
				enum := []any{v}
				if s.Nullable && !w.r.gemini {
					enum = append(enum, nil)
				}
				w.stats.enums += len(enum)
				*o = append(*o, member{"enum", enum})
			}
		}
	}
}

// format writes s's format where the profile knows it, and a note otherwise.
func (w *schemaWriter) format(o *jsonObject, notes *[]string, s *runtime.Schema, typ string) {
	if s.Format != "" {
		switch {
		case w.r.formats[s.Format] && (!w.r.gemini || geminiFormat(typ, s.Format)):
			*o = append(*o, member{"format", s.Format})
		case (s.Format == "byte" || s.Format == "binary") && !w.r.strict && !w.r.gemini:
			// Generated code takes bytes as base64 in JSON; JSON Schema says so.
			*o = append(*o, member{"contentEncoding", "base64"})
		default:
			if note := formatNote(s.Format); note != "" {
				*notes = append(*notes, note)
			}
		}
	}
}

// checks writes s's bounds, lengths, pattern, item counts, uniqueness and
// default, or notes for the profile's description where it takes none.
func (w *schemaWriter) checks(o *jsonObject, notes *[]string, s *runtime.Schema, typ string) {
	w.bound(o, notes, "minimum", s.Minimum, w.r.noBounds, "at least ")
	w.bound(o, notes, "maximum", s.Maximum, w.r.noBounds, "at most ")
	w.exclusive(o, notes, typ, s)
	w.bound(o, notes, "multipleOf", s.MultipleOf, w.r.noBounds || w.r.noMultipleOf, "a multiple of ")
	w.count(o, notes, "minLength", s.MinLength, w.r.noBounds || w.r.noLengths, "at least %d characters")
	w.count(o, notes, "maxLength", s.MaxLength, w.r.noBounds || w.r.noLengths, "at most %d characters")
	if s.Pattern != "" {
		if w.r.noPattern {
			*notes = append(*notes, "matching the regular expression "+s.Pattern)
		} else {
			*o = append(*o, member{"pattern", s.Pattern})
		}
	}
	if s.MinItems != nil {
		if w.r.noBounds && *s.MinItems > 1 {
			*notes = append(*notes, fmt.Sprintf("at least %d items", *s.MinItems))
		} else {
			*o = append(*o, member{"minItems", *s.MinItems})
		}
	}
	w.count(o, notes, "maxItems", s.MaxItems, w.r.noBounds, "at most %d items")
	if s.UniqueItems {
		if w.r.noUnique {
			*notes = append(*notes, "no two items equal")
		} else {
			*o = append(*o, member{"uniqueItems", true})
		}
	}
	if len(s.Default) > 0 {
		if w.r.noDefault {
			*notes = append(*notes, "default: "+string(compactJSON(s.Default)))
		} else {
			*o = append(*o, member{"default", json.RawMessage(compactJSON(s.Default))})
		}
	}
}

// alternatives writes s's oneOf or anyOf (altKey), with null among them when
// s is nullable.
func (w *schemaWriter) alternatives(o *jsonObject, s *runtime.Schema, typ string, alts []*runtime.Schema, altKey string) {
	list := make([]any, 0, len(alts)+1)
	for _, a := range alts {
		list = append(list, w.schema(a))
	}
	if s.Nullable && typ == "" && !w.r.gemini {
		list = append(list, w.nullSchema())
	}
	*o = append(*o, member{altKey, list})
	if s.Nullable && typ == "" && w.r.gemini { // Gemini has no null type
		*o = append(*o, member{"nullable", true})
	}
}

// objectSchema writes an object schema: its properties, or a map.
func (w *schemaWriter) objectSchema(s *runtime.Schema) jsonObject {
	req := map[string]bool{}
	for _, n := range s.Required {
		req[n] = true
	}
	o := w.object(len(s.Properties), func(i int) (string, *runtime.Schema, string, bool) {
		p := s.Properties[i]
		return p.Name, p.Schema, "", req[p.Name]
	})
	if s.Nullable {
		if w.r.gemini {
			o = insertAfterType(o, member{"nullable", true})
		} else {
			o = o.with("type", w.typeValue(runtime.TypeObject, true))
		}
	}
	if s.Description != "" {
		o = insertAfterType(o, member{"description", s.Description})
	}
	var notes []string
	w.count(&o, &notes, "minProperties", s.MinProperties, w.r.noPropCounts, "at least %d members")
	w.count(&o, &notes, "maxProperties", s.MaxProperties, w.r.noPropCounts, "at most %d members")
	o = describe(o, notes)
	if ap := s.AdditionalProperties; ap != nil {
		switch {
		case w.r.gemini:
			o = o.with("description", joinNotes(s.Description, []string{"any other members: each " + describeShort(w.doc, ap)}))
		case w.r.closed:
			if w.why == "" {
				w.why = "an object with members of any name (additionalProperties) is not in the strict subset"
			}
		default:
			o = append(o, member{"additionalProperties", w.schema(ap)})
		}
	} else if len(s.Properties) == 0 && w.r.closed && w.why == "" {
		w.why = "an object with members of any name is not in the strict subset"
	}
	return o
}

// ref writes a reference: into $defs, or inlined for Gemini.
func (w *schemaWriter) ref(s *runtime.Schema) jsonObject {
	name, ok := runtime.RefName(s.Ref)
	target := w.doc.Schemas.Get(name)
	if !ok || target == nil {
		if w.r.strict && w.why == "" {
			w.why = "reference " + quote(s.Ref) + " does not resolve"
		}
		return describe(jsonObject{}, []string{"unresolved reference " + s.Ref})
	}
	if w.r.gemini {
		if w.stats.nodes >= inlineMaxNodes {
			w.stats.cut = true
			return describe(jsonObject{{"type", w.typeName(runtime.TypeObject)}}, []string{"a " + name + " (not described: the declaration is too large)"})
		}
		for _, n := range w.stack {
			if n == name {
				o := jsonObject{{"type", w.typeName(runtime.TypeObject)}}
				return describe(o, []string{"a " + name + " (recursive: its members are not described again)"})
			}
		}
		w.stack = append(w.stack, name)
		o := w.schema(target)
		w.stack = w.stack[:len(w.stack)-1]
		if s.Description != "" {
			o = o.with("description", s.Description)
		}
		return o
	}
	w.used[name] = true
	o := jsonObject{{"$ref", jsontree.DefsRef(name)}}
	if s.Description != "" {
		o = append(o, member{"description", s.Description})
	}
	return o
}

// nullable makes s also accept null: a type union, or an alternative.
func (w *schemaWriter) nullable(s jsonObject) jsonObject {
	if t := s.get("type"); t != nil {
		switch t := t.(type) {
		case string:
			s = s.with("type", []any{t, "null"})
		case []any:
			if !containsValue(t, "null") {
				s = s.with("type", append(append([]any(nil), t...), "null"))
			}
		}
		if e, ok := s.get("enum").([]any); ok && !containsNil(e) {
			s = s.with("enum", append(append([]any(nil), e...), nil))
		}
		return s
	}
	if alts, ok := s.get("anyOf").([]any); ok {
		return s.with("anyOf", append(append([]any(nil), alts...), w.nullSchema()))
	}
	// A reference (its description stays beside it).
	desc := s.get("description")
	inner := s.without("description")
	out := jsonObject{{"anyOf", []any{inner, w.nullSchema()}}}
	if desc != nil {
		out = append(out, member{"description", desc})
	}
	return out
}

func (w *schemaWriter) nullSchema() jsonObject { return jsonObject{{"type", "null"}} }

// typeValue is the type member: a name, or with null a union ("nullable" for Gemini).
func (w *schemaWriter) typeValue(t string, nullable bool) any {
	if !nullable || w.r.gemini {
		return w.typeName(t)
	}
	return []any{t, "null"}
}

func (w *schemaWriter) typeName(t string) string {
	if w.r.gemini {
		return strings.ToUpper(t)
	}
	return t
}

func (w *schemaWriter) bound(o *jsonObject, notes *[]string, key string, v *float64, toNote bool, text string) {
	if v == nil {
		return
	}
	if toNote {
		*notes = append(*notes, text+strconv.FormatFloat(*v, 'g', -1, 64))
		return
	}
	*o = append(*o, member{key, *v})
}

// exclusive writes exclusiveMinimum and exclusiveMaximum (JSON Schema's
// numbers). An integer's is written as the next integer inside, as minimum
// or maximum (a duration above 0 is at least 1), which every dialect says
// and models read more easily; a number's goes into the description where
// the dialect has no exclusive bounds.
func (w *schemaWriter) exclusive(o *jsonObject, notes *[]string, typ string, s *runtime.Schema) {
	for _, b := range []struct {
		key, incl, text, inclText string
		v, inclV                  *float64
		next                      func(float64) float64
		tighter                   func(a, b float64) bool
	}{
		{"exclusiveMinimum", "minimum", "greater than ", "at least ", s.ExclusiveMinimum, s.Minimum, func(x float64) float64 { return math.Floor(x) + 1 }, func(a, b float64) bool { return a > b }},
		{"exclusiveMaximum", "maximum", "less than ", "at most ", s.ExclusiveMaximum, s.Maximum, func(x float64) float64 { return math.Ceil(x) - 1 }, func(a, b float64) bool { return a < b }},
	} {
		switch {
		case b.v == nil:
		case typ == runtime.TypeInteger:
			n := b.next(*b.v)
			switch {
			case b.inclV != nil && !b.tighter(n, *b.inclV):
			case w.r.noBounds:
				*notes = append(*notes, b.inclText+strconv.FormatFloat(n, 'g', -1, 64))
			default:
				*o = (*o).with(b.incl, n)
			}
		case w.r.noExclusive || w.r.noBounds:
			*notes = append(*notes, b.text+strconv.FormatFloat(*b.v, 'g', -1, 64))
		default:
			*o = append(*o, member{b.key, *b.v})
		}
	}
}

func (w *schemaWriter) count(o *jsonObject, notes *[]string, key string, v *int64, toNote bool, text string) {
	if v == nil {
		return
	}
	if toNote {
		*notes = append(*notes, fmt.Sprintf(text, *v))
		return
	}
	*o = append(*o, member{key, *v})
}

func geminiFormat(typ, format string) bool {
	switch typ {
	case runtime.TypeString:
		return format == "date-time" || format == "enum"
	case runtime.TypeNumber:
		return format == "float" || format == "double"
	case runtime.TypeInteger:
		return format == "int32" || format == "int64"
	}
	return false
}

// formatNote is what a format no profile keeps says in a description; numeric
// formats say nothing the type and bounds do not.
func formatNote(format string) string {
	switch format {
	case "int32", "int64", "float", "double":
		return ""
	case "byte", "binary":
		return "base64-encoded" // as generated code takes bytes in JSON
	}
	return "format: " + format
}

func describe(o jsonObject, notes []string) jsonObject {
	if len(notes) == 0 {
		return o
	}
	d, _ := o.get("description").(string)
	if d == "" {
		return insertAfterType(o, member{"description", joinNotes("", notes)})
	}
	return o.with("description", joinNotes(d, notes))
}

func joinNotes(desc string, notes []string) string {
	if len(notes) == 0 {
		return desc
	}
	n := strings.Join(notes, "; ")
	if desc == "" {
		return strings.ToUpper(n[:1]) + n[1:] + "."
	}
	return strings.TrimRight(desc, " ") + " (" + n + ")"
}

func insertAfterType(o jsonObject, m member) jsonObject {
	if o.get(m.key) != nil {
		return o.with(m.key, m.value)
	}
	i := 0
	if len(o) > 0 && o[0].key == "type" {
		i = 1
	}
	out := make(jsonObject, 0, len(o)+1)
	out = append(out, o[:i]...)
	out = append(out, m)
	return append(out, o[i:]...)
}

// describeShort names what values of s are, for a description.
func describeShort(doc *runtime.OpenTool, s *runtime.Schema) string {
	if s == nil {
		return "any value"
	}
	if s.Ref != "" {
		if n, ok := runtime.RefName(s.Ref); ok {
			return "a " + n
		}
	}
	if s.Type != "" {
		return "a " + s.Type
	}
	return "any value"
}

func enumText(values []any) string {
	parts := make([]string, len(values))
	for i, v := range values {
		b, _ := json.Marshal(v)
		parts[i] = string(b)
	}
	return strings.Join(parts, ", ")
}

func isUnion(o jsonObject) bool {
	if _, ok := o.get("type").([]any); ok {
		return true
	}
	return o.get("anyOf") != nil || o.get("oneOf") != nil
}

func containsNil(list []any) bool {
	for _, v := range list {
		if v == nil {
			return true
		}
	}
	return false
}

func containsValue(list []any, v any) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func compactJSON(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// eachDef calls f with every schema of doc named in used, and those the
// calls add to used in turn, a round at a time in name order; it returns the
// names it saw.
func eachDef(doc *runtime.OpenTool, used map[string]bool, f func(name string, def *runtime.Schema)) map[string]bool {
	return jsontree.EachName(used, func(n string) {
		if def := doc.Schemas.Get(n); def != nil {
			f(n, def)
		}
	})
}

// quote is s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
