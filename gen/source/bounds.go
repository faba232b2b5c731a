package source

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// MaxOpenAPIDepth bounds the nesting of OpenAPI documents (objects and
// arrays, the document itself included). kin-openapi, which reads them,
// decodes each schema with encoding/json again, in time that grows with the
// square of the depth: 4,900 nested properties took a minute. Real documents
// nest a few dozen levels.
const MaxOpenAPIDepth = 1000

// TooDeep returns the diagnostic of the first value of s nested more than
// limit levels deep, or nil.
func (s *Source) TooDeep(limit int) *Diagnostic {
	var toks []string
	n := deepest(s.Tree, 1, limit, &toks)
	if n == nil {
		return nil
	}
	path := jsontree.Pointer(toks...)
	line, col := s.Position(path, n.Offset)
	return &Diagnostic{File: s.Name, Line: line, Col: col, Path: path,
		Message: fmt.Sprintf("nested more than %d levels deep; want at most %d (the time to read an OpenAPI document grows with the square of its depth)", limit, limit)}
}

// deepest returns the first object or array in n nested more than limit
// levels deep (n is at level depth), with its path in toks, or nil.
func deepest(n *jsontree.Node, depth, limit int, toks *[]string) *jsontree.Node {
	if n == nil || n.Kind != jsontree.Object && n.Kind != jsontree.Array {
		return nil
	}
	if depth > limit {
		return n
	}
	for i, item := range n.Items {
		*toks = append(*toks, strconv.Itoa(i))
		if d := deepest(item, depth+1, limit, toks); d != nil {
			return d
		}
		*toks = (*toks)[:len(*toks)-1]
	}
	for _, m := range n.Members {
		*toks = append(*toks, m.Key)
		if d := deepest(m.Value, depth+1, limit, toks); d != nil {
			return d
		}
		*toks = (*toks)[:len(*toks)-1]
	}
	return nil
}

// ClipValue shortens a value of the document quoted in a message (as the
// OpenTool loader does): a message line stays readable whatever the value.
func ClipValue(s string) string { return ClipTo(s, 40) }

// ClipTo shortens s to max bytes and "…", at a rune boundary.
func ClipTo(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
