package opentool

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/internal/checked"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

func (l *otLoader) document(root *jsontree.Node) *document.OpenTool {
	if root.Kind != jsontree.Object {
		l.gotWant("", root, "an OpenTool document (an object)")
		return nil
	}
	if s := root.Get("schemas"); s != nil && s.Kind == jsontree.Object {
		l.schemaSet = make(map[string]struct{}, len(s.Members))
		for _, m := range s.Members {
			l.schemaNames = append(l.schemaNames, m.Key)
			l.schemaSet[m.Key] = struct{}{}
		}
	}
	doc := &document.OpenTool{}
	l.unknownMembers(root, l.known.Document)
	doc.OpenTool = l.str(root, "opentool", true)
	if v := root.Get("opentool"); v != nil && v.Kind == jsontree.String && v.Str != "1" && !strings.HasPrefix(v.Str, "1.") {
		l.warnf("/opentool", v.Offset, "got %s, want a version 1.x; reading it as 1.x", strconv.Quote(clipText(v.Str)))
	}
	if v := l.required(root, "info", "an object"); v != nil {
		if v.Kind != jsontree.Object {
			l.gotWant("/info", v, "an object")
		} else {
			n := l.enter("info")
			l.unknownMembers(v, l.known.Info)
			doc.Info = document.Info{
				Title:       l.str(v, "title", true),
				Description: l.str(v, "description", false),
				Version:     l.str(v, "version", true),
			}
			l.leave(n)
		}
	}
	if v := otMember(root, "server"); v != nil {
		if v.Kind != jsontree.Object {
			l.gotWant("/server", v, "an object")
		} else {
			n := l.enter("server")
			l.unknownMembers(v, serverMembers)
			doc.Server = &document.Server{URL: l.str(v, "url", true), Description: l.str(v, "description", false)}
			l.leave(n)
		}
	}
	doc.Functions = []document.Function{}
	if v := l.required(root, "functions", "an array"); v != nil {
		if v.Kind != jsontree.Array {
			l.gotWant("/functions", v, "an array")
		} else {
			n := l.enter("functions")
			doc.Functions = l.functions(v)
			l.leave(n)
		}
	}
	if v := otMember(root, "schemas"); v != nil {
		if v.Kind != jsontree.Object {
			l.gotWant("/schemas", v, "an object mapping names to schemas")
		} else {
			n := l.enter("schemas")
			for _, m := range v.Members {
				k := l.enter(m.Key)
				if m.Key == "" {
					l.errorf(l.here(), m.KeyOffset, `got "", want a schema name`)
				}
				doc.Schemas = append(doc.Schemas, document.NamedSchema{Name: m.Key, Schema: l.schema(m.Value)})
				l.leave(k)
			}
			l.checkRefCycles(v)
			l.pruneAlternatives(doc, v)
			l.leave(n)
		}
	}
	return doc
}

// pruneAlternatives drops the constraints of the document's schemas that a
// value inside a oneOf or anyOf alternative can be of (named by a $ref
// there, or inside such a schema), with a warning at each: the OpenTool
// model does not type those values, so the decoders check none of them.
// schemas is the document's "schemas" member, being read.
func (l *otLoader) pruneAlternatives(doc *document.OpenTool, schemas *jsontree.Node) {
	reached := checked.Alternatives(doc)
	if len(reached) == 0 {
		return
	}
	var walk func(n *jsontree.Node, s *document.Schema)
	walk = func(n *jsontree.Node, s *document.Schema) {
		if n == nil || n.Kind != jsontree.Object || s == nil || s.Ref != "" {
			return
		}
		checked.Prune(s, "referenced from inside oneOf or anyOf", func(key, why string) {
			l.warnf(l.at(key), keyOffset(n, key), "ignored: %s", why)
		})
		if props := otMember(n, "properties"); props != nil && props.Kind == jsontree.Object {
			k := l.enter("properties")
			for _, m := range props.Members {
				pk := l.enter(m.Key)
				walk(m.Value, s.Properties.Get(m.Key))
				l.leave(pk)
			}
			l.leave(k)
		}
		for _, sub := range []struct {
			key string
			s   *document.Schema
		}{{"items", s.Items}, {"additionalProperties", s.AdditionalProperties}} {
			k := l.enter(sub.key)
			walk(otMember(n, sub.key), sub.s)
			l.leave(k)
		}
	}
	for i, m := range schemas.Members {
		if !reached[m.Key] || i >= len(doc.Schemas) || doc.Schemas[i].Name != m.Key {
			continue
		}
		k := l.enter(m.Key)
		walk(m.Value, doc.Schemas[i].Schema)
		l.leave(k)
	}
}

// firstAt is the message's name for element i of the array being read.
func (l *otLoader) firstAt(arrayPathLen, i int) string {
	return string(strconv.AppendInt(append(slices.Clip(l.path[:arrayPathLen]), '/'), int64(i), 10))
}

// namedObjects reads the array arr of objects, each with read (what names
// them in messages: "function", "parameter"), and reports a name given twice
// with the place of its first use.
func namedObjects[T any](l *otLoader, arr *jsontree.Node, what string, read func(*jsontree.Node) T, name func(*T) string) []T {
	out := make([]T, 0, len(arr.Items))
	first := make(map[string]int, len(arr.Items)) // name -> index of the object
	for i, it := range arr.Items {
		n := l.enterIndex(i)
		if it.Kind != jsontree.Object {
			l.gotWant(l.here(), it, "a "+what+" object")
			l.leave(n)
			continue
		}
		x := read(it)
		if v := it.Get("name"); v != nil && v.Kind == jsontree.String {
			if j, dup := first[name(&x)]; dup {
				l.errorf(l.at("name"), v.Offset, "duplicate %s name %s; the first is %s", what, strconv.Quote(clipText(name(&x))), l.firstAt(n, j))
			} else {
				first[name(&x)] = i
			}
		}
		out = append(out, x)
		l.leave(n)
	}
	return out
}

// functions reads the array of function objects arr.
func (l *otLoader) functions(arr *jsontree.Node) []document.Function {
	return namedObjects(l, arr, "function", l.function, func(f *document.Function) string { return f.Name })
}

// function reads the function object obj.
func (l *otLoader) function(obj *jsontree.Node) document.Function {
	var f document.Function
	l.unknownMembers(obj, l.known.Function)
	f.Name = l.str(obj, "name", true)
	if v := obj.Get("name"); v != nil && v.Kind == jsontree.String && !document.IsFunctionName(v.Str) {
		l.errorf(l.at("name"), v.Offset, "got %s, want 1 to 64 characters a-z, A-Z, 0-9, _ or -", strconv.Quote(clipText(v.Str)))
	}
	if obj.Get("description") == nil {
		// Required by the specification, and what a language model reads to choose
		// the function; but a missing description loses nothing else.
		l.warnf(l.at("description"), obj.Offset, "missing, want a string that says what the function does")
	} else {
		f.Description = l.str(obj, "description", true)
	}
	switch v := otMember(obj, "parameters"); {
	case v == nil:
		// Required by the specification, but documents written for functions
		// without arguments often leave it out: read it as [].
		l.warnf(l.at("parameters"), obj.Offset, "missing, want an array; reading it as []")
		f.Parameters = []document.Parameter{}
	case v.Kind != jsontree.Array:
		l.gotWant(l.at("parameters"), v, "an array")
	default:
		n := l.enter("parameters")
		f.Parameters = l.parameters(v)
		l.leave(n)
	}
	switch v := otMember(obj, "return"); {
	case v == nil: // no return value
	case v.Kind != jsontree.Object:
		l.gotWant(l.at("return"), v, "an object or null")
	default:
		n := l.enter("return")
		f.Return = l.ret(v)
		l.leave(n)
	}
	if v := otMember(obj, "stream"); v != nil {
		if v.Kind != jsontree.Object {
			l.gotWant(l.at("stream"), v, "an object mapping event names to return objects")
		} else {
			n := l.enter("stream")
			for _, m := range v.Members {
				if m.Value.Kind != jsontree.Object {
					l.gotWant(l.at(m.Key), m.Value, "a return object")
					continue
				}
				if f.Stream == nil {
					f.Stream = make(map[string]*document.Return, len(v.Members))
				}
				k := l.enter(m.Key)
				f.Stream[m.Key] = l.ret(m.Value)
				l.leave(k)
			}
			l.leave(n)
		}
	}
	l.origin(obj, &f)
	l.listed(obj, &f)
	return f
}

// hintMembers are the members of an "annotations" object the loader reads
// back (document.Hints, in MCP's names).
var hintMembers = map[string]func(*document.Hints, *bool){
	"readOnlyHint":    func(h *document.Hints, b *bool) { h.ReadOnly = b },
	"destructiveHint": func(h *document.Hints, b *bool) { h.Destructive = b },
	"idempotentHint":  func(h *document.Hints, b *bool) { h.Idempotent = b },
	"openWorldHint":   func(h *document.Hints, b *bool) { h.OpenWorld = b },
}

// listed reads the members of function object obj that a package generated
// from an MCP tools/list keeps of each tool (document.Function's Title, Hints
// and Execution), which the OpenTool specification does not define: one of
// the wrong shape is ignored with a warning, as an unknown member is, so that
// the document a listing's package embeds generates the same package again.
func (l *otLoader) listed(obj *jsontree.Node, f *document.Function) {
	if v := otMember(obj, "title"); v != nil {
		if v.Kind != jsontree.String {
			l.warnf(l.at("title"), v.Offset, "got %s, want a string; ignored", describeJSONValue(v))
		} else {
			f.Title = v.Str
		}
	}
	if v := otMember(obj, "annotations"); v != nil {
		if v.Kind != jsontree.Object {
			l.warnf(l.at("annotations"), v.Offset, "got %s, want an object of booleans; ignored", describeJSONValue(v))
		} else {
			var h document.Hints
			for _, m := range v.Members {
				set, known := hintMembers[m.Key]
				switch {
				case !known:
					continue // other annotations (title…) are not hints
				case m.Value.Kind != jsontree.Bool:
					l.warnf(l.at("annotations"), m.Value.Offset, "%s: got %s, want a boolean; ignored", m.Key, describeJSONValue(m.Value))
				default:
					b := m.Value.Bool
					set(&h, &b)
				}
			}
			if h != (document.Hints{}) {
				f.Hints = &h
			}
		}
	}
	if v := otMember(obj, "execution"); v != nil {
		ts := v.Get("taskSupport")
		switch {
		case v.Kind != jsontree.Object:
			l.warnf(l.at("execution"), v.Offset, "got %s, want an object; ignored", describeJSONValue(v))
		case ts == nil:
		case ts.Kind != jsontree.String || (ts.Str != "forbidden" && ts.Str != "optional" && ts.Str != "required"):
			l.warnf(l.at("execution"), ts.Offset, "taskSupport: got %s, want \"forbidden\", \"optional\" or \"required\"; ignored", describeJSONValue(ts))
		default:
			f.Execution = &document.Execution{TaskSupport: ts.Str}
		}
	}
}

// origin reads the members of function object obj that say where it comes
// from, which the OpenTool specification does not define (document.Function's
// Tags and HTTP, written by packages generated from OpenAPI documents): one
// of the wrong shape is ignored with a warning, as an unknown member is.
func (l *otLoader) origin(obj *jsontree.Node, f *document.Function) {
	if v := otMember(obj, "tags"); v != nil {
		ok := v.Kind == jsontree.Array
		for _, it := range v.Items {
			ok = ok && it.Kind == jsontree.String
		}
		if !ok {
			l.warnf(l.at("tags"), v.Offset, "got %s, want an array of strings; ignored", describeJSONValue(v))
		} else {
			for _, it := range v.Items {
				f.Tags = append(f.Tags, it.Str)
			}
		}
	}
	if v := otMember(obj, "http"); v != nil {
		m, p := v.Get("method"), v.Get("path")
		switch {
		case v.Kind != jsontree.Object:
			l.warnf(l.at("http"), v.Offset, "got %s, want an object with the strings \"method\" and \"path\"; ignored", describeJSONValue(v))
		case m == nil || m.Kind != jsontree.String || p == nil || p.Kind != jsontree.String:
			l.warnf(l.at("http"), v.Offset, "want the strings \"method\" and \"path\" in it; ignored")
		default:
			f.HTTP = &document.FunctionHTTP{Method: m.Str, Path: p.Str}
		}
	}
	if v := otMember(obj, "examples"); v != nil {
		ok := v.Kind == jsontree.Array
		for _, it := range v.Items {
			ok = ok && it.Kind == jsontree.Object
		}
		if !ok {
			l.warnf(l.at("examples"), v.Offset, "got %s, want an array of objects (example arguments); ignored", describeJSONValue(v))
		} else {
			for _, it := range v.Items {
				f.Examples = append(f.Examples, json.RawMessage(appendCanonicalJSON(nil, it)))
			}
		}
	}
}

// parameters reads the array of parameter objects arr.
func (l *otLoader) parameters(arr *jsontree.Node) []document.Parameter {
	return namedObjects(l, arr, "parameter", l.parameter, func(p *document.Parameter) string { return p.Name })
}

// parameter reads the parameter object it.
func (l *otLoader) parameter(it *jsontree.Node) document.Parameter {
	var par document.Parameter
	l.unknownMembers(it, l.known.Parameter)
	par.Name = l.str(it, "name", true) // "" is allowed
	par.Description = l.str(it, "description", false)
	par.Schema = l.requiredSchema(it)
	switch v := otMember(it, "required"); {
	case v == nil:
		// Required by the specification; JSON Schema's default is false.
		l.warnf(l.at("required"), it.Offset, "missing, want a boolean; reading it as false")
	case v.Kind != jsontree.Bool:
		l.gotWant(l.at("required"), v, "a boolean")
	default:
		par.Required = v.Bool
	}
	return par
}

func (l *otLoader) ret(obj *jsontree.Node) *document.Return {
	l.unknownMembers(obj, l.known.Return)
	return &document.Return{
		Name:        l.str(obj, "name", true),
		Description: l.str(obj, "description", false),
		Schema:      l.requiredSchema(obj),
	}
}

// requiredSchema reads the member "schema" of a parameter or return object.
func (l *otLoader) requiredSchema(obj *jsontree.Node) *document.Schema {
	v := l.required(obj, "schema", "a schema object")
	if v == nil {
		return nil
	}
	n := l.enter("schema")
	s := l.schema(v)
	l.leave(n)
	return s
}
