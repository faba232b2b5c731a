package declare

import (
	"encoding/json"
	"sort"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// Declaration is a function as a plain LLM function-calling declaration, the
// shape OpenAI-style chat APIs take under "tools": [{"type":"function",
// "function": …}]. Parameters is a JSON Schema object.
type Declaration struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Plain returns each function of doc as a provider-neutral LLM function
// declaration (for a provider's own shape, see [Functions]). The
// parameters become the properties of one object schema; references to the
// document's schemas become references into that schema's "$defs", so recursive
// schemas stay finite.
func Plain(doc *document.OpenTool) []Declaration {
	if doc == nil {
		return nil
	}
	out := make([]Declaration, 0, len(doc.Functions))
	for i := range doc.Functions {
		f := &doc.Functions[i]
		out = append(out, Declaration{Name: f.Name, Description: f.Description, Parameters: InputSchema(doc, f)})
	}
	return out
}

type declSchema struct {
	Type       string           `json:"type"`
	Properties document.Schemas `json:"properties"`
	Required   []string         `json:"required,omitempty"`
	Defs       document.Schemas `json:"$defs,omitempty"`
}

// InputSchema returns the JSON Schema of the arguments object of f, a function
// of doc: its parameters as the properties of one object schema whose
// references point into its "$defs" (the Parameters of [Plain]'s
// declarations).
func InputSchema(doc *document.OpenTool, f *document.Function) json.RawMessage {
	c := &declConverter{doc: doc, used: map[string]bool{}}
	props, required := c.parameters(f.Parameters)
	s := declSchema{Type: document.TypeObject, Properties: props, Required: required, Defs: c.defs()}
	b, err := json.Marshal(s)
	if err != nil { // cannot happen for a loaded document; keep the declaration usable
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return b
}

// parameters returns the schemas of params as properties of one object schema
// (references rewritten into $defs, the description of a parameter moved into
// its schema when that has none) and the names of the required ones.
func (c *declConverter) parameters(params []document.Parameter) (document.Schemas, []string) {
	props := document.Schemas{}
	var required []string
	for _, p := range params {
		ps := c.convertOrAny(p.Schema)
		if p.Description != "" && ps.Description == "" {
			ps.Description = p.Description // ps is a copy
		}
		props = append(props, document.NamedSchema{Name: p.Name, Schema: ps})
		if p.Required {
			required = append(required, p.Name)
		}
	}
	return props, required
}

// defs returns the $defs the converted schemas refer to: the document's schemas
// they reference, and what those reference in turn, in name order.
func (c *declConverter) defs() document.Schemas {
	var defs document.Schemas
	eachDef(c.doc, c.used, func(n string, def *document.Schema) {
		defs = append(defs, document.NamedSchema{Name: n, Schema: c.convertOrAny(def)})
	})
	sort.Slice(defs, func(i, j int) bool { return defs[i].Name < defs[j].Name })
	return defs
}

type declConverter struct {
	doc  *document.OpenTool
	used map[string]bool
}

// convert copies s with references rewritten from #/schemas/N to #/$defs/N.
func (c *declConverter) convert(s *document.Schema) *document.Schema {
	if s == nil {
		return nil
	}
	cp := *s
	if s.Ref != "" {
		if name, ok := document.RefName(s.Ref); ok {
			c.used[name] = true
			cp.Ref = jsontree.DefsRef(name)
		}
		return &cp
	}
	if len(s.Properties) > 0 {
		cp.Properties = make(document.Schemas, len(s.Properties))
		for i, p := range s.Properties {
			cp.Properties[i] = document.NamedSchema{Name: p.Name, Schema: c.convertOrAny(p.Schema)}
		}
	}
	cp.Items = c.convert(s.Items)
	cp.AdditionalProperties = c.convert(s.AdditionalProperties)
	cp.OneOf = c.convertAll(s.OneOf)
	cp.AnyOf = c.convertAll(s.AnyOf)
	return &cp
}

func (c *declConverter) convertAll(list []*document.Schema) []*document.Schema {
	if list == nil {
		return nil
	}
	out := make([]*document.Schema, len(list))
	for i, s := range list {
		out[i] = c.convertOrAny(s)
	}
	return out
}

// convertOrAny is convert, with a missing schema (JSON null, which is not a
// schema) as {}, which allows any value.
func (c *declConverter) convertOrAny(s *document.Schema) *document.Schema {
	if s == nil {
		return &document.Schema{}
	}
	return c.convert(s)
}

// ItemsKey is the member under which the items of a streaming function are
// collected into one result object, {"items": [item, …]}: what a
// runtime/functions.Tool answers for one, and MCP's tools/call (mcpbridge).
const ItemsKey = "items"

// OutputSchema returns the JSON Schema of the result object of f, a function of
// doc, as one object schema whose references point into its "$defs" (as in
// [Plain]): the object the OpenTool server answers on /call. An object
// return is the object itself, its top-level reference resolved so that the
// schema has "type": "object" at its root; a scalar or array return R named N
// is {"N": R}; no return is {}. For a streaming function it is the object that
// collects every item, {"items": [item, …]}, each item the result object of
// one event. This is MCP's outputSchema of the function's tool.
func OutputSchema(doc *document.OpenTool, f *document.Function) json.RawMessage {
	if doc == nil {
		doc = &document.OpenTool{}
	}
	c := &declConverter{doc: doc, used: map[string]bool{}}
	var s *document.Schema
	if f.IsStream() {
		s = &document.Schema{
			Type:       document.TypeObject,
			Properties: document.Schemas{{Name: ItemsKey, Schema: &document.Schema{Type: document.TypeArray, Items: c.resultSchema(f.StreamData())}}},
			Required:   []string{ItemsKey},
		}
	} else {
		s = c.resultSchema(f.Return)
	}
	b, err := json.Marshal(outputSchema{Schema: s, Defs: c.defs()})
	if err != nil { // cannot happen for a loaded document; keep the schema usable
		return json.RawMessage(`{"type":"object"}`)
	}
	return b
}

// outputSchema is a JSON Schema with the $defs its references point into.
type outputSchema struct {
	*document.Schema
	Defs document.Schemas `json:"$defs,omitempty"`
}

// resultSchema returns the schema of the result object of a function returning
// ret (nil: no return, the result is {}).
func (c *declConverter) resultSchema(ret *document.Return) *document.Schema {
	if ret == nil || ret.Schema == nil {
		return &document.Schema{Type: document.TypeObject}
	}
	if returnsObject(c.doc, ret.Schema, 0) {
		body, _ := c.doc.Resolve(ret.Schema)
		props, _ := c.parameters([]document.Parameter{{Name: "result", Schema: body, Description: ret.Description, Required: true}})
		s := props[0].Schema
		if s.Type == "" {
			s.Type = document.TypeObject
		}
		return s
	}
	props, _ := c.parameters([]document.Parameter{{Name: ret.Name, Schema: ret.Schema, Description: ret.Description, Required: true}})
	return &document.Schema{Type: document.TypeObject, Properties: props, Required: []string{ret.Name}}
}

// returnsObject reports whether values of s are JSON objects, as the generator
// decides it: a return whose schema resolves to an object travels as the result
// itself, any other return r as {r.Name: value}. Alternatives (oneOf, anyOf)
// that are all objects are an object too. depth counts the alternatives
// followed, so that alternatives referring back to themselves end.
func returnsObject(doc *document.OpenTool, s *document.Schema, depth int) bool {
	r, err := doc.Resolve(s)
	if err != nil || r == nil || depth > len(doc.Schemas) {
		return false
	}
	if r.Type == document.TypeObject {
		return true
	}
	alts := r.OneOf
	if len(alts) == 0 {
		alts = r.AnyOf
	}
	if r.Type != "" || len(alts) == 0 {
		return false
	}
	for _, a := range alts {
		if !returnsObject(doc, a, depth+1) {
			return false
		}
	}
	return true
}
