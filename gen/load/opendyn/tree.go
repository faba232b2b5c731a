package opendyn

import (
	"math"
	"slices"
	"strconv"

	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// fixSchema reads C type names used as schema types ("type": "double") as the
// schema type they stand for, with a warning, and removes cType members where
// they mean nothing, also with a warning; in s and the schemas inside it.
func (l *dynLoader) fixSchema(s *jsontree.Node, path string) {
	// The path grows as a stack and becomes a string only in a warning: a
	// string per nested schema would cost the square of the depth.
	p := []byte(path)
	l.fixAt(s, &p)
}

func (l *dynLoader) fixAt(s *jsontree.Node, path *[]byte) {
	if s == nil || s.Kind != jsontree.Object {
		return
	}
	if t := s.Get("type"); t != nil && t.Kind == jsontree.String && !isSchemaTypeName(t.Str) {
		if name, stars, ok := parseCType(t.Str); ok {
			st := cTypeClass(name)
			switch {
			case (name == "char" || name == "unsigned char") && stars == 1:
				st = document.TypeString
			case stars > 0 || name == "char" || st == "void":
				st = ""
			}
			if st != "" {
				l.warnf(string(*path)+"/type", "got %q, a C type, want one of boolean, integer, number, string, array, object; reading it as %q", source.ClipValue(t.Str), st)
				t.Str = st
			}
		}
	}
	for _, m := range s.Members {
		n := len(*path)
		*path = jsontree.AppendToken(*path, m.Key)
		switch m.Key {
		case "properties":
			if m.Value.Kind == jsontree.Object {
				for _, pm := range m.Value.Members {
					k := len(*path)
					*path = jsontree.AppendToken(*path, pm.Key)
					l.nested(pm.Value, path)
					*path = (*path)[:k]
				}
			}
		case "items", "additionalProperties":
			l.nested(m.Value, path)
		}
		*path = (*path)[:n]
	}
}

// nested fixes a schema inside another one, where cType means nothing.
func (l *dynLoader) nested(s *jsontree.Node, path *[]byte) {
	if s == nil || s.Kind != jsontree.Object {
		return
	}
	if s.Get("cType") != nil {
		l.warnf(string(*path)+"/cType", "ignored: a C type belongs to a parameter's or return value's schema (for an array, the element type with isPointer true)")
		deleteMember(s, "cType")
	}
	l.fixAt(s, path)
}

func isSchemaTypeName(t string) bool {
	switch t {
	case document.TypeBoolean, document.TypeInteger, document.TypeNumber, document.TypeString, document.TypeArray, document.TypeObject:
		return true
	}
	return false
}

// resolve follows a schema's $ref chain through the document's schemas. It
// returns the schema it ends at (nil if a reference dangles or loops) and the
// name of the first named schema reached ("" when s is no reference).
func (l *dynLoader) resolve(s *jsontree.Node) (*jsontree.Node, string) {
	first := ""
	for range 64 {
		if s == nil || s.Kind != jsontree.Object {
			return nil, first
		}
		ref := s.Get("$ref")
		if ref == nil {
			return s, first
		}
		if ref.Kind != jsontree.String {
			return nil, first
		}
		name, ok := document.RefName(ref.Str)
		if !ok {
			return nil, first
		}
		if first == "" {
			first = name
		}
		s = l.root.Get("schemas").Get(name)
	}
	return nil, first
}

// count reads a non-negative integer member of a schema.
func (l *dynLoader) count(s *jsontree.Node, key string) (int, bool) {
	v := s.Get(key)
	if v == nil || v.Kind != jsontree.Number {
		return 0, false
	}
	n, err := strconv.ParseInt(v.Str, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt32 {
		return 0, false
	}
	return int(n), true
}

func stringMember(n *jsontree.Node, key string) string {
	if v := n.Get(key); v != nil && v.Kind == jsontree.String {
		return v.Str
	}
	return ""
}

// describe says what v is, for "got …" in messages.
func describe(v *jsontree.Node) string {
	switch v.Kind {
	case jsontree.Null:
		return "null"
	case jsontree.Bool:
		return "boolean " + strconv.FormatBool(v.Bool)
	case jsontree.Number:
		return "number " + source.ClipValue(v.Str)
	case jsontree.String:
		return "string " + strconv.Quote(source.ClipValue(v.Str))
	case jsontree.Array:
		return "an array"
	}
	return "an object"
}

// cloneTree returns a deep copy of the tree n, which the loader rewrites.
func cloneTree(n *jsontree.Node) *jsontree.Node {
	if n == nil {
		return nil
	}
	c := *n
	if n.Items != nil {
		c.Items = make([]*jsontree.Node, len(n.Items))
		for i, it := range n.Items {
			c.Items[i] = cloneTree(it)
		}
	}
	if n.Members != nil {
		c.Members = make([]jsontree.Member, len(n.Members))
		for i, m := range n.Members {
			c.Members[i] = jsontree.Member{Key: m.Key, KeyOffset: m.KeyOffset, Value: cloneTree(m.Value)}
		}
	}
	return &c
}

func deleteMember(obj *jsontree.Node, key string) {
	obj.Members = slices.DeleteFunc(obj.Members, func(m jsontree.Member) bool { return m.Key == key })
}

func setMember(obj *jsontree.Node, key string, v *jsontree.Node) {
	for i := range obj.Members {
		if obj.Members[i].Key == key {
			obj.Members[i].Value = v
			return
		}
	}
	obj.Members = append(obj.Members, jsontree.Member{Key: key, KeyOffset: v.Offset, Value: v})
}
