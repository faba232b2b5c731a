package openapi

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/model"
)

// maxOpExamples bounds the examples kept of one operation (Anthropic takes
// five per tool; a few more let the declarations leave out those that do
// not validate and still have some).
const maxOpExamples = 8

// opExamples returns the example arguments of an operation whose arguments
// are args, from the examples its document gives, each a JSON object whose
// members are in the order of the arguments:
//
//   - each example of the request body (its media type's example, then its
//     examples in the order of their names; else its schema's example), with
//     each parameter's first example (the parameter's example, else its
//     first example by name, else its schema's example): an object body's
//     members become the arguments they are, a whole body the body argument;
//   - without a body example, one example of the parameters' examples alone.
//
// An example counts only when every required argument has a value in it
// (the document's examples are often partial: an incomplete one would teach
// a model a call that fails) and when its body is an object where the
// body's members are arguments. A null example is no example. None is
// returned when the document gives none that counts.
func opExamples(item *openapi3.PathItem, op *openapi3.Operation, args *model.Type) []json.RawMessage {
	if args == nil || len(args.Fields) == 0 {
		return nil
	}
	params := map[string]any{} // "in name" -> value
	for _, list := range []openapi3.Parameters{item.Parameters, op.Parameters} {
		for _, pr := range list {
			if pr == nil || pr.Value == nil {
				continue
			}
			if v := paramExample(pr.Value); v != nil {
				params[pr.Value.In+" "+pr.Value.Name] = v
			}
		}
	}
	var bodies []any
	if rb := op.RequestBody; rb != nil && rb.Value != nil {
		if _, media := pickMedia(rb.Value.Content); media != nil {
			bodies = mediaExamples(media)
		}
	}
	if len(bodies) == 0 {
		if len(params) == 0 {
			return nil
		}
		bodies = []any{nil}
	}
	var out []json.RawMessage
	for _, body := range bodies {
		if ex := assembleExample(args, params, body); ex != nil {
			out = append(out, ex)
			if len(out) == maxOpExamples {
				break
			}
		}
	}
	return out
}

// assembleExample is the arguments object of params' values and body, or nil
// when a required argument has no value or a value cannot be written.
func assembleExample(args *model.Type, params map[string]any, body any) json.RawMessage {
	members, _ := body.(map[string]any)
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, f := range model.ArgFields(args) {
		var v any
		if h := f.HTTP; h != nil {
			switch h.In {
			case model.InBody:
				v = body
			case model.InBodyProp:
				if body != nil && members == nil {
					return nil // an example body that is not an object
				}
				v = members[h.Name]
			default:
				v = params[string(h.In)+" "+h.Name]
			}
		}
		if v == nil {
			if f.Required {
				return nil
			}
			continue
		}
		val, err := json.Marshal(v) // maps with sorted keys: deterministic
		if err != nil {
			return nil
		}
		if n > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(f.JSONName)
		b.Write(key)
		b.WriteByte(':')
		b.Write(val)
		n++
	}
	if n == 0 {
		return nil
	}
	b.WriteByte('}')
	return b.Bytes()
}

// paramExample is the first example of parameter p, nil without one.
func paramExample(p *openapi3.Parameter) any {
	if p.Example != nil {
		return p.Example
	}
	if v := firstExamples(p.Examples, 1); len(v) > 0 {
		return v[0]
	}
	if p.Schema != nil && p.Schema.Value != nil {
		return p.Schema.Value.Example
	}
	return nil
}

// mediaExamples are the examples of a request body's media type: its
// example, then its examples by name, else its schema's example.
func mediaExamples(m *openapi3.MediaType) []any {
	var out []any
	if m.Example != nil {
		out = append(out, m.Example)
	}
	out = append(out, firstExamples(m.Examples, maxOpExamples)...)
	if len(out) == 0 && m.Schema != nil && m.Schema.Value != nil && m.Schema.Value.Example != nil {
		out = append(out, m.Schema.Value.Example)
	}
	return out
}

// firstExamples returns the values of at most max of examples, in the order
// of their names (externalValue ones, which would need a fetch, left out).
func firstExamples(examples openapi3.Examples, max int) []any {
	names := make([]string, 0, len(examples))
	for k := range examples {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []any
	for _, k := range names {
		if e := examples[k]; e != nil && e.Value != nil && e.Value.Value != nil {
			out = append(out, e.Value.Value)
			if len(out) == max {
				break
			}
		}
	}
	return out
}
