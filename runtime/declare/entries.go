package declare

import (
	"fmt"
	"sort"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// isMap reports whether s (an object schema) is a map: members of any name
// and no named ones (a free-form object is a map of values of any type).
// Generated code decodes it with Decoder.Map.
func isMap(s *document.Schema) bool {
	return len(s.Properties) == 0
}

// anyValue reports whether s says nothing of its value.
func anyValue(s *document.Schema) bool {
	return s == nil || (s.Ref == "" && s.Type == "" && len(s.AnyOf) == 0 && len(s.OneOf) == 0 && len(s.Enum) == 0 && len(s.Const) == 0)
}

// entries writes the map s as strict mode can say it: the array of its
// entries, each {"key": string, "value": V}. A generated Tool reads the array
// back into the map (runtime's Decoder.Map).
func (w *schemaWriter) entries(s *document.Schema) jsonObject {
	w.stats.nodes += 2
	w.stats.props += 2
	w.stats.strings += len("key") + len("value")
	notes := []string{"a map, as its entries: each key once"}
	var value jsonObject
	if anyValue(s.AdditionalProperties) {
		// Strict mode cannot say "any JSON value": the scalars it can say.
		value = jsonObject{{"type", []any{"string", "number", "boolean", "null"}}}
		notes = append(notes, "each value a string, number, boolean or null")
	} else {
		value = w.in(func() jsonObject { return w.schema(s.AdditionalProperties) }, "additionalProperties")
	}
	entry := jsonObject{
		{"type", "object"},
		{"properties", jsonObject{
			{"key", jsonObject{{"type", "string"}}},
			{"value", value},
		}},
		{"required", []string{"key", "value"}},
		{"additionalProperties", false},
	}
	o := jsonObject{{"type", w.typeValue(document.TypeArray, s.Nullable)}}
	if s.MinProperties != nil {
		if w.r.noBounds && *s.MinProperties > 1 {
			notes = append(notes, fmt.Sprintf("at least %d entries", *s.MinProperties))
		} else {
			o = append(o, member{"minItems", *s.MinProperties})
		}
	}
	w.count(&o, &notes, "maxItems", s.MaxProperties, w.r.noBounds, "at most %d entries")
	o = append(o, member{"items", entry})
	if s.Description != "" {
		o = insertAfterType(o, member{"description", s.Description})
	}
	return describe(o, notes)
}

// mapsAsEntries returns the value v of schema s with every map in it written
// as its entries (keys in order), as a strict declaration asks for it; depth
// bounds the walk through references.
func mapsAsEntries(doc *document.OpenTool, s *document.Schema, v any, depth int) any {
	if s == nil || depth > 64 {
		return v
	}
	if s.Ref != "" {
		n, ok := document.RefName(s.Ref)
		if !ok {
			return v
		}
		return mapsAsEntries(doc, doc.Schemas.Get(n), v, depth+1)
	}
	switch v := v.(type) {
	case map[string]any:
		if s.Type == document.TypeObject && isMap(s) && len(s.AnyOf) == 0 && len(s.OneOf) == 0 {
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			out := make([]any, 0, len(v))
			for _, k := range keys {
				out = append(out, map[string]any{"key": k, "value": mapsAsEntries(doc, s.AdditionalProperties, v[k], depth+1)})
			}
			return out
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = e
			for _, p := range s.Properties {
				if p.Name == k {
					out[k] = mapsAsEntries(doc, p.Schema, e, depth+1)
				}
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = mapsAsEntries(doc, s.Items, e, depth+1)
		}
		return out
	}
	return v
}
