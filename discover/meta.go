package discover

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/functions"
)

// The budgets that keep the discovery document small whatever the tool set.
const (
	maxInfoDescription = 400  // bytes of the wrapped tool's info description kept
	maxNamespaceList   = 1200 // bytes of namespaces named in search_tools' description
)

// document returns the discovery document of the wrapped tool's document.
func (t *Tool) document(ix *index) *document.OpenTool {
	info := document.Info{Title: "tools", Version: "0.0.0"}
	if ix.doc != nil {
		info = ix.doc.Info
	}
	n := len(ix.entries)
	info.Description = strings.TrimSpace(clip(strings.TrimSpace(info.Description), maxInfoDescription) + "\n\n" +
		fmt.Sprintf("In discovery mode: %d functions, found with %s, read with %s and called with %s.", n, t.cfg.search, t.cfg.describe, t.cfg.call))
	str := func(desc string) *document.Schema {
		return &document.Schema{Type: document.TypeString, Description: desc}
	}
	obj := &document.Schema{Type: document.TypeObject}
	limit := &document.Schema{Type: document.TypeInteger, Minimum: new(1.0), Maximum: new(float64(MaxLimit)),
		Default: json.RawMessage(strconv.Itoa(t.cfg.limit))}
	return &document.OpenTool{
		OpenTool: "1.0.0",
		Info:     info,
		Functions: []document.Function{{
			Name: t.cfg.search,
			Description: fmt.Sprintf("Search the %d functions of this tool set by what they do (words of their names, summaries, descriptions, HTTP paths and namespaces); "+
				"answers the best matches first, each with a one-line summary. Then %s gives one's parameters and %s calls it.", n, t.cfg.describe, t.cfg.call),
			Parameters: []document.Parameter{
				{Name: "query", Description: `What to do, in words ("open an issue on a repository"). Empty, with no namespace: the namespaces.`, Schema: str("")},
				{Name: "namespace", Description: namespaceDoc(ix), Schema: str("")},
				{Name: "limit", Description: "How many functions to answer at most.", Schema: limit},
			},
			Return: &document.Return{Name: "result", Description: `{"tools": [{"name", "summary", "namespace", "method", "path"}], "total"}, or {"namespaces": [{"name", "tools"}]}`, Schema: obj},
		}, {
			Name:        t.cfg.describe,
			Description: fmt.Sprintf("Describe one function found with %s: its full description and the JSON Schema of its arguments, as %s takes them.", t.cfg.search, t.cfg.call),
			Parameters:  []document.Parameter{{Name: "name", Description: "The function's name.", Schema: str(""), Required: true}},
			Return:      &document.Return{Name: "result", Description: `{"name", "description", "parameters", "streams", "tags", "method", "path"}`, Schema: obj},
		}, {
			Name:        t.cfg.call,
			Description: fmt.Sprintf("Call one function by name with its arguments (an object matching the parameters %s gives); answers the function's result.", t.cfg.describe),
			Parameters: []document.Parameter{
				{Name: "name", Description: "The function's name.", Schema: str(""), Required: true},
				t.argumentsParameter(),
			},
			Return: &document.Return{Name: "result", Description: "The function's result.", Schema: obj},
		}},
	}
}

// argumentsParameter is call_tool's arguments parameter: an object, or with
// WithArgumentsAsString a string that holds one.
func (t *Tool) argumentsParameter() document.Parameter {
	if t.cfg.argsString {
		return document.Parameter{Name: "arguments", Description: `The function's arguments: their JSON object, as a string ("{\"id\": 1}").`,
			Schema: &document.Schema{Type: document.TypeString}, Required: true}
	}
	return document.Parameter{Name: "arguments", Description: "The function's arguments.", Schema: &document.Schema{Type: document.TypeObject}}
}

// namespaceDoc describes search_tools' namespace parameter, naming as many
// namespaces as fit in maxNamespaceList bytes.
func namespaceDoc(ix *index) string {
	if len(ix.tags) == 0 {
		return "Only the functions tagged with this namespace (this tool set has none)."
	}
	var b strings.Builder
	b.WriteString("Only the functions of this namespace: ")
	for i, tc := range ix.tags {
		item := tc.Name
		if i > 0 {
			item = ", " + item
		}
		if b.Len()+len(item) > maxNamespaceList {
			fmt.Fprintf(&b, " and %d more (search with no query to list them all)", len(ix.tags)-i)
			break
		}
		b.WriteString(item)
	}
	b.WriteByte('.')
	return b.String()
}

// found is one function in search_tools' answer.
type found struct {
	Name      string `json:"name"`
	Summary   string `json:"summary,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	Method    string `json:"method,omitempty"`
	Path      string `json:"path,omitempty"`
}

// search answers search_tools.
func (t *Tool) search(ix *index, args json.RawMessage) (json.RawMessage, error) {
	var a struct {
		Query     *string          `json:"query"`
		Namespace *string          `json:"namespace"`
		Limit     *json.RawMessage `json:"limit"`
	}
	if err := decodeArgs(args, &a, map[string]string{"query": "a string", "namespace": "a string", "limit": "an integer"}); err != nil {
		return nil, err
	}
	limit, err := limitOf(a.Limit, t.cfg.limit)
	if err != nil {
		return nil, err
	}
	query, ns := deref(a.Query), strings.TrimSpace(deref(a.Namespace))
	if ns != "" {
		if _, ok := ix.tagsIdx[strings.ToLower(ns)]; !ok {
			return nil, runtime.InvalidParams(runtime.Violation{Path: "/namespace", Message: "no namespace " + quote(ns) + "; " + t.cfg.search + " with no query and no namespace lists them"})
		}
	}
	if strings.TrimSpace(query) == "" && ns == "" {
		return json.Marshal(struct {
			Namespaces []tagCount `json:"namespaces"`
			Total      int        `json:"total"`
		}{append([]tagCount{}, ix.tags...), len(ix.entries)})
	}
	hits := ix.search(query, ns)
	out := struct {
		Tools []found `json:"tools"`
		Total int     `json:"total"`
	}{Tools: []found{}, Total: len(hits)}
	for _, h := range hits[:min(limit, len(hits))] {
		e := &ix.entries[h.i]
		f := found{Name: e.fn.Name, Summary: e.summary}
		if len(e.fn.Tags) > 0 {
			f.Namespace = e.fn.Tags[0]
		}
		if e.fn.HTTP != nil {
			f.Method, f.Path = e.fn.HTTP.Method, e.fn.HTTP.Path
		}
		out.Tools = append(out.Tools, f)
	}
	return json.Marshal(out)
}

// limitOf reads search_tools' limit: def when absent or null.
func limitOf(raw *json.RawMessage, def int) (int, error) {
	if raw == nil || string(*raw) == "null" {
		return def, nil
	}
	var n json.Number
	if err := json.Unmarshal(*raw, &n); err == nil {
		if v, err := n.Int64(); err == nil && v >= 1 && v <= MaxLimit {
			return int(v), nil
		}
	}
	return 0, runtime.InvalidParams(runtime.Violation{Path: "/limit", Message: fmt.Sprintf("got %s, want an integer from 1 to %d", clip(string(*raw), 40), MaxLimit)})
}

// description is describe_tool's answer.
type description struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Streams     bool            `json:"streams,omitempty"`
	Tags        []string        `json:"tags,omitempty"`
	Method      string          `json:"method,omitempty"`
	Path        string          `json:"path,omitempty"`
}

// describe answers describe_tool.
func (t *Tool) describe(ix *index, fns map[string]*functions.Tool, args json.RawMessage) (json.RawMessage, error) {
	var a struct {
		Name *string `json:"name"`
	}
	if err := decodeArgs(args, &a, map[string]string{"name": "a string"}); err != nil {
		return nil, err
	}
	if a.Name == nil {
		return nil, runtime.InvalidParams(runtime.Violation{Path: "/name", Message: "missing, want the name of a function"})
	}
	i, ok := ix.byName[*a.Name]
	if !ok {
		return nil, runtime.InvalidParams(runtime.Violation{Path: "/name", Message: "no function named " + quote(clip(*a.Name, 80)) + t.didYouMean(ix, *a.Name)})
	}
	e := &ix.entries[i]
	d := description{Name: e.fn.Name, Description: e.fn.Description, Parameters: fns[e.fn.Name].InputSchemaJSON(),
		Streams: e.fn.IsStream(), Tags: e.fn.Tags}
	if e.fn.HTTP != nil {
		d.Method, d.Path = e.fn.HTTP.Method, e.fn.HTTP.Path
	}
	return json.Marshal(d)
}

// didYouMean suggests the best match of a name that is not a function's.
func (t *Tool) didYouMean(ix *index, name string) string {
	if hits := ix.search(name, ""); len(hits) > 0 {
		return "; did you mean " + quote(ix.entries[hits[0].i].fn.Name) + "? (" + t.cfg.search + " finds functions)"
	}
	return "; " + t.cfg.search + " finds functions"
}

// callArgs reads call_tool's arguments: the function's name and its
// arguments ({} when absent or null, as a server passes none; a JSON string
// holding an object is read as that object, an empty one as none).
func (t *Tool) callArgs(args json.RawMessage) (string, json.RawMessage, error) {
	var a struct {
		Name      *string         `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := decodeArgs(args, &a, map[string]string{"name": "a string", "arguments": "an object"}); err != nil {
		return "", nil, err
	}
	if a.Name == nil {
		return "", nil, runtime.InvalidParams(runtime.Violation{Path: "/name", Message: "missing, want the name of a function"})
	}
	fargs := bytes.TrimSpace(a.Arguments)
	if len(fargs) > 0 && fargs[0] == '"' {
		var s string
		if json.Unmarshal(fargs, &s) == nil {
			fargs = bytes.TrimSpace([]byte(s))
		}
	}
	switch {
	case len(fargs) == 0 || string(fargs) == "null":
		fargs = json.RawMessage("{}")
	case fargs[0] != '{' || !json.Valid(fargs):
		return "", nil, runtime.InvalidParams(runtime.Violation{Path: "/arguments", Message: "got " + clip(string(fargs), 40) + ", want an object"})
	}
	return *a.Name, fargs, nil
}

// decodeArgs decodes the arguments of a discovery function into dst,
// reporting every member of the wrong type (want: member → what it should
// be) in one -32602 error; unknown members are ignored, as models add some.
func decodeArgs(args json.RawMessage, dst any, want map[string]string) error {
	if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" {
		args = json.RawMessage("{}")
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(args, &members); err != nil {
		return runtime.InvalidParams(runtime.Violation{Message: "want a JSON object of arguments"})
	}
	var vs []runtime.Violation
	for _, k := range []string{"name", "query", "namespace", "limit", "arguments"} {
		w, ok := want[k]
		v, present := members[k]
		if !ok || !present || string(v) == "null" {
			continue
		}
		var probe any
		_ = json.Unmarshal(v, &probe)
		good := false
		switch w {
		case "a string":
			_, good = probe.(string)
		case "an integer":
			good = true // limitOf checks it with its bounds
		case "an object":
			_, good = probe.(map[string]any)
			if s, isStr := probe.(string); isStr {
				s = strings.TrimSpace(s)
				good = s == "" || strings.HasPrefix(s, "{")
			}
		}
		if !good {
			vs = append(vs, runtime.Violation{Path: "/" + k, Message: "got " + clip(string(v), 40) + ", want " + w})
		}
	}
	if len(vs) > 0 {
		return runtime.InvalidParams(vs...)
	}
	if err := json.Unmarshal(args, dst); err != nil {
		return runtime.InvalidParams(runtime.Violation{Message: err.Error()})
	}
	return nil
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
