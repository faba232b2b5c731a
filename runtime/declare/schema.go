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
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

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
	noEncoding   bool // contentEncoding (bytes described as base64 instead)
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
	case OpenAIStrict, OpenAIResponsesStrict:
		return profileRules{strict: true, allRequired: true, closed: true, noLengths: true, noDefault: true, noOneOf: true,
			noUnique: true, noPropCounts: true,
			formats: setOf("date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid")}
	case AnthropicStrict:
		return profileRules{strict: true, closed: true, noBounds: true, noDefault: true, noPattern: true, noOneOf: true, noRecursion: true,
			noExclusive: true, noMultipleOf: true, noUnique: true, noPropCounts: true, noConst: true,
			formats: setOf("date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid")}
	case Gemini:
		// Gemini's JSON Schema support: $defs, $ref, type, format, title,
		// description, enum, items, prefixItems, minItems, maxItems,
		// minimum, maximum, anyOf, oneOf (read as anyOf), properties,
		// additionalProperties, required.
		return profileRules{noLengths: true, noDefault: true, noPattern: true, noOneOf: true, noExclusive: true,
			noMultipleOf: true, noUnique: true, noPropCounts: true, noConst: true, noEncoding: true,
			formats: setOf("date-time", "date", "time")}
	case GeminiOpenAPI:
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
	case OpenAIResponsesStrict:
		return OpenAIResponses
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
	doc   *document.OpenTool
	r     profileRules
	used  map[string]bool // $defs referenced
	stack []string        // schemas being inlined (Gemini)
	stats declStats
	why   string // why strict mode cannot say this, "" when it can
	// path is where the schema being written is in the declaration's
	// parameters, as the segments of a JSON pointer ("properties",
	// "expand", "items"), for why.
	path []string
}

// in writes a part of a schema at the segments seg below the current one.
func (w *schemaWriter) in(write func() jsonObject, seg ...string) jsonObject {
	n := len(w.path)
	w.path = append(w.path, seg...)
	o := write()
	w.path = w.path[:n]
	return o
}

// cannot records, for a strict profile, why strict mode cannot say the
// parameters (the first reason found): what at the current place.
func (w *schemaWriter) cannot(what string) {
	if w.why != "" {
		return
	}
	var b strings.Builder
	for _, seg := range w.path {
		b.WriteString(jsontree.Pointer(seg))
	}
	at := b.String()
	if at == "" {
		at = "/"
	}
	w.why = "at " + at + " of the parameters' schema, " + what
}

// declareParameters returns the schema of f's parameters, what it counts, and
// for a strict profile why it cannot be strict ("" when it can).
func declareParameters(doc *document.OpenTool, f *document.Function, r profileRules) (jsonObject, declStats, string) {
	w := &schemaWriter{doc: doc, r: r, used: map[string]bool{}}
	props := make([]document.Parameter, len(f.Parameters))
	copy(props, f.Parameters)
	root := w.object(len(props), func(i int) (string, *document.Schema, string, bool) {
		p := props[i]
		return p.Name, p.Schema, p.Description, p.Required
	})
	if !r.gemini && len(w.used) > 0 {
		var defs jsonObject
		done := eachDef(doc, w.used, func(n string, def *document.Schema) {
			defs = append(defs, member{n, w.in(func() jsonObject { return w.schema(def) }, "$defs", n)})
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
func recursiveSchema(doc *document.OpenTool, names map[string]bool) string {
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
		doc.Schemas.Get(n).Each(func(s *document.Schema) bool {
			if m, ok := document.RefName(s.Ref); ok && !found && doc.Schemas.Get(m) != nil && visit(m) {
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
func (w *schemaWriter) object(n int, prop func(int) (name string, s *document.Schema, desc string, required bool)) jsonObject {
	w.stats.nodes++
	o := jsonObject{{"type", w.typeName(document.TypeObject)}}
	props := jsonObject{}
	required := []string{}
	for i := 0; i < n; i++ {
		name, s, desc, req := prop(i)
		w.stats.props++
		w.stats.strings += len(name)
		if desc != "" && (s == nil || s.Description == "") {
			var cp document.Schema // the parameter's description is its schema's
			if s != nil {
				cp = *s
			}
			cp.Description = desc
			s = &cp
		}
		ps := w.in(func() jsonObject { return w.schema(s) }, "properties", name)
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
func (w *schemaWriter) schema(s *document.Schema) jsonObject {
	if s == nil {
		s = &document.Schema{}
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
	if typ == document.TypeObject && len(alts) == 0 {
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
		if w.r.strict {
			w.cannot(`a schema with no "type" (a value of any type) is not in the strict subset`)
		}
	}
	if s.Description != "" {
		o = append(o, member{"description", s.Description})
	}
	w.enum(&o, &notes, s, typ)
	w.constant(&o, &notes, s, typ)
	w.format(&o, &notes, s, typ)
	w.checks(&o, &notes, s, typ)
	if typ == document.TypeArray || s.Items != nil {
		if s.Items != nil || w.r.gemini || w.r.strict {
			o = append(o, member{"items", w.in(func() jsonObject { return w.schema(s.Items) }, "items")})
		}
	}
	if len(alts) > 0 {
		w.alternatives(&o, s, typ, alts, altKey)
	}
	return describe(o, notes)
}

// enum writes s's enum (Gemini's holds strings only: other values go to the
// description).
func (w *schemaWriter) enum(o *jsonObject, notes *[]string, s *document.Schema, typ string) {
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
		if w.r.gemini && typ != document.TypeString {
			// Gemini's enum holds strings only.
			*notes = append(*notes, "one of "+enumText(enum))
		} else {
			*o = append(*o, member{"enum", enum})
		}
	}
}

// constant writes s's const, or an enum of one value, or a note, as the
// profile takes it.
func (w *schemaWriter) constant(o *jsonObject, notes *[]string, s *document.Schema, typ string) {
	if c := compactJSON(s.Const); len(c) > 0 {
		switch {
		case !w.r.noConst:
			*o = append(*o, member{"const", json.RawMessage(c)})
		case len(s.Enum) > 0:
			// the enum says the rest
		case w.r.gemini && typ != document.TypeString:
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
func (w *schemaWriter) format(o *jsonObject, notes *[]string, s *document.Schema, typ string) {
	if s.Format != "" {
		switch {
		case w.r.formats[s.Format] && (!w.r.gemini || geminiFormat(typ, s.Format)):
			*o = append(*o, member{"format", s.Format})
		case (s.Format == "byte" || s.Format == "binary") && !w.r.strict && !w.r.gemini && !w.r.noEncoding:
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
func (w *schemaWriter) checks(o *jsonObject, notes *[]string, s *document.Schema, typ string) {
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
func (w *schemaWriter) alternatives(o *jsonObject, s *document.Schema, typ string, alts []*document.Schema, altKey string) {
	list := make([]any, 0, len(alts)+1)
	for i, a := range alts {
		list = append(list, w.in(func() jsonObject { return w.schema(a) }, altKey, strconv.Itoa(i)))
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
func (w *schemaWriter) objectSchema(s *document.Schema) jsonObject {
	if w.r.closed && isMap(s) {
		return w.entries(s)
	}
	req := map[string]bool{}
	for _, n := range s.Required {
		req[n] = true
	}
	o := w.object(len(s.Properties), func(i int) (string, *document.Schema, string, bool) {
		p := s.Properties[i]
		return p.Name, p.Schema, "", req[p.Name]
	})
	if s.Nullable {
		if w.r.gemini {
			o = insertAfterType(o, member{"nullable", true})
		} else {
			o = o.with("type", w.typeValue(document.TypeObject, true))
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
			w.cannot(`an object with both named members and "additionalProperties" (members of any name) is not in the strict subset`)
		default:
			o = append(o, member{"additionalProperties", w.in(func() jsonObject { return w.schema(ap) }, "additionalProperties")})
		}
	} else if len(s.Properties) == 0 && w.r.closed {
		w.cannot(`an object with no "properties" (members of any name) is not in the strict subset`)
	}
	return o
}

// ref writes a reference: into $defs, or inlined for Gemini.
func (w *schemaWriter) ref(s *document.Schema) jsonObject {
	name, ok := document.RefName(s.Ref)
	target := w.doc.Schemas.Get(name)
	if !ok || target == nil {
		if w.r.strict {
			w.cannot(`"$ref" ` + quote(s.Ref) + " does not resolve")
		}
		return describe(jsonObject{}, []string{"unresolved reference " + s.Ref})
	}
	if w.r.gemini {
		if w.stats.nodes >= inlineMaxNodes {
			w.stats.cut = true
			return describe(jsonObject{{"type", w.typeName(document.TypeObject)}}, []string{"a " + name + " (not described: the declaration is too large)"})
		}
		for _, n := range w.stack {
			if n == name {
				o := jsonObject{{"type", w.typeName(document.TypeObject)}}
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
func (w *schemaWriter) exclusive(o *jsonObject, notes *[]string, typ string, s *document.Schema) {
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
		case typ == document.TypeInteger:
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
func describeShort(doc *document.OpenTool, s *document.Schema) string {
	if s == nil {
		return "any value"
	}
	if s.Ref != "" {
		if n, ok := document.RefName(s.Ref); ok {
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
func eachDef(doc *document.OpenTool, used map[string]bool, f func(name string, def *document.Schema)) map[string]bool {
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
