package runtime

import "encoding/json"

// ItemsKey is the member under which the items of a streaming function are
// collected into one result object, {"items": [item, …]}: what a
// [FunctionTool] answers for one, and MCP's tools/call (mcpbridge).
const ItemsKey = "items"

// OutputSchema returns the JSON Schema of the result object of f, a function of
// doc, as one object schema whose references point into its "$defs" (as in
// [Declarations]): the object the OpenTool server answers on /call. An object
// return is the object itself, its top-level reference resolved so that the
// schema has "type": "object" at its root; a scalar or array return R named N
// is {"N": R}; no return is {}. For a streaming function it is the object that
// collects every item, {"items": [item, …]}, each item the result object of
// one event. This is MCP's outputSchema of the function's tool.
func OutputSchema(doc *OpenTool, f *Function) json.RawMessage {
	if doc == nil {
		doc = &OpenTool{}
	}
	c := &declConverter{doc: doc, used: map[string]bool{}}
	var s *Schema
	if f.IsStream() {
		s = &Schema{
			Type:       TypeObject,
			Properties: Schemas{{Name: ItemsKey, Schema: &Schema{Type: TypeArray, Items: c.resultSchema(f.StreamData())}}},
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
	*Schema
	Defs Schemas `json:"$defs,omitempty"`
}

// resultSchema returns the schema of the result object of a function returning
// ret (nil: no return, the result is {}).
func (c *declConverter) resultSchema(ret *Return) *Schema {
	if ret == nil || ret.Schema == nil {
		return &Schema{Type: TypeObject}
	}
	if returnsObject(c.doc, ret.Schema, 0) {
		body, _ := c.doc.Resolve(ret.Schema)
		props, _ := c.parameters([]Parameter{{Name: "result", Schema: body, Description: ret.Description, Required: true}})
		s := props[0].Schema
		if s.Type == "" {
			s.Type = TypeObject
		}
		return s
	}
	props, _ := c.parameters([]Parameter{{Name: ret.Name, Schema: ret.Schema, Description: ret.Description, Required: true}})
	return &Schema{Type: TypeObject, Properties: props, Required: []string{ret.Name}}
}

// returnsObject reports whether values of s are JSON objects, as the generator
// decides it: a return whose schema resolves to an object travels as the result
// itself, any other return r as {r.Name: value}. Alternatives (oneOf, anyOf)
// that are all objects are an object too. depth counts the alternatives
// followed, so that alternatives referring back to themselves end.
func returnsObject(doc *OpenTool, s *Schema, depth int) bool {
	r, err := doc.Resolve(s)
	if err != nil || r == nil || depth > len(doc.Schemas) {
		return false
	}
	if r.Type == TypeObject {
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
