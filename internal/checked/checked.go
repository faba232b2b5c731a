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
// (runtime.CheckedFormats) of strings; minItems, maxItems and uniqueItems of
// arrays; minProperties and maxProperties of objects; const of strings,
// numbers, integers and booleans. Integer formats int32 and int64, number
// formats float and double are types.
package checked

import (
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// Format reports whether the decoders check format of a value of type typ
// ("" when untyped); when not, why says so, for a warning that starts
// "ignored: ".
func Format(typ, format string) (ok bool, why string) {
	var known []string
	switch typ {
	case runtime.TypeString:
		if runtime.FormatChecked(format) {
			return true, ""
		}
		known = runtime.CheckedFormats()
	case runtime.TypeInteger:
		if format == "int32" || format == "int64" {
			return true, ""
		}
		known = []string{"int32", "int64"}
	case runtime.TypeNumber:
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
func Prune(s *runtime.Schema, untyped string, drop func(key, why string)) {
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
	if len(s.Const) > 0 && (s.Type == runtime.TypeArray || s.Type == runtime.TypeObject) {
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
