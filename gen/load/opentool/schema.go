package opentool

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/internal/checked"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// schemaTypes is the list of types for messages.
const schemaTypes = "boolean, integer, number, string, array, object"

func isSchemaType(t string) bool {
	switch t {
	case document.TypeBoolean, document.TypeInteger, document.TypeNumber, document.TypeString, document.TypeArray, document.TypeObject:
		return true
	}
	return false
}

// quietSchemaMember reports whether an unknown schema member is ignored without
// a warning: extensions ("x-...") and annotations that change nothing.
func quietSchemaMember(key string) bool {
	switch key {
	case "title", "example", "examples", "deprecated", "readOnly", "writeOnly", "$comment":
		return true
	}
	return strings.HasPrefix(key, "x-")
}

// untyped reports whether schema n says nothing about its value's type: no
// member but annotations.
func untyped(n *jsontree.Node) bool {
	for _, m := range n.Members {
		if m.Key != "description" && m.Key != "nullable" && !quietSchemaMember(m.Key) && m.Value.Kind != jsontree.Null {
			return false
		}
	}
	return true
}

// schema reads the schema object n.
func (l *otLoader) schema(n *jsontree.Node) *document.Schema {
	if n.Kind != jsontree.Object {
		l.gotWant(l.here(), n, "a schema object")
		return nil
	}
	if ref := n.Get("$ref"); ref != nil {
		return l.refSchema(n, ref)
	}
	r := &schemaRead{n: n, s: &document.Schema{}}
	r.typ = l.schemaType(n)
	r.s.Type = r.typ
	if v := n.Get("nullable"); v != nil && v.Kind == jsontree.Bool {
		r.nullable = v.Bool
	}
	for _, m := range n.Members {
		if m.Value.Kind == jsontree.Null || m.Key == "type" {
			continue // null is the same as leaving the member out
		}
		k := l.enter(m.Key)
		l.schemaMember(r, m)
		l.leave(k)
	}
	l.schemaChecks(r)
	return r.s
}

// schemaRead is the state of reading one schema object.
type schemaRead struct {
	n        *jsontree.Node
	s        *document.Schema
	typ      string // "" when the type is wrong: then check members against any type
	nullable bool

	exclMin, exclMax *jsontree.Node // OpenAPI 3.0's boolean exclusive bounds
}

// refSchema reads the schema object n holding the reference ref: besides it,
// only a description and quiet members.
func (l *otLoader) refSchema(n, ref *jsontree.Node) *document.Schema {
	s := &document.Schema{}
	k := l.enter("$ref")
	l.ref(ref, s)
	l.leave(k)
	for _, m := range n.Members {
		switch {
		case m.Key == "$ref":
		case m.Key == "description":
			s.Description = l.str(n, "description", false)
		case quietSchemaMember(m.Key):
		default:
			l.warnf(l.at(m.Key), m.KeyOffset, "ignored next to $ref")
		}
	}
	return s
}

// schemaType reads the type of schema n: "" when it has none or a wrong one.
func (l *otLoader) schemaType(n *jsontree.Node) string {
	switch tv := n.Get("type"); {
	case tv == nil && (otMember(n, "oneOf") != nil || otMember(n, "anyOf") != nil):
		// the alternatives say what the value is
	case tv == nil && untyped(n):
		// {} or {"description": …}: JSON Schema's "any value", which documents
		// converted from OpenAPI use for values their source does not type.
		l.warnf(l.at("type"), n.Offset, "missing: read as any JSON value")
	case tv == nil:
		l.errorf(l.at("type"), n.Offset, "missing, want one of %s (or a $ref)", schemaTypes)
	case tv.Kind != jsontree.String:
		l.gotWant(l.at("type"), tv, "one of "+schemaTypes)
	case !isSchemaType(tv.Str):
		l.errorf(l.at("type"), tv.Offset, "got %s, want one of %s", strconv.Quote(clipText(tv.Str)), schemaTypes)
	default:
		return tv.Str
	}
	return ""
}

// schemaMember reads member m (not null, not "type") of the schema being read.
func (l *otLoader) schemaMember(r *schemaRead, m jsontree.Member) {
	s, v := r.s, m.Value
	switch m.Key {
	case "description":
		s.Description = l.strValue(v)
	case "format":
		s.Format = l.strValue(v)
	case "nullable":
		if v.Kind != jsontree.Bool {
			l.gotWant(l.here(), v, "a boolean")
		}
		s.Nullable = r.nullable
	case "enum", "default", "const":
		l.valueMember(r, m)
	case "properties", "required", "minProperties", "maxProperties", "additionalProperties":
		if l.applies(m, r.typ, document.TypeObject) {
			l.objectMember(r, m)
		}
	case "items", "uniqueItems", "minItems", "maxItems":
		if l.applies(m, r.typ, document.TypeArray) {
			l.arrayMember(s, m)
		}
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		if l.applies(m, r.typ, document.TypeInteger, document.TypeNumber) {
			l.numericMember(r, m)
		}
	case "minLength", "maxLength", "pattern":
		if l.applies(m, r.typ, document.TypeString) {
			l.stringMember(s, m)
		}
	case "oneOf", "anyOf":
		l.alternatives(s, m)
	default:
		switch {
		case quietSchemaMember(m.Key):
		case unsupportedSchemaKeywords[m.Key]:
			l.warnf(l.here(), m.KeyOffset, "ignored: the OpenTool model has no %s", m.Key)
		default:
			l.warnf(l.here(), m.KeyOffset, "%s", UnknownMember(m.Key, l.known.Schema))
		}
	}
}

// valueMember reads "enum", "default" or "const": values of the schema's type.
func (l *otLoader) valueMember(r *schemaRead, m jsontree.Member) {
	s, v := r.s, m.Value
	switch m.Key {
	case "enum":
		s.Enum = l.enum(v, r.typ, r.nullable)
	case "default":
		if l.valueOfType(v, r.typ, r.nullable) {
			s.Default = json.RawMessage(appendCanonicalJSON(nil, v))
		}
	default: // "const"
		if l.valueOfType(v, r.typ, r.nullable) && v.Kind != jsontree.Null {
			s.Const = json.RawMessage(appendCanonicalJSON(nil, v))
		}
	}
}

// objectMember reads a member that applies to objects.
func (l *otLoader) objectMember(r *schemaRead, m jsontree.Member) {
	s, v := r.s, m.Value
	switch m.Key {
	case "properties":
		if v.Kind != jsontree.Object {
			l.gotWant(l.here(), v, "an object mapping property names to schemas")
			return
		}
		for _, pm := range v.Members {
			pk := l.enter(pm.Key)
			s.Properties = append(s.Properties, document.NamedSchema{Name: pm.Key, Schema: l.schema(pm.Value)})
			l.leave(pk)
		}
	case "required":
		s.Required = l.requiredNames(v, r.n.Get("properties"))
	case "minProperties":
		s.MinProperties = l.count(v)
	case "maxProperties":
		s.MaxProperties = l.count(v)
	default: // "additionalProperties"
		switch v.Kind {
		case jsontree.Bool: // true is the default; false cannot be expressed: read both as absent
		case jsontree.Object:
			s.AdditionalProperties = l.schema(v)
		default:
			l.gotWant(l.here(), v, "a schema object or a boolean")
		}
	}
}

// arrayMember reads a member that applies to arrays.
func (l *otLoader) arrayMember(s *document.Schema, m jsontree.Member) {
	v := m.Value
	switch m.Key {
	case "items":
		s.Items = l.schema(v)
	case "uniqueItems":
		if v.Kind != jsontree.Bool {
			l.gotWant(l.here(), v, "a boolean")
			return
		}
		s.UniqueItems = v.Bool
	case "minItems":
		s.MinItems = l.count(v)
	default: // "maxItems"
		s.MaxItems = l.count(v)
	}
}

// numericMember reads a member that applies to integers and numbers.
func (l *otLoader) numericMember(r *schemaRead, m jsontree.Member) {
	s, v := r.s, m.Value
	switch m.Key {
	case "minimum", "maximum":
		if f, ok := l.float(v); ok && m.Key == "minimum" {
			s.Minimum = &f
		} else if ok {
			s.Maximum = &f
		}
	case "exclusiveMinimum", "exclusiveMaximum":
		// JSON Schema's number, or OpenAPI 3.0's boolean that makes
		// minimum or maximum exclusive (read into the number form by
		// schemaChecks).
		if v.Kind == jsontree.Bool {
			if m.Key == "exclusiveMinimum" {
				r.exclMin = v
			} else {
				r.exclMax = v
			}
			return
		}
		if f, ok := l.float(v); ok && m.Key == "exclusiveMinimum" {
			s.ExclusiveMinimum = &f
		} else if ok {
			s.ExclusiveMaximum = &f
		}
	default: // "multipleOf"
		if f, ok := l.float(v); ok && f > 0 {
			s.MultipleOf = &f
		} else if ok {
			l.gotWant(l.here(), v, "a number above 0")
		}
	}
}

// stringMember reads a member that applies to strings.
func (l *otLoader) stringMember(s *document.Schema, m jsontree.Member) {
	v := m.Value
	switch m.Key {
	case "minLength":
		s.MinLength = l.count(v)
	case "maxLength":
		s.MaxLength = l.count(v)
	default: // "pattern"
		if pat := l.strValue(v); pat != "" {
			if _, err := regexp.Compile(pat); err != nil {
				l.warnf(l.here(), v.Offset, "ignored: not a regular expression Go can use: %v", err)
			} else {
				s.Pattern = pat
			}
		}
	}
}

// alternatives reads "oneOf" or "anyOf".
func (l *otLoader) alternatives(s *document.Schema, m jsontree.Member) {
	v := m.Value
	if v.Kind != jsontree.Array || len(v.Items) == 0 {
		l.gotWant(l.here(), v, "a non-empty array of schemas")
		return
	}
	var alts []*document.Schema
	l.alts++
	for i, item := range v.Items {
		ik := l.enter(strconv.Itoa(i))
		alts = append(alts, l.schema(item))
		l.leave(ik)
	}
	l.alts--
	if m.Key == "oneOf" {
		s.OneOf = alts
	} else {
		s.AnyOf = alts
	}
}

// schemaChecks finishes the schema read: items required with type array, the
// boolean exclusive bounds, what the generated decoders cannot check pruned
// and bounds no value meets reported.
func (l *otLoader) schemaChecks(r *schemaRead) {
	n, s := r.n, r.s
	if r.typ == document.TypeArray && otMember(n, "items") == nil {
		l.errorf(l.at("items"), n.Offset, "missing, want a schema for the elements (required with type array)")
	}
	l.exclusive(n, r.exclMin, "minimum", &s.Minimum, &s.ExclusiveMinimum)
	l.exclusive(n, r.exclMax, "maximum", &s.Maximum, &s.ExclusiveMaximum)
	// What the generated decoders cannot check is not served.
	untyped := ""
	switch {
	case l.alts > 0:
		untyped = "inside oneOf or anyOf"
	case n.Get("type") == nil && (otMember(n, "oneOf") != nil || otMember(n, "anyOf") != nil):
		untyped = "beside oneOf or anyOf"
	}
	checked.Prune(s, untyped, func(key, why string) {
		l.warnf(l.at(key), keyOffset(n, key), "ignored: %s", why)
	})
	// Bounds that no value meets are an error at the upper bound.
	for _, c := range checked.Conflicts(s) {
		loKey, lo := numberMember(n, c.Lo)
		hiKey, hi := numberMember(n, c.Hi)
		l.errorf(l.at(hiKey), hi.Offset, "%s", c.Error(loKey, lo.Str, hi.Str))
	}
}

// exclusive reads OpenAPI 3.0's boolean exclusive bound flag (of the member
// bound, "minimum" or "maximum", of n) into JSON Schema's number form: true
// moves *incl to *excl, unless *excl is set already (the tighter of the two
// is checked).
func (l *otLoader) exclusive(n, flag *jsontree.Node, bound string, incl, excl **float64) {
	if flag == nil || !flag.Bool {
		return
	}
	key := "exclusive" + strings.ToUpper(bound[:1]) + bound[1:]
	switch {
	case *incl == nil:
		l.warnf(l.at(key), keyOffset(n, key), "ignored: true without %s", bound)
	case *excl == nil:
		*excl, *incl = *incl, nil
	}
}

// numberMember returns the member of n that holds the number of the bound
// key and its value: key's own, or for OpenAPI 3.0's boolean
// exclusiveMinimum (exclusiveMaximum) the minimum (maximum) it makes
// exclusive.
func numberMember(n *jsontree.Node, key string) (string, *jsontree.Node) {
	v := n.Get(key)
	if v != nil && v.Kind == jsontree.Bool {
		key = strings.ToLower(key[len("exclusive"):len("exclusive")+1]) + key[len("exclusive")+1:]
		v = n.Get(key)
	}
	return key, v
}

// keyOffset is the offset of the key of n's member key, or of n when it has
// none.
func keyOffset(n *jsontree.Node, key string) int64 {
	for _, m := range n.Members {
		if m.Key == key {
			return m.KeyOffset
		}
	}
	return n.Offset
}

// strValue reads the value being read as a string.
func (l *otLoader) strValue(v *jsontree.Node) string {
	if v.Kind != jsontree.String {
		l.gotWant(l.here(), v, "a string")
		return ""
	}
	return v.Str
}

// applies reports whether schema member m applies to type typ, one of types;
// when it does not, the member is ignored with a warning.
func (l *otLoader) applies(m jsontree.Member, typ string, types ...string) bool {
	if typ == "" || slices.Contains(types, typ) {
		return true
	}
	l.warnf(l.here(), m.KeyOffset, "ignored: got type %s, want type %s", typ, strings.Join(types, " or "))
	return false
}

// ref reads a reference "#/schemas/Name" into s.Ref.
func (l *otLoader) ref(v *jsontree.Node, s *document.Schema) {
	if v.Kind != jsontree.String {
		l.gotWant(l.here(), v, `a string "`+document.RefPrefix+`<name>"`)
		return
	}
	s.Ref = v.Str
	name, ok := document.RefName(v.Str)
	switch {
	case !ok:
		l.errorf(l.here(), v.Offset, `got %s, want "%s<name>"`, strconv.Quote(clipText(v.Str)), document.RefPrefix)
	case !l.hasSchema(name):
		l.errorf(l.here(), v.Offset, "got %s, want a reference to one of the document's schemas%s",
			strconv.Quote(clipText(v.Str)), l.schemaHint())
	}
}

func (l *otLoader) hasSchema(name string) bool {
	_, ok := l.schemaSet[name]
	return ok
}

// schemaHint lists the document's schema names for a message.
func (l *otLoader) schemaHint() string {
	if len(l.schemaNames) == 0 {
		return " (it has none)"
	}
	const max = 8
	var b strings.Builder
	b.WriteString(" (")
	for i, name := range l.schemaNames {
		if i == max {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(clipText(name)))
	}
	b.WriteString(")")
	return b.String()
}

// checkRefCycles reports chains of schemas that are references to each other
// and come back to where they started ("A": {"$ref": "#/schemas/A"}). A schema
// that refers to itself from inside (a property or items) is a recursive type,
// which is fine.
func (l *otLoader) checkRefCycles(schemas *jsontree.Node) {
	type aliasOf struct {
		to  string         // the name the schema's $ref points to
		ref *jsontree.Node // the $ref
	}
	alias := make(map[string]aliasOf)
	for _, m := range schemas.Members {
		if ref := m.Value.Get("$ref"); ref != nil && ref.Kind == jsontree.String {
			if to, ok := document.RefName(ref.Str); ok && l.hasSchema(to) {
				alias[m.Key] = aliasOf{to, ref}
			}
		}
	}
	const (
		unseen = iota
		onChain
		done
	)
	state := make(map[string]int, len(alias))
	for _, m := range schemas.Members {
		var chain []string
		cur := m.Key
		for {
			if _, ok := alias[cur]; !ok || state[cur] != unseen {
				break
			}
			state[cur] = onChain
			chain = append(chain, cur)
			cur = alias[cur].to
		}
		if state[cur] == onChain {
			i := slices.Index(chain, cur)
			loop := append(slices.Clone(chain[i:]), cur)
			for j, name := range loop {
				loop[j] = strconv.Quote(clipText(name))
			}
			l.errorf(l.here()+jsontree.Pointer(cur, "$ref"), alias[cur].ref.Offset,
				"the references form a cycle: %s; want a chain that ends at a schema with a type", strings.Join(loop, " -> "))
		}
		for _, name := range chain {
			state[name] = done
		}
	}
}
