package overlay

import (
	"encoding/json"
	"strconv"

	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/theory/jsonpath/spec"
)

// node is a value of the document being patched, with where it was written:
// in the document or in an overlay.
type node struct {
	kind    jsontree.Kind
	str     string // a string, or a number's literal
	b       bool
	items   []*node
	members []member
	at      place
}

type member struct {
	key   string
	keyAt place
	value *node
}

// place is where a value or key was written: the file (0 the document, i
// the i-th overlay) and the line and column in it.
type place struct{ file, line, col int32 }

// fromTree converts the value t of the file src (the index file among the
// document and the overlays) to nodes; a value whose place src does not
// record (reached through a YAML alias) is at the nearest value that has
// one, at.
func fromTree(src *source.Source, file int32, t *jsontree.Node, at place) *node {
	n := &node{kind: t.Kind, str: t.Str, b: t.Bool, at: placeAt(src, file, t.Offset, at)}
	switch t.Kind {
	case jsontree.Array:
		n.items = make([]*node, len(t.Items))
		for i, it := range t.Items {
			n.items[i] = fromTree(src, file, it, n.at)
		}
	case jsontree.Object:
		n.members = make([]member, len(t.Members))
		for i, m := range t.Members {
			n.members[i] = member{key: m.Key, keyAt: placeAt(src, file, m.KeyOffset, n.at), value: fromTree(src, file, m.Value, n.at)}
		}
	}
	return n
}

func placeAt(src *source.Source, file int32, off int64, parent place) place {
	line, col, ok := src.At(off)
	if !ok {
		return parent
	}
	return place{file, int32(line), int32(col)}
}

// clone copies n deeply: the values an update or copy puts into the
// document are copies, at the places of what they copy.
func (n *node) clone() *node {
	c := *n
	if n.items != nil {
		c.items = make([]*node, len(n.items))
		for i, it := range n.items {
			c.items[i] = it.clone()
		}
	}
	if n.members != nil {
		c.members = make([]member, len(n.members))
		for i, m := range n.members {
			c.members[i] = member{key: m.key, keyAt: m.keyAt, value: m.value.clone()}
		}
	}
	return &c
}

// kindName names n's kind in messages: "object", "array", "string", …
func (n *node) kindName() string { return n.kind.String() }

// primitive reports whether n is neither an object nor an array.
func (n *node) primitive() bool { return n.kind != jsontree.Object && n.kind != jsontree.Array }

// toValue converts n to the value the JSONPath library queries
// (map[string]any, []any, string, json.Number, bool, nil), numbering the
// nodes in document order in seq.
func (n *node) toValue(seq map[*node]int) any {
	seq[n] = len(seq)
	switch n.kind {
	case jsontree.Null:
		return nil
	case jsontree.Bool:
		return n.b
	case jsontree.Number:
		return json.Number(n.str)
	case jsontree.String:
		return n.str
	case jsontree.Array:
		v := make([]any, len(n.items))
		for i, it := range n.items {
			v[i] = it.toValue(seq)
		}
		return v
	}
	v := make(map[string]any, len(n.members))
	for _, m := range n.members {
		v[m.key] = m.value.toValue(seq)
	}
	return v
}

// located is a node a JSONPath query selected, with its parent (nil for
// the root).
type located struct {
	n, parent *node
}

// resolve returns the node at the normalized path p under root, and its parent.
func resolve(root *node, p spec.NormalizedPath) (located, bool) {
	l := located{n: root}
	for _, sel := range p {
		next := (*node)(nil)
		switch s := sel.(type) {
		case spec.Name:
			for _, m := range l.n.members {
				if m.key == string(s) {
					next = m.value
					break
				}
			}
		case spec.Index:
			if int(s) >= 0 && int(s) < len(l.n.items) {
				next = l.n.items[s]
			}
		}
		if next == nil {
			return located{}, false
		}
		l = located{n: next, parent: l.n}
	}
	return l, true
}

// writer writes the patched document as JSON, recording where each value
// and key came from.
type writer struct {
	b       []byte
	origins []source.Origin
}

func (w *writer) record(p place) {
	w.origins = append(w.origins, source.Origin{Offset: int64(len(w.b)), File: int(p.file), Line: int(p.line), Col: int(p.col)})
}

func (w *writer) write(n *node) {
	w.record(n.at)
	switch n.kind {
	case jsontree.Null:
		w.b = append(w.b, "null"...)
	case jsontree.Bool:
		w.b = strconv.AppendBool(w.b, n.b)
	case jsontree.Number:
		w.b = append(w.b, n.str...)
	case jsontree.String:
		w.b = appendString(w.b, n.str)
	case jsontree.Array:
		w.b = append(w.b, '[')
		for i, it := range n.items {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.write(it)
		}
		w.b = append(w.b, ']')
	default:
		w.b = append(w.b, '{')
		for i, m := range n.members {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.record(m.keyAt)
			w.b = appendString(w.b, m.key)
			w.b = append(w.b, ':')
			w.write(m.value)
		}
		w.b = append(w.b, '}')
	}
}

func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}
