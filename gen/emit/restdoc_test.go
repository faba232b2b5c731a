package emit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

func TestRESTMethodDoc(t *testing.T) {
	for _, tc := range []struct{ name, wire, doc, text, want string }{
		{"ShowPetByID", "showPetById", "Info for a specific pet", "Info for a specific pet\n\nGET /pets/{petId}",
			"// ShowPetByID calls showPetById: Info for a specific pet.\n//\n// GET /pets/{petId}\n"},
		{"Stats", "stats", "Counts.", "Counts.", "// Stats calls stats: Counts.\n"},
		{"About", "about", "Info\nabout it", "Info\nabout it", "// About calls about: Info\n// about it\n"},
		{"Info", "info", "Info\nabout it", "Info\nabout it", "// Info\n// about it\n"},
		{"GetPet", "getPet", "Get a pet", "Get a pet", "// GetPet gets a pet\n"},
		{"ListItems", "listItems", "", "GET /items", "// ListItems calls listItems: GET /items\n"},
		{"Read", "read", "Read reads", "Read reads", "// Read reads\n"},
		{"X", "x", "", "", ""},
	} {
		fn := &model.Function{Name: tc.wire, GoName: tc.name, Doc: tc.doc}
		if got := strings.ReplaceAll(fmt.Sprintf("%#v", restMethodDoc(fn, tc.text)), " \n", "\n"); got != tc.want {
			t.Errorf("restMethodDoc(%s, %q) = %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
