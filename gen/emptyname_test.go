package gen

import (
	"strings"
	"testing"
)

// TestEmptyParameterNameSkipped: a parameter with an empty name (Notion's
// header) is left out with a warning at its name, and nothing is sent by
// an empty name.
func TestEmptyParameterNameSkipped(t *testing.T) {
	doc := `openapi: 3.0.3
info: {title: n, version: "1"}
servers: [{url: "https://api.example.com"}]
paths:
  /pages:
    get:
      operationId: getPages
      parameters:
        - name: ""
          in: header
          schema: {type: string}
        - {name: q, in: query, schema: {type: string}}
      responses: {"200": {description: ok}}
`
	res, err := Generate("n.yaml", []byte(doc), Options{Package: "p"})
	if err != nil {
		t.Fatal(err)
	}
	var ws []string
	for _, w := range res.Warnings {
		ws = append(ws, w.String())
	}
	if want := `n.yaml:9:17: warning: /paths/~1pages/get/parameters/0/name: the header parameter has an empty name: left out`; !strings.Contains(strings.Join(ws, "\n"), want) {
		t.Errorf("warnings %q, want %s", ws, want)
	}
	for _, f := range res.Files {
		if s := string(f.Content); strings.Contains(s, `Header("",`) || strings.Contains(s, `member is ""`) || strings.Contains(s, `"name":""`) {
			t.Errorf("%s sends or documents the parameter of no name", f.Name)
		}
	}
}
