package document

// maxInlinedSchemas bounds the inlined document: inlining copies a schema once
// per reference to it, which can multiply a document's size. Past
// max(maxInlinedSchemas, inlineGrowth × the schemas of the document as
// written), Inline gives up (a server then answers GET /load with the
// references).
const (
	maxInlinedSchemas = 1 << 16
	inlineGrowth      = 4
)

// Inline returns a copy of doc in which every $ref that is not part of a
// cycle is replaced by the schema it refers to, and nil parameter lists are
// empty ones (the Dart reference requires the member). The description next to
// a $ref, when there is one, replaces the description of the schema inlined in
// its place. Subschemas without references are shared with doc, which is not
// modified. It returns false when the inlined document would be too large.
func Inline(doc *OpenTool) (*OpenTool, bool) {
	in := &inliner{schemas: make(map[string]*Schema, len(doc.Schemas)), active: map[string]bool{}}
	for _, ns := range doc.Schemas {
		if _, dup := in.schemas[ns.Name]; !dup { // the first, as Schemas.Get
			in.schemas[ns.Name] = ns.Schema
		}
	}
	in.left = max(maxInlinedSchemas, inlineGrowth*countSchemas(doc))

	out := *doc
	out.Functions = make([]Function, len(doc.Functions))
	for i, f := range doc.Functions {
		params := make([]Parameter, len(f.Parameters))
		for j, p := range f.Parameters {
			p.Schema = in.schema(p.Schema)
			params[j] = p
		}
		f.Parameters = params
		f.Return = in.ret(f.Return)
		if f.Stream != nil {
			stream := make(map[string]*Return, len(f.Stream))
			for k, r := range f.Stream {
				stream[k] = in.ret(r)
			}
			f.Stream = stream
		}
		out.Functions[i] = f
	}
	if doc.Schemas != nil {
		out.Schemas = make(Schemas, len(doc.Schemas))
		for i, ns := range doc.Schemas {
			// A schema's references to itself are cycles: they stay.
			in.active[ns.Name] = true
			out.Schemas[i] = NamedSchema{Name: ns.Name, Schema: in.schema(ns.Schema)}
			delete(in.active, ns.Name)
		}
	}
	return &out, in.left >= 0
}

type inliner struct {
	schemas map[string]*Schema
	active  map[string]bool // the schemas being inlined: a reference to one closes a cycle
	left    int             // how many more schemas the inlined document may have
}

func (in *inliner) ret(r *Return) *Return {
	if r == nil {
		return nil
	}
	c := *r
	c.Schema = in.schema(r.Schema)
	return &c
}

// schema returns s with its references inlined: s itself when it has none.
func (in *inliner) schema(s *Schema) *Schema {
	if s == nil || in.left < 0 {
		return s
	}
	in.left--
	if s.Ref != "" {
		name, ok := RefName(s.Ref)
		target := in.schemas[name]
		if !ok || target == nil || in.active[name] {
			return s // dangling (a document that was not checked) or closing a cycle
		}
		in.active[name] = true
		out := in.schema(target)
		delete(in.active, name)
		if s.Description != "" && out != nil && out.Description != s.Description {
			c := *out
			c.Description = s.Description
			out = &c
		}
		return out
	}
	var c *Schema // the copy, made at the first change
	edit := func() *Schema {
		if c == nil {
			cp := *s
			c = &cp
		}
		return c
	}
	if props, changed := in.list(s.Properties); changed {
		edit().Properties = props
	}
	if items := in.schema(s.Items); items != s.Items {
		edit().Items = items
	}
	if ap := in.schema(s.AdditionalProperties); ap != s.AdditionalProperties {
		edit().AdditionalProperties = ap
	}
	if alts, changed := in.alternatives(s.OneOf); changed {
		edit().OneOf = alts
	}
	if alts, changed := in.alternatives(s.AnyOf); changed {
		edit().AnyOf = alts
	}
	if c == nil {
		return s
	}
	return c
}

func (in *inliner) list(props Schemas) (Schemas, bool) {
	var out Schemas
	for i, p := range props {
		ps := in.schema(p.Schema)
		if ps != p.Schema && out == nil {
			out = append(make(Schemas, 0, len(props)), props[:i]...)
		}
		if out != nil {
			out = append(out, NamedSchema{Name: p.Name, Schema: ps})
		}
	}
	return out, out != nil
}

func (in *inliner) alternatives(alts []*Schema) ([]*Schema, bool) {
	var out []*Schema
	for i, a := range alts {
		as := in.schema(a)
		if as != a && out == nil {
			out = append(make([]*Schema, 0, len(alts)), alts[:i]...)
		}
		if out != nil {
			out = append(out, as)
		}
	}
	return out, out != nil
}

// countSchemas counts the schema objects of doc as written.
func countSchemas(doc *OpenTool) int {
	n := 0
	count := func(s *Schema) { s.Each(func(*Schema) bool { n++; return true }) }
	for i := range doc.Functions {
		doc.Functions[i].EachSchema(count)
	}
	for _, ns := range doc.Schemas {
		count(ns.Schema)
	}
	return n
}
