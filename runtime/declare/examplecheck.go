package declare

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// maxExampleDepth bounds the nesting checkExample follows (a recursive
// schema's example is finite, but a hostile one may be deep).
const maxExampleDepth = 64

// checkExample reports where value v (decoded with UseNumber) does not
// validate against schema s of doc, as "/path: got X, want Y"; nil when it
// does. It checks what a provider validating the example checks: types,
// enum and const, required and (closed, in strict declarations) unknown
// members, items, numeric bounds, lengths and patterns (a pattern Go's
// regexp cannot read is not checked), and that one alternative of
// oneOf/anyOf takes the value.
func checkExample(doc *document.OpenTool, s *document.Schema, v any, path string, closed bool, depth int) error {
	if s == nil || depth > maxExampleDepth {
		return nil
	}
	if s.Ref != "" {
		n, ok := document.RefName(s.Ref)
		if !ok {
			return nil
		}
		return checkExample(doc, doc.Schemas.Get(n), v, path, closed, depth+1)
	}
	if v == nil {
		if s.Nullable || s.Type == "" && len(s.Enum) == 0 && len(s.OneOf)+len(s.AnyOf) == 0 || containsNil(s.Enum) {
			return nil
		}
		return exampleErr(path, "null", "a value of type "+typeOrAny(s))
	}
	if alts := append(append([]*document.Schema(nil), s.OneOf...), s.AnyOf...); len(alts) > 0 {
		ok := false
		for _, a := range alts {
			if checkExample(doc, a, v, path, closed, depth+1) == nil {
				ok = true
				break
			}
		}
		if !ok {
			return exampleErr(path, exampleText(v), "a value one of its alternatives takes")
		}
	}
	if len(s.Enum) > 0 && !sameAsOne(s.Enum, v) {
		return exampleErr(path, exampleText(v), "one of "+enumText(s.Enum))
	}
	if len(s.Const) > 0 {
		var c any
		if json.Unmarshal(s.Const, &c) == nil && !sameAsOne([]any{c}, v) {
			return exampleErr(path, exampleText(v), string(compactJSON(s.Const)))
		}
	}
	return checkTyped(doc, s, v, path, closed, depth)
}

// checkTyped is checkExample of what s's type says.
func checkTyped(doc *document.OpenTool, s *document.Schema, v any, path string, closed bool, depth int) error {
	switch s.Type {
	case document.TypeString:
		str, ok := v.(string)
		if !ok {
			return exampleErr(path, exampleText(v), "a string")
		}
		n := int64(utf8.RuneCountInString(str))
		if s.MinLength != nil && n < *s.MinLength || s.MaxLength != nil && n > *s.MaxLength {
			return exampleErr(path, fmt.Sprintf("a string of %d characters", n), "the length the schema bounds")
		}
		if s.Pattern != "" {
			if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString(str) {
				return exampleErr(path, exampleText(v), "a string matching "+strconv.Quote(s.Pattern))
			}
		}
	case document.TypeInteger, document.TypeNumber:
		return checkNumber(s, v, path)
	case document.TypeBoolean:
		if _, ok := v.(bool); !ok {
			return exampleErr(path, exampleText(v), "a boolean")
		}
	case document.TypeArray:
		list, ok := v.([]any)
		if !ok {
			return exampleErr(path, exampleText(v), "an array")
		}
		n := int64(len(list))
		if s.MinItems != nil && n < *s.MinItems || s.MaxItems != nil && n > *s.MaxItems {
			return exampleErr(path, fmt.Sprintf("%d items", n), "the number of items the schema bounds")
		}
		for i, it := range list {
			if err := checkExample(doc, s.Items, it, path+"/"+strconv.Itoa(i), closed, depth+1); err != nil {
				return err
			}
		}
	case document.TypeObject:
		return checkObject(doc, s, v, path, closed, depth)
	}
	return nil
}

// checkNumber checks a number against s's type and bounds.
func checkNumber(s *document.Schema, v any, path string) error {
	n, ok := v.(json.Number)
	if !ok {
		return exampleErr(path, exampleText(v), "a number")
	}
	f, err := n.Float64()
	if err != nil {
		return exampleErr(path, n.String(), "a number")
	}
	if s.Type == document.TypeInteger && f != math.Trunc(f) {
		return exampleErr(path, n.String(), "an integer")
	}
	switch {
	case s.Minimum != nil && f < *s.Minimum, s.ExclusiveMinimum != nil && f <= *s.ExclusiveMinimum,
		s.Maximum != nil && f > *s.Maximum, s.ExclusiveMaximum != nil && f >= *s.ExclusiveMaximum:
		return exampleErr(path, n.String(), "a number within the schema's bounds")
	case s.MultipleOf != nil && *s.MultipleOf > 0 && math.Abs(math.Remainder(f, *s.MultipleOf)) > 1e-9*math.Max(1, math.Abs(f)):
		return exampleErr(path, n.String(), "a multiple of "+strconv.FormatFloat(*s.MultipleOf, 'g', -1, 64))
	}
	return nil
}

// checkObject checks an object's members against s.
func checkObject(doc *document.OpenTool, s *document.Schema, v any, path string, closed bool, depth int) error {
	m, ok := v.(map[string]any)
	if !ok {
		return exampleErr(path, exampleText(v), "an object")
	}
	for _, r := range s.Required {
		if _, ok := m[r]; !ok {
			return fmt.Errorf("%s: required member %s is missing", pathOrRoot(path), quote(r))
		}
	}
	n := int64(len(m))
	if s.MinProperties != nil && n < *s.MinProperties || s.MaxProperties != nil && n > *s.MaxProperties {
		return exampleErr(path, fmt.Sprintf("%d members", n), "the number of members the schema bounds")
	}
	for _, k := range sortedKeys(m) {
		p := path + "/" + k
		if ps := s.Properties.Get(k); ps != nil {
			if err := checkExample(doc, ps, m[k], p, closed, depth+1); err != nil {
				return err
			}
			continue
		}
		switch {
		case s.AdditionalProperties != nil:
			if err := checkExample(doc, s.AdditionalProperties, m[k], p, closed, depth+1); err != nil {
				return err
			}
		case closed && len(s.Properties) > 0:
			return fmt.Errorf("%s: member %s is not in the schema, whose object strict mode closes", pathOrRoot(path), quote(k))
		}
	}
	return nil
}

// sameAsOne reports whether v (decoded with UseNumber) is one of list's
// values (decoded without), compared as JSON: 1 and 1.0 are the same.
func sameAsOne(list []any, v any) bool {
	want := normalJSON(v)
	for _, x := range list {
		if normalJSON(x) == want {
			return true
		}
	}
	return false
}

// normalJSON is v as JSON, its numbers written as float64s are.
func normalJSON(v any) string {
	b, _ := json.Marshal(v)
	var x any
	if json.Unmarshal(b, &x) != nil {
		return string(b)
	}
	b, _ = json.Marshal(x)
	return string(b)
}

func typeOrAny(s *document.Schema) string {
	if s.Type == "" {
		return "any"
	}
	return s.Type
}

func exampleErr(path, got, want string) error {
	return fmt.Errorf("%s: got %s, want %s", pathOrRoot(path), got, want)
}

func pathOrRoot(path string) string {
	if path == "" {
		return "/"
	}
	return path
}

// exampleText is v for a message, cut at 40 bytes.
func exampleText(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
