package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSharedNamesStable: the type that several operations share is named
// after what it is (the parameter's name), not after one of them, so that
// neither an unrelated operation nor another use of it under a longer name,
// put first in the document, changes its name or those of the enums beside
// it; and each operation's arguments are a struct of its own.
func TestSharedNamesStable(t *testing.T) {
	base, err := os.ReadFile(filepath.Join(goldenDir, "openapi-shared", "shared.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const first = `  /aaa/unrelated:
    get:
      operationId: aaaUnrelated
      parameters:
        - name: $select
          in: query
          schema:
            type: array
            items:
              type: string
              enum: [x, y]
      responses:
        "204":
          description: None
  /aaa/users/through/a/long/navigation/path:
    get:
      operationId: listUsersThroughALongNavigationPath
      parameters:
        - name: $select
          in: query
          schema:
            type: array
            items:
              type: string
              enum: [id, displayName, note, role]
      responses:
        "204":
          description: None
`
	grown := strings.Replace(string(base), "paths:\n", "paths:\n"+first, 1)
	want := []string{
		"type SelectItem string",
		"type OrderbyItem string",
		"type ListGroupsOrderbyItem string",
		"type ListGroupsSelectItem string",
		"SelectItemDisplayName SelectItem = \"displayName\"",
		"Select []SelectItem `json:\"$select,omitzero\"`",
	}
	for i, doc := range []string{string(base), grown} {
		res, err := Generate("shared.yaml", []byte(doc), Options{Package: "shared"})
		if err != nil {
			t.Fatal(err)
		}
		var types string
		for _, f := range res.Files {
			if f.Name == "types.gen.go" {
				types = string(f.Content)
			}
		}
		for _, w := range want {
			if !strings.Contains(types, w) {
				t.Errorf("document %d: types.gen.go lacks %q", i, w)
			}
		}
		if i == 1 && !strings.Contains(types, "type ListUsersThroughALongNavigationPathArgs struct {\n\tSelect []SelectItem `json:\"$select,omitzero\"`\n}\n") {
			t.Errorf("the long path's arguments are not a struct of their own with the shared type SelectItem")
		}
	}
}

// TestSharedAcrossFiles: inline schemas of the same text in two files are
// two types when a relative $ref in them names a different schema from
// each file.
func TestSharedAcrossFiles(t *testing.T) {
	path := func(op string) string {
		return "get:\n  operationId: " + op + "\n  responses:\n    '200':\n      description: ok\n" +
			"      content:\n        application/json:\n          schema:\n            type: object\n" +
			"            properties:\n              item:\n                $ref: ./item.yaml\n"
	}
	root := writeTree(t, map[string]string{
		"openapi.yaml": "openapi: 3.0.3\ninfo: {title: Two, version: '1'}\npaths:\n  /a:\n    $ref: a/path.yaml\n  /b:\n    $ref: b/path.yaml\n",
		"a/path.yaml":  path("getA"),
		"a/item.yaml":  "type: object\nproperties:\n  alpha: {type: string}\n",
		"b/path.yaml":  path("getB"),
		"b/item.yaml":  "type: object\nproperties:\n  beta: {type: integer}\n",
	})
	res, _, err := generateTreeDoc(t, root, "openapi.yaml")
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	var all strings.Builder
	for _, f := range res.Files {
		all.Write(f.Content)
	}
	for _, s := range []string{"Alpha *string", "Beta *int64"} {
		if !strings.Contains(all.String(), s) {
			t.Errorf("the generated package lacks %q", s)
		}
	}
}
