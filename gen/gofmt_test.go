package gen

import (
	"bytes"
	"go/format"
	"strings"
	"testing"
)

// hostileDescriptions is an OpenAPI document whose descriptions hold what
// gofmt rewrites in a doc comment, or what is not plain text: Markdown
// lists (nested, numbered, with blank lines), indented and tabbed code,
// "//" and a directive in the text, runs of blank lines, trailing blanks,
// tabs, HTML and entities, CRLF line ends, a summary ending in a newline.
const hostileDescriptions = `{
  "openapi": "3.0.3",
  "info": {"title": "Hostile", "version": "1",
    "description": "<h1>Title</h1><p>Para <a href=\"https://e.com/a?b=1&amp;c=2\">link</a> &amp; <em>more</em>.</p>\r\n<ul>\r\n<li>one</li>\r\n<li><ul><li>nested</li></ul></li></ul>\r\n\r\n\r\n * md\r\n   * nested\r\n\r\n\tcode\r\n//go:build ignore\r\n"},
  "servers": [{"url": "https://api.example.com"}],
  "paths": {
    "/a": {"get": {
      "operationId": "getA", "summary": "Gets A\n\n\n",
      "description": "Text:\n  * a\n      * b\n\n\n\n1) x\n2) y\n\n    indented\n\n\n\tcode\ttabs\n\n// slashes\n/* block */ end\n\nHeading Like This\n\nmore\n<pre>\n  pre text\n</pre>\n&lt;b&gt;not bold&lt;/b&gt;",
      "parameters": [{"name": "p", "in": "query", "description": " - leading list\n - x   \n\n\n", "schema": {"type": "string"}}],
      "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}}}}}
  },
  "components": {"schemas": {
    "A": {"type": "object", "description": "A.\r\n\r\n - x\r\n - y\r\n\r\n\r\nz", "properties": {
      "e": {"type": "string", "enum": ["x", "y"], "description": "The e:\n * ` + "`x`" + ` - first\n * ` + "`y`" + ` - second"},
      "f": {"type": "array", "items": {"type": "string"}, "description": "<ol><li>1</li><li>2</li></ol>\n\n\n//\n//"}
    }}
  }}
}`

// TestGeneratedIsGofmt: every Go file the generator writes is what gofmt
// prints, for every golden case and for descriptions gofmt would rewrite,
// and no doc comment of the hostile document carries HTML.
func TestGeneratedIsGofmt(t *testing.T) {
	check := func(name string, files map[string][]byte) {
		t.Helper()
		for fname, content := range files {
			if !strings.HasSuffix(fname, ".go") {
				continue
			}
			want, err := format.Source(content)
			if err != nil {
				t.Errorf("%s/%s: %v", name, fname, err)
				continue
			}
			if !bytes.Equal(content, want) {
				t.Errorf("%s/%s is not gofmt'd:\n%s", name, fname, lineDiff(string(content), string(want)))
			}
		}
	}
	res, err := Generate("hostile.json", []byte(hostileDescriptions), Options{Package: "hostile",
		Command: &Command{Name: "hostile", ImportPath: "example.com/hostile"}})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"cmd/main.go": res.Command.Content}
	for _, f := range res.Files {
		files[f.Name] = f.Content
	}
	check("hostile", files)
	for fname, content := range files {
		if !strings.HasSuffix(fname, ".go") {
			continue
		}
		for _, line := range strings.Split(string(content), "\n") {
			l := strings.TrimSpace(line)
			if !strings.HasPrefix(l, "//") {
				continue
			}
			for _, html := range []string{"<a ", "</a>", "<p>", "<li>", "<ul>", "<em>", "<h1>", "<pre>", "&amp;", "&lt;"} {
				if strings.Contains(l, html) {
					t.Errorf("%s: a comment carries HTML %q: %s", fname, html, l)
				}
			}
		}
	}
	for _, c := range goldenCases(t) {
		check(c.name, generateCase(t, c))
	}
}

// lineDiff returns the lines of a that b does not have at the same place,
// and the other way round (the first few).
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out []string
	for i := 0; i < max(len(al), len(bl)) && len(out) < 12; i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			out = append(out, "-"+x, "+"+y)
		}
	}
	return strings.Join(out, "\n")
}
