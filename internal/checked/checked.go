// Package checked says which JSON Schema keywords of a schema a generated
// package's decoders check, for the loaders that read schemas (OpenTool,
// OpenDyn through it, MCP tools/list listings, OpenAPI): a keyword the
// decoders cannot check is dropped from what the package serves, with a
// warning at its place (the rule of gen/model.Constraints: what a package
// advertises, it enforces).
//
// The decoders check, on a value of one type (not on an untyped value, nor
// inside the alternatives of oneOf or anyOf, which the OpenTool model does
// not type): minimum, maximum, exclusiveMinimum, exclusiveMaximum and
// multipleOf of numbers; minLength, maxLength, pattern (RE2) and format
// (decode.CheckedFormats) of strings; minItems, maxItems and uniqueItems of
// arrays; minProperties and maxProperties of objects; const of strings,
// numbers, integers and booleans. Integer formats int32 and int64, number
// formats float and double are types.
package checked

import (
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime/decode"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// Format reports whether the decoders check format of a value of type typ
// ("" when untyped); when not, why says so, for a warning that starts
// "ignored: ".
func Format(typ, format string) (ok bool, why string) {
	var known []string
	switch typ {
	case document.TypeString:
		if decode.FormatChecked(format) {
			return true, ""
		}
		known = decode.CheckedFormats()
	case document.TypeInteger:
		if format == "int32" || format == "int64" {
			return true, ""
		}
		known = []string{"int32", "int64"}
	case document.TypeNumber:
		if format == "float" || format == "double" {
			return true, ""
		}
		known = []string{"float", "double"}
	}
	why = "the generated decoders do not check format " + quote(format)
	switch {
	case typ == "":
		why += " of a value without a type"
	case len(known) == 0:
		why += " of type " + typ
	default:
		why += " of type " + typ + " (they check " + strings.Join(known, ", ") + ")"
	}
	return false, why
}

// Prune drops from s the keywords the decoders do not check, calling drop
// with each keyword's name and why ("ignored: …" follows). untyped is why
// the value is not typed ("a value without a type", "inside oneOf or
// anyOf"), "" when it is: then every constraint is dropped. It looks at s
// alone, not at the schemas inside it.
func Prune(s *document.Schema, untyped string, drop func(key, why string)) {
	if s == nil || s.Ref != "" {
		return
	}
	if untyped != "" {
		for _, k := range []struct {
			key string
			set bool
			clr func()
		}{
			{"format", s.Format != "", func() { s.Format = "" }},
			{"const", len(s.Const) > 0, func() { s.Const = nil }},
			{"minimum", s.Minimum != nil, func() { s.Minimum = nil }},
			{"maximum", s.Maximum != nil, func() { s.Maximum = nil }},
			{"exclusiveMinimum", s.ExclusiveMinimum != nil, func() { s.ExclusiveMinimum = nil }},
			{"exclusiveMaximum", s.ExclusiveMaximum != nil, func() { s.ExclusiveMaximum = nil }},
			{"multipleOf", s.MultipleOf != nil, func() { s.MultipleOf = nil }},
			{"minLength", s.MinLength != nil, func() { s.MinLength = nil }},
			{"maxLength", s.MaxLength != nil, func() { s.MaxLength = nil }},
			{"pattern", s.Pattern != "", func() { s.Pattern = "" }},
			{"minItems", s.MinItems != nil, func() { s.MinItems = nil }},
			{"maxItems", s.MaxItems != nil, func() { s.MaxItems = nil }},
			{"uniqueItems", s.UniqueItems, func() { s.UniqueItems = false }},
			{"minProperties", s.MinProperties != nil, func() { s.MinProperties = nil }},
			{"maxProperties", s.MaxProperties != nil, func() { s.MaxProperties = nil }},
		} {
			if k.set {
				drop(k.key, "the generated decoders do not check "+k.key+" "+untyped)
				k.clr()
			}
		}
		return
	}
	if s.Format != "" {
		if ok, why := Format(s.Type, s.Format); !ok {
			drop("format", why)
			s.Format = ""
		}
	}
	if len(s.Const) > 0 && (s.Type == document.TypeArray || s.Type == document.TypeObject) {
		drop("const", "the generated decoders do not check a const of type "+s.Type)
		s.Const = nil
	}
}

func quote(s string) string {
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return strconv.Quote(s)
}

// Conflict is two bounds of a schema that no value meets: the lower bound Lo
// is above the upper bound Hi, or equal to it while one of them is
// exclusive (Strict). Lo and Hi are the keywords, as ConstraintsOf reads
// them: of two lower bounds (minimum and exclusiveMinimum) the tighter.
type Conflict struct {
	Lo, Hi string
	// Strict: the upper bound must be above the lower, not only at least it.
	Strict bool
}

// Error is the conflict's message for a loader that refuses it (OpenTool),
// at the upper bound, whose literal is hi; loKey and lo are the keyword and
// the literal of the lower bound as the document writes it (OpenAPI 3.0's
// exclusive minimum is "minimum", with exclusiveMinimum true).
func (c Conflict) Error(loKey, lo, hi string) string {
	if c.Strict {
		return "got " + hi + ", want above " + loKey + " " + lo
	}
	return "got " + hi + ", want at least " + loKey + " " + lo
}

// Warning is the conflict's message for a loader that reads it with both
// bounds dropped (MCP listings, OpenAPI), at the upper bound; the arguments
// are Error's.
func (c Conflict) Warning(loKey, lo, hi string) string {
	if c.Strict {
		return "got " + hi + ", not above " + loKey + " " + lo + " (no value is valid): both ignored"
	}
	return "got " + hi + ", less than " + loKey + " " + lo + " (no value is valid): both ignored"
}

// Drop removes the conflict's two bounds from s.
func (c Conflict) Drop(s *document.Schema) {
	for _, k := range []string{c.Lo, c.Hi} {
		switch k {
		case "minimum":
			s.Minimum = nil
		case "exclusiveMinimum":
			s.ExclusiveMinimum = nil
		case "maximum":
			s.Maximum = nil
		case "exclusiveMaximum":
			s.ExclusiveMaximum = nil
		case "minLength":
			s.MinLength = nil
		case "maxLength":
			s.MaxLength = nil
		case "minItems":
			s.MinItems = nil
		case "maxItems":
			s.MaxItems = nil
		case "minProperties":
			s.MinProperties = nil
		case "maxProperties":
			s.MaxProperties = nil
		}
	}
}

// Conflicts returns the bounds of s that no value meets, in the order
// numbers, lengths, items, properties.
func Conflicts(s *document.Schema) []Conflict {
	if s == nil {
		return nil
	}
	var cs []Conflict
	// The tighter of each pair of bounds, as gen/model.ConstraintsOf checks.
	lo, loKey, loEx := s.Minimum, "minimum", false
	if v := s.ExclusiveMinimum; v != nil && (lo == nil || *v >= *lo) {
		lo, loKey, loEx = v, "exclusiveMinimum", true
	}
	hi, hiKey, hiEx := s.Maximum, "maximum", false
	if v := s.ExclusiveMaximum; v != nil && (hi == nil || *v <= *hi) {
		hi, hiKey, hiEx = v, "exclusiveMaximum", true
	}
	if lo != nil && hi != nil {
		strict := loEx || hiEx
		if *lo > *hi || strict && *lo == *hi {
			cs = append(cs, Conflict{Lo: loKey, Hi: hiKey, Strict: strict})
		}
	}
	for _, p := range []struct {
		lo, hi       *int64
		loKey, hiKey string
	}{
		{s.MinLength, s.MaxLength, "minLength", "maxLength"},
		{s.MinItems, s.MaxItems, "minItems", "maxItems"},
		{s.MinProperties, s.MaxProperties, "minProperties", "maxProperties"},
	} {
		if p.lo != nil && p.hi != nil && *p.lo > *p.hi {
			cs = append(cs, Conflict{Lo: p.loKey, Hi: p.hiKey})
		}
	}
	return cs
}

// Alternatives returns the names of the schemas of doc that a value inside
// the alternatives of a oneOf or anyOf can be of: named by a $ref inside an
// alternative, or inside such a schema. The OpenTool model does not type
// those values, so the decoders check none of these schemas' constraints
// there: a loader drops them (Prune with untyped "referenced from inside
// oneOf or anyOf").
func Alternatives(doc *document.OpenTool) map[string]bool {
	byName := make(map[string]*document.Schema, len(doc.Schemas))
	for _, ns := range doc.Schemas {
		byName[ns.Name] = ns.Schema
	}
	reached := map[string]bool{}
	var refs func(s *document.Schema, alt bool, depth int)
	refs = func(s *document.Schema, alt bool, depth int) {
		if s == nil || depth > 256 {
			return
		}
		if s.Ref != "" {
			name, ok := document.RefName(s.Ref)
			if alt && ok && !reached[name] {
				reached[name] = true
				refs(byName[name], true, depth+1)
			}
			return
		}
		for _, p := range s.Properties {
			refs(p.Schema, alt, depth+1)
		}
		refs(s.Items, alt, depth+1)
		refs(s.AdditionalProperties, alt, depth+1)
		for _, a := range s.OneOf {
			refs(a, true, depth+1)
		}
		for _, a := range s.AnyOf {
			refs(a, true, depth+1)
		}
	}
	for _, f := range doc.Functions {
		for _, p := range f.Parameters {
			refs(p.Schema, false, 0)
		}
		if f.Return != nil {
			refs(f.Return.Schema, false, 0)
		}
	}
	for _, ns := range doc.Schemas {
		refs(ns.Schema, false, 0)
	}
	return reached
}
