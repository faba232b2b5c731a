package declare

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// Options are what [FunctionsWith] adds to a profile's declarations.
type Options struct {
	// ToolSearch declares every function with "defer_loading": true, so
	// that the model sees its name and description (or only its
	// namespace's) and loads its parameters when its tool search finds it,
	// and adds the search tool to the tools: OpenAI's {"type":"tool_search"}
	// (the Responses API only: openai-responses profiles; gpt-5.4 and later)
	// or Anthropic's BM25 tool search tool ({"type":
	// "tool_search_tool_bm25_20251119"}; at most 10,000 deferred tools).
	// Other profiles have no tool search: an error.
	ToolSearch bool
	// Namespaces maps a function's name to the namespace it is declared in
	// (openai-responses profiles only: {"type":"namespace","name",
	// "description","tools"}); a function it does not name stays at the
	// top level. A namespace name must fit [a-zA-Z0-9_-]{1,64} ([NamespaceName]
	// makes one from an OpenAPI tag) and may not be a top-level function's
	// name. OpenAI advises fewer than 10 functions in a namespace: more is a
	// warning.
	Namespaces map[string]string
	// NamespaceDescriptions describes each namespace (OpenAI requires a
	// description: a namespace without one is described by the names of
	// its functions).
	NamespaceDescriptions map[string]string
	// Examples maps a function's name to example arguments (JSON objects),
	// written as the "input_examples" of Anthropic's declarations in place
	// of the function's own Examples (from the document); other profiles
	// have no place for them and leave them out. Members for parameters the
	// declared document lacks (fixed, environment) are left out; an example
	// that is not an object or does not validate against the function's
	// schema is left out with a warning naming the function (Anthropic
	// refuses a request whose examples do not match the schema); beyond 5,
	// Anthropic's limit, the rest are left out with a warning.
	Examples map[string][]json.RawMessage
}

var namespaceRule = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// NamespaceName makes a namespace name from s (an OpenAPI tag): lower case,
// each run of other characters than a-z, 0-9, _ and - one "_", at most 64
// bytes; "" when nothing is left.
func NamespaceName(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-'
		switch {
		case ok:
			b.WriteRune(r)
			under = false
		case !under && b.Len() > 0:
			b.WriteByte('_')
			under = true
		}
		if b.Len() >= 64 {
			break
		}
	}
	out := strings.TrimRight(b.String(), "_")
	if len(out) > 64 {
		out = out[:64]
	}
	return out
}

// check reports options p's provider does not take, and namespaces that do
// not fit its rules.
func (o Options) check(doc *runtime.OpenTool, p Profile) error {
	if o.ToolSearch && !p.isResponses() && !p.isAnthropic() {
		if p == OpenAI || p == OpenAIStrict {
			return fmt.Errorf("opentool: %s declarations have no tool search: OpenAI's tool_search is in the Responses API (profile %s)", p, OpenAIResponses)
		}
		return fmt.Errorf("opentool: %s declarations have no tool search (OpenAI's Responses API and Anthropic's have)", p)
	}
	if len(o.Namespaces) == 0 {
		return nil
	}
	if !p.isResponses() {
		return fmt.Errorf("opentool: %s declarations have no namespaces (OpenAI's Responses API has: profile %s)", p, OpenAIResponses)
	}
	names := runtime.DeclaredNames(doc)
	top := map[string]string{}
	for _, f := range doc.Functions {
		if _, ok := o.Namespaces[f.Name]; !ok {
			top[names[f.Name]] = f.Name
		}
	}
	for _, f := range doc.Functions {
		ns, ok := o.Namespaces[f.Name]
		if !ok {
			continue
		}
		if !namespaceRule.MatchString(ns) {
			return fmt.Errorf("opentool: function %s: namespace %s: want 1 to 64 of a-z, A-Z, 0-9, _ and -", quote(f.Name), quote(ns))
		}
		if fn, clash := top[ns]; clash {
			return fmt.Errorf("opentool: function %s: namespace %s has the name of function %s, declared beside it", quote(f.Name), quote(ns), quote(fn))
		}
	}
	return nil
}

// arrange returns the tools member: the functions' entries, grouped in
// namespaces and preceded by the search tool as o asks, with the limits
// they exceed and warnings.
func (o Options) arrange(doc *runtime.OpenTool, p Profile, entries []jsonObject) ([]any, []Limit, []string) {
	var top []any
	var limits []Limit
	var warn []string
	switch {
	case o.ToolSearch && p.isResponses():
		top = append(top, jsonObject{{"type", "tool_search"}})
	case o.ToolSearch && p.isAnthropic():
		top = append(top, jsonObject{{"type", "tool_search_tool_bm25_20251119"}, {"name", "tool_search_tool_bm25"}})
		if n := len(entries); n > anthropicMaxDeferred {
			limits = append(limits, Limit{"", "tools deferred for tool search", n, anthropicMaxDeferred})
		}
	}
	groups := map[string][]any{}
	for i, e := range entries {
		ns, ok := o.Namespaces[doc.Functions[i].Name]
		if !ok {
			top = append(top, e)
			continue
		}
		if _, seen := groups[ns]; !seen {
			top = append(top, ns) // its place, filled below
		}
		groups[ns] = append(groups[ns], e)
	}
	var crowded []string
	for i, v := range top {
		ns, ok := v.(string)
		if !ok {
			continue
		}
		fns := groups[ns]
		desc := o.NamespaceDescriptions[ns]
		if desc == "" {
			desc = "Functions " + namesOf(fns) + "."
		}
		top[i] = jsonObject{{"type", "namespace"}, {"name", ns}, {"description", desc}, {"tools", fns}}
		if len(fns) >= openAINamespaceAdvice {
			crowded = append(crowded, fmt.Sprintf("%s (%d)", ns, len(fns)))
		}
	}
	if len(crowded) > 0 {
		sort.Strings(crowded)
		warn = append(warn, fmt.Sprintf("%s: namespaces with %d functions or more, where OpenAI advises fewer: %s", p, openAINamespaceAdvice, strings.Join(crowded, ", ")))
	}
	if p.isOpenAI() && len(top) > openAIMaxTools {
		limits = append(limits, Limit{"", "tools", len(top), openAIMaxTools})
	}
	if top == nil {
		top = []any{}
	}
	return top, limits, warn
}

// namesOf lists the names of entries, for a namespace's description: at
// most 20, then how many more.
func namesOf(entries []any) string {
	var b strings.Builder
	for i, e := range entries {
		if i == 20 {
			fmt.Fprintf(&b, " and %d more", len(entries)-20)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		n, _ := e.(jsonObject).get("name").(string)
		b.WriteString(n)
	}
	return b.String()
}
