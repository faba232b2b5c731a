package gen

import (
	"strings"
	"testing"
)

// TestWebhookWarnings: what a receiver cannot take is left out with a
// warning that names its place; an unknown scheme falls back to standard.
func TestWebhookWarnings(t *testing.T) {
	res, err := generateOpenAPI(t, "hooks.yaml", `openapi: 3.1.0
info: {title: hooks, version: "1"}
x-webhook-signature: stripe
webhooks:
  form:
    post:
      parameters:
        - {name: q, in: query, schema: {type: string}}
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: {type: object, properties: {a: {type: string}}}
  odd:
    post:
      x-webhook-signature: hmac-md5
  inherited:
    post:
      summary: The document's scheme.
  declared:
    x-webhook-signature: none
    post:
      parameters:
        - {name: X-Hub-Signature-256, in: header, schema: {type: string}}
`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range res.Warnings {
		got = append(got, w.String())
	}
	want := []string{
		`hooks.yaml:8:11: warning: /webhooks/form/post/parameters/0: a webhook parameter in "query" is not received: left out`,
		`hooks.yaml:12:13: warning: /webhooks/form/post/requestBody/content/application~1x-www-form-urlencoded: a webhook body of type "application/x-www-form-urlencoded" is not received: its body is left out`,
		`hooks.yaml:15:7: warning: /webhooks/odd/post: x-webhook-signature is "hmac-md5", want standard, github, stripe or none: standard is used`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	src := file(res, "webhooks.gen.go")
	for _, line := range []string{
		"POST /form calls Form (signature: stripe);",
		"POST /odd calls Odd (signature: standard);",
		"POST /inherited calls Inherited (signature: stripe);",
		"POST /declared calls Declared (signature: none);",
	} {
		if !strings.Contains(src, line) {
			t.Errorf("webhooks.gen.go lacks %q", line)
		}
	}
	if strings.Contains(src, "FormEvent") {
		t.Error("an event of nothing received has a type")
	}
}

// TestWebhookSchemeFromHeader: a declared signature header names the
// scheme when no extension does.
func TestWebhookSchemeFromHeader(t *testing.T) {
	res, err := generateOpenAPI(t, "h.yaml", `openapi: 3.1.0
info: {title: h, version: "1"}
webhooks:
  push:
    post:
      parameters:
        - {name: X-Hub-Signature-256, in: header, schema: {type: string}}
  charge:
    post:
      parameters:
        - {name: stripe-signature, in: header, schema: {type: string}}
  plain:
    post:
      responses: {"200": {description: ok}}
`)
	if err != nil {
		t.Fatal(err)
	}
	src := file(res, "webhooks.gen.go")
	for _, s := range []string{`Scheme: "github"`, `Scheme: "stripe"`, `Scheme: "standard"`} {
		if strings.Count(src, s) != 1 {
			t.Errorf("%s: %d times", s, strings.Count(src, s))
		}
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings: %v", res.Warnings)
	}
	none, err := generateOpenAPI(t, "n.yaml", `{"openapi":"3.0.3","info":{"title":"n","version":"1"},"paths":{}}`)
	if err != nil {
		t.Fatal(err)
	}
	if file(none, "webhooks.gen.go") != "" {
		t.Error("a document without webhooks has a receiver")
	}
}

// TestCallbackChecked: a callback's contents are checked where they are, as
// paths are (they were skipped while callbacks generated nothing).
func TestCallbackChecked(t *testing.T) {
	_, err := generateOpenAPI(t, "cb.yaml", `openapi: 3.0.3
info: {title: cb, version: "1"}
paths:
  /s:
    post:
      responses: {"201": {description: ok}}
      callbacks:
        done:
          "{$request.body#/u}":
            post:
              requestBody: {content: {application/json: {schema: {$ref: "#/components/schemas/Nope"}}}}
`)
	want := `cb.yaml:11:73: /paths/~1s/post/callbacks/done/{$request.body#~1u}/post/requestBody/content/application~1json/schema/$ref: $ref "#/components/schemas/Nope" names nothing`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one with %s", err, want)
	}
}
