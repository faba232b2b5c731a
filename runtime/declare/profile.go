// Package declare writes the functions of an OpenTool document as the tool
// declarations an LLM provider takes: OpenAI's (Chat Completions and
// Responses, strict or not), Anthropic's (strict or not), Gemini's (JSON
// Schema, or the OpenAPI subset of older models) and MCP's ([Profile]), each
// in the provider's schema dialect and within its documented limits
// ([Limit]). [FunctionsWith] also prepares the declarations for the
// providers' tool search ([Options]): tools loaded only when the model's
// search finds them, grouped in namespaces. Generated packages call it from
// their Declarations function and method; [Plain]
// is the plain, provider-neutral view.
//
// In strict profiles, a map argument (an object whose members all take one
// schema, which strict mode cannot say) is declared as the array of its
// entries, [{"key": K, "value": V}, …]; generated Tools read that array back
// into the map (runtime's Decoder.Map), so a strict model's call decodes to
// the same typed argument as the object form.
//
// It uses the standard library and package runtime only.
package declare

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// Profile names the form in which an LLM provider takes tool declarations.
// [Functions] writes a document's functions in one; every profile writes the
// schemas in the provider's dialect (JSON Schema, or Gemini's OpenAPI subset),
// never OpenAPI's: no "nullable" outside Gemini's OpenAPI subset (a type
// union with "null" instead), no "example", "discriminator", "xml" or
// "externalDocs".
type Profile string

// The profiles [Functions] writes.
const (
	// OpenAI is the function tools of OpenAI's Chat Completions API:
	// [{"type":"function","function":{"name","description","parameters"}}].
	// The Responses API takes another shape ([OpenAIResponses]): given
	// these declarations it reads tools without names.
	OpenAI Profile = "openai"
	// OpenAIStrict is OpenAI with "strict": true and OpenAI's
	// strict subset of JSON Schema: every object closed (additionalProperties
	// false) with every property required, an optional one as a union with
	// null (a generated Tool decodes null for an optional argument as absent);
	// a map as the array of its entries (see the package doc); what strict
	// mode takes is kept (pattern; the formats date-time, time, date,
	// duration, email, hostname, ipv4, ipv6 and uuid; minimum, maximum,
	// exclusiveMinimum, exclusiveMaximum, multipleOf; minItems, maxItems),
	// what it lacks (minLength, maxLength, default, other formats,
	// uniqueItems, minProperties, maxProperties) moves into the description.
	// A free-form object (no members named) is a map of values of any type:
	// its entries' values are declared as strings, numbers, booleans or
	// null, what strict mode can say of any value. A function strict mode
	// cannot express (a value of any type that is not an object, an object
	// with both named members and others), or whose strict schema exceeds a
	// limit of strict mode (10 levels of nesting, 5,000 properties, 1,000
	// enum values, 120,000 bytes of names), is declared with
	// "strict": false and a warning.
	// A strict model sends null for each optional argument it leaves out;
	// generated Tools decode it as absent, but an explicit null is a value
	// for WithDefaults (the agent platforms' rule), so a defaulted argument
	// sent as null does not take its default.
	OpenAIStrict Profile = "openai-strict"
	// OpenAIResponses is the function tools of OpenAI's Responses API, flat:
	// [{"type":"function","name","description","parameters","strict":false}]
	// ("strict" is a required member there), schemas as in [OpenAI]. With
	// [Options.ToolSearch] or [Options.Namespaces] it also writes the
	// tool_search tool and namespaces.
	OpenAIResponses Profile = "openai-responses"
	// OpenAIResponsesStrict is OpenAIResponses with "strict": true and the
	// schemas of [OpenAIStrict].
	OpenAIResponsesStrict Profile = "openai-responses-strict"
	// Anthropic is Anthropic's tools: [{"name","description","input_schema"}],
	// with "input_examples" from [Options.Examples] or else the function's
	// Examples: at most 5 (the first; more is a warning), each checked
	// against the function's schema (one that does not validate is left
	// out with a warning naming the function).
	Anthropic Profile = "anthropic"
	// AnthropicStrict is Anthropic with "strict": true and the
	// limits of Anthropic's strict tool use: objects closed, a map as the
	// array of its entries, no numeric or length bounds (moved into the
	// description), minItems 0 or 1 only, no recursive schemas (such a
	// function is declared without "strict", with a warning), at most 20
	// strict tools, 24 optional parameters and 16 parameters with a union
	// type in all.
	AnthropicStrict Profile = "anthropic-strict"
	// Gemini is Gemini's tools with plain JSON Schema:
	// [{"functionDeclarations":[{"name","description","parametersJsonSchema"}]}]
	// (parametersJsonSchema, not parameters: the two exclude each other),
	// with references in $defs, type unions with null, and maps
	// (additionalProperties); what Gemini's JSON Schema support does not list
	// (minLength, maxLength, pattern, default, exclusive bounds, multipleOf,
	// uniqueItems, const, formats other than date-time, date and time) moves
	// into the description.
	Gemini Profile = "gemini"
	// GeminiOpenAPI is Gemini's tools in the OpenAPI-subset Schema of its
	// "parameters" member, for models and endpoints without
	// parametersJsonSchema: upper-case types, "nullable", references inlined
	// (a recursive one is described and cut), no additionalProperties (a map
	// is described), oneOf as anyOf.
	GeminiOpenAPI Profile = "gemini-openapi"
	// MCP is the "tools" member of an MCP tools/list result:
	// [{"name","description","inputSchema","outputSchema"}], JSON Schema
	// 2020-12.
	MCP Profile = "mcp"
)

// Profiles lists every profile [Functions] writes.
func Profiles() []Profile {
	return []Profile{OpenAI, OpenAIStrict, OpenAIResponses, OpenAIResponsesStrict, Anthropic, AnthropicStrict, Gemini, GeminiOpenAPI, MCP}
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

// Strict reports whether p declares tools in the provider's strict mode.
func (p Profile) Strict() bool {
	return p == OpenAIStrict || p == OpenAIResponsesStrict || p == AnthropicStrict
}

// isOpenAI reports whether p is one of OpenAI's profiles.
func (p Profile) isOpenAI() bool {
	return p == OpenAI || p == OpenAIStrict || p == OpenAIResponses || p == OpenAIResponsesStrict
}

func (p Profile) isResponses() bool { return p == OpenAIResponses || p == OpenAIResponsesStrict }

func (p Profile) isAnthropic() bool { return p == Anthropic || p == AnthropicStrict }

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

// Functions returns doc's functions declared as profile p's provider takes them.
// Declaring the served document of a Tool (its Document method) declares what
// it serves: fixed and environment arguments absent, defaulted ones optional.
// A function name that does not fit every provider's rules is declared under
// the name [DeclaredNames] gives, which a generated Tool's Call accepts.
//
// When the declarations exceed a limit the provider documents, Functions returns
// them with a *[LimitError] naming each limit and count.
func Functions(doc *document.OpenTool, p Profile) (*Declared, error) {
	return FunctionsWith(doc, p, Options{})
}

// FunctionsWith is [Functions] with options: tool search, namespaces and
// input examples. Options a profile's provider does not take are an error
// naming the profile; a namespace that does not fit the provider's rules is
// an error naming the function; an example that does not fit is left out
// with a warning naming the function. Limits exceeded are a *[LimitError]
// with the declarations, as for Functions.
func FunctionsWith(doc *document.OpenTool, p Profile, o Options) (*Declared, error) {
	if _, err := ParseProfile(string(p)); err != nil {
		return nil, err
	}
	if doc == nil {
		doc = &document.OpenTool{}
	}
	o = o.withTags(doc)
	if err := o.check(doc, p); err != nil {
		return nil, err
	}
	names := Names(doc)
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
	tools := make([]jsonObject, 0, len(doc.Functions))
	var strictTools, optional, unions int
	for i := range doc.Functions {
		f := &doc.Functions[i]
		r, params, stats, warn := declareFunction(doc, f, p)
		out.Warnings = append(out.Warnings, warn...)
		if r.strict {
			strictTools++
			optional += stats.optional
			unions += stats.unions
		}
		if stats.cut {
			limits = append(limits, Limit{f.Name, "schemas once references are inlined (counting stopped there)", stats.nodes, inlineMaxNodes})
		}
		t := decl{doc: doc, f: f, name: names[f.Name], p: p, strict: r.strict, params: params, deferred: o.ToolSearch}
		entry, warn := t.entry(o)
		out.Warnings = append(out.Warnings, warn...)
		tools = append(tools, entry)
	}
	switch p {
	case AnthropicStrict:
		limits = append(limits, anthropicStrictLimits(strictTools, optional, unions)...)
	}
	top, more, warn := o.arrange(doc, p, tools)
	limits = append(limits, more...)
	out.Warnings = append(out.Warnings, warn...)
	if p == Gemini || p == GeminiOpenAPI {
		if len(top) > 0 {
			top = []any{jsonObject{{"functionDeclarations", top}}}
		}
	}
	out.Tools = appendValue(nil, top)
	if limits != nil {
		return out, &LimitError{Profile: p, Limits: limits}
	}
	return out, nil
}

// declareFunction declares the parameters of f in profile p: in a strict
// profile, without strict mode (with a warning naming f) when strict mode
// cannot say what f takes, or when its strict schema exceeds a limit of
// OpenAI's strict mode (levels of nesting, properties, enum values, bytes
// of names: a map's entries add a level, which takes some schemas beyond
// ten), since without strict mode those limits do not apply.
func declareFunction(doc *document.OpenTool, f *document.Function, p Profile) (profileRules, jsonObject, declStats, []string) {
	r := newProfileRules(p)
	params, stats, why := declareParameters(doc, f, r)
	if r.strict && why == "" && p.isOpenAI() {
		var over []string
		for _, l := range openAIStrictLimits(f.Name, params, stats) {
			over = append(over, fmt.Sprintf("%d %s, where strict mode takes at most %d", l.Count, l.What, l.Max))
		}
		why = strings.Join(over, ", ")
	}
	if why == "" || !r.strict {
		return r, params, stats, nil
	}
	// Strict mode cannot say what the function takes: declare it without
	// strict mode rather than not at all.
	warn := fmt.Sprintf("%s: function %s is declared without strict mode: %s", p, quote(f.Name), why)
	r = newProfileRules(nonStrict(p))
	params, stats, _ = declareParameters(doc, f, r)
	return r, params, stats, []string{warn}
}

// decl is one function to declare.
type decl struct {
	doc      *document.OpenTool
	f        *document.Function
	name     string // the declared name
	p        Profile
	strict   bool
	params   jsonObject
	deferred bool // "defer_loading": true (tool search)
}

// entry is the function in the provider's shape, with what it warns about.
func (t decl) entry(o Options) (jsonObject, []string) {
	switch {
	case t.p.isOpenAI():
		return t.openAI(), nil
	case t.p.isAnthropic():
		ex, ok := o.Examples[t.f.Name]
		if !ok {
			ex = t.f.Examples
		}
		return t.anthropic(ex)
	case t.p == Gemini || t.p == GeminiOpenAPI:
		return t.gemini(), nil
	default: // MCP
		e := t.head()
		e = append(e, member{"inputSchema", t.params})
		e = append(e, member{"outputSchema", OutputSchema(t.doc, t.f)})
		return e, nil
	}
}

// head is the name and description most shapes begin with.
func (t decl) head() jsonObject {
	e := jsonObject{{"name", t.name}}
	if t.f.Description != "" {
		e = append(e, member{"description", t.f.Description})
	}
	return e
}
