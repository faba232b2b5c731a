package gen

import (
	"strings"
	"testing"
)

// TestOpenAPI32Warnings: a querystring parameter the client cannot send (a
// second one, another media type, a form that is not an object) and a tag
// parent that names no tag or makes a cycle are warnings at their place,
// and the rest is generated.
func TestOpenAPI32Warnings(t *testing.T) {
	res, err := generateOpenAPI(t, "v32.yaml", `openapi: 3.2.0
info: {title: v32, version: "1"}
tags:
  - {name: a, parent: b}
  - {name: b, parent: a}
  - {name: c, parent: nowhere}
paths:
  /x:
    get:
      operationId: getX
      parameters:
        - {name: q, in: querystring, content: {application/json: {schema: {type: object}}}}
        - {name: r, in: querystring, content: {application/json: {schema: {type: object}}}}
        - {name: s, in: querystring, content: {text/csv: {schema: {type: string}}}}
        - {name: t, in: querystring, content: {application/x-www-form-urlencoded: {schema: {type: string}}}}
      responses:
        "204": {description: ok}
    additionalOperations:
      purge:
        operationId: purgeX
        responses:
          "204": {description: ok}
`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range res.Warnings {
		got = append(got, w.String())
	}
	want := []string{
		`v32.yaml:13:11: warning: /paths/~1x/get/parameters/1: a second querystring parameter "r": an operation has one query string; left out`,
		`v32.yaml:14:11: warning: /paths/~1x/get/parameters/2: a second querystring parameter "s": an operation has one query string; left out`,
		`v32.yaml:15:11: warning: /paths/~1x/get/parameters/3: a second querystring parameter "t": an operation has one query string; left out`,
		`v32.yaml:4:23: warning: /tags/0/parent: tag "a" is its own ancestor through its parent "b": the parent is left out`,
		`v32.yaml:6:23: warning: /tags/2/parent: tag "c" has the parent "nowhere", which no tag is: the parent is left out`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	client := file(res, "client.gen.go")
	for _, s := range []string{`r.QueryString(rest.JSONContent(args.Q))`, `NewRequest("purge", "/x")`} {
		if !strings.Contains(client, s) {
			t.Errorf("client.gen.go has no %s", s)
		}
	}
	if doc := string(res.Document); !strings.Contains(doc, `"name": "b",`+"\n"+`      "parent": "a"`) {
		t.Errorf("the document lost tag b's parent:\n%s", doc)
	}
}

// TestOpenAPI32QuerystringMedia: a querystring of another media type, or a
// form that is not an object, is left out with a warning.
func TestOpenAPI32QuerystringMedia(t *testing.T) {
	res, err := generateOpenAPI(t, "v32.yaml", `openapi: 3.2.0
info: {title: v32, version: "1"}
paths:
  /s:
    get:
      operationId: getS
      parameters:
        - {name: s, in: querystring, content: {text/csv: {schema: {type: string}}}}
      responses:
        "204": {description: ok}
  /t:
    get:
      operationId: getT
      parameters:
        - {name: t, in: querystring, content: {application/x-www-form-urlencoded: {schema: {type: string}}}}
      responses:
        "204": {description: ok}
`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range res.Warnings {
		got = append(got, w.String())
	}
	want := []string{
		`v32.yaml:8:58: warning: /paths/~1s/get/parameters/0/content/text~1csv: the querystring parameter "s" has the media type "text/csv", want application/x-www-form-urlencoded or JSON: left out`,
		`v32.yaml:15:92: warning: /paths/~1t/get/parameters/0/content/application~1x-www-form-urlencoded/schema: the querystring parameter "t" is a form whose schema is not an object: left out`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Contains(file(res, "client.gen.go"), "QueryString") {
		t.Error("a querystring the client cannot send was generated")
	}
}
