package mcpbridge

import (
	"bytes"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// Schemas of an MCP server's tools as an OpenTool document: the JSON Schemas of
// tools/list (any draft, as the server wrote them) become runtime.Schema as far
// as the OpenTool model carries them. What it cannot carry is dropped, which
// loosens the schema but never rejects it: a keyword the model has no member
// for (exclusiveMinimum, not, if/then, patternProperties, …), a tuple "items",
// a boolean additionalProperties, an allOf of several schemas, an unknown type
// or a reference that is not local all leave a schema without that constraint
// (at worst one without type: any value). The MCP server validates the
// arguments itself.

// importer converts the schemas of one document. Local references ("#/$defs/X",
// "#/definitions/X", any "#/pointer", "#" itself) become entries of the
// document's schemas; two tools referring to the same definition (the same
// JSON, referring to the same JSON in turn) share one entry, and definitions
// of the same name that differ get distinct names (X, X2, …).
type importer struct {
	schemas runtime.Schemas
	byKey   map[string]string // closure of a definition → its schema name
	taken   map[string]bool
}

func newImporter() *importer {
	return &importer{byKey: map[string]string{}, taken: map[string]bool{}}
}

func (imp *importer) unique(base string) string {
	if base == "" {
		base = "Schema"
	}
	name := base
	for i := 2; imp.taken[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	imp.taken[name] = true
	return name
}

// rootSchema is one JSON Schema of a tool (its input or output schema), within
// which its local references resolve.
type rootSchema struct {
	imp   *importer
	root  *jsontree.Node
	name  string            // the name of "#" when referenced
	names map[string]string // JSON pointer → schema name
}

// parseSchema parses the JSON of a tool's schema; nil when it is not an
// object (a tool's schema always is).
func (imp *importer) parseSchema(v any, name string) *rootSchema {
	if v == nil {
		return nil
	}
	data, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if data, err = json.Marshal(v); err != nil {
			return nil
		}
	}
	root, err := jsontree.Parse(data)
	if err != nil || root.Kind != jsontree.Object {
		return nil
	}
	return &rootSchema{imp: imp, root: root, name: name, names: map[string]string{}}
}

func (r *rootSchema) raw(n *jsontree.Node) json.RawMessage { return jsontree.AppendJSON(nil, n) }

// resolve returns the node a local reference points to, and the pointer.
func (r *rootSchema) resolve(ref string) (*jsontree.Node, string) {
	if !strings.HasPrefix(ref, "#") {
		return nil, ""
	}
	ptr, err := url.PathUnescape(ref[1:])
	if err != nil {
		return nil, ""
	}
	return r.root.Find(ptr), ptr
}

// ref converts the local reference ref into a reference to the document's
// schemas, converting its target the first time; false when ref does not
// resolve.
func (r *rootSchema) ref(ref string, depth int) (*runtime.Schema, bool) {
	target, ptr := r.resolve(ref)
	if target == nil {
		return nil, false
	}
	name, ok := r.names[ptr]
	if !ok {
		key := r.closureKey(ptr)
		if name, ok = r.imp.byKey[key]; ok {
			r.names[ptr] = name
		} else {
			name = r.imp.unique(r.baseName(ptr, target))
			r.imp.byKey[key] = name
			r.names[ptr] = name
			i := len(r.imp.schemas)
			r.imp.schemas = append(r.imp.schemas, runtime.NamedSchema{Name: name, Schema: &runtime.Schema{}})
			s := r.convert(target, depth+1)
			if s.Ref == "" {
				s.Description = strings.TrimSpace(s.Description)
			}
			r.imp.schemas[i].Schema = s
		}
	}
	return &runtime.Schema{Ref: runtime.RefPrefix + escapeName(name)}, true
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

// closureKey identifies the definition at ptr by its JSON and the JSON of the
// definitions it refers to, transitively.
func (r *rootSchema) closureKey(ptr string) string {
	seen := map[string]bool{ptr: true}
	queue := []string{ptr}
	for len(queue) > 0 {
		n := r.root.Find(queue[0])
		queue = queue[1:]
		walkRefs(n, func(ref string) {
			if t, p := r.resolve(ref); t != nil && !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		})
	}
	ptrs := make([]string, 0, len(seen))
	for p := range seen {
		ptrs = append(ptrs, p)
	}
	slices.Sort(ptrs)
	var b strings.Builder
	for _, p := range ptrs {
		b.WriteString(strconv.Quote(p))
		b.WriteByte(':')
		b.Write(r.raw(r.root.Find(p)))
		b.WriteByte('\n')
	}
	return b.String()
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

// escapeName escapes a schema name for a reference (RefName undoes it).
func escapeName(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}

// maxDepth bounds the nesting of converted schemas; deeper ones allow any value.
const maxDepth = 200

var jsonTypes = map[string]bool{
	runtime.TypeBoolean: true, runtime.TypeInteger: true, runtime.TypeNumber: true,
	runtime.TypeString: true, runtime.TypeArray: true, runtime.TypeObject: true,
}

// convert converts the JSON Schema n (a boolean schema, or a schema the model
// cannot carry, is {}: any value).
func (r *rootSchema) convert(n *jsontree.Node, depth int) *runtime.Schema {
	if n == nil || n.Kind != jsontree.Object || depth > maxDepth {
		return &runtime.Schema{}
	}
	desc := str(n.Get("description"))
	if ref := n.Get("$ref"); ref != nil && ref.Kind == jsontree.String {
		s, ok := r.ref(ref.Str, depth)
		if !ok {
			s = &runtime.Schema{}
		}
		s.Description = desc
		return s
	}
	types, null, known := schemaTypes(n)
	var s *runtime.Schema
	switch {
	case !known:
		s = &runtime.Schema{}
	case len(types) == 1:
		s = r.typed(n, types[0], depth)
	case len(types) > 1:
		s = &runtime.Schema{}
		for _, t := range types {
			s.AnyOf = append(s.AnyOf, r.typed(n, t, depth))
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
func (r *rootSchema) untyped(n *jsontree.Node, null *bool, depth int) *runtime.Schema {
	for _, kw := range []string{"anyOf", "oneOf"} {
		alts := n.Get(kw)
		if alts == nil || alts.Kind != jsontree.Array || len(alts.Items) == 0 {
			continue
		}
		var list []*runtime.Schema
		for _, a := range alts.Items {
			if isNullSchema(a) {
				*null = true
				continue
			}
			list = append(list, r.convert(a, depth+1))
		}
		switch {
		case len(list) == 0:
			return &runtime.Schema{}
		case len(list) == 1:
			return list[0]
		case kw == "anyOf":
			return &runtime.Schema{AnyOf: list}
		default:
			return &runtime.Schema{OneOf: list}
		}
	}
	if all := n.Get("allOf"); all != nil && all.Kind == jsontree.Array && len(all.Items) == 1 {
		return r.convert(all.Items[0], depth+1)
	}
	if n.Get("properties") != nil {
		return r.typed(n, runtime.TypeObject, depth)
	}
	if n.Get("items") != nil {
		return r.typed(n, runtime.TypeArray, depth)
	}
	s := &runtime.Schema{}
	s.Enum = r.enum(n)
	return s
}

// typed converts n for one of its types.
func (r *rootSchema) typed(n *jsontree.Node, typ string, depth int) *runtime.Schema {
	s := &runtime.Schema{Type: typ, Format: str(n.Get("format")), Enum: r.enum(n)}
	switch typ {
	case runtime.TypeString:
		s.MinLength = integer(n.Get("minLength"))
		s.MaxLength = integer(n.Get("maxLength"))
		s.Pattern = str(n.Get("pattern"))
	case runtime.TypeInteger, runtime.TypeNumber:
		s.Minimum = number(n.Get("minimum"))
		s.Maximum = number(n.Get("maximum"))
	case runtime.TypeArray:
		if it := n.Get("items"); it != nil && it.Kind == jsontree.Object {
			s.Items = r.convert(it, depth+1)
		}
		s.MinItems = integer(n.Get("minItems"))
		s.MaxItems = integer(n.Get("maxItems"))
	case runtime.TypeObject:
		if props := n.Get("properties"); props != nil && props.Kind == jsontree.Object {
			for _, m := range props.Members {
				s.Properties = append(s.Properties, runtime.NamedSchema{Name: m.Key, Schema: r.convert(m.Value, depth+1)})
			}
		}
		s.Required = strs(n.Get("required"))
		if ap := n.Get("additionalProperties"); ap != nil && ap.Kind == jsontree.Object {
			s.AdditionalProperties = r.convert(ap, depth+1)
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

func integer(n *jsontree.Node) *int64 {
	f := number(n)
	if f == nil || *f < 0 || *f != float64(int64(*f)) {
		return nil
	}
	i := int64(*f)
	return &i
}

// parameters returns the properties of the input schema s as parameters:
// those in "required" first, in its order, then the others in the order of
// the schema (the SDK's client reads the schema into a map, so that order is
// the names' order). A property's description is its parameter's.
func (r *rootSchema) parameters() []runtime.Parameter {
	params := []runtime.Parameter{}
	if r == nil {
		return params
	}
	n := r.root
	if ref := n.Get("$ref"); ref != nil && ref.Kind == jsontree.String {
		if t, _ := r.resolve(ref.Str); t != nil {
			n = t
		}
	}
	props := n.Get("properties")
	if props == nil || props.Kind != jsontree.Object {
		return params
	}
	required := strs(n.Get("required"))
	ordered := make([]jsontree.Member, 0, len(props.Members))
	for _, name := range required {
		if i := slices.IndexFunc(props.Members, func(m jsontree.Member) bool { return m.Key == name }); i >= 0 {
			ordered = append(ordered, props.Members[i])
		}
	}
	for _, m := range props.Members {
		if !slices.Contains(required, m.Key) {
			ordered = append(ordered, m)
		}
	}
	for _, m := range ordered {
		s := r.convert(m.Value, 1)
		p := runtime.Parameter{Name: m.Key, Description: s.Description, Schema: s, Required: slices.Contains(required, m.Key)}
		s.Description = ""
		params = append(params, p)
	}
	return params
}
