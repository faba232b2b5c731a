package gen

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/gen/source"
)

// TestExcerpt: the lines around a problem, numbered, with a caret under its
// column — tabs kept so that it lines up, long lines cut around it, nothing a
// terminal would act on.
func TestExcerpt(t *testing.T) {
	doc := "a: 1\nb:\n  c: [x]\n  d: 2\ne: 3\nf: 4\n"
	long := `{"x": "` + strings.Repeat("a", 150) + `", "bad": 1, "y": "` + strings.Repeat("b", 150) + `"}`
	for _, c := range []struct {
		name      string
		text      string
		line, col int
		want      string
	}{
		{"middle", doc, 3, 7, "" +
			"    1 | a: 1\n" +
			"    2 | b:\n" +
			"  > 3 |   c: [x]\n" +
			"      |       ^\n" +
			"    4 |   d: 2\n" +
			"    5 | e: 3\n"},
		{"first line", doc, 1, 1, "" +
			"  > 1 | a: 1\n" +
			"      | ^\n" +
			"    2 | b:\n" +
			"    3 |   c: [x]\n"},
		{"last line, no line after the final newline", doc, 6, 4, "" +
			"    4 |   d: 2\n" +
			"    5 | e: 3\n" +
			"  > 6 | f: 4\n" +
			"      |    ^\n"},
		{"no column", doc, 2, 0, "" +
			"    1 | a: 1\n" +
			"  > 2 | b:\n" +
			"    3 |   c: [x]\n" +
			"    4 |   d: 2\n"},
		{"past the end of the line", "ab\ncd", 2, 9, "" +
			"    1 | ab\n" +
			"  > 2 | cd\n" +
			"      |   ^\n"},
		{"numbers of two widths", strings.Repeat("x\n", 9) + "  y: z\nw\n", 10, 3, "" +
			"     8 | x\n" +
			"     9 | x\n" +
			"  > 10 |   y: z\n" +
			"       |   ^\n" +
			"    11 | w\n"},
		{"tabs and CRLF", "a:\r\n\tb:\t[1]\r\n", 2, 5, "" +
			"    1 | a:\n" +
			"  > 2 | \tb:\t[1]\n" +
			"      | \t  \t^\n"},
		{"multibyte characters count once", "ключ: [1]\n", 1, 11, "" +
			"  > 1 | ключ: [1]\n" +
			"      |       ^\n"},
		{"control characters, bidi overrides, invalid UTF-8", "a: \x1b[31mred\x00\u202e\xff: 1\n", 1, 15, "" +
			"  > 1 | a: ?[31mred???: 1\n" +
			"      |              ^\n"},
		{"a long line, cut around the column", long, 1, strings.Index(long, `"bad"`) + 1, "" +
			"  > 1 | …" + long[strings.Index(long, `"bad"`)-50:strings.Index(long, `"bad"`)+50] + "…\n" +
			"      | " + strings.Repeat(" ", 1+50) + "^\n"},
		{"no such line", doc, 9, 1, ""},
		{"line 0", doc, 0, 0, ""},
	} {
		if got := source.Excerpt([]byte(c.text), c.line, c.col); got != c.want {
			t.Errorf("%s (-want +got):\n%s", c.name, cmp.Diff(c.want, got))
		}
	}
}

// TestErrorTexts: a document's error carries the texts of the files its
// diagnostics are in — the document's and those its $refs name — for their
// excerpts; its message stays one line per diagnostic.
func TestErrorTexts(t *testing.T) {
	root := writeTree(t, map[string]string{
		"api/openapi.yaml": "openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n  /p:\n    $ref: paths/p.yaml\n",
		"api/paths/p.yaml": "get:\n  operationId: p\n  deprecated: maybe\n  responses: {\"200\": {description: ok}}\n",
	})
	_, lines, err := generateTreeDoc(t, root, "api/openapi.yaml")
	var e *source.Error
	if !errors.As(err, &e) || len(lines) != 1 || lines[0] != `api/paths/p.yaml:3:15: /get/deprecated: want a boolean, got the string "maybe"` {
		t.Fatalf("got %v, %q", err, lines)
	}
	want := "" +
		"    1 | get:\n" +
		"    2 |   operationId: p\n" +
		"  > 3 |   deprecated: maybe\n" +
		"      |               ^\n" +
		"    4 |   responses: {\"200\": {description: ok}}\n"
	if got := e.Excerpt(e.Diagnostics[0]); got != want {
		t.Errorf("excerpt (-want +got):\n%s", cmp.Diff(want, got))
	}
	if strings.Contains(err.Error(), "|") {
		t.Errorf("the message holds the excerpt: %s", err)
	}
	// The document's own text, for an error in it.
	_, err = generateOpenAPI(t, "bad.yaml", "openapi: 3.0.3\ninfo: {title: [t], version: \"1\"}\npaths: {}\n")
	if !errors.As(err, &e) || !strings.Contains(e.Excerpt(e.Diagnostics[0]), "  > 2 | info: {title: [t], version: \"1\"}\n      |               ^\n") {
		t.Errorf("document: %v\n%s", err, e.Excerpt(e.Diagnostics[0]))
	}
}
