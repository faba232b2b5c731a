package mcpbridge

import (
	"encoding/json"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// Schemas of tools/list. The input schema of a function is its LLM declaration's
// parameters (runtime.Declarations); the output schema describes the result
// object as the OpenTool server answers it on /call. Both are built by
// runtime.Declarations, so that references to the document's schemas become
// references into "$defs" the same way in both.

// jsonSchema is a JSON Schema with the $defs its references point into.
type jsonSchema struct {
	*runtime.Schema
	Defs runtime.Schemas `json:"$defs,omitempty"`
}

// declared is the part of a declaration's parameters schema that convert reads.
type declared struct {
	Properties runtime.Schemas `json:"properties"`
	Defs       runtime.Schemas `json:"$defs"`
}

// convert returns the schemas of params as runtime.Declarations writes them
// (references rewritten into $defs, descriptions of parameters moved into their
// schemas) and the $defs they need, resolved in doc's schemas.
func convert(doc *runtime.OpenTool, params ...runtime.Parameter) (runtime.Schemas, runtime.Schemas) {
	synthetic := &runtime.OpenTool{
		Functions: []runtime.Function{{Name: "f", Parameters: params}},
		Schemas:   doc.Schemas,
	}
	decls := runtime.Declarations(synthetic)
	var d declared
	if len(decls) != 1 || json.Unmarshal(decls[0].Parameters, &d) != nil || len(d.Properties) != len(params) {
		// Cannot happen: Declarations writes one property per parameter.
		out := make(runtime.Schemas, len(params))
		for i, p := range params {
			out[i] = runtime.NamedSchema{Name: p.Name, Schema: &runtime.Schema{}}
		}
		return out, nil
	}
	return d.Properties, d.Defs
}

// isObject reports whether values of s are JSON objects, as the generator
// decides it: a return whose schema resolves to an object travels as the result
// itself, any other return r as {r.Name: value}. Alternatives (oneOf, anyOf)
// that are all objects are an object too.
func isObject(doc *runtime.OpenTool, s *runtime.Schema) bool {
	r, err := doc.Resolve(s)
	if err != nil || r == nil {
		return false
	}
	if r.Type == runtime.TypeObject {
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
		if !isObject(doc, a) {
			return false
		}
	}
	return true
}

// resultSchema returns the schema of the result object of a function returning
// ret (nil: no return, the result is {}), and the $defs it refers to.
func resultSchema(doc *runtime.OpenTool, ret *runtime.Return) (*runtime.Schema, runtime.Schemas) {
	if ret == nil || ret.Schema == nil {
		return &runtime.Schema{Type: runtime.TypeObject}, nil
	}
	if isObject(doc, ret.Schema) {
		// The object itself: its schema with the top-level reference resolved,
		// so that the output schema has "type": "object" at its root as MCP
		// clients expect.
		body, _ := doc.Resolve(ret.Schema)
		props, defs := convert(doc, runtime.Parameter{Name: "result", Schema: body, Description: ret.Description, Required: true})
		s := props[0].Schema
		if s.Type == "" {
			s.Type = runtime.TypeObject
		}
		return s, defs
	}
	props, defs := convert(doc, runtime.Parameter{Name: ret.Name, Schema: ret.Schema, Description: ret.Description, Required: true})
	return &runtime.Schema{Type: runtime.TypeObject, Properties: props, Required: []string{ret.Name}}, defs
}

// outputSchema returns the MCP output schema of f: the schema of its result
// object, or for a streaming function {"items": [item, …]} where each item is
// the result object of one event.
func outputSchema(doc *runtime.OpenTool, f *runtime.Function) json.RawMessage {
	var s *runtime.Schema
	var defs runtime.Schemas
	if f.IsStream() {
		var item *runtime.Schema
		item, defs = resultSchema(doc, f.StreamData())
		s = &runtime.Schema{
			Type:       runtime.TypeObject,
			Properties: runtime.Schemas{{Name: itemsKey, Schema: &runtime.Schema{Type: runtime.TypeArray, Items: item}}},
			Required:   []string{itemsKey},
		}
	} else {
		s, defs = resultSchema(doc, f.Return)
	}
	b, err := json.Marshal(jsonSchema{Schema: s, Defs: defs})
	if err != nil { // cannot happen for a loaded document; keep the tool usable
		return json.RawMessage(`{"type":"object"}`)
	}
	return b
}
