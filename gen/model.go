package gen

import "github.com/opentoolgen/opentoolgen/runtime"

// The model is what every loader produces and every emitter reads. All Go
// identifiers are decided here, once; emitters never invent a name from document
// text. Slices keep document order; nothing is a Go map, so emission is
// deterministic.

// Package is one generated Go package.
type Package struct {
	Name      string // Go package name
	Source    string // base name of the input document, for the header
	Kind      string // "opentool", "opendyn", "openapi"
	Title     string // the document's title and version, for the package comment
	Version   string
	Doc       string
	Types     []*Type     // named types, in declaration order
	Functions []*Function // in document order
	// Document is the equivalent OpenTool document, embedded in the package.
	Document *runtime.OpenTool
}

// TypeKind says what a named type is.
type TypeKind int

const (
	KindStruct TypeKind = iota // struct with Fields
	KindEnum                   // defined type over Underlying with constants Values
	KindNamed                  // defined type over Underlying (type Count int64, type Tags []string)
	KindAlias                  // alias of Underlying (type A = B), for a schema that is a reference
)

// Type is a named Go type.
type Type struct {
	Name string
	Doc  string
	// Origin says where the type comes from, for its comment when the document
	// has no description ("the \"loc\" parameter of \"get_weather\"").
	Origin     string
	Kind       TypeKind
	Fields     []*Field    // KindStruct
	Underlying *TypeRef    // KindEnum, KindNamed, KindAlias
	Values     []EnumValue // KindEnum
	// Decoder is the name of the generated decode function, "" when none is
	// needed (the type is never decoded from arguments).
	Decoder string
	// CustomJSON is set for structs with a JSON member name that a struct tag
	// cannot carry: they get MarshalJSON and UnmarshalJSON methods.
	CustomJSON bool
}

// EnumValue is one constant of an enum type.
type EnumValue struct {
	Name  string // Go constant name
	Value any    // string, int64 or float64
}

// RefKind is the kind of a use of a type.
type RefKind int

const (
	RefString RefKind = iota
	RefInt            // int64 unless Bits/Unsigned say otherwise
	RefFloat          // float64, or float32 with Bits 32
	RefBool
	RefSlice // []Elem
	RefMap   // map[string]Elem
	RefAny   // any (a value of any JSON type)
	RefNamed // a named Type
)

// TypeRef is a use of a type: a field's, an element's, a result's.
type TypeRef struct {
	Kind     RefKind
	Elem     *TypeRef // RefSlice, RefMap
	Named    *Type    // RefNamed
	Bits     int      // RefInt (8, 16, 32, 64), RefFloat (32, 64); 0 means 64
	Unsigned bool     // RefInt
}

// Field is a field of a struct.
type Field struct {
	Name     string // Go name
	JSONName string // the member name, kept exactly
	Doc      string
	Type     *TypeRef
	Required bool
	// Pointer is set for optional fields whose zero value is a valid value
	// (scalars, structs, named types), so that absent and zero differ, and for
	// required fields that would otherwise make a recursive type infinite.
	Pointer bool
}

// Function is one function of the tool.
type Function struct {
	Name   string // as called on the wire
	GoName string // method name on Service and Client
	Doc    string
	Args   *Type // struct of the arguments; nil when the function has no parameters
	// Result is the type of the return value (or of each streamed value); nil
	// when the function returns nothing.
	Result *TypeRef
	// ResultName is the member name a scalar or array result travels under
	// ({"N": v}); "" when the result is an object and travels as itself.
	ResultName string
	Stream     bool
}
