package declare

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime/document"
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
	// TagNamespaces declares each function with tags (document.Function's
	// Tags: an OpenAPI operation's) in the namespace of its first tag, as
	// [NamespacesByTag] makes them, so that a generated Tool's served
	// document groups at run time as opentoolgen -namespaces tag does.
	// Namespaces and NamespaceDescriptions given win over those it makes.
	// openai-responses profiles only, as Namespaces.
	TagNamespaces bool
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

// NamespacesByTag returns the namespaces of doc's functions made from their
// tags: each function with tags in the namespace named after its first tag
// ([NamespaceName]; a tag of which no character is left gives none), and
// each namespace described by its tag's description, else its summary
// (doc.Tags), prefixed with the names of the tags it is nested in (OpenAPI
// 3.2's parent) as "Pets › Dogs: …". OpenAI's namespaces are one level
// deep: a nested tag is a namespace of its own beside its parent's, which
// keeps namespaces small, as OpenAI advises. A namespace its tag does not
// describe has no description here ([FunctionsWith] lists its functions).
func NamespacesByTag(doc *document.OpenTool) (namespaces, descriptions map[string]string) {
	namespaces, descriptions = map[string]string{}, map[string]string{}
	if doc == nil {
		return namespaces, descriptions
	}
	tags := map[string]document.Tag{}
	for _, t := range doc.Tags {
		if _, dup := tags[t.Name]; !dup {
			tags[t.Name] = t
		}
	}
	for _, f := range doc.Functions {
		if len(f.Tags) == 0 {
			continue
		}
		ns := NamespaceName(f.Tags[0])
		if ns == "" {
			continue
		}
		namespaces[f.Name] = ns
		if _, done := descriptions[ns]; done {
			continue
		}
		if d := tagDescription(tags, f.Tags[0]); d != "" {
			descriptions[ns] = d
		}
	}
	return namespaces, descriptions
}

// tagDescription is the description of the namespace of tag name: its
// description or summary, after the chain of tags it is nested in.
func tagDescription(tags map[string]document.Tag, name string) string {
	t, ok := tags[name]
	if !ok {
		return ""
	}
	d := t.Description
	if d == "" {
		d = t.Summary
	}
	if d == "" {
		return ""
	}
	var chain []string
	seen := map[string]bool{name: true}
	for p := t.Parent; p != "" && !seen[p] && len(chain) < 16; p = tags[p].Parent {
		seen[p] = true
		chain = append([]string{p}, chain...)
	}
	if len(chain) == 0 {
		return d
	}
	return strings.Join(append(chain, name), " › ") + ": " + d
}

// withTags is o with the namespaces TagNamespaces asks for added to those
// given (which win), in maps of its own.
func (o Options) withTags(doc *document.OpenTool) Options {
	if !o.TagNamespaces {
		return o
	}
	ns, desc := NamespacesByTag(doc)
	for k, v := range o.Namespaces {
		ns[k] = v
	}
	for k, v := range o.NamespaceDescriptions {
		desc[k] = v
	}
	o.Namespaces, o.NamespaceDescriptions = ns, desc
	return o
}

// check reports options p's provider does not take, and namespaces that do
// not fit its rules.
func (o Options) check(doc *document.OpenTool, p Profile) error {
	if o.ToolSearch && !p.isResponses() && !p.isAnthropic() {
		if p == OpenAI || p == OpenAIStrict {
			return fmt.Errorf("opentool: %s declarations have no tool search: OpenAI's tool_search is in the Responses API (profile %s)", p, OpenAIResponses)
		}
		return fmt.Errorf("opentool: %s declarations have no tool search (OpenAI's Responses API and Anthropic's have)", p)
	}
	if len(o.Namespaces) == 0 && !o.TagNamespaces {
		return nil
	}
	if !p.isResponses() {
		return fmt.Errorf("opentool: %s declarations have no namespaces (OpenAI's Responses API has: profile %s)", p, OpenAIResponses)
	}
	names := Names(doc)
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
func (o Options) arrange(doc *document.OpenTool, p Profile, entries []jsonObject) ([]any, []Limit, []string) {
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
