// Package toolopt holds the options of a generated Tool: which functions it
// serves, and the default, fixed and environment values it completes a
// call's arguments with ([Args]).
package toolopt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// Option configures a generated Tool adapter (the NewTool of every
// generated package): which functions it serves ([WithFunctions]) and how it
// completes the arguments of a call before decoding them, as agent platforms
// configure their tools:
//
//   - defaults: a value used only when the caller omitted the argument (an
//     explicit null counts as given); the argument is no longer required in
//     the served document;
//   - fixed: a value that replaces whatever the caller sent; the argument is
//     removed from the declared document, so an LLM never sees it;
//   - envs: the argument is read from an environment variable at call time;
//     it is removed from the declared document, and its value never appears
//     in errors or in the document (only the variable's name does).
//
// A string default or fixed value may hold {name} placeholders, filled per
// call from the call's values ([WithCallValues], [WithCallValueHeaders]):
// "{agent_turn_id}" or "run {trace_id}". The names are [CallValueNames] and
// those of [WithCallValueNames]; "{{" and "}}" are literal braces. A
// placeholder the tool does not know fails NewTool; one without a value for a
// call fails that call with an invalid-params error naming it.
//
// Function "" applies an option to every function that has the argument. Of
// two options for the same argument, the later one applies: the serving
// side's own configuration, given after the options registered with the
// tool, overrides them.
type Option func(*argConfig)

type argConfig struct {
	defaults, fixed []argRule
	envs            []argRule
	lookup          func(string) (string, bool)
	functions       []string // WithFunctions; nil serves every function
	subset          bool
	valueNames      []string // WithCallValueNames
	strictResponses bool     // WithStrictResponses
}

type argRule struct {
	function, arg string
	value         any    // defaults, fixed
	env           string // envs
}

// WithDefaults sets default values of arguments of function.
func WithDefaults(function string, values map[string]any) Option {
	return func(c *argConfig) {
		for _, k := range sortedKeys(values) {
			c.defaults = append(c.defaults, argRule{function: function, arg: k, value: values[k]})
		}
	}
}

// WithFixed forces arguments of function to values and hides them.
func WithFixed(function string, values map[string]any) Option {
	return func(c *argConfig) {
		for _, k := range sortedKeys(values) {
			c.fixed = append(c.fixed, argRule{function: function, arg: k, value: values[k]})
		}
	}
}

// WithEnvs fills arguments of function from environment variables (argument
// name → variable name) and hides them.
func WithEnvs(function string, vars map[string]string) Option {
	return func(c *argConfig) {
		for _, k := range sortedKeys(vars) {
			c.envs = append(c.envs, argRule{function: function, arg: k, env: vars[k]})
		}
	}
}

// WithLookupEnv replaces os.LookupEnv for the envs option (for tests, or a
// secret store).
func WithLookupEnv(lookup func(string) (string, bool)) Option {
	return func(c *argConfig) { c.lookup = lookup }
}

// WithFunctions serves only the named functions (of those the document has):
// the others are absent from the served document and its declarations, and a
// call of one is "method not found". Given several times, the names add up.
func WithFunctions(names ...string) Option {
	return func(c *argConfig) {
		c.functions = append(c.functions, names...)
		c.subset = true
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Args is what a generated Tool adapter's options make of its document: the
// functions it serves, the served document, and how the arguments of calls
// are completed. It is safe for concurrent use.
type Args struct {
	fns    map[string]*fnArgs
	lookup func(string) (string, bool)
	served map[string]bool    // nil: every function
	doc    []byte             // the served document (options applied)
	parsed *document.OpenTool // doc, decoded once; never modified
	alias  map[string]string  // declared name → function, where they differ (declare.Names)
	// strictResponses is WithStrictResponses (CallContext).
	strictResponses bool
}

type fnArgs struct {
	defaults, fixed []argValue
	envs            []argEnv
}

type argValue struct {
	name string
	raw  json.RawMessage
	tmpl *template // a string with {name} placeholders, filled per call; raw unused
}

// set puts v in list, replacing a value for the same argument: of two options
// for one argument, the later one wins (the serving side's configuration,
// given after the registered options, overrides them).
func set[T any](list []T, v T, name func(T) string) []T {
	for i := range list {
		if name(list[i]) == name(v) {
			list[i] = v
			return list
		}
	}
	return append(list, v)
}

func valueName(v argValue) string { return v.name }
func envName(v argEnv) string     { return v.name }

type argEnv struct {
	name, env string
	str       bool // the argument is a string: the value is sent as a JSON string
}

// NewArgs checks the options against doc (every function and argument they
// name must exist, fixed and default values must have the argument's JSON
// type) and returns what they make of it.
func NewArgs(doc *document.OpenTool, opts ...Option) (*Args, error) {
	var c argConfig
	for _, o := range opts {
		o(&c)
	}
	a := &Args{fns: map[string]*fnArgs{}, lookup: c.lookup, strictResponses: c.strictResponses}
	if a.lookup == nil {
		a.lookup = os.LookupEnv
	}
	b := &argsBuilder{
		doc: doc, a: a,
		hidden:    map[string]map[string]bool{},
		defaulted: map[string]map[string]bool{},
		known:     append(slices.Clone(runtime.CallValueNames), c.valueNames...),
	}
	if c.subset {
		b.serve(c.functions)
	}
	b.rules(&c)
	if len(b.errs) > 0 {
		return nil, errors.New("opentool: " + strings.Join(b.errs, "; "))
	}
	if err := b.served(); err != nil {
		return nil, err
	}
	return a, nil
}

// argsBuilder is NewArgs at work: the rules of the options applied to the
// document's functions, and every problem found on the way.
type argsBuilder struct {
	doc       *document.OpenTool
	a         *Args
	errs      []string
	hidden    map[string]map[string]bool // function → hidden arguments
	defaulted map[string]map[string]bool // function → arguments with a default
	known     []string                   // the call values templates may name
}

// serve keeps the functions WithFunctions names.
func (b *argsBuilder) serve(functions []string) {
	b.a.served = map[string]bool{}
	for _, name := range functions {
		if findFunction(b.doc, name) == nil {
			b.errs = append(b.errs, fmt.Sprintf("functions: no function %s", strconv.Quote(name)))
			continue
		}
		b.a.served[name] = true
	}
}

// rules applies the fixed, envs and defaults rules of c.
func (b *argsBuilder) rules(c *argConfig) {
	for _, r := range c.fixed {
		b.each("fixed", r, func(f *document.Function, p *document.Parameter) {
			if v, ok := b.value("fixed", r, f, p); ok {
				fa := b.fn(f.Name)
				fa.fixed = set(fa.fixed, v, valueName)
				mark(b.hidden, f.Name, p.Name)
			}
		})
	}
	for _, r := range c.envs {
		b.each("envs", r, func(f *document.Function, p *document.Parameter) {
			fa := b.fn(f.Name)
			fa.envs = set(fa.envs, argEnv{name: p.Name, env: r.env, str: jsonType(b.doc, p.Schema) == document.TypeString}, envName)
			mark(b.hidden, f.Name, p.Name)
		})
	}
	for _, r := range c.defaults {
		b.each("defaults", r, func(f *document.Function, p *document.Parameter) {
			if v, ok := b.value("defaults", r, f, p); ok {
				fa := b.fn(f.Name)
				fa.defaults = set(fa.defaults, v, valueName)
				mark(b.defaulted, f.Name, p.Name)
			}
		})
	}
}

// mark records parameter p of function f in m.
func mark(m map[string]map[string]bool, f, p string) {
	if m[f] == nil {
		m[f] = map[string]bool{}
	}
	m[f][p] = true
}

// each calls fn for every (function, parameter) rule r applies to, and
// records a rule that applies to none.
func (b *argsBuilder) each(kind string, r argRule, fn func(f *document.Function, p *document.Parameter)) {
	found := false
	for i := range b.doc.Functions {
		f := &b.doc.Functions[i]
		if r.function != "" && f.Name != r.function {
			continue
		}
		for j := range f.Parameters {
			if f.Parameters[j].Name == r.arg {
				found = true
				fn(f, &f.Parameters[j])
			}
		}
	}
	switch {
	case found:
	case r.function == "":
		b.errs = append(b.errs, fmt.Sprintf("%s: no function has an argument %s", kind, strconv.Quote(r.arg)))
	case findFunction(b.doc, r.function) == nil:
		b.errs = append(b.errs, fmt.Sprintf("%s: no function %s", kind, strconv.Quote(r.function)))
	default:
		b.errs = append(b.errs, fmt.Sprintf("%s: function %s has no argument %s", kind, strconv.Quote(r.function), strconv.Quote(r.arg)))
	}
}

// fn returns the rules of function name, made when it has none yet.
func (b *argsBuilder) fn(name string) *fnArgs {
	fa := b.a.fns[name]
	if fa == nil {
		fa = &fnArgs{}
		b.a.fns[name] = fa
	}
	return fa
}

// value is the value rule r gives parameter p of f, checked against p's
// type, with its template parsed when it is a string.
func (b *argsBuilder) value(kind string, r argRule, f *document.Function, p *document.Parameter) (argValue, bool) {
	raw, err := json.Marshal(r.value)
	if err != nil {
		b.errs = append(b.errs, fmt.Sprintf("%s: %s.%s: %v", kind, f.Name, p.Name, err))
		return argValue{}, false
	}
	if want := jsonType(b.doc, p.Schema); want != "" && string(raw) != "null" && document.KindOf(raw) != want && !(want == document.TypeNumber && document.KindOf(raw) == document.TypeInteger) {
		b.errs = append(b.errs, fmt.Sprintf("%s: %s.%s: got %s, want %s", kind, f.Name, p.Name, document.KindOf(raw), want))
		return argValue{}, false
	}
	v := argValue{name: p.Name, raw: raw}
	if s, ok := r.value.(string); ok {
		t, err := parseTemplate(s, b.known)
		if err != nil {
			b.errs = append(b.errs, fmt.Sprintf("%s: %s.%s: %v", kind, f.Name, p.Name, err))
			return argValue{}, false
		}
		v.tmpl = t
	}
	return v, true
}

// served makes the served document: a copy with the served functions only,
// without the hidden arguments, and with defaulted ones optional; and the
// names functions are declared under.
func (b *argsBuilder) served() error {
	a := b.a
	cp := *b.doc
	cp.Functions = make([]document.Function, 0, len(b.doc.Functions))
	for _, f := range b.doc.Functions {
		if a.served != nil && !a.served[f.Name] {
			continue
		}
		h, d := b.hidden[f.Name], b.defaulted[f.Name]
		if h != nil || d != nil {
			ps := []document.Parameter{}
			for _, p := range f.Parameters {
				if h[p.Name] {
					continue
				}
				if d[p.Name] {
					p.Required = false
				}
				ps = append(ps, p)
			}
			f.Parameters = ps
		}
		cp.Functions = append(cp.Functions, f)
	}
	data, err := json.Marshal(&cp)
	if err != nil {
		return err
	}
	a.doc = data
	a.parsed = new(document.OpenTool)
	if err := json.Unmarshal(data, a.parsed); err != nil {
		return err
	}
	for fn, declared := range declare.Names(a.parsed) {
		if declared != fn {
			if a.alias == nil {
				a.alias = map[string]string{}
			}
			a.alias[declared] = fn
		}
	}
	return nil
}

// Resolve returns the served function a call names: name itself, or the
// function declared to LLM providers under name when the function's own name
// does not fit their rules ([declare.Names]). ok is false for a function that
// is not served (name is returned as given).
func (a *Args) Resolve(name string) (function string, ok bool) {
	if fn, found := a.alias[name]; found {
		return fn, true
	}
	return name, a.Serves(name)
}

// Serves reports whether function is served (see [WithFunctions]).
func (a *Args) Serves(function string) bool { return a.served == nil || a.served[function] }

// Served returns the served document, decoded once: the same pointer each
// call, to be read and never modified (a [Tool]'s Load may return it).
func (a *Args) Served() *document.OpenTool { return a.parsed }

func findFunction(doc *document.OpenTool, name string) *document.Function {
	for i := range doc.Functions {
		if doc.Functions[i].Name == name {
			return &doc.Functions[i]
		}
	}
	return nil
}

// jsonType returns the JSON type of values of s ("" when it does not say).
func jsonType(doc *document.OpenTool, s *document.Schema) string {
	r, err := doc.Resolve(s)
	if err != nil || r == nil {
		return ""
	}
	return r.Type
}

// Document returns the served document: the tool's document with the served
// functions only (WithFunctions), without the fixed and environment
// arguments, and with defaulted arguments optional. Each call returns a new
// copy.
func (a *Args) Document() *document.OpenTool {
	var d document.OpenTool
	if err := json.Unmarshal(a.doc, &d); err != nil {
		panic("opentool: the declared document does not decode: " + err.Error())
	}
	return &d
}

// Apply returns the arguments of a call of function completed with the fixed,
// environment and default values, {name} placeholders filled from the call
// values on ctx ([WithCallValues]). Arguments that are not a JSON object are
// returned as they are, for the decoder to report. A placeholder without a
// value is an invalid-params error naming it and the argument.
func (a *Args) Apply(ctx context.Context, function string, args json.RawMessage) (json.RawMessage, error) {
	fa := a.fns[function]
	if fa == nil {
		return args, nil
	}
	m := map[string]json.RawMessage{}
	if t := bytes.TrimSpace(args); len(t) > 0 && string(t) != "null" {
		if t[0] != '{' || json.Unmarshal(t, &m) != nil {
			return args, nil
		}
	}
	var bad []runtime.Violation
	raw := func(v argValue) (json.RawMessage, bool) {
		if v.tmpl == nil {
			return v.raw, true
		}
		b, err := v.tmpl.fill(runtime.CallValues(ctx))
		if err != nil {
			bad = append(bad, runtime.Violation{Path: jsontree.Pointer(v.name), Message: err.Error()})
			return nil, false
		}
		return b, true
	}
	for _, v := range fa.fixed {
		if r, ok := raw(v); ok {
			m[v.name] = r
		}
	}
	for _, e := range fa.envs {
		val, ok := a.lookup(e.env)
		switch {
		case !ok:
			delete(m, e.name)
		case e.str || !json.Valid([]byte(val)):
			m[e.name], _ = json.Marshal(val)
		default:
			m[e.name] = json.RawMessage(val)
		}
	}
	for _, v := range fa.defaults {
		if _, ok := m[v.name]; !ok {
			if r, ok := raw(v); ok {
				m[v.name] = r
			}
		}
	}
	if bad != nil {
		return nil, runtime.InvalidParams(bad...)
	}
	out, err := json.Marshal(m)
	if err != nil {
		return args, nil
	}
	return out, nil
}

// Redact rewrites the violations of an invalid-params error about arguments
// filled from the environment so that they name the variable, not its value.
func (a *Args) Redact(function string, err error) error {
	fa := a.fns[function]
	var e *runtime.Error
	if fa == nil || len(fa.envs) == 0 || !errors.As(err, &e) {
		return err
	}
	vs := e.Violations()
	if vs == nil {
		return err
	}
	changed := false
	for i, v := range vs {
		for _, env := range fa.envs {
			p := jsontree.Pointer(env.name)
			if v.Path != p && !strings.HasPrefix(v.Path, p+"/") {
				continue
			}
			changed = true
			vs[i].Path = p
			if _, ok := a.lookup(env.env); ok {
				vs[i].Message = "the value of environment variable " + env.env + " is invalid"
			} else {
				vs[i].Message = "environment variable " + env.env + " is not set"
			}
		}
	}
	if !changed {
		return err
	}
	return runtime.InvalidParams(vs...)
}
