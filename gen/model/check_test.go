package model

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// TestCollisions builds a model whose names and values collide in every way
// the compiler would refuse, as a naming bug would leave it: each collision
// is reported once, naming both things.
func TestCollisions(t *testing.T) {
	color := &Type{Name: "Color", Kind: KindEnum, Underlying: &TypeRef{Kind: RefString}, Origin: "the schema Color",
		Values: []EnumValue{{Name: "ColorRed", Value: "red"}, {Name: "ColorRed2", Value: "red"}}}
	args := &Type{Name: "AddArgs", Kind: KindStruct, Decoder: "decodeAddArgs", Fields: []*Field{
		{Name: "UserID", JSONName: "user_id"}, {Name: "UserID", JSONName: "userId"},
		{Name: "Note", JSONName: "note"}, {Name: "Note2", JSONName: "note"},
	}}
	dup := &Type{Name: "ColorRed", Kind: KindNamed, Underlying: &TypeRef{Kind: RefInt}}
	union := &Type{Name: "Shape", Kind: KindUnion, Variants: []*Variant{{Name: "Circle"}, {Name: "Circle"}}}
	p := &Package{
		Types: []*Type{color, args, dup, union},
		Functions: []*Function{
			{Name: "add", GoName: "Add", Args: args},
			{Name: "add", GoName: "Add"},
		},
	}
	want := []string{
		`"red" is taken twice as a value of the enum Color: its constant 1, ColorRed = "red", and its constant 2, ColorRed2 = "red"`,
		`"UserID" is taken twice as a field of the struct AddArgs: the field UserID for "user_id", and the field UserID for "userId"`,
		`"note" is taken twice as a member decoded by the struct AddArgs: the field Note, and the field Note2`,
		`"ColorRed" is taken twice as a package-level identifier: the constant ColorRed of the type Color, and the type ColorRed`,
		`"Circle" is taken twice as a variant of the union Shape: the variant Circle, and the variant Circle`,
		`"add" is taken twice as a function name: the function "add", and the function "add"`,
		`"Add" is taken twice as a method: the method of the function "add", and the method of the function "add"`,
	}
	if diff := cmp.Diff(want, Collisions(p)); diff != "" {
		t.Errorf("Collisions (-want +got):\n%s", diff)
	}
	// The names a Naming makes never collide, whatever the document says.
	n := &Naming{}
	q := &Package{Kind: "openapi", Naming: n}
	e := &Type{}
	n.Schema(e, "color")
	q.Types = append(q.Types, e)
	n.Enum(e, &document.Schema{Type: document.TypeString, Enum: []any{"red", "red", "Red", "RED", "r-ed"}})
	Name(q)
	if cs := Collisions(q); len(cs) != 0 {
		t.Errorf("Collisions of a named package: %q", cs)
	}
	var got []string
	for _, v := range e.Values {
		got = append(got, v.Name)
	}
	if diff := cmp.Diff([]string{"ColorRed", "ColorRed2", "ColorRED", "ColorREd"}, got); diff != "" {
		t.Errorf("constants (-want +got):\n%s", diff)
	}
}
