package overlay

import (
	"fmt"
	"sort"

	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/theory/jsonpath"
)

// Apply applies the overlays to the document target, in order, each action in
// its order, and returns the patched document (source.Patched: each value at
// the place it was written, in target or in an overlay) and the warnings: an
// action whose target selects nothing, an overlay that extends another
// document. Problems of the overlays are a *source.Error with every one of
// them, at their lines.
//
// The actions follow the Overlay Specification: remove takes each selected
// value out of its object or array (remove wins over update, and update
// over copy); update merges its value into each selected value: into an
// object, an object's members recursively (objects merged, arrays
// concatenated, anything else replaced); into an array, an array's entries
// appended, or the value as one entry; a primitive is replaced by a
// primitive. An update that is not an object on an object is an error. As
// Overlay 1.0.0 documents are read by the tools that wrote them, a member
// whose value is of another kind than the update's is replaced, and so is a
// selected primitive (1.0.0 defines updates of objects and arrays only); an
// Overlay 1.1.0 document gets an error there, as that version says. copy (1.1.0)
// merges the one value its query selects, as update merges its own.
func Apply(target *source.Source, files []File) (*source.Source, []source.Diagnostic, error) {
	var (
		docs  []*doc
		errs  []source.Diagnostic
		texts = map[string][]byte{}
	)
	for _, f := range files {
		d, err := parse(f)
		if err != nil {
			e, ok := err.(*source.Error)
			if !ok {
				return nil, nil, err
			}
			errs = append(errs, e.Diagnostics...)
			texts[f.Name] = f.Data
			continue
		}
		docs = append(docs, d)
	}
	if len(errs) > 0 {
		return nil, nil, &source.Error{Diagnostics: errs, Texts: texts}
	}
	names := []string{target.Name}
	for _, d := range docs {
		names = append(names, d.src.Name)
	}
	p := &patcher{root: fromTree(target, 0, target.Tree, place{0, 1, 1}), docName: target.Name}
	for i, d := range docs {
		if w := d.checkExtends(target.Name); w != nil {
			p.warnings = append(p.warnings, *w)
		}
		for _, a := range d.actions {
			p.apply(d, int32(i+1), a)
		}
		if len(p.errs) > 0 {
			texts[d.src.Name] = files[i].Data
		}
	}
	if len(p.errs) > 0 {
		return nil, p.warnings, &source.Error{Diagnostics: p.errs, Texts: texts}
	}
	w := &writer{}
	w.write(p.root)
	out, err := source.Patched(target, w.b, names, w.origins)
	if err != nil {
		return nil, nil, err
	}
	return out, p.warnings, nil
}

// patcher applies the actions to the document's tree.
type patcher struct {
	root     *node
	docName  string
	warnings []source.Diagnostic
	errs     []source.Diagnostic
}

// apply applies the action a of the overlay d (the file-th file).
func (p *patcher) apply(d *doc, file int32, a action) {
	fail := func(field, format string, args ...any) {
		p.errs = append(p.errs, d.diag(a.ptr(field), false, fmt.Sprintf("action with target %q: %s", source.ClipValue(a.target), fmt.Sprintf(format, args...))))
	}
	seq := map[*node]int{}
	value := p.root.toValue(seq)
	targets := p.selectNodes(a.path, value, seq)
	if len(targets) == 0 {
		p.warnings = append(p.warnings, d.diag(a.ptr("target"), true,
			fmt.Sprintf("target %q selects nothing in %s: the action does nothing", source.ClipValue(a.target), p.docName)))
		return
	}
	var upd *node
	switch {
	case a.remove:
		for _, t := range targets {
			if t.parent == nil {
				fail("remove", "cannot remove the document itself")
				return
			}
			t.parent.removeChild(t.n)
		}
		return
	case a.update != nil:
		upd = fromTree(d.src, file, a.update, place{file, 1, 1})
	default: // copy
		from := p.selectNodes(a.copy, value, seq)
		if len(from) != 1 {
			fail("copy", "copy %q selects %d values; want exactly one", source.ClipValue(a.from), len(from))
			return
		}
		upd = from[0].n.clone()
	}
	field := "update"
	if a.update == nil {
		field = "copy"
	}
	for _, t := range targets {
		if msg := p.merge(t.n, upd, d); msg != "" {
			fail(field, "%s", msg)
			return
		}
	}
}

// selectNodes returns the nodes path selects in the document (value, its
// form for the JSONPath library, whose nodes seq numbers), once each, in
// document order.
func (p *patcher) selectNodes(path *jsonpath.Path, value any, seq map[*node]int) []located {
	var out []located
	seen := map[*node]bool{}
	for _, ln := range path.SelectLocated(value) {
		l, ok := resolve(p.root, ln.Path)
		if ok && !seen[l.n] {
			seen[l.n] = true
			out = append(out, l)
		}
	}
	sort.Slice(out, func(i, j int) bool { return seq[out[i].n] < seq[out[j].n] })
	return out
}

// removeChild removes the member or item whose value is c.
func (n *node) removeChild(c *node) {
	for i, m := range n.members {
		if m.value == c {
			n.members = append(n.members[:i:i], n.members[i+1:]...)
			return
		}
	}
	for i, it := range n.items {
		if it == c {
			n.items = append(n.items[:i:i], n.items[i+1:]...)
			return
		}
	}
}

// merge merges upd into the selected value t (the Action Object's rules),
// returning what is wrong, or "".
func (p *patcher) merge(t, upd *node, d *doc) string {
	switch {
	case t.kind == jsontree.Object && upd.kind != jsontree.Object:
		return fmt.Sprintf("got %s %s, want an object: the target selects an object, which an update merges its members into", article(upd.kindName()), upd.kindName())
	case t.kind == jsontree.Object:
		return mergeMembers(t, upd, d.v11, "")
	case t.kind == jsontree.Array && upd.kind == jsontree.Array:
		for _, it := range upd.items {
			t.items = append(t.items, it.clone())
		}
	case t.kind == jsontree.Array:
		t.items = append(t.items, upd.clone())
	case !upd.primitive() && d.v11:
		return fmt.Sprintf("got %s %s, want a string, number, boolean or null: the target selects %s %s, which an update replaces", article(upd.kindName()), upd.kindName(), article(t.kindName()), t.kindName())
	default:
		*t = *upd.clone()
	}
	return ""
}

// mergeMembers merges the members of the object upd into the object t:
// objects recursively, arrays concatenated, other values replaced. A
// member of another kind than t's is replaced (Overlay 1.0.0) or an error
// (strict, 1.1.0); at is the JSON pointer of t under the target, for that
// error.
func mergeMembers(t, upd *node, strict bool, at string) string {
next:
	for _, m := range upd.members {
		for _, tm := range t.members {
			if tm.key != m.key {
				continue
			}
			ptr := at + jsontree.Pointer(m.key)
			v := tm.value
			switch {
			case v.kind == jsontree.Object && m.value.kind == jsontree.Object:
				if msg := mergeMembers(v, m.value, strict, ptr); msg != "" {
					return msg
				}
			case v.kind == jsontree.Array && m.value.kind == jsontree.Array:
				for _, it := range m.value.items {
					v.items = append(v.items, it.clone())
				}
			case strict && (v.kind == jsontree.Object || v.kind == jsontree.Array || m.value.kind == jsontree.Object || m.value.kind == jsontree.Array) && v.kind != m.value.kind:
				return fmt.Sprintf("member %s: got %s %s, want %s %s as the target has: Overlay 1.1.0 merges values of one kind (remove the member first to replace it)",
					ptr, article(m.value.kindName()), m.value.kindName(), article(v.kindName()), v.kindName())
			default:
				*v = *m.value.clone()
			}
			continue next
		}
		t.members = append(t.members, member{key: m.key, keyAt: m.keyAt, value: m.value.clone()})
	}
	return ""
}
