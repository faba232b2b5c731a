package declare

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// Anthropic's limits, from its documentation.
const (
	anthropicMaxStrict   = 20     // strict tools in one request
	anthropicMaxOptional = 24     // optional parameters of all strict tools
	anthropicMaxUnions   = 16     // parameters with a union type in all strict tools
	anthropicMaxDeferred = 10_000 // tools in a tool search catalog
)

// anthropicMaxExamples is the number of input_examples Anthropic documents
// per tool (1 to 5).
const anthropicMaxExamples = 5

// anthropic is t in Anthropic's shape, with examples as its input_examples.
func (t decl) anthropic(examples []json.RawMessage) (jsonObject, []string) {
	e := t.head()
	e = append(e, member{"input_schema", t.params})
	if t.strict {
		e = append(e, member{"strict", true})
	}
	if t.deferred {
		e = append(e, member{"defer_loading", true})
	}
	var warn []string
	if len(examples) > 0 {
		list := make([]any, 0, len(examples))
		for i, ex := range examples {
			v, err := exampleArguments(t.doc, t.f, ex, t.strict)
			if err != nil {
				warn = append(warn, fmt.Sprintf("%s: function %s: example %d is left out: %v", t.p, quote(t.f.Name), i, err))
				continue
			}
			list = append(list, v)
		}
		if len(list) > anthropicMaxExamples {
			warn = append(warn, fmt.Sprintf("%s: function %s: %d examples, Anthropic takes at most %d: the first %d are kept", t.p, quote(t.f.Name), len(list), anthropicMaxExamples, anthropicMaxExamples))
			list = list[:anthropicMaxExamples]
		}
		if len(list) > 0 {
			e = append(e, member{"input_examples", list})
		}
	}
	return e, warn
}

// anthropicStrictLimits are the limits of strict tool use a request exceeds.
func anthropicStrictLimits(strictTools, optional, unions int) []Limit {
	var out []Limit
	for _, l := range []Limit{
		{"", "strict tools", strictTools, anthropicMaxStrict},
		{"", "optional parameters in strict tools", optional, anthropicMaxOptional},
		{"", "parameters with a union type in strict tools", unions, anthropicMaxUnions},
	} {
		if l.Count > l.Max {
			out = append(out, l)
		}
	}
	return out
}

// exampleArguments returns the arguments object ex as its declaration says
// them: members for parameters the served document lacks (fixed, env) left
// out, maps as their entries in a strict declaration. An example that is not
// an object, lacks a required parameter or has an argument that does not
// validate against its parameter's schema is an error naming the place.
func exampleArguments(doc *document.OpenTool, f *document.Function, ex json.RawMessage, strict bool) (jsonObject, error) {
	d := json.NewDecoder(bytes.NewReader(ex))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil || m == nil {
		return nil, fmt.Errorf("want a JSON object of arguments, got %.40s", ex)
	}
	out := jsonObject{}
	for _, p := range f.Parameters {
		v, ok := m[p.Name]
		if !ok {
			if p.Required {
				return nil, fmt.Errorf("required argument %s is missing", quote(p.Name))
			}
			continue
		}
		if err := checkExample(doc, p.Schema, v, "/"+p.Name, strict, 0); err != nil {
			return nil, err
		}
		if strict {
			v = mapsAsEntries(doc, p.Schema, v, 0)
		}
		out = append(out, member{p.Name, exampleValue(v)})
	}
	return out, nil
}

// exampleValue is v (from encoding/json with UseNumber) as appendValue
// writes it.
func exampleValue(v any) any {
	switch v := v.(type) {
	case json.Number:
		return json.RawMessage(v)
	case map[string]any:
		b, _ := json.Marshal(v) // sorted keys: deterministic
		return json.RawMessage(b)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = exampleValue(e)
		}
		return out
	}
	return v
}
