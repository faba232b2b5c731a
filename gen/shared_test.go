package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSharedNamesStable: the type that several places share is named after
// the shortest name among them, so that neither an unrelated operation nor
// another use of it under a longer name, put first in the document, changes
// its name or those of the enums beside it.
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
		"type ListUsersSelectItem string",
		"type ListUsersOrderbyItem string",
		"type ListGroupsOrderbyItem string",
		"type ListGroupsSelectItem string",
		"ListUsersSelectItemDisplayName ListUsersSelectItem = \"displayName\"",
		"Select []ListUsersSelectItem `json:\"$select,omitzero\"`",
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
		if i == 1 && !strings.Contains(types, "type ListUsersThroughALongNavigationPathArgs = ListDeletedDirectoryUsersArgs") && !strings.Contains(types, "[]ListUsersSelectItem `json:\"$select,omitzero\"`\n}\n\nfunc decodeListUsersThroughALongNavigationPathArgs") {
			t.Errorf("the long path's $select is not of the shared type ListUsersSelectItem")
		}
	}
}
