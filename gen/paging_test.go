package gen

import (
	"strings"
	"testing"
)

// pagingDoc is a document with one list operation of the given parameters,
// response members (YAML of its schema's properties) and extension.
func pagingDoc(params, props, ext string) string {
	return `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /items:
    get:
      operationId: listItems
      parameters: [` + params + `]
` + ext + `
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties: {` + props + `}
`
}

// Each case: what gets an iterator (its doc's "it …" phrase), what gets
// none, and the warning of an extension the generator cannot follow.
func TestPagingDetection(t *testing.T) {
	const str, arr = `{type: string}`, `{type: array, items: {type: string}}`
	cases := []struct {
		name, params, props, ext string
		want                     string // the style phrase, "" for no iterator
		warning                  string
	}{
		{"cursor", `{name: cursor, in: query, schema: ` + str + `}`, `data: ` + arr + `, next_cursor: ` + str, ``, "sends back the cursor", ""},
		{"slack cursor", `{name: cursor, in: query, schema: ` + str + `}`, `members: ` + arr + `, response_metadata: {type: object, properties: {next_cursor: ` + str + `}}`, ``, "sends back the cursor", ""},
		{"kubernetes continue", `{name: continue, in: query, schema: ` + str + `}, {name: limit, in: query, schema: {type: integer}}`, `items: ` + arr + `, metadata: {type: object, properties: {continue: ` + str + `}}`, ``, "sends back the cursor", ""},
		{"openai after and last_id", `{name: after, in: query, schema: ` + str + `}`, `data: ` + arr + `, last_id: ` + str + `, has_more: {type: boolean}`, ``, "sends back the cursor", ""},
		{"after and has_more", `{name: after, in: query, schema: ` + str + `}`, `data: {type: array, items: {type: object, required: [id], properties: {id: ` + str + `}}}, has_more: {type: boolean}`, ``, "asks for the items after", ""},
		{"integer cursor param", `{name: cursor, in: query, schema: {type: integer}}`, `data: ` + arr + `, next_cursor: ` + str, ``, "", ""},
		{"cursor and page", `{name: cursor, in: query, schema: ` + str + `}, {name: page, in: query, schema: {type: integer}}`, `data: ` + arr + `, next_cursor: ` + str, ``, "", ""},
		{"two arrays", `{name: page, in: query, schema: {type: integer}}`, `a: ` + arr + `, b: ` + arr, ``, "", ""},
		{"two arrays, one named data", `{name: page, in: query, schema: {type: integer}}`, `data: ` + arr + `, b: ` + arr, ``, "counts the pages up", ""},
		{"no array", `{name: page, in: query, schema: {type: integer}}`, `count: {type: integer}`, ``, "", ""},
		{"offset", `{name: offset, in: query, schema: {type: integer}}`, `items: ` + arr, ``, "moves the offset", ""},
		{"nextLink", ``, `value: ` + arr + `, nextLink: ` + str, ``, "follows the next page's URL", ""},
		{"speakeasy bad type", ``, `data: ` + arr, `      x-speakeasy-pagination: {type: sideways}`, "",
			`x-speakeasy-pagination: its type "sideways" is not cursor, offsetLimit or url: no iterator is generated`},
		{"speakeasy no member", `{name: c, in: query, schema: ` + str + `}`, `data: ` + arr, `      x-speakeasy-pagination: {type: cursor, inputs: [{name: c, in: parameters, type: cursor}], outputs: {results: $.data, nextCursor: $.nope}}`, "",
			`x-speakeasy-pagination: its next cursor "$.nope" is not a string or integer member of the response: no iterator is generated`},
		{"fern no results", `{name: c, in: query, schema: ` + str + `}`, `data: ` + arr + `, n: ` + str, `      x-fern-pagination: {cursor: $request.c, next_cursor: $response.n, results: $response.missing}`, "",
			`x-fern-pagination: its results "$response.missing" is not an array member of the response: no iterator is generated`},
		{"ms-pageable null", ``, `value: ` + arr + `, nextLink: ` + str, `      x-ms-pageable: {nextLinkName: null}`, "", ""},
		{"ms-pageable item", ``, `things: ` + arr + `, more: ` + str, `      x-ms-pageable: {nextLinkName: more, itemName: things}`, "follows the next page's URL", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := pagingDoc(c.params, c.props, c.ext)
			res, err := Generate("p.yaml", []byte(doc), Options{Package: "p"})
			if err != nil {
				t.Fatalf("%v\n%s", err, doc)
			}
			var client string
			for _, f := range res.Files {
				if f.Name == "client.gen.go" {
					client = string(f.Content)
				}
			}
			has := strings.Contains(client, "func (c *Client) ListItemsAll(")
			switch {
			case c.want == "" && has:
				t.Errorf("an iterator where none is wanted")
			case c.want != "" && (!has || !strings.Contains(client, "it "+c.want)):
				t.Errorf("want an iterator that %s; got %v", c.want, has)
			}
			var warnings []string
			for _, w := range res.Warnings {
				warnings = append(warnings, w.Path+": "+w.Message)
			}
			got := strings.Join(warnings, "\n")
			if c.warning == "" && strings.Contains(got, "pagination") || c.warning != "" && !strings.HasSuffix(got, c.warning) {
				t.Errorf("warnings %q, want %q", got, c.warning)
			}
		})
	}
}
