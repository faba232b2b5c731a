package mcpschema

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/internal/checked"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// What Options.Strict adds: check reports the problems of a schema as it is
// converted, repair makes the converted document one the OpenTool loader
// accepts.

// annotations are keywords that describe without constraining: never reported.
var annotations = map[string]bool{
	"$schema": true, "$id": true, "$anchor": true, "$dynamicAnchor": true, "$comment": true, "$vocabulary": true,
	"$defs": true, "definitions": true, "title": true, "description": true, "examples": true, "example": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "contentEncoding": true, "contentMediaType": true,
}

// dropped are the JSON Schema keywords that constrain values and that the
// OpenTool model has no member for.
var dropped = map[string]bool{
	"contains": true, "minContains": true, "maxContains": true, "prefixItems": true, "additionalItems": true,
	"unevaluatedItems": true, "unevaluatedProperties": true,
	"patternProperties": true, "propertyNames": true, "dependentRequired": true, "dependentSchemas": true,
	"dependencies": true, "not": true, "if": true, "then": true, "else": true, "$dynamicRef": true,
	"$recursiveRef": true, "contentSchema": true,
}

// check reports the problems of the schema n at r.path.
func (r *rootSchema) check(n *jsontree.Node, depth int) {
	c := r.c
	here := r.here()
	switch {
	case n == nil:
		return
	case n.Kind == jsontree.Bool:
		if !n.Bool {
			c.warnf(here, n.Offset, "got false (no value is valid): read as any value")
		}
		return
	case n.Kind != jsontree.Object:
		c.gotWant(here, n, "a JSON Schema (an object or a boolean)")
		return
	case depth > MaxDepth:
		c.warnf(here, n.Offset, "nested more than %d levels deep: read as any value", MaxDepth)
		return
	}
	ref := n.Get("$ref")
	hasRef := ref != nil && ref.Kind == jsontree.String
	typed := n.Get("type") != nil
	alternatives := ""
	for _, kw := range []string{"anyOf", "oneOf"} {
		if a := n.Get(kw); !typed && alternatives == "" && a != nil && a.Kind == jsontree.Array && len(a.Items) > 0 {
			alternatives = kw
		}
	}
	for _, m := range n.Members {
		p := here + jsontree.Pointer(m.Key)
		if hasRef && m.Key != "$ref" && !annotations[m.Key] {
			c.warnf(p, m.KeyOffset, "ignored next to $ref")
			continue
		}
		switch m.Key {
		case "properties", "items", "additionalProperties", "allOf":
			if alternatives != "" {
				c.warnf(p, m.KeyOffset, "ignored next to %s: the OpenTool model has no %s besides alternatives", alternatives, m.Key)
				continue
			}
		}
		r.checkKeyword(m, p, typed, alternatives)
	}
}

// checkKeyword reports the problems of the member m, at p, of a schema
// object: its value's kind for the keyword it is, or that the keyword is
// ignored. typed says whether the schema has a "type", alternatives is the
// keyword of its alternatives (anyOf, oneOf) or "".
func (r *rootSchema) checkKeyword(m jsontree.Member, p string, typed bool, alternatives string) {
	c, v := r.c, m.Value
	switch m.Key {
	case "$ref":
		r.checkRef(v, p)
	case "type":
		checkType(c, v, p)
	case "description", "format", "pattern":
		if v.Kind != jsontree.String {
			c.gotWant(p, v, "a string")
		}
	case "nullable":
		if v.Kind != jsontree.Bool {
			c.gotWant(p, v, "a boolean")
		}
	case "enum":
		switch {
		case v.Kind != jsontree.Array:
			c.gotWant(p, v, "an array of values")
		case len(v.Items) == 0:
			c.warnf(p, v.Offset, "got an empty array (no value is valid): read as no enum")
		}
	case "minimum", "maximum":
		if v.Kind != jsontree.Number || number(v) == nil {
			c.gotWant(p, v, "a number")
		}
	case "exclusiveMinimum", "exclusiveMaximum":
		if v.Kind != jsontree.Bool && (v.Kind != jsontree.Number || number(v) == nil) {
			c.gotWant(p, v, "a number (or OpenAPI 3.0's boolean)")
		}
	case "multipleOf":
		if f := number(v); f == nil || *f <= 0 {
			c.gotWant(p, v, "a number above 0")
		}
	case "uniqueItems":
		if v.Kind != jsontree.Bool {
			c.gotWant(p, v, "a boolean")
		}
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
		if integer(v) == nil {
			c.gotWant(p, v, "a non-negative integer")
		}
	case "items":
		switch v.Kind {
		case jsontree.Object, jsontree.Bool:
		case jsontree.Array:
			c.warnf(p, v.Offset, "a tuple (items as an array): read as an array of any values")
		default:
			c.gotWant(p, v, "a JSON Schema")
		}
	case "properties", "$defs", "definitions":
		if v.Kind != jsontree.Object {
			c.gotWant(p, v, "an object mapping names to schemas")
		}
	case "required":
		if v.Kind != jsontree.Array {
			c.gotWant(p, v, "an array of property names")
			break
		}
		for i, it := range v.Items {
			if it.Kind != jsontree.String {
				c.gotWant(p+"/"+strconv.Itoa(i), it, "a property name (a string)")
			}
		}
	case "additionalProperties":
		if v.Kind != jsontree.Object && v.Kind != jsontree.Bool {
			c.gotWant(p, v, "a JSON Schema")
		}
	case "anyOf", "oneOf", "allOf":
		switch {
		case v.Kind != jsontree.Array || len(v.Items) == 0:
			c.gotWant(p, v, "a non-empty array of schemas")
		case typed:
			c.warnf(p, m.KeyOffset, "ignored next to \"type\": the OpenTool model has no %s besides a type", m.Key)
		case m.Key == "allOf" && len(v.Items) > 1:
			c.warnf(p, m.KeyOffset, "ignored: the OpenTool model does not merge an allOf of several schemas")
		case alternatives != "" && m.Key != alternatives:
			c.warnf(p, m.KeyOffset, "ignored next to %s", alternatives)
		}
	default:
		if dropped[m.Key] {
			c.warnf(p, m.KeyOffset, "ignored: the OpenTool model has no %s (the server still checks it)", m.Key)
		}
	}
}

// checkRef reports a $ref that is not a string, does not resolve or is not
// followed.
func (r *rootSchema) checkRef(v *jsontree.Node, p string) {
	switch {
	case v.Kind != jsontree.String:
		r.c.gotWant(p, v, "a string")
	case !isLocal(v.Str):
		r.c.warnf(p, v.Offset, "got %s, not followed (only pointers into the tool's schema, \"#/…\", are): read as any value", quote(v.Str))
	default:
		if t, _ := r.resolve(v.Str); t == nil {
			r.c.errorf(p, v.Offset, "got %s, want a pointer to a value of the tool's schema", quote(v.Str))
		}
	}
}

// checkType reports a "type" that is not a type name or a list of them.
func checkType(c *converter, v *jsontree.Node, p string) {
	const names = "null, boolean, integer, number, string, array, object"
	var list []*jsontree.Node
	switch v.Kind {
	case jsontree.String:
		list = []*jsontree.Node{v}
	case jsontree.Array:
		if len(v.Items) == 0 {
			c.gotWant(p, v, "a type name or a non-empty array of them")
			return
		}
		list = v.Items
	default:
		c.gotWant(p, v, "a type name ("+names+") or an array of them")
		return
	}
	only := true
	for i, t := range list {
		tp := p
		if v.Kind == jsontree.Array {
			tp += "/" + strconv.Itoa(i)
		}
		switch {
		case t.Kind != jsontree.String:
			c.gotWant(tp, t, "a type name ("+names+")")
			return
		case t.Str != "null" && !jsonTypes[t.Str]:
			c.errorf(tp, t.Offset, "got %s, want one of %s", quote(t.Str), names)
			return
		case t.Str != "null":
			only = false
		}
	}
	if only {
		c.warnf(p, v.Offset, "only null: read as any value (the OpenTool model has no null type)")
	}
}

// repair makes the schemas of doc ones the OpenTool loader accepts, with a
// warning for what it drops.
func (c *converter) repair(doc *document.OpenTool) {
	seen := map[*document.Schema]bool{}
	// alt says why the value is not typed inside the alternatives of anyOf
	// and oneOf, and in the schemas they refer to, whose values the OpenTool
	// model does not type: their constraints are not checked ("" outside).
	var walk func(s *document.Schema, alt string)
	inAlt := checked.Alternatives(doc)
	walk = func(s *document.Schema, alt string) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if s.Ref == "" {
			o := c.origins[s]
			c.repairSchema(s, o)
			untyped := ""
			switch {
			case alt != "":
				untyped = alt
			case s.Type == "" && (len(s.AnyOf) > 0 || len(s.OneOf) > 0):
				untyped = "beside oneOf or anyOf"
			}
			checked.Prune(s, untyped, func(key, why string) {
				if o.node == nil || o.node.Get(key) == nil {
					return // a keyword of the converted schema alone
				}
				p, off := o.member(key)
				c.warnf(p, off, "ignored: %s", why)
			})
			// Bounds that no value meets: a warning at the upper bound,
			// both dropped.
			for _, b := range checked.Conflicts(s) {
				loKey, lo := o.bound(b.Lo)
				hiKey, hi := o.bound(b.Hi)
				p, off := o.member(hiKey)
				c.warnf(p, off, "%s", b.Warning(loKey, literal(lo), literal(hi)))
				b.Drop(s)
			}
		}
		for _, p := range s.Properties {
			walk(p.Schema, alt)
		}
		walk(s.Items, alt)
		walk(s.AdditionalProperties, alt)
		for _, a := range s.AnyOf {
			walk(a, "inside oneOf or anyOf")
		}
		for _, a := range s.OneOf {
			walk(a, "inside oneOf or anyOf")
		}
	}
	// The schemas values inside alternatives may be of first: a schema
	// is walked once.
	for _, s := range c.schemas {
		if inAlt[s.Name] {
			walk(s.Schema, "in a schema that oneOf or anyOf refers to")
		}
	}
	for _, f := range doc.Functions {
		for _, p := range f.Parameters {
			walk(p.Schema, "")
		}
		if f.Return != nil {
			walk(f.Return.Schema, "")
		}
	}
	for _, s := range c.schemas {
		walk(s.Schema, "")
	}
}

// member returns the path and offset of the member key of the origin's value,
// or of the value itself when it has none.
func (o origin) member(key string) (string, int64) {
	if v := o.node.Get(key); v != nil {
		return o.Path + jsontree.Pointer(key), v.Offset
	}
	return o.Path, o.Offset
}

// bound returns the member of the origin's value that holds the number of
// the bound key and its value: key's own, or for OpenAPI 3.0's boolean
// exclusiveMinimum (exclusiveMaximum) the minimum (maximum) it makes
// exclusive.
func (o origin) bound(key string) (string, *jsontree.Node) {
	v := o.node.Get(key)
	if v != nil && v.Kind == jsontree.Bool {
		key = strings.ToLower(key[len("exclusive"):len("exclusive")+1]) + key[len("exclusive")+1:]
		v = o.node.Get(key)
	}
	return key, v
}

// enumValue returns the path and offset of value i of the enum (or const) of
// the origin's value.
func (o origin) enumValue(i int) (string, int64) {
	if e := o.node.Get("enum"); e != nil && e.Kind == jsontree.Array && i < len(e.Items) {
		return o.Path + "/enum/" + strconv.Itoa(i), e.Items[i].Offset
	}
	return o.member("const")
}

// variant reports whether the origin's value has several types: its schemas
// are the alternatives, and its enum holds values of the others' types.
func (o origin) variant() bool {
	t := o.node.Get("type")
	return t != nil && t.Kind == jsontree.Array && len(t.Items) > 1
}

func (c *converter) repairSchema(s *document.Schema, o origin) {
	if s.Type == "" && len(s.AnyOf) == 0 && len(s.OneOf) == 0 {
		if len(s.Enum) > 0 {
			typ, null, ok := enumType(s.Enum)
			if ok {
				s.Type, s.Nullable = typ, s.Nullable || null
			} else {
				p, off := o.member("enum")
				c.warnf(p, off, "values of several types and no type: read as any value")
				s.Enum = nil
			}
		}
		if s.Type == "" { // no type, no alternatives: any value, which these cannot narrow
			s.Default, s.Format = nil, ""
		}
	}
	if s.Type == document.TypeArray && s.Items == nil {
		s.Items = &document.Schema{}
	}
	if len(s.Enum) > 0 {
		c.repairEnum(s, o)
	}
	if s.Default != nil && s.Type != "" && !rawOfType(s.Default, s.Type, s.Nullable) {
		p, off := o.member("default")
		got := clip(string(s.Default))
		if v, err := jsontree.Parse(s.Default); err == nil {
			got = describe(v)
		}
		c.warnf(p, off, "got %s, want %s: ignored", got, want(s.Type, s.Nullable))
		s.Default = nil
	}
	if s.Pattern != "" {
		if _, err := regexp.Compile(s.Pattern); err != nil {
			p, off := o.member("pattern")
			c.warnf(p, off, "ignored: not a regular expression Go can use: %v", err)
			s.Pattern = ""
		}
	}
	if len(s.Required) > 0 {
		s.Required = c.repairRequired(s, o)
	}
}

// literal is the text of a number node.
func literal(n *jsontree.Node) string {
	if n == nil {
		return "?"
	}
	return n.Str
}

// repairEnum keeps the values of s's enum that are of its type, once each.
func (c *converter) repairEnum(s *document.Schema, o origin) {
	if s.Type == document.TypeArray || s.Type == document.TypeObject {
		p, off := o.member("enum")
		if o.node.Get("enum") == nil {
			p, off = o.member("const")
		}
		if !o.variant() {
			c.warnf(p, off, "ignored: the OpenTool model has enums of booleans, numbers and strings only")
		}
		s.Enum = nil
		return
	}
	var keep []any
	seen := map[string]bool{}
	for i, v := range s.Enum {
		if !valueOfType(v, s.Type, s.Nullable) {
			if !o.variant() {
				p, off := o.enumValue(i)
				c.warnf(p, off, "got %s, want %s: ignored", describeValue(v), want(s.Type, s.Nullable))
			}
			continue
		}
		if k := valueKey(v); !seen[k] {
			seen[k] = true
			keep = append(keep, v)
		}
	}
	s.Enum = keep
}

// repairRequired returns the names of s's "required" that are properties of
// s, once each.
func (c *converter) repairRequired(s *document.Schema, o origin) []string {
	props := map[string]bool{}
	for _, p := range s.Properties {
		props[p.Name] = true
	}
	var keep []string
	listed := map[string]bool{}
	for _, name := range s.Required {
		if props[name] && !listed[name] {
			listed[name] = true
			keep = append(keep, name)
		}
	}
	if req := o.node.Get("required"); req != nil && req.Kind == jsontree.Array {
		for i, it := range req.Items {
			if it.Kind == jsontree.String && !props[it.Str] {
				c.warnf(o.Path+"/required/"+strconv.Itoa(i), it.Offset, "got %s, want the name of a property: ignored", quote(it.Str))
			}
		}
	}
	return keep
}

// enumType returns the type of enum values without one: all strings, all
// booleans, all numbers (integers when all are); null when one is null.
func enumType(vals []any) (typ string, null, ok bool) {
	integers := true
	for _, v := range vals {
		var t string
		switch x := v.(type) {
		case nil:
			null = true
			continue
		case string:
			t = document.TypeString
		case bool:
			t = document.TypeBoolean
		case json.Number:
			t = document.TypeNumber
			integers = integers && isInteger(string(x))
		default:
			return "", false, false
		}
		if typ != "" && typ != t {
			return "", false, false
		}
		typ = t
	}
	if typ == document.TypeNumber && integers {
		typ = document.TypeInteger
	}
	return typ, null, typ != ""
}

// valueOfType reports whether the enum value v is of type typ.
func valueOfType(v any, typ string, nullable bool) bool {
	switch x := v.(type) {
	case nil:
		return nullable
	case string:
		return typ == document.TypeString
	case bool:
		return typ == document.TypeBoolean
	case json.Number:
		return typ == document.TypeNumber || typ == document.TypeInteger && isInteger(string(x))
	}
	return false
}

// rawOfType reports whether the JSON value raw is of type typ.
func rawOfType(raw json.RawMessage, typ string, nullable bool) bool {
	t := strings.TrimSpace(string(raw))
	if t == "" {
		return false
	}
	switch t[0] {
	case 'n':
		return nullable
	case 't', 'f':
		return typ == document.TypeBoolean
	case '"':
		return typ == document.TypeString
	case '[':
		return typ == document.TypeArray
	case '{':
		return typ == document.TypeObject
	}
	return typ == document.TypeNumber || typ == document.TypeInteger && isInteger(t)
}

func want(typ string, nullable bool) string {
	w := map[string]string{
		document.TypeString: "a string", document.TypeBoolean: "a boolean", document.TypeInteger: "an integer",
		document.TypeNumber: "a number", document.TypeArray: "an array", document.TypeObject: "an object",
	}[typ]
	if nullable {
		w += " or null"
	}
	return w
}

func describeValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "string " + quote(x)
	case bool:
		return "boolean " + strconv.FormatBool(x)
	case json.Number:
		return "number " + clip(string(x))
	case []any:
		return "an array"
	}
	return "an object"
}

// valueKey identifies an enum value by what it means: 1, 1.0 and 10e-1 are
// the same number.
func valueKey(v any) string {
	switch x := v.(type) {
	case json.Number:
		if d, e, ok := jsontree.Decimal(string(x)); ok {
			return "n" + d + "e" + strconv.FormatInt(e, 10)
		}
		return "n" + string(x)
	case string:
		return "s" + x
	}
	return fmt.Sprint(v)
}

// isInteger reports whether the JSON number literal lit is an integer.
func isInteger(lit string) bool {
	_, exp, ok := jsontree.Decimal(lit)
	return ok && exp >= 0
}
