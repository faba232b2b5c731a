package source

import (
	"fmt"
	"io"
	"strings"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// Diagnostic is a problem in an input document, at a place.
type Diagnostic struct {
	File      string
	Line, Col int    // 1-based; 0 when unknown
	Path      string // JSON pointer of the value, "" for the document
	Message   string
	Warning   bool
}

// String formats d as file:line:col: json-path: message. A path longer than
// 256 bytes is abbreviated to its first and last four tokens
// ("/a/b/c/d/…(9,990 more)…/w/x/y/z").
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.File)
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", d.Line, d.Col)
	}
	b.WriteString(": ")
	if d.Warning {
		b.WriteString("warning: ")
	}
	if d.Path != "" {
		b.WriteString(jsontree.ShortPointer(d.Path))
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	return b.String()
}

// Error is the error of a document that cannot be generated: every problem found.
type Error struct {
	Diagnostics []Diagnostic
	// Texts are the texts of the files the diagnostics are in, by their
	// Diagnostic.File, for showing the lines around each problem (Excerpt);
	// Error() does not show them.
	Texts map[string][]byte
}

// Excerpt returns the lines of its file around d (see the function Excerpt),
// "" when e has not the file's text or d has no line.
func (e *Error) Excerpt(d Diagnostic) string {
	text, ok := e.Texts[d.File]
	if !ok {
		return ""
	}
	return Excerpt(text, d.Line, d.Col)
}

// AddText records the text of file for its diagnostics' excerpts, unless
// it has one already.
func (e *Error) AddText(file string, text []byte) {
	if e.Texts == nil {
		e.Texts = map[string][]byte{}
	}
	if _, ok := e.Texts[file]; !ok {
		e.Texts[file] = text
	}
}

// Error returns the diagnostics, one a line, each as Diagnostic.String
// writes it.
func (e *Error) Error() string {
	lines := make([]string, len(e.Diagnostics))
	for i, d := range e.Diagnostics {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// Kind returns the kind of the document from its top-level member:
// "opentool", "opendyn", "openapi" ("openapi" or "swagger"), or "mcp" for a
// saved MCP tools/list result ("tools", or a JSON-RPC response whose "result"
// has "tools") that has none of the others; "" for none.
func (s *Source) Kind() string {
	for _, k := range []string{"opentool", "opendyn", "openapi"} {
		if s.Tree.Get(k) != nil {
			return k
		}
	}
	if s.Tree.Get("swagger") != nil {
		return "openapi"
	}
	if s.Tree.Get("tools") != nil || s.Tree.Get("result").Get("tools") != nil {
		return "mcp"
	}
	return ""
}

// Dedup returns ds without repeated diagnostics, in order.
func Dedup(ds []Diagnostic) []Diagnostic {
	seen := map[Diagnostic]bool{}
	var out []Diagnostic
	for _, d := range ds {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// WarningPlaces is how many places WriteWarnings lists for a warning given
// at more places than that.
const WarningPlaces = 3

// WriteWarnings writes warnings one a line as Diagnostic.String does, but a
// message given at more than WarningPlaces places (Stripe's 236 form bodies
// that are not objects) once, where it is first given, with the number of
// its places and the first WarningPlaces of them, indented:
//
//	stripe.json: warning: at 236 places: an application/x-www-form-urlencoded body must be …
//		stripe.json:1:1242: /paths/~1v1~1account/get/requestBody/…
//		stripe.json:1:5596: /paths/~1v1~1accounts/get/requestBody/…
//		stripe.json:1:28379: /paths/~1v1~1accounts~1{account}/delete/requestBody/…
//		and 233 more
func WriteWarnings(w io.Writer, ds []Diagnostic) error {
	type key struct {
		file, msg string
		warning   bool
	}
	count := map[key]int{}
	for _, d := range ds {
		count[key{d.File, d.Message, d.Warning}]++
	}
	done := map[key]bool{}
	var b strings.Builder
	for i, d := range ds {
		k := key{d.File, d.Message, d.Warning}
		n := count[k]
		if n <= WarningPlaces {
			b.WriteString(d.String())
			b.WriteByte('\n')
			continue
		}
		if done[k] {
			continue
		}
		done[k] = true
		head := Diagnostic{File: d.File, Warning: d.Warning, Message: fmt.Sprintf("at %d places: %s", n, d.Message)}
		b.WriteString(head.String())
		b.WriteByte('\n')
		listed := 0
		for _, e := range ds[i:] {
			if listed == WarningPlaces {
				break
			}
			if (key{e.File, e.Message, e.Warning}) != k {
				continue
			}
			place := Diagnostic{File: e.File, Line: e.Line, Col: e.Col}
			s := strings.TrimSuffix(place.String(), ": ")
			if e.Path != "" {
				s += ": " + jsontree.ShortPointer(e.Path)
			}
			b.WriteString("\t" + s + "\n")
			listed++
		}
		fmt.Fprintf(&b, "\tand %d more\n", n-listed)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
