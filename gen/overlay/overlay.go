// Package overlay applies OpenAPI Overlay documents (1.0.0, and 1.1.0 with
// its copy action) to an OpenAPI document before it is loaded: opentoolgen
// -overlay FILE. Targets are RFC 9535 JSONPath queries, as both versions of
// the Overlay Specification define them, evaluated by
// github.com/theory/jsonpath; the actions (update, remove, copy) are applied
// here, over the document's tree, so that every value of the result keeps
// the place it was written at: in the document, or in an overlay
// (source.Patched). Problems of an overlay are reported at its lines, with
// the action's JSON pointer (/actions/N) and target; an action whose target
// selects nothing is a warning.
package overlay

import (
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/theory/jsonpath"
)

// File is an overlay document as read: its name (for messages) and text.
type File struct {
	Name string
	Data []byte
}

// doc is an overlay document, read and checked.
type doc struct {
	src     *source.Source
	version string // "1.0.0" or "1.1.0" (any 1.0.x or 1.1.x)
	v11     bool   // 1.1.x: copy, primitive targets, strict merges
	extends string
	actions []action
}

// action is one Action Object.
type action struct {
	index  int
	target string
	path   *jsonpath.Path
	update *jsontree.Node // nil without one
	remove bool
	copy   *jsonpath.Path // nil without one
	from   string         // copy's text
}

func (a action) ptr(field string) string {
	p := fmt.Sprintf("/actions/%d", a.index)
	if field != "" {
		p += "/" + field
	}
	return p
}

// parse reads and checks an overlay document: every problem at once.
func parse(f File) (*doc, error) {
	src, err := source.ReadSource(f.Name, f.Data)
	if err != nil {
		return nil, withText(err, f)
	}
	d := &doc{src: src}
	var errs []source.Diagnostic
	bad := func(ptr, format string, args ...any) {
		errs = append(errs, d.diag(ptr, false, fmt.Sprintf(format, args...)))
	}
	if len(src.Duplicates) > 0 {
		errs = append(errs, src.DuplicateDiagnostics(false)...)
	}
	root := src.Tree
	if root.Kind != jsontree.Object {
		bad("", "got %s %s, want an Overlay document (an object with overlay, info and actions)", article(root.KindName()), root.KindName())
		return nil, withText(&source.Error{Diagnostics: errs}, f)
	}
	switch v := root.Get("overlay"); {
	case v == nil:
		bad("", `not an Overlay document: want a top-level "overlay" member (the Overlay Specification's version, 1.0.0 or 1.1.0)`)
	case v.Kind != jsontree.String:
		bad("/overlay", "got %s %s, want the version as a string (1.0.0 or 1.1.0)", article(v.KindName()), v.KindName())
	case strings.HasPrefix(v.Str, "1.0.") || v.Str == "1.0":
		d.version = v.Str
	case strings.HasPrefix(v.Str, "1.1.") || v.Str == "1.1":
		d.version, d.v11 = v.Str, true
	default:
		bad("/overlay", "got version %q, want 1.0.0 or 1.1.0", source.ClipValue(v.Str))
	}
	for _, m := range root.Members {
		switch {
		case m.Key == "overlay" || m.Key == "actions" || strings.HasPrefix(m.Key, "x-"):
		case m.Key == "info":
			d.checkInfo(m.Value, bad)
		case m.Key == "extends":
			if m.Value.Kind != jsontree.String {
				bad("/extends", "got %s %s, want a URL", article(m.Value.KindName()), m.Value.KindName())
			} else {
				d.extends = m.Value.Str
			}
		default:
			bad(jsontree.Pointer(m.Key), "unknown member %q of an Overlay document (want overlay, info, extends, actions, or x- extensions)", source.ClipValue(m.Key))
		}
	}
	if root.Get("info") == nil {
		bad("", `want an "info" member (the overlay's title and version)`)
	}
	switch acts := root.Get("actions"); {
	case acts == nil:
		bad("", `want an "actions" member: the list of actions`)
	case acts.Kind != jsontree.Array:
		bad("/actions", "got %s %s, want an array of actions", article(acts.KindName()), acts.KindName())
	case len(acts.Items) == 0:
		bad("/actions", "no actions; want at least one")
	default:
		for i, it := range acts.Items {
			if a, ok := d.parseAction(i, it, bad); ok {
				d.actions = append(d.actions, a)
			}
		}
	}
	if len(errs) > 0 {
		return nil, withText(&source.Error{Diagnostics: errs}, f)
	}
	return d, nil
}

func (d *doc) checkInfo(info *jsontree.Node, bad func(ptr, format string, args ...any)) {
	if info.Kind != jsontree.Object {
		bad("/info", "got %s %s, want an object with title and version", article(info.KindName()), info.KindName())
		return
	}
	for _, k := range []string{"title", "version"} {
		switch v := info.Get(k); {
		case v == nil:
			bad("/info", "want a %q member", k)
		case v.Kind != jsontree.String:
			bad("/info/"+k, "got %s %s, want a string", article(v.KindName()), v.KindName())
		}
	}
}

// parseAction checks the Action Object it at index i.
func (d *doc) parseAction(i int, it *jsontree.Node, bad func(ptr, format string, args ...any)) (action, bool) {
	a := action{index: i}
	if it.Kind != jsontree.Object {
		bad(a.ptr(""), "got %s %s, want an action object (target, and update, remove or copy)", article(it.KindName()), it.KindName())
		return a, false
	}
	ok := true
	fail := func(field, format string, args ...any) {
		what := "action"
		if a.target != "" {
			what = fmt.Sprintf("action with target %q", source.ClipValue(a.target))
		}
		bad(a.ptr(field), "%s: %s", what, fmt.Sprintf(format, args...))
		ok = false
	}
	t := it.Get("target")
	switch {
	case t == nil:
		fail("", `want a "target" member: a JSONPath query`)
	case t.Kind != jsontree.String:
		fail("target", "got %s %s, want a JSONPath query (a string)", article(t.KindName()), t.KindName())
	default:
		a.target = t.Str
		p, err := jsonpath.Parse(t.Str)
		if err != nil {
			fail("target", "not an RFC 9535 JSONPath query: %s", strings.TrimPrefix(err.Error(), "jsonpath: "))
		}
		a.path = p
	}
	for _, m := range it.Members {
		switch {
		case m.Key == "target" || strings.HasPrefix(m.Key, "x-"):
		case m.Key == "description":
			if m.Value.Kind != jsontree.String {
				fail("description", "got %s %s, want a string", article(m.Value.KindName()), m.Value.KindName())
			}
		case m.Key == "update":
			a.update = m.Value
		case m.Key == "remove":
			if m.Value.Kind != jsontree.Bool {
				fail("remove", "got %s %s, want true or false", article(m.Value.KindName()), m.Value.KindName())
			}
			a.remove = m.Value.Bool
		case m.Key == "copy" && d.v11:
			if m.Value.Kind != jsontree.String {
				fail("copy", "got %s %s, want a JSONPath query (a string)", article(m.Value.KindName()), m.Value.KindName())
				continue
			}
			p, err := jsonpath.Parse(m.Value.Str)
			if err != nil {
				fail("copy", "not an RFC 9535 JSONPath query: %s", strings.TrimPrefix(err.Error(), "jsonpath: "))
				continue
			}
			a.copy, a.from = p, m.Value.Str
		case m.Key == "copy":
			fail("copy", "copy is an action of Overlay 1.1.0; this overlay is %s (write overlay: 1.1.0)", d.version)
		default:
			fail(jsontree.Pointer(m.Key)[1:], "unknown member %q of an action (want target, description, update, remove, copy, or x- extensions)", source.ClipValue(m.Key))
		}
	}
	if ok && a.update == nil && !a.remove && a.copy == nil {
		fail("", "want update, remove: true, or copy: the action does nothing")
	}
	return a, ok
}

// diag is a diagnostic at ptr of the overlay.
func (d *doc) diag(ptr string, warning bool, msg string) source.Diagnostic {
	line, col := d.src.Position(ptr, -1)
	return source.Diagnostic{File: d.src.Name, Line: line, Col: col, Path: ptr, Message: msg, Warning: warning}
}

// checkExtends warns when the overlay says it extends another document than
// docName: the document given is patched all the same.
func (d *doc) checkExtends(docName string) *source.Diagnostic {
	if d.extends == "" {
		return nil
	}
	u, err := url.Parse(d.extends)
	if err != nil {
		w := d.diag("/extends", true, fmt.Sprintf("extends %q is not a URL; applied to %s", source.ClipValue(d.extends), docName))
		return &w
	}
	same := false
	if u.Scheme == "" || u.Scheme == "file" {
		p := filepath.FromSlash(u.Path)
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(d.src.Name), p)
		}
		a, err1 := filepath.Abs(p)
		b, err2 := filepath.Abs(docName)
		same = err1 == nil && err2 == nil && a == b
	} else { // a URL of the document as published: its file name
		same = path.Base(u.Path) == filepath.Base(docName)
	}
	if same {
		return nil
	}
	w := d.diag("/extends", true, fmt.Sprintf("the overlay extends %q, not %s: applied to %s, the document given", source.ClipValue(d.extends), docName, docName))
	return &w
}

func withText(err error, f File) error {
	if e, ok := err.(*source.Error); ok {
		e.AddText(f.Name, f.Data)
	}
	return err
}

// article is "a" or "an" before a kind's name.
func article(kind string) string {
	if kind == "object" || kind == "array" {
		return "an"
	}
	return "a"
}
