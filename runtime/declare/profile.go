// Package declare writes the functions of an OpenTool document as the tool
// declarations an LLM provider takes: OpenAI's and Anthropic's (strict or
// not), Gemini's and MCP's ([Profile]), each in the provider's schema dialect
// and within its documented limits ([Limit]). Generated packages call it from
// their Declarations function and method; runtime's [runtime.Declarations] is
// the plain, provider-neutral view.
//
// It uses the standard library and package runtime only.
package declare

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// Profile names the form in which an LLM provider takes tool declarations.
// [Functions] writes a document's functions in one; every profile writes the
// schemas in the provider's dialect (JSON Schema, or Gemini's OpenAPI subset),
// never OpenAPI's: no "nullable" outside Gemini (a type union with "null"
// instead), no "example", "discriminator", "xml" or "externalDocs".
type Profile string

// The profiles [Functions] writes.
const (
	// OpenAI is OpenAI's function tools:
	// [{"type":"function","function":{"name","description","parameters"}}].
	OpenAI Profile = "openai"
	// OpenAIStrict is OpenAI with "strict": true and OpenAI's
	// strict subset of JSON Schema: every object closed (additionalProperties
	// false) with every property required, an optional one as a union with
	// null (a generated Tool decodes null for an optional argument as absent);
	// keywords strict mode lacks (minLength, maxLength, default, most formats)
	// move into the description. A function strict mode cannot express (a map,
	// a value of any type) is declared with "strict": false and a warning.
	// A strict model sends null for each optional argument it leaves out;
	// generated Tools decode it as absent, but an explicit null is a value
	// for WithDefaults (the agent platforms' rule), so a defaulted argument
	// sent as null does not take its default.
	OpenAIStrict Profile = "openai-strict"
	// Anthropic is Anthropic's tools: [{"name","description","input_schema"}].
	Anthropic Profile = "anthropic"
	// AnthropicStrict is Anthropic with "strict": true and the
	// limits of Anthropic's strict tool use: objects closed, no numeric or
	// length bounds (moved into the description), minItems 0 or 1 only, no
	// recursive schemas (such a function is declared without "strict", with a
	// warning), at most 20 strict tools, 24 optional parameters and 16
	// parameters with a union type in all.
	AnthropicStrict Profile = "anthropic-strict"
	// Gemini is Gemini's tools: [{"functionDeclarations":[{"name",
	// "description","parameters"}]}], parameters in its OpenAPI-subset Schema:
	// upper-case types, "nullable", references inlined (a recursive one is
	// described and cut), no additionalProperties (a map is described), oneOf
	// as anyOf.
	Gemini Profile = "gemini"
	// MCP is the "tools" member of an MCP tools/list result:
	// [{"name","description","inputSchema","outputSchema"}], JSON Schema
	// 2020-12.
	MCP Profile = "mcp"
)

// Profiles lists every profile [Functions] writes.
func Profiles() []Profile {
	return []Profile{OpenAI, OpenAIStrict, Anthropic, AnthropicStrict, Gemini, MCP}
}

// ParseProfile returns the profile named s, or an error listing the profiles.
func ParseProfile(s string) (Profile, error) {
	for _, p := range Profiles() {
		if string(p) == s {
			return p, nil
		}
	}
	names := make([]string, 0, len(Profiles()))
	for _, p := range Profiles() {
		names = append(names, string(p))
	}
	return "", fmt.Errorf("opentool: unknown declaration profile %s (want one of %s)", quote(s), strings.Join(names, ", "))
}

// Declared is what [Functions] writes for one profile.
type Declared struct {
	Profile Profile
	// Tools is the JSON the provider's API takes in its "tools" member.
	Tools json.RawMessage
	// Names maps a declared tool name to its function's name, for the names
	// that had to change to fit the providers' rules (see [DeclaredNames]).
	Names map[string]string
	// Warnings say what the profile could not declare as the document
	// says, one line each, naming the function.
	Warnings []string
}

// LimitError is the error of [Functions] when the declarations exceed limits the
// provider documents: the request would be refused. Functions still returns the
// declarations with it.
type LimitError struct {
	Profile Profile
	Limits  []Limit
}

// Limit is one limit exceeded.
type Limit struct {
	Function string // "" for a limit of the whole set of tools
	What     string // what is counted, e.g. "tools", "levels of nesting"
	Count    int
	Max      int
}

func (e *LimitError) Error() string {
	var b strings.Builder
	b.WriteString("opentool: the ")
	b.WriteString(string(e.Profile))
	b.WriteString(" declarations exceed the provider's limits: ")
	for i, l := range e.Limits {
		if i > 0 {
			b.WriteString("; ")
		}
		if l.Function != "" {
			b.WriteString("function ")
			b.WriteString(quote(l.Function))
			b.WriteString(": ")
		}
		fmt.Fprintf(&b, "%d %s, at most %d", l.Count, l.What, l.Max)
	}
	return b.String()
}

// Provider limits, from the providers' documentation.
const (
	openAIMaxTools         = 128     // tools in one request
	openAIStrictMaxDepth   = 10      // levels of nesting of a strict schema
	openAIStrictMaxProps   = 5000    // object properties of a strict schema
	openAIStrictMaxEnums   = 1000    // enum values of a strict schema
	openAIStrictMaxStrings = 120_000 // bytes of property names, definition names and enum values
	anthropicMaxStrict     = 20      // strict tools in one request
	anthropicMaxOptional   = 24      // optional parameters of all strict tools
	anthropicMaxUnions     = 16      // parameters with a union type in all strict tools
	inlineMaxNodes         = 20_000  // schemas of one Gemini declaration once references are inlined
)

// Functions returns doc's functions declared as profile p's provider takes them.
// Declaring the served document of a Tool (its Document method) declares what
// it serves: fixed and environment arguments absent, defaulted ones optional.
// A function name that does not fit every provider's rules is declared under
// the name [DeclaredNames] gives, which a generated Tool's Call accepts.
//
// When the declarations exceed a limit the provider documents, Functions returns
// them with a *[LimitError] naming each limit and count.
func Functions(doc *runtime.OpenTool, p Profile) (*Declared, error) {
	if _, err := ParseProfile(string(p)); err != nil {
		return nil, err
	}
	if doc == nil {
		doc = &runtime.OpenTool{}
	}
	names := runtime.DeclaredNames(doc)
	out := &Declared{Profile: p}
	for fn, dn := range names {
		if dn != fn {
			if out.Names == nil {
				out.Names = map[string]string{}
			}
			out.Names[dn] = fn
		}
	}
	var limits []Limit
	var tools []any
	var strictTools, optional, unions int
	for i := range doc.Functions {
		f := &doc.Functions[i]
		name := names[f.Name]
		r := newProfileRules(p)
		params, stats, why := declareParameters(doc, f, r)
		if why != "" && r.strict {
			// Strict mode cannot say what the function takes: declare it
			// without strict mode rather than not at all.
			out.Warnings = append(out.Warnings, fmt.Sprintf("%s: function %s is declared without strict mode: %s", p, quote(f.Name), why))
			r = newProfileRules(nonStrict(p))
			params, stats, _ = declareParameters(doc, f, r)
		}
		if r.strict {
			strictTools++
			optional += stats.optional
			unions += stats.unions
		}
		if p == OpenAIStrict && r.strict {
			for _, l := range []Limit{
				{f.Name, "levels of nesting", nestingDepth(params), openAIStrictMaxDepth},
				{f.Name, "object properties", stats.props, openAIStrictMaxProps},
				{f.Name, "enum values", stats.enums, openAIStrictMaxEnums},
				{f.Name, "bytes of names and enum values", stats.strings, openAIStrictMaxStrings},
			} {
				if l.Count > l.Max {
					limits = append(limits, l)
				}
			}
		}
		if stats.cut {
			limits = append(limits, Limit{f.Name, "schemas once references are inlined (counting stopped there)", stats.nodes, inlineMaxNodes})
		}
		tools = append(tools, toolEntry(doc, f, name, p, r.strict, params))
	}
	n := len(doc.Functions)
	switch p {
	case OpenAI, OpenAIStrict:
		if n > openAIMaxTools {
			limits = append(limits, Limit{"", "tools", n, openAIMaxTools})
		}
	case AnthropicStrict:
		if strictTools > anthropicMaxStrict {
			limits = append(limits, Limit{"", "strict tools", strictTools, anthropicMaxStrict})
		}
		if optional > anthropicMaxOptional {
			limits = append(limits, Limit{"", "optional parameters in strict tools", optional, anthropicMaxOptional})
		}
		if unions > anthropicMaxUnions {
			limits = append(limits, Limit{"", "parameters with a union type in strict tools", unions, anthropicMaxUnions})
		}
	}
	var top any = tools
	if tools == nil {
		top = []any{}
	}
	if p == Gemini {
		if tools == nil {
			top = []any{}
		} else {
			top = []any{jsonObject{{"functionDeclarations", tools}}}
		}
	}
	out.Tools = appendValue(nil, top)
	if limits != nil {
		return out, &LimitError{Profile: p, Limits: limits}
	}
	return out, nil
}

// toolEntry is one function in the provider's shape.
func toolEntry(doc *runtime.OpenTool, f *runtime.Function, name string, p Profile, strict bool, params jsonObject) jsonObject {
	switch p {
	case OpenAI, OpenAIStrict:
		fn := jsonObject{{"name", name}}
		if f.Description != "" {
			fn = append(fn, member{"description", f.Description})
		}
		fn = append(fn, member{"parameters", params})
		if p == OpenAIStrict {
			fn = append(fn, member{"strict", strict})
		}
		return jsonObject{{"type", "function"}, {"function", fn}}
	case Anthropic, AnthropicStrict:
		t := jsonObject{{"name", name}}
		if f.Description != "" {
			t = append(t, member{"description", f.Description})
		}
		t = append(t, member{"input_schema", params})
		if strict {
			t = append(t, member{"strict", true})
		}
		return t
	case Gemini:
		t := jsonObject{{"name", name}}
		if f.Description != "" {
			t = append(t, member{"description", f.Description})
		}
		if len(f.Parameters) > 0 { // Gemini refuses an OBJECT without properties
			t = append(t, member{"parameters", params})
		}
		return t
	default: // MCP
		t := jsonObject{{"name", name}}
		if f.Description != "" {
			t = append(t, member{"description", f.Description})
		}
		t = append(t, member{"inputSchema", params})
		t = append(t, member{"outputSchema", runtime.OutputSchema(doc, f)})
		return t
	}
}
