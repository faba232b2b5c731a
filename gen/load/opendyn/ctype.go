package opendyn

import (
	"slices"
	"strings"

	otload "github.com/opentoolgen/opentoolgen/gen/load/opentool"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// The C types of the OpenDyn specification.
var cTypeNames = []string{
	"void", "bool", "char", "unsigned char", "short", "unsigned short", "int", "unsigned int",
	"long", "unsigned long", "long long", "unsigned long long", "float", "double",
}

// cTypeSynonyms are other spellings of the C types, read with a warning.
var cTypeSynonyms = map[string]string{
	"_Bool":                  "bool",
	"signed char":            "char",
	"short int":              "short",
	"signed short":           "short",
	"signed short int":       "short",
	"unsigned short int":     "unsigned short",
	"signed":                 "int",
	"signed int":             "int",
	"unsigned":               "unsigned int",
	"long int":               "long",
	"signed long":            "long",
	"signed long int":        "long",
	"unsigned long int":      "unsigned long",
	"long long int":          "long long",
	"signed long long":       "long long",
	"signed long long int":   "long long",
	"unsigned long long int": "unsigned long long",
}

// cTypeClass is the schema type of values of a C type: "integer", "number",
// "boolean", or "void".
func cTypeClass(name string) string {
	switch name {
	case "void":
		return "void"
	case "bool":
		return document.TypeBoolean
	case "float", "double":
		return document.TypeNumber
	}
	return document.TypeInteger
}

// wantForSchemaType says which C types carry values of a schema type.
func wantForSchemaType(st string) string {
	switch st {
	case document.TypeInteger:
		return "a C integer type (char, short, int, long, long long, or one of them unsigned)"
	case document.TypeNumber:
		return "float or double"
	case document.TypeBoolean:
		return "bool"
	case document.TypeString:
		return "char or unsigned char with isPointer true (char*)"
	}
	return "a C type"
}

// dynCType is a cType object as read.
type dynCType struct {
	name    string
	pointer bool
	path    string // of the cType object
}

// inferCType returns the C type of a value without cType when only one can
// carry it (char* for strings, bool for booleans), with a warning.
func (l *dynLoader) inferCType(st, schemaPath string) *dynCType {
	p := schemaPath + "/cType"
	switch st {
	case document.TypeString:
		l.warnf(p, "missing; reading it as char* (the C type of strings)")
		return &dynCType{name: "char", pointer: true, path: p}
	case document.TypeBoolean:
		l.warnf(p, "missing; reading it as bool")
		return &dynCType{name: "bool", path: p}
	case "":
		return nil
	}
	l.errorf(p, "missing, want the C type of the value: %s", wantForSchemaType(st))
	return nil
}

// schemaCType reads and removes the cType member of a schema object. bad is
// set when there is one and it is wrong (and reported).
func (l *dynLoader) schemaCType(schema *jsontree.Node, path string) (ct *dynCType, bad bool) {
	v := schema.Get("cType")
	if v == nil {
		return nil, false
	}
	deleteMember(schema, "cType")
	p := path + "/cType"
	if v.Kind == jsontree.Null {
		return nil, false
	}
	ct = l.readCType(v, p)
	return ct, ct == nil
}

// readCType reads a cType object; nil when it is wrong (and reported).
func (l *dynLoader) readCType(v *jsontree.Node, p string) *dynCType {
	if v.Kind != jsontree.Object {
		l.errorf(p, "got %s, want a cType object {\"type\": …, \"isPointer\": …}", describe(v))
		return nil
	}
	ct := &dynCType{path: p}
	t := v.Get("type")
	switch {
	case t == nil || t.Kind == jsontree.Null:
		l.errorf(p+"/type", "missing, want one of %s", strings.Join(cTypeNames, ", "))
		return nil
	case t.Kind != jsontree.String:
		l.errorf(p+"/type", "got %s, want one of %s", describe(t), strings.Join(cTypeNames, ", "))
		return nil
	}
	name, stars, ok := parseCType(t.Str)
	switch {
	case !ok:
		l.errorf(p+"/type", "got %q, want one of %s", source.ClipValue(t.Str), strings.Join(cTypeNames, ", "))
		return nil
	case stars > 1:
		l.errorf(p+"/type", "got %q, a pointer to a pointer; want a C type with at most one *", source.ClipValue(t.Str))
		return nil
	}
	ct.name = name
	if name != t.Str {
		if stars == 1 {
			l.warnf(p+"/type", "got %q, want %q with isPointer true; reading it so", source.ClipValue(t.Str), name)
		} else {
			l.warnf(p+"/type", "got %q, want %q; reading it so", source.ClipValue(t.Str), name)
		}
	}
	switch ip := v.Get("isPointer"); {
	case ip == nil || ip.Kind == jsontree.Null:
		ct.pointer = stars == 1
	case ip.Kind != jsontree.Bool:
		l.errorf(p+"/isPointer", "got %s, want a boolean", describe(ip))
	case stars == 1 && !ip.Bool:
		l.errorf(p+"/isPointer", "got false, but the type %q is a pointer: want one of them", source.ClipValue(t.Str))
	default:
		ct.pointer = ip.Bool || stars == 1
	}
	for _, m := range v.Members {
		switch m.Key {
		case "type", "isPointer", "isIn":
		default:
			l.warnf(p+jsontree.Pointer(m.Key), "%s", otload.UnknownMember(m.Key, []string{"type", "isPointer", "isIn"}))
		}
	}
	return ct
}

// parseCType reads a C type name: one of the OpenDyn list or a synonym, with
// "const" and trailing stars allowed. It returns the canonical name and the
// number of stars.
func parseCType(s string) (name string, stars int, ok bool) {
	s = strings.TrimSpace(s)
	for strings.HasSuffix(s, "*") {
		stars++
		s = strings.TrimSpace(s[:len(s)-1])
	}
	fields := strings.Fields(s)
	var kept []string
	for _, f := range fields {
		if f != "const" {
			kept = append(kept, f)
		}
	}
	s = strings.Join(kept, " ")
	if slices.Contains(cTypeNames, s) {
		return s, stars, true
	}
	if c, ok := cTypeSynonyms[s]; ok {
		return c, stars, true
	}
	return "", 0, false
}

func sameCType(a, b *dynCType) bool { return a.name == b.name && a.pointer == b.pointer }

func (c *dynCType) String() string {
	if c.pointer {
		return c.name + "*"
	}
	return c.name
}

// cType is the model's C type of a cType as read; the zero CType for none.
func (c *dynCType) cType() model.CType {
	if c == nil {
		return model.CType{}
	}
	return model.CType{Name: c.name, Pointer: c.pointer}
}
