package mcpschema

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// The JSON Schemas of tools/list (any draft, as the server wrote them) become
// document.Schema as far as the OpenTool model carries them: type (["T",
// "null"] and nullable too), description, enum and const, items, properties,
// required, format, default, bounds, pattern, additionalProperties, anyOf and
// oneOf. What it cannot carry is dropped, which loosens the schema but never
// rejects it: a keyword the model has no member for (exclusiveMinimum, not,
// if/then, patternProperties, …), a tuple "items", a boolean
// additionalProperties, an allOf of several schemas, an unknown type or a
// reference that is not local all leave a schema without that constraint (at
// worst one without type: any value). The MCP server validates the arguments
// itself. When strict, each is a warning, and what is not a schema at all an
// error.

// rootSchema is one JSON Schema of a tool (its input or output schema), within
// which its local references resolve.
type rootSchema struct {
	c     *converter
	root  *jsontree.Node
	name  string                                       // the name of "#" when referenced
	base  string                                       // the JSON pointer of root in the input
	names map[string]string                            // JSON pointer → schema name
	keys  map[string]string                            // JSON pointer → closure key (see closureKeys)
	found map[string]*jsontree.Node                    // JSON pointer → the value (see find)
	index map[*jsontree.Node]map[string]*jsontree.Node // the members of large objects, by key
	// path is the JSON pointer, in the input, of the value being converted.
	path []byte
}

func (r *rootSchema) raw(n *jsontree.Node) json.RawMessage { return jsontree.AppendJSON(nil, n) }

func (r *rootSchema) here() string { return string(r.path) }

// enter appends tok to the path; leave(enter(tok)) undoes it.
func (r *rootSchema) enter(tok string) int {
	n := len(r.path)
	r.path = jsontree.AppendToken(r.path, tok)
	return n
}

func (r *rootSchema) leave(n int) { r.path = r.path[:n] }

// isLocal reports whether ref is a JSON pointer into the schema: "#" or "#/…".
func isLocal(ref string) bool { return ref == "#" || strings.HasPrefix(ref, "#/") }

// resolve returns the node a local reference points to, and the pointer.
func (r *rootSchema) resolve(ref string) (*jsontree.Node, string) {
	if !strings.HasPrefix(ref, "#") {
		return nil, ""
	}
	ptr, err := url.PathUnescape(ref[1:])
	if err != nil {
		return nil, ""
	}
	return r.find(ptr), ptr
}

// find resolves the JSON pointer ptr in the tool's schema as
// jsontree.Node.Find does, but with the members of large objects indexed: a
// schema with thousands of definitions resolves its references in linear
// time.
func (r *rootSchema) find(ptr string) *jsontree.Node {
	if n, ok := r.found[ptr]; ok {
		return n
	}
	n := r.root
	switch {
	case ptr == "":
	case ptr[0] != '/':
		n = nil
	default:
		for _, tok := range strings.Split(ptr[1:], "/") {
			if n == nil {
				break
			}
			if n.Kind != jsontree.Object || len(n.Members) <= 8 || strings.Contains(tok, "~") {
				n = n.Find("/" + tok) // escaped tokens are rare: unescaped as jsontree does
				continue
			}
			idx, ok := r.index[n]
			if !ok {
				idx = make(map[string]*jsontree.Node, len(n.Members))
				for _, m := range n.Members {
					idx[m.Key] = m.Value
				}
				if r.index == nil {
					r.index = map[*jsontree.Node]map[string]*jsontree.Node{}
				}
				r.index[n] = idx
			}
			n = idx[tok]
		}
	}
	if r.found == nil {
		r.found = map[string]*jsontree.Node{}
	}
	r.found[ptr] = n
	return n
}

// target returns the root, or what a "$ref" of the root refers to, and its
// path.
func (r *rootSchema) target() (*jsontree.Node, string) {
	if ref := r.root.Get("$ref"); ref != nil && ref.Kind == jsontree.String {
		if t, ptr := r.resolve(ref.Str); t != nil {
			return t, r.base + ptr
		}
	}
	return r.root, r.base
}

// ref converts the local reference ref into a reference to the document's
// schemas, converting its target the first time; false when ref does not
// resolve.
func (r *rootSchema) ref(ref string, depth int) (*document.Schema, bool) {
	target, ptr := r.resolve(ref)
	if target == nil {
		return nil, false
	}
	c := r.c
	name, ok := r.names[ptr]
	if !ok {
		key := r.closureKey(ptr)
		if name, ok = c.byKey[key]; ok {
			r.names[ptr] = name
		} else {
			name = c.unique(r.baseName(ptr, target))
			c.byKey[key] = name
			r.names[ptr] = name
			i := len(c.schemas)
			c.schemas = append(c.schemas, document.NamedSchema{Name: name, Schema: &document.Schema{}})
			c.byName[name] = i
			saved := r.path
			r.path = []byte(r.base + ptr)
			s := r.convert(target, depth+1)
			r.path = saved
			if s.Ref == "" {
				s.Description = strings.TrimSpace(s.Description)
			}
			c.schemas[i].Schema = s
			if c.strict && s.Ref != "" && c.aliasCycle(name) {
				c.errorf(r.base+ptr, target.Offset, "the references form a cycle that never reaches a schema; want a chain of references that ends at a schema with a type")
				c.schemas[i].Schema = &document.Schema{}
			}
		}
	}
	return &document.Schema{Ref: document.RefPrefix + escapeName(name)}, true
}

// aliasCycle reports whether the named schema name is a reference that,
// through other references only, refers to itself again.
func (c *converter) aliasCycle(name string) bool {
	seen := map[string]bool{}
	for cur := name; !seen[cur]; {
		seen[cur] = true
		i, ok := c.byName[cur]
		if !ok || c.schemas[i].Schema.Ref == "" {
			return false
		}
		next, ok := document.RefName(c.schemas[i].Schema.Ref)
		if !ok {
			return false
		}
		if next == name {
			return true
		}
		cur = next
	}
	return false
}

// baseName is the name of the definition at ptr: its last token ("X" of
// "/$defs/X"), for "#" itself its title or the tool's name.
func (r *rootSchema) baseName(ptr string, target *jsontree.Node) string {
	if i := strings.LastIndexByte(ptr, '/'); i >= 0 {
		tok := strings.ReplaceAll(strings.ReplaceAll(ptr[i+1:], "~1", "/"), "~0", "~")
		return strings.ReplaceAll(tok, "/", "_")
	}
	if t := target.Get("title"); t != nil && t.Kind == jsontree.String && t.Str != "" {
		return t.Str
	}
	return r.name
}

// closureKey identifies the definition at ptr by its pointer, its JSON and
// the JSON (and pointers) of the definitions it refers to, transitively: two
// tools whose definitions have equal keys share one schema.
func (r *rootSchema) closureKey(ptr string) string {
	if r.keys == nil {
		r.keys = map[string]string{}
	}
	if k, ok := r.keys[ptr]; ok {
		return k
	}
	r.closureKeys(ptr)
	return r.keys[ptr]
}

// closureKeys computes the keys of ptr and of every definition it reaches.
// The definitions that refer to each other form strongly connected components
// (Tarjan's algorithm); the hash of a component covers the pointers and JSON
// of its definitions and the hashes of the components they refer to, so that
// it stands for everything reachable, in time linear in the references and
// the JSON. A key is the definition's pointer and its component's hash.
func (r *rootSchema) closureKeys(start string) {
	index := map[string]int{}
	low := map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var visit func(p string)
	visit = func(p string) {
		index[p] = len(index) + 1
		low[p] = index[p]
		stack = append(stack, p)
		onStack[p] = true
		for _, q := range r.refsOf(p) {
			switch _, done := r.keys[q]; {
			case done:
			case index[q] == 0:
				visit(q)
				low[p] = min(low[p], low[q])
			case onStack[q]:
				low[p] = min(low[p], index[q])
			}
		}
		if low[p] != index[p] {
			return
		}
		var members []string
		in := map[string]bool{}
		for {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[top] = false
			members = append(members, top)
			in[top] = true
			if top == p {
				break
			}
		}
		slices.Sort(members)
		var outside []string
		h := sha256.New()
		var buf []byte
		for _, m := range members {
			buf = strconv.AppendQuote(buf[:0], m)
			buf = append(buf, ':')
			buf = jsontree.AppendJSON(buf, r.find(m))
			buf = append(buf, '\n')
			h.Write(buf)
			for _, q := range r.refsOf(m) {
				if !in[q] {
					outside = append(outside, r.keys[q][len(r.keys[q])-2*sha256.Size:])
				}
			}
		}
		slices.Sort(outside)
		for _, k := range slices.Compact(outside) {
			h.Write([]byte(k))
		}
		sum := hex.EncodeToString(h.Sum(nil))
		for _, m := range members {
			r.keys[m] = strconv.Quote(m) + sum
		}
	}
	visit(start)
}

// refsOf returns the pointers of the local references that resolve, inside
// the value at ptr.
func (r *rootSchema) refsOf(ptr string) []string {
	var out []string
	walkRefs(r.find(ptr), func(ref string) {
		if t, p := r.resolve(ref); t != nil {
			out = append(out, p)
		}
	})
	return out
}

func walkRefs(n *jsontree.Node, f func(string)) {
	if n == nil {
		return
	}
	for _, m := range n.Members {
		if m.Key == "$ref" && m.Value.Kind == jsontree.String {
			f(m.Value.Str)
		} else {
			walkRefs(m.Value, f)
		}
	}
	for _, it := range n.Items {
		walkRefs(it, f)
	}
}

// escapeName escapes a schema name for a reference (document.RefName undoes it).
func escapeName(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}

// MaxDepth bounds the nesting of converted schemas; deeper ones allow any value.
const MaxDepth = 200

var jsonTypes = map[string]bool{
	document.TypeBoolean: true, document.TypeInteger: true, document.TypeNumber: true,
	document.TypeString: true, document.TypeArray: true, document.TypeObject: true,
}

// convert converts the JSON Schema n, at r.path (a boolean schema, or a
// schema the model cannot carry, is {}: any value).
func (r *rootSchema) convert(n *jsontree.Node, depth int) *document.Schema {
	if r.c.strict {
		r.check(n, depth)
	}
	s := r.convertSchema(n, depth)
	if r.c.strict {
		r.origin(s, n)
	}
	return s
}

// origin records that s comes from n, at r.path, unless s has an origin
// already (the alternative that an anyOf of one schema and null is).
func (r *rootSchema) origin(s *document.Schema, n *jsontree.Node) {
	if _, ok := r.c.origins[s]; ok {
		return
	}
	o := origin{node: n}
	o.Path = r.here()
	if n != nil {
		o.Offset = n.Offset
	}
	r.c.origins[s] = o
}

func (r *rootSchema) convertSchema(n *jsontree.Node, depth int) *document.Schema {
	if n == nil || n.Kind != jsontree.Object || depth > MaxDepth {
		return &document.Schema{}
	}
	desc := str(n.Get("description"))
	if ref := n.Get("$ref"); ref != nil && ref.Kind == jsontree.String {
		k := r.enter("$ref")
		s, ok := r.ref(ref.Str, depth)
		r.leave(k)
		if !ok {
			s = &document.Schema{}
		}
		s.Description = desc
		return s
	}
	types, null, known := schemaTypes(n)
	var s *document.Schema
	switch {
	case !known:
		s = &document.Schema{}
	case len(types) == 1:
		s = r.typed(n, types[0], depth)
	case len(types) > 1:
		s = &document.Schema{}
		for _, t := range types {
			v := r.typed(n, t, depth)
			if r.c.strict {
				r.origin(v, n)
			}
			s.AnyOf = append(s.AnyOf, v)
		}
	default:
		s = r.untyped(n, &null, depth)
	}
	if s.Ref != "" {
		// A reference carries nothing but a description: the nullability
		// of {"anyOf": [{"$ref": …}, {"type": "null"}]} is dropped.
		if desc != "" {
			s.Description = desc
		}
		return s
	}
	if desc != "" {
		s.Description = desc
	}
	if null || isTrue(n.Get("nullable")) {
		s.Nullable = true
	}
	if d := n.Get("default"); d != nil {
		s.Default = r.raw(d)
	}
	return s
}

// untyped converts a schema without "type": alternatives (anyOf, oneOf, a
// single allOf), a const or enum, or a type implied by properties or items.
// null is set when an alternative is {"type": "null"}.
func (r *rootSchema) untyped(n *jsontree.Node, null *bool, depth int) *document.Schema {
	for _, kw := range []string{"anyOf", "oneOf"} {
		alts := n.Get(kw)
		if alts == nil || alts.Kind != jsontree.Array || len(alts.Items) == 0 {
			continue
		}
		var list []*document.Schema
		k := r.enter(kw)
		for i, a := range alts.Items {
			if isNullSchema(a) {
				*null = true
				continue
			}
			ik := r.enter(strconv.Itoa(i))
			list = append(list, r.convert(a, depth+1))
			r.leave(ik)
		}
		r.leave(k)
		switch {
		case len(list) == 0:
			return &document.Schema{}
		case len(list) == 1:
			return list[0]
		case kw == "anyOf":
			return &document.Schema{AnyOf: list}
		default:
			return &document.Schema{OneOf: list}
		}
	}
	if all := n.Get("allOf"); all != nil && all.Kind == jsontree.Array && len(all.Items) == 1 {
		k := r.enter("allOf")
		ik := r.enter("0")
		s := r.convert(all.Items[0], depth+1)
		r.leave(ik)
		r.leave(k)
		return s
	}
	if n.Get("properties") != nil {
		return r.typed(n, document.TypeObject, depth)
	}
	if n.Get("items") != nil {
		return r.typed(n, document.TypeArray, depth)
	}
	s := &document.Schema{}
	s.Enum = r.enum(n)
	return s
}

// typed converts n for one of its types.
func (r *rootSchema) typed(n *jsontree.Node, typ string, depth int) *document.Schema {
	s := &document.Schema{Type: typ, Format: str(n.Get("format")), Enum: r.enum(n)}
	switch typ {
	case document.TypeString:
		s.MinLength = integer(n.Get("minLength"))
		s.MaxLength = integer(n.Get("maxLength"))
		s.Pattern = str(n.Get("pattern"))
	case document.TypeInteger, document.TypeNumber:
		s.Minimum = number(n.Get("minimum"))
		s.Maximum = number(n.Get("maximum"))
		s.ExclusiveMinimum = exclusive(n.Get("exclusiveMinimum"), &s.Minimum)
		s.ExclusiveMaximum = exclusive(n.Get("exclusiveMaximum"), &s.Maximum)
		if m := number(n.Get("multipleOf")); m != nil && *m > 0 {
			s.MultipleOf = m
		}
	case document.TypeArray:
		if it := n.Get("items"); it != nil && it.Kind == jsontree.Object {
			k := r.enter("items")
			s.Items = r.convert(it, depth+1)
			r.leave(k)
		}
		s.MinItems = integer(n.Get("minItems"))
		s.MaxItems = integer(n.Get("maxItems"))
		s.UniqueItems = isTrue(n.Get("uniqueItems"))
	case document.TypeObject:
		if props := n.Get("properties"); props != nil && props.Kind == jsontree.Object {
			k := r.enter("properties")
			for _, m := range props.Members {
				pk := r.enter(m.Key)
				s.Properties = append(s.Properties, document.NamedSchema{Name: m.Key, Schema: r.convert(m.Value, depth+1)})
				r.leave(pk)
			}
			r.leave(k)
		}
		s.Required = strs(n.Get("required"))
		s.MinProperties = integer(n.Get("minProperties"))
		s.MaxProperties = integer(n.Get("maxProperties"))
		if ap := n.Get("additionalProperties"); ap != nil && ap.Kind == jsontree.Object {
			k := r.enter("additionalProperties")
			s.AdditionalProperties = r.convert(ap, depth+1)
			r.leave(k)
		}
	}
	return s
}

// enum returns the values of "enum", or of "const" as a one-value enum.
func (r *rootSchema) enum(n *jsontree.Node) []any {
	var vals []*jsontree.Node
	if e := n.Get("enum"); e != nil && e.Kind == jsontree.Array {
		vals = e.Items
	} else if c := n.Get("const"); c != nil {
		vals = []*jsontree.Node{c}
	}
	var out []any
	for _, v := range vals {
		dec := json.NewDecoder(bytes.NewReader(r.raw(v)))
		dec.UseNumber()
		var x any
		if dec.Decode(&x) == nil {
			out = append(out, x)
		}
	}
	return out
}

// schemaTypes returns the types of n other than "null", whether "null" is one
// of them, and false when a type is not one the model knows.
func schemaTypes(n *jsontree.Node) (types []string, null, known bool) {
	t := n.Get("type")
	if t == nil {
		return nil, false, true
	}
	var list []*jsontree.Node
	switch t.Kind {
	case jsontree.String:
		list = []*jsontree.Node{t}
	case jsontree.Array:
		list = t.Items
	default:
		return nil, false, false
	}
	for _, x := range list {
		switch {
		case x.Kind != jsontree.String:
			return nil, false, false
		case x.Str == "null":
			null = true
		case jsonTypes[x.Str]:
			if !slices.Contains(types, x.Str) {
				types = append(types, x.Str)
			}
		default:
			return nil, false, false
		}
	}
	if len(types) == 0 && null {
		return nil, true, false // only null: any value
	}
	return types, null, true
}

func isNullSchema(n *jsontree.Node) bool {
	if n == nil || n.Kind != jsontree.Object {
		return false
	}
	t := n.Get("type")
	return t != nil && t.Kind == jsontree.String && t.Str == "null"
}

func str(n *jsontree.Node) string {
	if n == nil || n.Kind != jsontree.String {
		return ""
	}
	return n.Str
}

func strs(n *jsontree.Node) []string {
	if n == nil || n.Kind != jsontree.Array {
		return nil
	}
	var out []string
	for _, it := range n.Items {
		if it.Kind == jsontree.String {
			out = append(out, it.Str)
		}
	}
	return out
}

func isTrue(n *jsontree.Node) bool { return n != nil && n.Kind == jsontree.Bool && n.Bool }

func number(n *jsontree.Node) *float64 {
	if n == nil || n.Kind != jsontree.Number {
		return nil
	}
	f, err := strconv.ParseFloat(n.Str, 64)
	if err != nil {
		return nil
	}
	return &f
}

// exclusive reads an exclusive bound: JSON Schema's number, or OpenAPI
// 3.0's true, which makes the inclusive bound *incl the exclusive one.
func exclusive(n *jsontree.Node, incl **float64) *float64 {
	if isTrue(n) {
		v := *incl
		*incl = nil
		return v
	}
	return number(n)
}

func integer(n *jsontree.Node) *int64 {
	f := number(n)
	if f == nil || *f < 0 || *f != float64(int64(*f)) {
		return nil
	}
	i := int64(*f)
	return &i
}

// parameters returns the properties of the input schema as parameters:
// those in "required" first, in its order, then the others in the order of
// the schema (the SDK's client reads the schema into a map, so that order is
// the names' order at run time). A property's description is its parameter's.
func (r *rootSchema) parameters() []document.Parameter {
	params := []document.Parameter{}
	if r == nil {
		return params
	}
	n, np := r.target()
	props := n.Get("properties")
	if props == nil || props.Kind != jsontree.Object {
		return params
	}
	index := make(map[string]int, len(props.Members))
	for i, m := range props.Members {
		index[m.Key] = i
	}
	required := map[string]bool{}
	ordered := make([]jsontree.Member, 0, len(props.Members))
	if req := n.Get("required"); req != nil && req.Kind == jsontree.Array {
		for i, it := range req.Items {
			if it.Kind != jsontree.String || required[it.Str] {
				continue
			}
			j, ok := index[it.Str]
			if !ok {
				r.c.warnf(np+"/required/"+strconv.Itoa(i), it.Offset, "got %s, want the name of a property: ignored", quote(it.Str))
				continue
			}
			required[it.Str] = true
			ordered = append(ordered, props.Members[j])
		}
	}
	for _, m := range props.Members {
		if !required[m.Key] {
			ordered = append(ordered, m)
		}
	}
	r.path = append(r.path[:0], np...)
	k := r.enter("properties")
	for _, m := range ordered {
		pk := r.enter(m.Key)
		s := r.convert(m.Value, 1)
		r.leave(pk)
		p := document.Parameter{Name: m.Key, Description: s.Description, Schema: s, Required: required[m.Key]}
		s.Description = ""
		params = append(params, p)
	}
	r.leave(k)
	return params
}
