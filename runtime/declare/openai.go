package declare

// OpenAI's limits, from its documentation.
const (
	openAIMaxTools         = 128     // tools in one request
	openAIStrictMaxDepth   = 10      // levels of nesting of a strict schema
	openAIStrictMaxProps   = 5000    // object properties of a strict schema
	openAIStrictMaxEnums   = 1000    // enum values of a strict schema
	openAIStrictMaxStrings = 120_000 // bytes of property names, definition names and enum values
	openAINamespaceAdvice  = 10      // functions in a namespace, "fewer than 10" (tool search guide)
)

// openAI is t in the shape of Chat Completions ({"type":"function",
// "function":{…}}) or, flat, of the Responses API.
func (t decl) openAI() jsonObject {
	fn := t.head()
	fn = append(fn, member{"parameters", t.params})
	switch t.p {
	case OpenAIStrict:
		fn = append(fn, member{"strict", t.strict})
	case OpenAIResponses, OpenAIResponsesStrict:
		// "strict" is required in the Responses API's FunctionTool.
		fn = append(fn, member{"strict", t.strict})
		if t.deferred {
			fn = append(fn, member{"defer_loading", true})
		}
		return append(jsonObject{{"type", "function"}}, fn...)
	}
	return jsonObject{{"type", "function"}, {"function", fn}}
}

// openAIStrictLimits are the limits of strict mode fn's parameters exceed.
func openAIStrictLimits(fn string, params jsonObject, stats declStats) []Limit {
	var out []Limit
	for _, l := range []Limit{
		{fn, "levels of nesting", nestingDepth(params), openAIStrictMaxDepth},
		{fn, "object properties", stats.props, openAIStrictMaxProps},
		{fn, "enum values", stats.enums, openAIStrictMaxEnums},
		{fn, "bytes of names and enum values", stats.strings, openAIStrictMaxStrings},
	} {
		if l.Count > l.Max {
			out = append(out, l)
		}
	}
	return out
}
