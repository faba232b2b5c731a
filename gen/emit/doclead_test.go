package emit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
)

func TestDocLead(t *testing.T) {
	for _, tc := range []struct{ name, first, verb, want string }{
		{"GetWeather", "Get the current weather", "returns", "GetWeather gets the current weather"},
		{"Search", "Searches the index", "returns", "Search searches the index"},
		{"Stats", "Counts of pets by status.", "returns", "Counts of pets by status."},
		{"Cos", "The cosine of x", "returns", "Cos returns the cosine of x"},
		{"Unit", "The temperature unit", "is", "Unit is the temperature unit"},
		{"Node", "A recursive node", "is", "Node is a recursive node"},
		{"Read", "Read reads a text", "returns", "Read reads a text"},
		{"ShowPetByID", "Info for a specific pet", "returns", "Info for a specific pet"},
		{"X", "Get", "returns", "Get"},
	} {
		if got := docLead(tc.name, tc.first, tc.verb); got != tc.want {
			t.Errorf("docLead(%q, %q) = %q, want %q", tc.name, tc.first, got, tc.want)
		}
	}
}

// TestDocRule: a doc comment starts with its identifier: the text read by
// docLead, else led by what the function calls or the type stands for.
func TestDocRule(t *testing.T) {
	render := func(s *jen.Statement) string { return strings.ReplaceAll(fmt.Sprintf("%#v", s), " \n", "\n") }
	for _, tc := range []struct{ got, want string }{
		{render(funcDoc("Normalize", "normalize", "Scales a vector to length 1")), "// Normalize calls normalize: Scales a vector to length 1.\n"},
		{render(funcDoc("GetWeather", "get_weather", "Get the weather")), "// GetWeather gets the weather\n"},
		{render(funcDoc("Cos", "cos", "The cosine of x.")), "// Cos returns the cosine of x.\n"},
		{render(funcDoc("Fail", "fail", "Fail.")), "// Fail calls fail: Fail.\n"},
		{render(funcDoc("Run", "run", "trigger runing\nsecond line")), "// Run calls run: trigger runing\n// second line\n"},
		{render(funcDoc("X", "x", "")), ""},
		{render(docComment("Code", "Three capital letters.", `Code is the schema "Code" of the document.`)), "// Code is the schema \"Code\" of the document: Three capital letters.\n"},
		{render(docComment("Unit", "The unit", `Unit is the schema "Unit" of the document.`)), "// Unit is the unit\n"},
		{render(docComment("Unit", "", `Unit is the schema "Unit" of the document.`)), "// Unit is the schema \"Unit\" of the document.\n"},
		{render(docComment("City", "city and state", "")), "// city and state\n"}, // a struct field
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
