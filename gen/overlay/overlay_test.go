package overlay

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/gen/source"
)

func read(t *testing.T, name string) File {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return File{Name: filepath.Join("testdata", name), Data: data}
}

func readDoc(t *testing.T, name string) *source.Source {
	t.Helper()
	f := read(t, name)
	s, err := source.ReadSource(f.Name, f.Data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// apply applies overlays (files or inline texts, named "inline-N.yaml") to
// the document and returns the result as a value, with the warnings.
func apply(t *testing.T, doc *source.Source, overlays ...File) (*source.Source, any, []source.Diagnostic) {
	t.Helper()
	out, warnings, err := Apply(doc, overlays)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	var v any
	if err := json.Unmarshal(out.JSON, &v); err != nil {
		t.Fatalf("the patched document is not JSON: %v", err)
	}
	return out, v, warnings
}

func at(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func TestApplyRenameHintsRemoveFix(t *testing.T) {
	doc := readDoc(t, "shop.yaml")
	out, v, warnings := apply(t, doc, read(t, "rename.yaml"))
	if len(warnings) != 0 {
		t.Errorf("warnings: %v", warnings)
	}
	get := at(v, "paths", "/items", "get")
	if got := at(get, "operationId"); got != "items" {
		t.Errorf("operationId = %v, want items", got)
	}
	if got := at(get, "x-speakeasy-name-override"); got != "items" {
		t.Errorf("x-speakeasy-name-override = %v, want items", got)
	}
	limit := at(get, "parameters").([]any)[0]
	if diff := cmp.Diff(map[string]any{"type": "integer", "minimum": 1.0}, at(limit, "schema")); diff != "" {
		t.Errorf("limit's schema (-want +got):\n%s", diff)
	}
	if got := at(v, "paths", "/admin/reset"); !cmp.Equal(got, map[string]any{}) {
		t.Errorf("/admin/reset = %v, want its internal operation removed", got)
	}
	if got := at(v, "components", "schemas", "Item", "properties", "price", "type"); got != "number" {
		t.Errorf("price's type = %v, want number", got)
	}
	// Places: what the document wrote is at its lines, what the overlay
	// wrote at the overlay's.
	for _, c := range []struct {
		path      string
		file      string
		line, col int
	}{
		{"/paths/~1items/get/operationId", "testdata/rename.yaml", 10, 20},
		{"/paths/~1items/get/responses", "testdata/shop.yaml", 16, 9},
		{"/paths/~1items/get/x-speakeasy-name-override", "testdata/rename.yaml", 11, 34},
		{"/paths/~1items/get/parameters/0/schema/type", "testdata/rename.yaml", 15, 13},
		{"/paths/~1items/get/parameters/0/schema/minimum", "testdata/rename.yaml", 16, 16},
		{"/paths/~1items/get/parameters/0/name", "testdata/shop.yaml", 11, 17},
		{"/components/schemas/Item/properties/tags/items", "testdata/rename.yaml", 27, 11},
		{"/components/schemas/Item/required", "testdata/shop.yaml", 47, 17},
	} {
		file, line, col := out.OriginOf(c.path)
		if file != c.file || line != c.line || col != c.col {
			t.Errorf("%s: from %s:%d:%d, want %s:%d:%d", c.path, file, line, col, c.file, c.line, c.col)
		}
	}
	// Member order: the document's, then the overlay's new members.
	keys := memberKeys(t, out.JSON, "/paths/~1items/get")
	if want := []string{"operationId", "tags", "parameters", "responses", "x-speakeasy-name-override"}; !cmp.Equal(keys, want) {
		t.Errorf("members of the operation: %v, want %v", keys, want)
	}
}

// memberKeys returns the member names of the object at ptr of the JSON
// text, in order.
func memberKeys(t *testing.T, data []byte, ptr string) []string {
	t.Helper()
	s, err := source.ReadSource("x.json", data)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, m := range s.Tree.Find(ptr).Members {
		keys = append(keys, m.Key)
	}
	return keys
}

func TestApplyCopyAndNoMatch(t *testing.T) {
	doc := readDoc(t, "shop.yaml")
	out, v, warnings := apply(t, doc, read(t, "copy.yaml"))
	product := at(v, "components", "schemas", "Product")
	if got := at(product, "required"); !cmp.Equal(got, []any{"id"}) {
		t.Errorf("Product's required = %v, want Item's", got)
	}
	if got := at(product, "description"); got != "what the shop sells" {
		t.Errorf("Product's description = %v", got)
	}
	// A copied value is at the place of what it copies.
	if file, line, _ := out.OriginOf("/components/schemas/Product/properties/id"); file != "testdata/shop.yaml" || line != 50 {
		t.Errorf("Product's id from %s:%d, want shop.yaml:50 (Item's)", file, line)
	}
	want := `testdata/copy.yaml:14:13: warning: /actions/3/target: target "$.paths['/nothing']" selects nothing in testdata/shop.yaml: the action does nothing`
	if len(warnings) != 1 || warnings[0].String() != want {
		t.Errorf("warnings:\n%v\nwant\n%s", warnings, want)
	}
}

// TestApplyInOrder: the second overlay sees what the first made.
func TestApplyInOrder(t *testing.T) {
	doc := readDoc(t, "shop.yaml")
	second := File{Name: "second.yaml", Data: []byte(`overlay: 1.0.0
info: {title: second, version: "1"}
actions:
  - target: $.paths['/items'].get[?@ == 'items']
    remove: true
  - target: $.paths['/items'].get
    update: {operationId: listAll}
`)}
	_, v, warnings := apply(t, doc, read(t, "rename.yaml"), second)
	get := at(v, "paths", "/items", "get")
	if got := at(get, "operationId"); got != "listAll" {
		t.Errorf("operationId = %v, want the second overlay's", got)
	}
	if got := at(get, "x-speakeasy-name-override"); got != nil {
		t.Errorf("x-speakeasy-name-override = %v, want it removed by the second overlay", got)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %v", warnings)
	}
}

// TestApplyPrimitiveReplaced100: an Overlay 1.0.0 update replaces a
// selected primitive whatever its kind (an error in 1.1.0: TestApplyErrors).
func TestApplyPrimitiveReplaced100(t *testing.T) {
	o := File{Name: "o.yaml", Data: []byte(`overlay: 1.0.0
info: {title: t, version: "1"}
actions:
  - target: $.info.title
    update: {text: Shop}
`)}
	_, v, _ := apply(t, readDoc(t, "shop.yaml"), o)
	if diff := cmp.Diff(map[string]any{"text": "Shop"}, at(v, "info", "title")); diff != "" {
		t.Errorf("info.title (-want +got):\n%s", diff)
	}
}

// TestApplyErrors: each problem of an overlay at its line, with the action's
// pointer and target.
func TestApplyErrors(t *testing.T) {
	for _, c := range []struct {
		name, overlay string
		want          []string
	}{
		{"malformed", "overlay: 1.0.0\ninfo: {title: t, version: \"1\"}\nactions:\n  - target: $.info\n    update: [\n", []string{
			"bad.yaml:5:5: did not find expected node content"}},
		{"not an overlay", "openapi: 3.0.0\n", []string{
			`bad.yaml:1:1: not an Overlay document: want a top-level "overlay" member (the Overlay Specification's version, 1.0.0 or 1.1.0)`,
			`bad.yaml:1:10: /openapi: unknown member "openapi" of an Overlay document (want overlay, info, extends, actions, or x- extensions)`,
			`bad.yaml:1:1: want an "info" member (the overlay's title and version)`,
			`bad.yaml:1:1: want an "actions" member: the list of actions`}},
		{"bad JSONPath", "overlay: 1.0.0\ninfo: {title: t, version: \"1\"}\nactions:\n  - target: $.paths[?@.x ==]\n    remove: true\n", []string{
			`bad.yaml:4:13: /actions/0/target: action with target "$.paths[?@.x ==]": not an RFC 9535 JSONPath query: `}},
		{"update not an object on an object", "overlay: 1.0.0\ninfo: {title: t, version: \"1\"}\nactions:\n  - target: $.paths\n    update: {}\n  - target: $.info\n    update: renamed\n", []string{
			`bad.yaml:7:13: /actions/1/update: action with target "$.info": got a string, want an object: the target selects an object, which an update merges its members into`}},
		{"copy in 1.0.0", "overlay: 1.0.0\ninfo: {title: t, version: \"1\"}\nactions:\n  - target: $.info\n    copy: $.info\n", []string{
			`bad.yaml:5:11: /actions/0/copy: action with target "$.info": copy is an action of Overlay 1.1.0; this overlay is 1.0.0 (write overlay: 1.1.0)`}},
		{"copy of many", "overlay: 1.1.0\ninfo: {title: t, version: \"1\"}\nactions:\n  - target: $.info\n    copy: $.paths.*\n", []string{
			`bad.yaml:5:11: /actions/0/copy: action with target "$.info": copy "$.paths.*" selects 2 values; want exactly one`}},
		{"kind mismatch in 1.1.0", "overlay: 1.1.0\ninfo: {title: t, version: \"1\"}\nactions:\n  - target: $.components.schemas.Item\n    update:\n      required: id\n", []string{
			`bad.yaml:6:7: /actions/0/update: action with target "$.components.schemas.Item": member /required: got a string, want an array as the target has: Overlay 1.1.0 merges values of one kind (remove the member first to replace it)`}},
		{"object on a primitive in 1.1.0", "overlay: 1.1.0\ninfo: {title: t, version: \"1\"}\nactions:\n  - target: $.info.title\n    update: {text: Shop}\n", []string{
			`bad.yaml:5:13: /actions/0/update: action with target "$.info.title": got an object, want a string, number, boolean or null: the target selects a string, which an update replaces`}},
		{"nothing to do", "overlay: 1.0.0\ninfo: {title: t, version: \"1\"}\nactions:\n  - target: $.info\n    remove: false\n", []string{
			`bad.yaml:4:5: /actions/0: action with target "$.info": want update, remove: true, or copy: the action does nothing`}},
		{"remove the document", "overlay: 1.0.0\ninfo: {title: t, version: \"1\"}\nactions:\n  - target: $\n    remove: true\n", []string{
			`bad.yaml:5:13: /actions/0/remove: action with target "$": cannot remove the document itself`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Apply(readDoc(t, "shop.yaml"), []File{{Name: "bad.yaml", Data: []byte(c.overlay)}})
			e, ok := err.(*source.Error)
			if !ok {
				t.Fatalf("got %v, want a *source.Error", err)
			}
			var got []string
			for _, d := range e.Diagnostics {
				got = append(got, d.String())
			}
			if len(got) != len(c.want) {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], c.want[i]) {
					t.Errorf("got\n%s\nwant\n%s", got[i], c.want[i])
				}
			}
			if _, ok := e.Texts["bad.yaml"]; !ok {
				t.Error("the error lacks the overlay's text, for the excerpts")
			}
		})
	}
}
