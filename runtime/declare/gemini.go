package declare

import "github.com/opentoolgen/opentoolgen/runtime/document"

// inlineMaxNodes bounds the schemas of one gemini-openapi declaration once
// references are inlined.
const inlineMaxNodes = 20_000

// gemini is t as one of Gemini's functionDeclarations.
func (t decl) gemini() jsonObject {
	e := t.head()
	if len(t.f.Parameters) > 0 { // Gemini refuses an OBJECT without properties
		key := "parametersJsonSchema"
		if t.p == GeminiOpenAPI {
			key = "parameters"
		}
		e = append(e, member{key, t.params})
	}
	return e
}

// geminiFormat reports whether Gemini's OpenAPI subset takes format on typ.
func geminiFormat(typ, format string) bool {
	switch typ {
	case document.TypeString:
		return format == "date-time" || format == "enum"
	case document.TypeNumber:
		return format == "float" || format == "double"
	case document.TypeInteger:
		return format == "int32" || format == "int64"
	}
	return false
}
