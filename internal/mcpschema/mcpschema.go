// Package mcpschema turns the tools an MCP server lists (the "tools" of a
// tools/list result, as JSON) into an OpenTool document: one function per
// tool, its input schema's properties the parameters, its output schema the
// return. Both directions of the project use it: mcpbridge at run time, for
// the document of an MCP server used as a runtime.Tool, and the generator
// (gen/load/mcptools), for a package generated from a saved tools/list
// result, so that the generated types are those of the document mcpbridge
// serves and its typed client decodes what mcpbridge.Tool.Call answers.
//
// It depends on the standard library and this module's runtime and jsontree
// only: the SDK's tools come in as the JSON they marshal to.
package mcpschema

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// The names of the return of a converted function.
const (
	// ResultKey names an object return (the result object is the tool's
	// structuredContent) or, when the output schema is not an object, the
	// member of {"result": value}.
	ResultKey = "result"
	// TextKey names the return of a tool without output schema: its text
	// contents ({"text": "…"}).
	TextKey = "text"
)

// DefaultTitle is the document's title when the server gives none.
const DefaultTitle = "MCP server"

// Options configure [Convert].
type Options struct {
	// Strict is the generator's reading. Every problem is reported (see
	// [Result.Problems]): errors for what cannot be read — a tool that is not
	// an object, a missing, empty, repeated or non-OpenTool name (1 to 64 of
	// a-z, A-Z, 0-9, _ and -), a member or schema keyword of the wrong JSON
	// type, an input schema that is not an object schema, a local $ref that
	// does not resolve, references that only refer to each other; warnings
	// for what is read in a looser way (a keyword the OpenTool model has no
	// member for, a remote $ref, an enum value of another type, …). And the
	// document is repaired into one the OpenTool loader accepts (types
	// inferred for an enum without one, items {} for an array without them,
	// what contradicts the schema's type dropped).
	//
	// Without it (mcpbridge: the tools come from the SDK, which has read
	// them) nothing is reported and the schemas are converted as they are.
	Strict bool
}

// Problem is something wrong in the tools, at a place of the input.
type Problem struct {
	Path    string // JSON pointer in the input ("" is the tools array itself)
	Offset  int64  // byte offset of the value in the input the tools were parsed from
	Message string
	Warning bool
}

// Origin is where in the input a part of the document comes from.
type Origin struct {
	Path   string
	Offset int64
}

// Result is what [Convert] made.
type Result struct {
	Document *document.OpenTool
	// Problems are in input order; empty without Options.Strict.
	Problems []Problem
	// Tools holds, for each function of the document, the tool it comes from.
	Tools []Origin
	// Schemas holds, for each named schema of the document, the definition it
	// comes from (strict only).
	Schemas map[string]Origin

	path   string // of the tools
	offset int64
}

// Place returns the place in the input of the value at path in the
// document: the tool a function comes from, or the definition a named schema
// comes from; the tools array for anything else.
func (r *Result) Place(path string) (string, int64) {
	toks := strings.Split(path, "/")
	if len(toks) >= 3 {
		switch toks[1] {
		case "functions":
			if i, err := strconv.Atoi(toks[2]); err == nil && i >= 0 && i < len(r.Tools) {
				return r.Tools[i].Path, r.Tools[i].Offset
			}
		case "schemas":
			name := strings.ReplaceAll(strings.ReplaceAll(toks[2], "~1", "/"), "~0", "~")
			if o, ok := r.Schemas[name]; ok && o.Path != "" {
				return o.Path, o.Offset
			}
		}
	}
	return r.path, r.offset
}

// Convert converts tools, the JSON array of a tools/list result parsed with
// jsontree, into an OpenTool document with the given info (its title
// DefaultTitle when empty). path is the JSON pointer of tools in the input,
// the start of every Problem's path.
//
// Each tool (an object with "name", "title", "description", "inputSchema",
// "outputSchema" and "annotations") becomes a function:
//
//   - its name is the tool's; its description the tool's description, else
//     its title, else the title of its annotations (the annotations' hints
//     have no place in an OpenTool document);
//   - its parameters are the properties of the input schema, required as
//     "required" says, the required ones first in that order, then the others
//     in the schema's order. Each JSON Schema becomes a [document.Schema] as far
//     as the OpenTool model carries it (see the file schema.go);
//   - its return is the result object the output schema describes when that
//     is an object (named ResultKey); a tool with another output schema
//     returns ResultKey ({"result": value}); a tool without one returns
//     TextKey, a string ({"text": "…"}): what mcpbridge.Tool.Call answers.
//
// A second tool of the same name is left out (an error when strict).
func Convert(info document.Info, tools *jsontree.Node, path string, opts Options) *Result {
	if info.Title == "" {
		info.Title = DefaultTitle
	}
	c := &converter{
		strict:  opts.Strict,
		byKey:   map[string]string{},
		byName:  map[string]int{},
		taken:   map[string]bool{},
		next:    map[string]int{},
		origins: map[*document.Schema]origin{},
	}
	doc := &document.OpenTool{OpenTool: "1.0.0", Info: info, Functions: []document.Function{}}
	res := &Result{Document: doc, path: path}
	if tools != nil {
		res.offset = tools.Offset
	}
	switch {
	case tools == nil:
	case tools.Kind != jsontree.Array:
		c.gotWant(path, tools, "an array of tools")
	default:
		first := map[string]string{}
		for i, t := range tools.Items {
			tp := path + "/" + strconv.Itoa(i)
			f, ok := c.tool(t, tp, first)
			if ok {
				doc.Functions = append(doc.Functions, f)
				res.Tools = append(res.Tools, Origin{tp, t.Offset})
			}
		}
	}
	doc.Schemas = c.schemas
	if c.strict {
		c.repair(doc)
		res.Schemas = make(map[string]Origin, len(c.schemas))
		for _, s := range c.schemas {
			res.Schemas[s.Name] = c.origins[s.Schema].Origin
		}
	}
	slices.SortStableFunc(c.problems, func(a, b Problem) int { return cmp.Compare(a.Offset, b.Offset) })
	res.Problems = dedup(c.problems)
	return res
}

// tool converts the tool t at path tp; false when it is left out. first maps
// the names seen to their tool's path.
func (c *converter) tool(t *jsontree.Node, tp string, first map[string]string) (document.Function, bool) {
	if t == nil || t.Kind != jsontree.Object {
		if t != nil {
			c.gotWant(tp, t, "a tool object")
		}
		return document.Function{}, false
	}
	name, ok := c.str(t, tp, "name")
	nameNode := t.Get("name")
	switch {
	case !c.strict:
	case nameNode == nil:
		c.errorf(tp+"/name", t.Offset, "missing, want the tool's name")
		ok = false
	case ok && name == "":
		c.errorf(tp+"/name", nameNode.Offset, `got "", want the tool's name`)
		ok = false
	case ok && !document.IsFunctionName(name):
		c.errorf(tp+"/name", nameNode.Offset, "got %s, want 1 to 64 characters a-z, A-Z, 0-9, _ or - (an OpenTool function name, as LLM function calling wants it)", quote(name))
	}
	dup := false
	if ok {
		var at string
		if at, dup = first[name]; dup {
			c.errorf(tp+"/name", nameNode.Offset, "duplicate tool name %s; the first is %s", quote(name), at)
		} else {
			first[name] = tp
		}
	}
	desc, _ := c.str(t, tp, "description")
	title, _ := c.str(t, tp, "title")
	var (
		annTitle string
		hints    *document.Hints
	)
	if a := t.Get("annotations"); a != nil && a.Kind != jsontree.Null {
		if a.Kind != jsontree.Object {
			c.gotWant(tp+"/annotations", a, "an object")
		} else {
			annTitle, _ = c.str(a, tp+"/annotations", "title")
			hints = c.hints(a, tp+"/annotations")
		}
	}
	execution := c.execution(t.Get("execution"), tp+"/execution")
	in := c.schemaMember(t, tp, "inputSchema", name+"Args", true)
	out := c.schemaMember(t, tp, "outputSchema", name+"Result", false)
	if dup || !ok && c.strict {
		return document.Function{}, false
	}
	f := document.Function{Name: name, Description: cmp.Or(desc, title, annTitle), Parameters: in.parameters(),
		Title: cmp.Or(title, annTitle), Hints: hints, Execution: execution}
	if out == nil {
		f.Return = &document.Return{
			Name:        TextKey,
			Description: "The text the tool answered (its text contents, joined by newlines).",
			Schema:      &document.Schema{Type: document.TypeString},
		}
	} else {
		s := out.convert(out.root, 0)
		f.Return = &document.Return{Name: ResultKey, Description: s.Description, Schema: s}
		s.Description = ""
	}
	return f, true
}

// str returns the string member key of obj (at path), and whether it is one;
// a member of another type is an error when strict.
func (c *converter) str(obj *jsontree.Node, path, key string) (string, bool) {
	v := obj.Get(key)
	switch {
	case v == nil || v.Kind == jsontree.Null:
		return "", false
	case v.Kind != jsontree.String:
		c.gotWant(path+"/"+jsontree.Pointer(key)[1:], v, "a string")
		return "", false
	}
	return v.Str, true
}

// schemaMember reads the schema member key of the tool t at tp (named name
// when referenced); nil when there is none. An input schema is an object
// schema.
func (c *converter) schemaMember(t *jsontree.Node, tp, key, name string, input bool) *rootSchema {
	v := t.Get(key)
	path := tp + "/" + key
	switch {
	case v == nil || v.Kind == jsontree.Null:
		if input && c.strict {
			c.warnf(path, t.Offset, "missing, want an object schema of the arguments; read as no arguments")
		}
		return nil
	case v.Kind != jsontree.Object:
		c.gotWant(path, v, "a JSON Schema object")
		return nil
	}
	r := &rootSchema{c: c, root: v, name: name, base: path, names: map[string]string{}, path: []byte(path)}
	if input && c.strict {
		// The input schema's own keywords; the output schema's are checked
		// as it is converted.
		r.check(v, 0)
		n, np := r.target()
		if n != v {
			r.path = []byte(np)
			r.check(n, 0)
			r.path = []byte(path)
		}
		if ty := n.Get("type"); ty != nil && !(ty.Kind == jsontree.String && ty.Str == document.TypeObject) {
			c.gotWant(np+"/type", ty, `"object" (a tool's arguments are an object)`)
		}
	}
	return r
}

// converter converts the tools of one document.
type converter struct {
	strict   bool
	problems []Problem

	// Named schemas. Local references ("#/$defs/X", "#/definitions/X", any
	// "#/pointer", "#" itself) become entries of the document's schemas; two
	// tools referring to the same definition (the same JSON, referring to the
	// same JSON in turn) share one entry, and definitions of the same name
	// that differ get distinct names (X, X2, …).
	schemas document.Schemas
	byKey   map[string]string // closure key of a definition → its schema name
	byName  map[string]int    // schema name → index in schemas
	taken   map[string]bool
	next    map[string]int // base name → the first number that may be free

	// origins holds where each schema made comes from (strict only).
	origins map[*document.Schema]origin
}

// origin is where a schema comes from: the input value and its place.
type origin struct {
	Origin
	node *jsontree.Node
}

func (c *converter) errorf(path string, offset int64, format string, args ...any) {
	if c.strict {
		c.problems = append(c.problems, Problem{Path: path, Offset: offset, Message: fmt.Sprintf(format, args...)})
	}
}

func (c *converter) warnf(path string, offset int64, format string, args ...any) {
	if c.strict {
		c.problems = append(c.problems, Problem{Path: path, Offset: offset, Message: fmt.Sprintf(format, args...), Warning: true})
	}
}

// gotWant reports that the value v at path is not what is wanted.
func (c *converter) gotWant(path string, v *jsontree.Node, want string) {
	c.errorf(path, v.Offset, "got %s, want %s", describe(v), want)
}

// unique returns base, or base2, base3, … : the first name not taken.
func (c *converter) unique(base string) string {
	if base == "" {
		base = "Schema"
	}
	name := base
	if c.taken[name] {
		// Numbers below next[base] are taken: names are never given back.
		i := max(c.next[base], 2)
		for name = base + strconv.Itoa(i); c.taken[name]; name = base + strconv.Itoa(i) {
			i++
		}
		c.next[base] = i + 1
	}
	c.taken[name] = true
	return name
}

// Describe says what v is, for "got …" in messages: null, boolean true,
// number 1, string "x" (shortened), an array, an object.
func Describe(v *jsontree.Node) string { return describe(v) }

func describe(v *jsontree.Node) string {
	switch v.Kind {
	case jsontree.Null:
		return "null"
	case jsontree.Bool:
		return "boolean " + strconv.FormatBool(v.Bool)
	case jsontree.Number:
		return "number " + clip(v.Str)
	case jsontree.String:
		return "string " + quote(v.Str)
	case jsontree.Array:
		if len(v.Items) == 0 {
			return "an empty array"
		}
		return "an array"
	default:
		return "an object"
	}
}

// quote quotes s for a message, shortened to 40 bytes.
func quote(s string) string { return strconv.Quote(clip(s)) }

func clip(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && s[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}

func dedup(ps []Problem) []Problem {
	seen := map[Problem]bool{}
	out := ps[:0]
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// hints reads the hints of a tool's annotations (a at path); nil when it
// has none. A hint that is not a boolean is left out with a warning.
func (c *converter) hints(a *jsontree.Node, path string) *document.Hints {
	var h document.Hints
	some := false
	for _, m := range []struct {
		key string
		to  **bool
	}{{"readOnlyHint", &h.ReadOnly}, {"destructiveHint", &h.Destructive}, {"idempotentHint", &h.Idempotent}, {"openWorldHint", &h.OpenWorld}} {
		v := a.Get(m.key)
		switch {
		case v == nil || v.Kind == jsontree.Null:
			continue
		case v.Kind != jsontree.Bool:
			c.warnf(path+"/"+m.key, v.Offset, "got %s, want a boolean: the hint is left out", describe(v))
			continue
		}
		b := v.Bool
		*m.to, some = &b, true
	}
	if !some {
		return nil
	}
	return &h
}

// execution reads a tool's execution member (e at path): its taskSupport,
// one of "forbidden", "optional" and "required"; nil when it says none.
func (c *converter) execution(e *jsontree.Node, path string) *document.Execution {
	if e == nil || e.Kind == jsontree.Null {
		return nil
	}
	if e.Kind != jsontree.Object {
		c.warnf(path, e.Offset, "got %s, want an object: left out", describe(e))
		return nil
	}
	v := e.Get("taskSupport")
	switch {
	case v == nil || v.Kind == jsontree.Null:
		return nil
	case v.Kind != jsontree.String || v.Str != "forbidden" && v.Str != "optional" && v.Str != "required":
		c.warnf(path+"/taskSupport", v.Offset, `got %s, want "forbidden", "optional" or "required": left out`, describe(v))
		return nil
	}
	ts := v.Str
	return &document.Execution{TaskSupport: ts}
}
