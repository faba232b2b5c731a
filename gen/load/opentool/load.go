package opentool

import (
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/internal/checked"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// Problem is one thing wrong with a document: an error, or a warning about
// something read in a guessed or degraded way.
type Problem struct {
	// Path is the JSON pointer (RFC 6901) of the value the problem is about,
	// such as "/functions/0/parameters/1/schema/type"; "" is the whole document.
	// For a missing member it is where the member should be. A path longer
	// than 16 KiB (a document nested thousands of levels deep) is kept
	// abbreviated: "/a/b/c/d/…(9,990 more)…/w/x/y/z".
	Path string `json:"path"`
	// Offset is the byte offset in the input of the value the problem is about
	// (for a missing member, of the object that lacks it); -1 if unknown.
	Offset  int64  `json:"offset"`
	Message string `json:"message"`
	Warning bool   `json:"warning,omitempty"`
}

// String returns "path: message", or "path: warning: message"; a path over
// 256 bytes is abbreviated.
func (p Problem) String() string {
	path := jsontree.ShortPointer(p.Path)
	if path == "" {
		path = "(root)"
	}
	if p.Warning {
		return path + ": warning: " + p.Message
	}
	return path + ": " + p.Message
}

// Position returns the 1-based line and column (counting bytes) of the problem
// in data, the document it was found in; 0, 0 when its offset is unknown.
func (p Problem) Position(data []byte) (line, col int) {
	if p.Offset < 0 {
		return 0, 0
	}
	return jsontree.LineCol(data, p.Offset)
}

// Format returns "file:line:col: path: message" for the problem found in
// data, read from the file named filename.
func (p Problem) Format(filename string, data []byte) string {
	if line, col := p.Position(data); line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", filename, line, col, p)
	}
	return filename + ": " + p.String()
}

// DocumentError is the error [LoadOpenTool] returns for a document it rejects:
// every error found in it, in document order.
type DocumentError struct {
	Problems []Problem `json:"problems"`
}

// Error lists the problems, one "path: message" per line.
func (e *DocumentError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// LoadOpenTool reads an OpenTool document, checks it against the OpenTool
// specification and its references, and returns it. Its error is a
// *[DocumentError] listing every problem found. Warnings are dropped; use
// [LoadOpenToolWarnings] to see them.
func LoadOpenTool(data []byte) (*runtime.OpenTool, error) {
	doc, _, err := LoadOpenToolWarnings(data)
	return doc, err
}

// LoadOpenToolWarnings is [LoadOpenTool] that also returns the warnings, in
// document order: things the document does not do as the specification says
// but that are read anyway (a missing function description or parameter list,
// a missing "required", members ignored in a schema). It returns them even when
// it also returns an error.
//
// The document is returned as written: references stay references (see
// [OpenTool.Resolve]). A function without parameters has an empty, non-nil
// Parameters; empty "properties", "schemas", "stream" and "required" are nil.
// JSON null for an optional member is the same as leaving it out.
func LoadOpenToolWarnings(data []byte) (*runtime.OpenTool, []Problem, error) {
	root, err := jsontree.Parse(data)
	if err != nil {
		se := err.(*jsontree.SyntaxError)
		return nil, nil, &DocumentError{Problems: []Problem{{Path: storedPath(se.Path), Offset: se.Offset, Message: "invalid JSON: " + se.Msg}}}
	}
	return LoadTree(root)
}

// LoadTree is [LoadOpenToolWarnings] of a document already parsed (or built,
// as the OpenDyn loader builds the equivalent OpenTool document): problems
// carry the offsets of root's nodes.
func LoadTree(root *jsontree.Node) (*runtime.OpenTool, []Problem, error) {
	return LoadTreeMembers(root, Members{})
}

// Members are the members an extension of OpenTool (OpenDyn) defines beyond
// OpenTool's, by object: a loader of the extension takes them out of the
// tree before [LoadTreeMembers] reads it, which suggests them for a member
// neither defines.
type Members struct {
	Document, Info, Function, Parameter, Return, Schema []string
}

// LoadTreeMembers is [LoadTree] of a document of an extension of OpenTool
// whose own members are extra.
func LoadTreeMembers(root *jsontree.Node, extra Members) (*runtime.OpenTool, []Problem, error) {
	l := otLoader{known: Members{
		Document:  append(slices.Clip(documentMembers), extra.Document...),
		Info:      append(slices.Clip(infoMembers), extra.Info...),
		Function:  append(slices.Clip(functionMembers), extra.Function...),
		Parameter: append(slices.Clip(parameterMembers), extra.Parameter...),
		Return:    append(slices.Clip(returnMembers), extra.Return...),
		Schema:    append(slices.Clip(schemaMembers), extra.Schema...),
	}}
	doc := l.document(root)
	slices.SortStableFunc(l.problems, func(a, b Problem) int { return cmp.Compare(a.Offset, b.Offset) })
	var errs, warnings []Problem
	for _, p := range l.problems {
		if p.Warning {
			warnings = append(warnings, p)
		} else {
			errs = append(errs, p)
		}
	}
	if len(errs) > 0 {
		return nil, warnings, &DocumentError{Problems: errs}
	}
	return doc, warnings, nil
}

// otLoader builds an OpenTool from a parsed document, collecting problems.
// Its methods read the value at path, the JSON pointer of the value being
// read, kept as a stack so that a path becomes a string only in a problem.
type otLoader struct {
	problems    []Problem
	path        []byte
	schemaNames []string            // the names in the document's "schemas", in order
	schemaSet   map[string]struct{} // the same names
	// known are the members each object defines.
	known Members
	// alts counts the oneOf and anyOf alternatives around the schema being
	// read: the OpenTool model does not type their values, so their
	// constraints are not checked.
	alts int
}

// enter appends tok to the path and returns what leave needs to undo it.
func (l *otLoader) enter(tok string) int {
	n := len(l.path)
	l.path = jsontree.AppendToken(l.path, tok)
	return n
}

// enterIndex appends an array index to the path.
func (l *otLoader) enterIndex(i int) int {
	n := len(l.path)
	l.path = strconv.AppendInt(append(l.path, '/'), int64(i), 10)
	return n
}

func (l *otLoader) leave(n int) { l.path = l.path[:n] }

// here is the path of the value being read.
func (l *otLoader) here() string { return string(l.path) }

// at is the path of member key of the value being read.
func (l *otLoader) at(key string) string {
	return string(jsontree.AppendToken(slices.Clip(l.path), key))
}

func (l *otLoader) errorf(path string, offset int64, format string, args ...any) {
	l.problems = append(l.problems, Problem{Path: storedPath(path), Offset: offset, Message: fmt.Sprintf(format, args...)})
}

func (l *otLoader) warnf(path string, offset int64, format string, args ...any) {
	l.problems = append(l.problems, Problem{Path: storedPath(path), Offset: offset, Message: fmt.Sprintf(format, args...), Warning: true})
}

// gotWant reports that the value v at path is not what is wanted.
func (l *otLoader) gotWant(path string, v *jsontree.Node, want string) {
	l.errorf(path, v.Offset, "got %s, want %s", describeJSONValue(v), want)
}

// describeJSONValue says what v is, for "got ..." in messages.
func describeJSONValue(v *jsontree.Node) string {
	switch v.Kind {
	case jsontree.Null:
		return "null"
	case jsontree.Bool:
		return "boolean " + strconv.FormatBool(v.Bool)
	case jsontree.Number:
		return "number " + clipText(v.Str)
	case jsontree.String:
		return "string " + strconv.Quote(clipText(v.Str))
	case jsontree.Array:
		if len(v.Items) == 0 {
			return "an empty array"
		}
		return "an array"
	default:
		return "an object"
	}
}

// clipText shortens s for a message.
func clipText(s string) string {
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

// otMember returns obj's member key, or nil when it is missing or null (null
// is the same as leaving an optional member out).
func otMember(obj *jsontree.Node, key string) *jsontree.Node {
	v := obj.Get(key)
	if v != nil && v.Kind == jsontree.Null {
		return nil
	}
	return v
}

// str reads the string member key of obj.
func (l *otLoader) str(obj *jsontree.Node, key string, required bool) string {
	v := obj.Get(key)
	switch {
	case v == nil || v.Kind == jsontree.Null && !required:
		if required {
			l.errorf(l.at(key), obj.Offset, "missing, want a string")
		}
		return ""
	case v.Kind != jsontree.String:
		l.gotWant(l.at(key), v, "a string")
		return ""
	}
	return v.Str
}

// required returns obj's member key, or nil after reporting it missing or null.
func (l *otLoader) required(obj *jsontree.Node, key, want string) *jsontree.Node {
	v := obj.Get(key)
	switch {
	case v == nil:
		l.errorf(l.at(key), obj.Offset, "missing, want %s", want)
	case v.Kind == jsontree.Null:
		l.gotWant(l.at(key), v, want)
	default:
		return v
	}
	return nil
}

func (l *otLoader) document(root *jsontree.Node) *runtime.OpenTool {
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
	doc := &runtime.OpenTool{}
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
			doc.Info = runtime.Info{
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
			doc.Server = &runtime.Server{URL: l.str(v, "url", true), Description: l.str(v, "description", false)}
			l.leave(n)
		}
	}
	doc.Functions = []runtime.Function{}
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
				doc.Schemas = append(doc.Schemas, runtime.NamedSchema{Name: m.Key, Schema: l.schema(m.Value)})
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
func (l *otLoader) pruneAlternatives(doc *runtime.OpenTool, schemas *jsontree.Node) {
	reached := checked.Alternatives(doc)
	if len(reached) == 0 {
		return
	}
	var walk func(n *jsontree.Node, s *runtime.Schema)
	walk = func(n *jsontree.Node, s *runtime.Schema) {
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
			s   *runtime.Schema
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

func (l *otLoader) functions(arr *jsontree.Node) []runtime.Function {
	fns := make([]runtime.Function, 0, len(arr.Items))
	first := make(map[string]int, len(arr.Items)) // name -> index of the function
	for i, it := range arr.Items {
		n := l.enterIndex(i)
		if it.Kind != jsontree.Object {
			l.gotWant(l.here(), it, "a function object")
			l.leave(n)
			continue
		}
		f := l.function(it)
		if v := it.Get("name"); v != nil && v.Kind == jsontree.String {
			if j, dup := first[f.Name]; dup {
				l.errorf(l.at("name"), v.Offset, "duplicate function name %s; the first is %s", strconv.Quote(clipText(f.Name)), l.firstAt(n, j))
			} else {
				first[f.Name] = i
			}
		}
		fns = append(fns, f)
		l.leave(n)
	}
	return fns
}

func (l *otLoader) function(obj *jsontree.Node) runtime.Function {
	var f runtime.Function
	l.unknownMembers(obj, l.known.Function)
	f.Name = l.str(obj, "name", true)
	if v := obj.Get("name"); v != nil && v.Kind == jsontree.String && !runtime.IsFunctionName(v.Str) {
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
		f.Parameters = []runtime.Parameter{}
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
					f.Stream = make(map[string]*runtime.Return, len(v.Members))
				}
				k := l.enter(m.Key)
				f.Stream[m.Key] = l.ret(m.Value)
				l.leave(k)
			}
			l.leave(n)
		}
	}
	return f
}

func (l *otLoader) parameters(arr *jsontree.Node) []runtime.Parameter {
	ps := make([]runtime.Parameter, 0, len(arr.Items))
	first := make(map[string]int, len(arr.Items)) // name -> index of the parameter
	for i, it := range arr.Items {
		n := l.enterIndex(i)
		if it.Kind != jsontree.Object {
			l.gotWant(l.here(), it, "a parameter object")
			l.leave(n)
			continue
		}
		var par runtime.Parameter
		l.unknownMembers(it, l.known.Parameter)
		par.Name = l.str(it, "name", true) // "" is allowed
		if v := it.Get("name"); v != nil && v.Kind == jsontree.String {
			if j, dup := first[par.Name]; dup {
				l.errorf(l.at("name"), v.Offset, "duplicate parameter name %s; the first is %s", strconv.Quote(clipText(par.Name)), l.firstAt(n, j))
			} else {
				first[par.Name] = i
			}
		}
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
		ps = append(ps, par)
		l.leave(n)
	}
	return ps
}

func (l *otLoader) ret(obj *jsontree.Node) *runtime.Return {
	l.unknownMembers(obj, l.known.Return)
	return &runtime.Return{
		Name:        l.str(obj, "name", true),
		Description: l.str(obj, "description", false),
		Schema:      l.requiredSchema(obj),
	}
}

// requiredSchema reads the member "schema" of a parameter or return object.
func (l *otLoader) requiredSchema(obj *jsontree.Node) *runtime.Schema {
	v := l.required(obj, "schema", "a schema object")
	if v == nil {
		return nil
	}
	n := l.enter("schema")
	s := l.schema(v)
	l.leave(n)
	return s
}

// schemaTypes is the list of types for messages.
const schemaTypes = "boolean, integer, number, string, array, object"

func isSchemaType(t string) bool {
	switch t {
	case runtime.TypeBoolean, runtime.TypeInteger, runtime.TypeNumber, runtime.TypeString, runtime.TypeArray, runtime.TypeObject:
		return true
	}
	return false
}

// quietSchemaMember reports whether an unknown schema member is ignored without
// a warning: extensions ("x-...") and annotations that change nothing.
func quietSchemaMember(key string) bool {
	switch key {
	case "title", "example", "examples", "deprecated", "readOnly", "writeOnly", "$comment":
		return true
	}
	return strings.HasPrefix(key, "x-")
}

// untyped reports whether schema n says nothing about its value's type: no
// member but annotations.
func untyped(n *jsontree.Node) bool {
	for _, m := range n.Members {
		if m.Key != "description" && m.Key != "nullable" && !quietSchemaMember(m.Key) && m.Value.Kind != jsontree.Null {
			return false
		}
	}
	return true
}

// schema reads the schema object n.
func (l *otLoader) schema(n *jsontree.Node) *runtime.Schema {
	if n.Kind != jsontree.Object {
		l.gotWant(l.here(), n, "a schema object")
		return nil
	}
	s := &runtime.Schema{}
	if ref := n.Get("$ref"); ref != nil {
		k := l.enter("$ref")
		l.ref(ref, s)
		l.leave(k)
		for _, m := range n.Members {
			switch {
			case m.Key == "$ref":
			case m.Key == "description":
				s.Description = l.str(n, "description", false)
			case quietSchemaMember(m.Key):
			default:
				l.warnf(l.at(m.Key), m.KeyOffset, "ignored next to $ref")
			}
		}
		return s
	}

	typ := "" // "" when the type is wrong: then check members against any type
	switch tv := n.Get("type"); {
	case tv == nil && (otMember(n, "oneOf") != nil || otMember(n, "anyOf") != nil):
		// the alternatives say what the value is
	case tv == nil && untyped(n):
		// {} or {"description": …}: JSON Schema's "any value", which documents
		// converted from OpenAPI use for values their source does not type.
		l.warnf(l.at("type"), n.Offset, "missing: read as any JSON value")
	case tv == nil:
		l.errorf(l.at("type"), n.Offset, "missing, want one of %s (or a $ref)", schemaTypes)
	case tv.Kind != jsontree.String:
		l.gotWant(l.at("type"), tv, "one of "+schemaTypes)
	case !isSchemaType(tv.Str):
		l.errorf(l.at("type"), tv.Offset, "got %s, want one of %s", strconv.Quote(clipText(tv.Str)), schemaTypes)
	default:
		typ = tv.Str
		s.Type = typ
	}
	nullable := false
	if v := n.Get("nullable"); v != nil && v.Kind == jsontree.Bool {
		nullable = v.Bool
	}
	var exclMin, exclMax *jsontree.Node // OpenAPI 3.0's boolean exclusive bounds

	for _, m := range n.Members {
		v := m.Value
		if v.Kind == jsontree.Null || m.Key == "type" {
			continue // null is the same as leaving the member out
		}
		k := l.enter(m.Key)
		switch m.Key {
		case "description":
			s.Description = l.strValue(v)
		case "format":
			s.Format = l.strValue(v)
		case "nullable":
			if v.Kind != jsontree.Bool {
				l.gotWant(l.here(), v, "a boolean")
			}
			s.Nullable = nullable
		case "properties":
			if !l.applies(m, typ, runtime.TypeObject) {
				break
			}
			if v.Kind != jsontree.Object {
				l.gotWant(l.here(), v, "an object mapping property names to schemas")
				break
			}
			for _, pm := range v.Members {
				pk := l.enter(pm.Key)
				s.Properties = append(s.Properties, runtime.NamedSchema{Name: pm.Key, Schema: l.schema(pm.Value)})
				l.leave(pk)
			}
		case "items":
			if l.applies(m, typ, runtime.TypeArray) {
				s.Items = l.schema(v)
			}
		case "required":
			if l.applies(m, typ, runtime.TypeObject) {
				s.Required = l.requiredNames(v, n.Get("properties"))
			}
		case "enum":
			s.Enum = l.enum(v, typ, nullable)
		case "default":
			if l.valueOfType(v, typ, nullable) {
				s.Default = json.RawMessage(appendCanonicalJSON(nil, v))
			}
		case "const":
			if l.valueOfType(v, typ, nullable) && v.Kind != jsontree.Null {
				s.Const = json.RawMessage(appendCanonicalJSON(nil, v))
			}
		case "minimum", "maximum":
			if !l.applies(m, typ, runtime.TypeInteger, runtime.TypeNumber) {
				break
			}
			if f, ok := l.float(v); ok && m.Key == "minimum" {
				s.Minimum = &f
			} else if ok {
				s.Maximum = &f
			}
		case "exclusiveMinimum", "exclusiveMaximum":
			// JSON Schema's number, or OpenAPI 3.0's boolean that makes
			// minimum or maximum exclusive (read into the number form below).
			if !l.applies(m, typ, runtime.TypeInteger, runtime.TypeNumber) {
				break
			}
			if v.Kind == jsontree.Bool {
				if m.Key == "exclusiveMinimum" {
					exclMin = v
				} else {
					exclMax = v
				}
				break
			}
			if f, ok := l.float(v); ok && m.Key == "exclusiveMinimum" {
				s.ExclusiveMinimum = &f
			} else if ok {
				s.ExclusiveMaximum = &f
			}
		case "multipleOf":
			if !l.applies(m, typ, runtime.TypeInteger, runtime.TypeNumber) {
				break
			}
			if f, ok := l.float(v); ok && f > 0 {
				s.MultipleOf = &f
			} else if ok {
				l.gotWant(l.here(), v, "a number above 0")
			}
		case "uniqueItems":
			if !l.applies(m, typ, runtime.TypeArray) {
				break
			}
			if v.Kind != jsontree.Bool {
				l.gotWant(l.here(), v, "a boolean")
				break
			}
			s.UniqueItems = v.Bool
		case "minProperties", "maxProperties":
			if !l.applies(m, typ, runtime.TypeObject) {
				break
			}
			if m.Key == "minProperties" {
				s.MinProperties = l.count(v)
			} else {
				s.MaxProperties = l.count(v)
			}
		case "minLength", "maxLength", "pattern":
			if !l.applies(m, typ, runtime.TypeString) {
				break
			}
			switch m.Key {
			case "minLength":
				s.MinLength = l.count(v)
			case "maxLength":
				s.MaxLength = l.count(v)
			default:
				if pat := l.strValue(v); pat != "" {
					if _, err := regexp.Compile(pat); err != nil {
						l.warnf(l.here(), v.Offset, "ignored: not a regular expression Go can use: %v", err)
					} else {
						s.Pattern = pat
					}
				}
			}
		case "minItems", "maxItems":
			if !l.applies(m, typ, runtime.TypeArray) {
				break
			}
			if m.Key == "minItems" {
				s.MinItems = l.count(v)
			} else {
				s.MaxItems = l.count(v)
			}
		case "oneOf", "anyOf":
			if v.Kind != jsontree.Array || len(v.Items) == 0 {
				l.gotWant(l.here(), v, "a non-empty array of schemas")
				break
			}
			var alts []*runtime.Schema
			l.alts++
			for i, item := range v.Items {
				ik := l.enter(strconv.Itoa(i))
				alts = append(alts, l.schema(item))
				l.leave(ik)
			}
			l.alts--
			if m.Key == "oneOf" {
				s.OneOf = alts
			} else {
				s.AnyOf = alts
			}
		case "additionalProperties":
			if !l.applies(m, typ, runtime.TypeObject) {
				break
			}
			switch v.Kind {
			case jsontree.Bool: // true is the default; false cannot be expressed: read both as absent
			case jsontree.Object:
				s.AdditionalProperties = l.schema(v)
			default:
				l.gotWant(l.here(), v, "a schema object or a boolean")
			}
		default:
			switch {
			case quietSchemaMember(m.Key):
			case unsupportedSchemaKeywords[m.Key]:
				l.warnf(l.here(), m.KeyOffset, "ignored: the OpenTool model has no %s", m.Key)
			default:
				l.warnf(l.here(), m.KeyOffset, "%s", UnknownMember(m.Key, l.known.Schema))
			}
		}
		l.leave(k)
	}

	if typ == runtime.TypeArray && otMember(n, "items") == nil {
		l.errorf(l.at("items"), n.Offset, "missing, want a schema for the elements (required with type array)")
	}
	l.exclusive(n, exclMin, "minimum", &s.Minimum, &s.ExclusiveMinimum)
	l.exclusive(n, exclMax, "maximum", &s.Maximum, &s.ExclusiveMaximum)
	// What the generated decoders cannot check is not served.
	untyped := ""
	switch {
	case l.alts > 0:
		untyped = "inside oneOf or anyOf"
	case n.Get("type") == nil && (otMember(n, "oneOf") != nil || otMember(n, "anyOf") != nil):
		untyped = "beside oneOf or anyOf"
	}
	checked.Prune(s, untyped, func(key, why string) {
		l.warnf(l.at(key), keyOffset(n, key), "ignored: %s", why)
	})
	// Bounds that no value meets are an error at the upper bound.
	for _, c := range checked.Conflicts(s) {
		loKey, lo := numberMember(n, c.Lo)
		hiKey, hi := numberMember(n, c.Hi)
		l.errorf(l.at(hiKey), hi.Offset, "%s", c.Error(loKey, lo.Str, hi.Str))
	}
	return s
}

// exclusive reads OpenAPI 3.0's boolean exclusive bound flag (of the member
// bound, "minimum" or "maximum", of n) into JSON Schema's number form: true
// moves *incl to *excl, unless *excl is set already (the tighter of the two
// is checked).
func (l *otLoader) exclusive(n, flag *jsontree.Node, bound string, incl, excl **float64) {
	if flag == nil || !flag.Bool {
		return
	}
	key := "exclusive" + strings.ToUpper(bound[:1]) + bound[1:]
	switch {
	case *incl == nil:
		l.warnf(l.at(key), keyOffset(n, key), "ignored: true without %s", bound)
	case *excl == nil:
		*excl, *incl = *incl, nil
	}
}

// numberMember returns the member of n that holds the number of the bound
// key and its value: key's own, or for OpenAPI 3.0's boolean
// exclusiveMinimum (exclusiveMaximum) the minimum (maximum) it makes
// exclusive.
func numberMember(n *jsontree.Node, key string) (string, *jsontree.Node) {
	v := n.Get(key)
	if v != nil && v.Kind == jsontree.Bool {
		key = strings.ToLower(key[len("exclusive"):len("exclusive")+1]) + key[len("exclusive")+1:]
		v = n.Get(key)
	}
	return key, v
}

// keyOffset is the offset of the key of n's member key, or of n when it has
// none.
func keyOffset(n *jsontree.Node, key string) int64 {
	for _, m := range n.Members {
		if m.Key == key {
			return m.KeyOffset
		}
	}
	return n.Offset
}

// strValue reads the value being read as a string.
func (l *otLoader) strValue(v *jsontree.Node) string {
	if v.Kind != jsontree.String {
		l.gotWant(l.here(), v, "a string")
		return ""
	}
	return v.Str
}

// applies reports whether schema member m applies to type typ, one of types;
// when it does not, the member is ignored with a warning.
func (l *otLoader) applies(m jsontree.Member, typ string, types ...string) bool {
	if typ == "" || slices.Contains(types, typ) {
		return true
	}
	l.warnf(l.here(), m.KeyOffset, "ignored: got type %s, want type %s", typ, strings.Join(types, " or "))
	return false
}

// ref reads a reference "#/schemas/Name" into s.Ref.
func (l *otLoader) ref(v *jsontree.Node, s *runtime.Schema) {
	if v.Kind != jsontree.String {
		l.gotWant(l.here(), v, `a string "`+runtime.RefPrefix+`<name>"`)
		return
	}
	s.Ref = v.Str
	name, ok := runtime.RefName(v.Str)
	switch {
	case !ok:
		l.errorf(l.here(), v.Offset, `got %s, want "%s<name>"`, strconv.Quote(clipText(v.Str)), runtime.RefPrefix)
	case !l.hasSchema(name):
		l.errorf(l.here(), v.Offset, "got %s, want a reference to one of the document's schemas%s",
			strconv.Quote(clipText(v.Str)), l.schemaHint())
	}
}

func (l *otLoader) hasSchema(name string) bool {
	_, ok := l.schemaSet[name]
	return ok
}

// schemaHint lists the document's schema names for a message.
func (l *otLoader) schemaHint() string {
	if len(l.schemaNames) == 0 {
		return " (it has none)"
	}
	const max = 8
	var b strings.Builder
	b.WriteString(" (")
	for i, name := range l.schemaNames {
		if i == max {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(clipText(name)))
	}
	b.WriteString(")")
	return b.String()
}

// checkRefCycles reports chains of schemas that are references to each other
// and come back to where they started ("A": {"$ref": "#/schemas/A"}). A schema
// that refers to itself from inside (a property or items) is a recursive type,
// which is fine.
func (l *otLoader) checkRefCycles(schemas *jsontree.Node) {
	type aliasOf struct {
		to  string         // the name the schema's $ref points to
		ref *jsontree.Node // the $ref
	}
	alias := make(map[string]aliasOf)
	for _, m := range schemas.Members {
		if ref := m.Value.Get("$ref"); ref != nil && ref.Kind == jsontree.String {
			if to, ok := runtime.RefName(ref.Str); ok && l.hasSchema(to) {
				alias[m.Key] = aliasOf{to, ref}
			}
		}
	}
	const (
		unseen = iota
		onChain
		done
	)
	state := make(map[string]int, len(alias))
	for _, m := range schemas.Members {
		var chain []string
		cur := m.Key
		for {
			if _, ok := alias[cur]; !ok || state[cur] != unseen {
				break
			}
			state[cur] = onChain
			chain = append(chain, cur)
			cur = alias[cur].to
		}
		if state[cur] == onChain {
			i := slices.Index(chain, cur)
			loop := append(slices.Clone(chain[i:]), cur)
			for j, name := range loop {
				loop[j] = strconv.Quote(clipText(name))
			}
			l.errorf(l.here()+jsontree.Pointer(cur, "$ref"), alias[cur].ref.Offset,
				"the references form a cycle: %s; want a chain that ends at a schema with a type", strings.Join(loop, " -> "))
		}
		for _, name := range chain {
			state[name] = done
		}
	}
}

// requiredNames reads a schema's "required": names of its properties props.
func (l *otLoader) requiredNames(v *jsontree.Node, props *jsontree.Node) []string {
	if v.Kind != jsontree.Array {
		l.gotWant(l.here(), v, "an array of property names")
		return nil
	}
	var names []string
	listed := make(map[string]bool, len(v.Items)) // property name -> listed already
	if props != nil && props.Kind == jsontree.Object {
		for _, m := range props.Members {
			listed[m.Key] = false
		}
	}
	for i, it := range v.Items {
		if it.Kind != jsontree.String {
			l.gotWant(l.here()+"/"+strconv.Itoa(i), it, "a property name (a string)")
			continue
		}
		switch seen, isProp := listed[it.Str]; {
		case !isProp:
			l.errorf(l.here()+"/"+strconv.Itoa(i), it.Offset, "got %s, want the name of a property of this schema", strconv.Quote(clipText(it.Str)))
		case seen:
			l.warnf(l.here()+"/"+strconv.Itoa(i), it.Offset, "%s is already listed; ignored", strconv.Quote(clipText(it.Str)))
		default:
			listed[it.Str] = true
			names = append(names, it.Str)
		}
	}
	return names
}

// enum reads a schema's "enum": distinct values of the schema's type.
func (l *otLoader) enum(v *jsontree.Node, typ string, nullable bool) []any {
	switch {
	case v.Kind != jsontree.Array:
		l.gotWant(l.here(), v, "an array of values")
		return nil
	case len(v.Items) == 0:
		l.errorf(l.here(), v.Offset, "got an empty array, want at least one value")
		return nil
	case typ == runtime.TypeArray || typ == runtime.TypeObject:
		l.errorf(l.here(), v.Offset, "got an enum with type %s, want type boolean, integer, number or string", typ)
		return nil
	}
	type enumKey struct { // a value, compared by what it means
		kind jsontree.Kind
		s    string // string; number digits (or literal if not exact)
		exp  int64  // number exponent
		b    bool
	}
	values := make([]any, 0, len(v.Items))
	first := make(map[enumKey]int, len(v.Items)) // value -> index
	for i, it := range v.Items {
		n := l.enterIndex(i)
		if ok := l.enumValue(it, typ, nullable); ok {
			var val any
			key := enumKey{kind: it.Kind}
			switch it.Kind {
			case jsontree.Bool:
				val, key.b = it.Bool, it.Bool
			case jsontree.Number:
				val, key.s = json.Number(it.Str), it.Str
				if d, e, exact := jsontree.Decimal(it.Str); exact {
					key.s, key.exp = d, e // 1, 1.0 and 10e-1 are the same
				}
			case jsontree.String:
				val, key.s = it.Str, it.Str
			}
			if j, dup := first[key]; dup {
				l.errorf(l.here(), it.Offset, "got %s again, want distinct values (the same as %s)", describeJSONValue(it), l.firstAt(n, j))
			} else {
				first[key] = i
				values = append(values, val)
			}
		}
		l.leave(n)
	}
	return values
}

// enumValue reports whether v can be a value of an enum of type typ.
func (l *otLoader) enumValue(v *jsontree.Node, typ string, nullable bool) bool {
	if v.Kind == jsontree.Array || v.Kind == jsontree.Object {
		l.gotWant(l.here(), v, "a boolean, number or string")
		return false
	}
	return l.valueOfType(v, typ, nullable)
}

// valueOfType reports whether v is a value of schema type typ (any value when
// typ is ""); null only when nullable. If not, it reports an error.
func (l *otLoader) valueOfType(v *jsontree.Node, typ string, nullable bool) bool {
	var ok bool
	want := "a value of type " + typ
	switch {
	case v.Kind == jsontree.Null:
		ok = nullable
		want = want + ` (null only with "nullable": true)`
	case typ == "":
		ok = true
	case typ == runtime.TypeInteger:
		want = "an integer"
		if v.Kind == jsontree.Number {
			_, exp, exact := jsontree.Decimal(v.Str)
			ok = exact && exp >= 0
		}
	case typ == runtime.TypeNumber:
		ok, want = v.Kind == jsontree.Number, "a number"
	case typ == runtime.TypeString:
		ok, want = v.Kind == jsontree.String, "a string"
	case typ == runtime.TypeBoolean:
		ok, want = v.Kind == jsontree.Bool, "a boolean"
	case typ == runtime.TypeArray:
		ok, want = v.Kind == jsontree.Array, "an array"
	case typ == runtime.TypeObject:
		ok, want = v.Kind == jsontree.Object, "an object"
	}
	if !ok {
		l.gotWant(l.here(), v, want)
	}
	return ok
}

// float reads a number member as a float64.
func (l *otLoader) float(v *jsontree.Node) (float64, bool) {
	if v.Kind != jsontree.Number {
		l.gotWant(l.here(), v, "a number")
		return 0, false
	}
	f, err := strconv.ParseFloat(v.Str, 64)
	if err != nil {
		l.gotWant(l.here(), v, "a number in the range of a float64")
		return 0, false
	}
	return f, true
}

// count reads a non-negative integer member.
func (l *otLoader) count(v *jsontree.Node) *int64 {
	if v.Kind == jsontree.Number {
		if d, exp, ok := jsontree.Decimal(v.Str); ok && exp >= 0 && exp < 19 && !strings.HasPrefix(d, "-") {
			if n, err := strconv.ParseInt(d+strings.Repeat("0", int(exp)), 10, 64); err == nil {
				return &n
			}
		}
	}
	l.gotWant(l.here(), v, "a non-negative integer")
	return nil
}

// appendCanonicalJSON appends v as compact JSON the way encoding/json writes
// it (strings re-encoded, so that the result survives a round trip through
// json.Marshal unchanged).
func appendCanonicalJSON(b []byte, v *jsontree.Node) []byte {
	switch v.Kind {
	case jsontree.Null:
		return append(b, "null"...)
	case jsontree.Bool:
		return strconv.AppendBool(b, v.Bool)
	case jsontree.Number:
		return append(b, v.Str...)
	case jsontree.String:
		s, _ := json.Marshal(v.Str)
		return append(b, s...)
	case jsontree.Array:
		b = append(b, '[')
		for i, it := range v.Items {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonicalJSON(b, it)
		}
		return append(b, ']')
	default:
		b = append(b, '{')
		for i, m := range v.Members {
			if i > 0 {
				b = append(b, ',')
			}
			k, _ := json.Marshal(m.Key)
			b = append(append(b, k...), ':')
			b = appendCanonicalJSON(b, m.Value)
		}
		return append(b, '}')
	}
}

// maxStoredPath bounds the JSON pointers a [Problem] keeps: a longer one, which
// only a document nested thousands of levels deep has, is kept abbreviated as
// messages show it, so that a problem at every level of such a document does
// not take memory growing with the square of its depth.
const maxStoredPath = 16 << 10

// storedPath is p as a Problem keeps it.
func storedPath(p string) string {
	if len(p) > maxStoredPath {
		return jsontree.ShortPointer(p)
	}
	return p
}
