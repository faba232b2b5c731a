package toolcli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
)

// maxOptionsBytes bounds the options file.
const maxOptionsBytes = 4 << 20

// rule is one argument option of the options file, at its place.
type rule struct {
	kind     string // "defaults", "fixed" or "envs"
	function string // "" for every function that has the argument
	arg      string
	value    any    // defaults, fixed
	env      string // envs
	path     string // JSON pointer of the member
	offset   int64  // of the member's key
}

// option is the toolopt.Option of r alone.
func (r *rule) option() toolopt.Option {
	switch r.kind {
	case "defaults":
		return toolopt.WithDefaults(r.function, map[string]any{r.arg: r.value})
	case "fixed":
		return toolopt.WithFixed(r.function, map[string]any{r.arg: r.value})
	default:
		return toolopt.WithEnvs(r.function, map[string]string{r.arg: r.env})
	}
}

// options are the toolopt.Options of rules.
func options(rules []rule) []toolopt.Option {
	opts := make([]toolopt.Option, len(rules))
	for i := range rules {
		opts[i] = rules[i].option()
	}
	return opts
}

// optionsError is a bad options file: every problem, one per line, as
// FILE:line:col: /json/pointer: message.
type optionsError struct {
	lines []string
}

func (e *optionsError) Error() string { return strings.Join(e.lines, "\n") + "\n" }

// optionsFile is an options file being read.
type optionsFile struct {
	name  string
	data  []byte
	rules []rule
	errs  []string
}

func (f *optionsFile) errorf(offset int64, path, format string, args ...any) {
	line, col := jsontree.LineCol(f.data, offset)
	place := fmt.Sprintf("%s:%d:%d", f.name, line, col)
	if path != "" {
		place += ": " + jsontree.ShortPointer(path)
	}
	f.errs = append(f.errs, place+": "+fmt.Sprintf(format, args...))
}

func (f *optionsFile) err() error {
	if len(f.errs) == 0 {
		return nil
	}
	return &optionsError{lines: f.errs}
}

// readOptions reads the options file at name: its rules, in file order.
func readOptions(name string) ([]rule, error) {
	data, err := readFile(name)
	if err != nil {
		return nil, &optionsError{lines: []string{"--options: " + err.Error()}}
	}
	f := &optionsFile{name: name, data: data}
	root, err := jsontree.Parse(data)
	if err != nil {
		var se *jsontree.SyntaxError
		if errors.As(err, &se) {
			f.errorf(se.Offset, se.Path, "%s", se.Msg)
		} else {
			f.errorf(0, "", "%v", err)
		}
		return nil, f.err()
	}
	f.options(root, "", "")
	if err := f.err(); err != nil {
		return nil, err
	}
	return f.rules, nil
}

func readFile(name string) ([]byte, error) {
	fh, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, maxOptionsBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if len(data) > maxOptionsBytes {
		return nil, fmt.Errorf("%s: larger than %d MiB", name, maxOptionsBytes>>20)
	}
	return data, nil
}

// object checks that n is an object and returns its members, or reports it.
func (f *optionsFile) object(n *jsontree.Node, path, what string) []jsontree.Member {
	if n.Kind != jsontree.Object {
		f.errorf(n.Offset, path, "got %s, want an object (%s)", n.KindName(), what)
		return nil
	}
	return n.Members
}

func (f *optionsFile) unknown(m jsontree.Member, path string, want ...string) {
	quoted := make([]string, len(want))
	for i, w := range want {
		quoted[i] = strconv.Quote(w)
	}
	f.errorf(m.KeyOffset, path, "unknown member %s, want %s", strconv.Quote(m.Key), strings.Join(quoted, ", "))
}

// options reads the members args and envs of n, for function ("" for every
// function), and at the top also functions.
func (f *optionsFile) options(n *jsontree.Node, path, function string) {
	top := path == ""
	what := "the options: args, envs, functions"
	if !top {
		what = "the options of function " + strconv.Quote(function) + ": args, envs"
	}
	for _, m := range f.object(n, path, what) {
		p := path + jsontree.Pointer(m.Key)
		switch {
		case m.Key == "args":
			for _, a := range f.object(m.Value, p, "defaults, fixed") {
				ap := p + jsontree.Pointer(a.Key)
				switch a.Key {
				case "defaults", "fixed":
					f.values(a.Value, ap, a.Key, function)
				default:
					f.unknown(a, ap, "defaults", "fixed")
				}
			}
		case m.Key == "envs":
			for _, e := range f.object(m.Value, p, "argument name → environment variable") {
				ep := p + jsontree.Pointer(e.Key)
				if e.Value.Kind != jsontree.String || !validEnvName(e.Value.Str) {
					f.errorf(e.Value.Offset, ep, "got %s, want the name of an environment variable", describe(e.Value))
					continue
				}
				f.rules = append(f.rules, rule{kind: "envs", function: function, arg: e.Key, env: e.Value.Str, path: ep, offset: e.KeyOffset})
			}
		case m.Key == "functions" && top:
			for _, fn := range f.object(m.Value, p, "function name → its options") {
				f.options(fn.Value, p+jsontree.Pointer(fn.Key), fn.Key)
			}
		case top:
			f.unknown(m, p, "args", "envs", "functions")
		default:
			f.unknown(m, p, "args", "envs")
		}
	}
}

// values reads the argument values of defaults or fixed.
func (f *optionsFile) values(n *jsontree.Node, path, kind, function string) {
	for _, m := range f.object(n, path, "argument name → value") {
		d := json.NewDecoder(bytes.NewReader(jsontree.AppendJSON(nil, m.Value)))
		d.UseNumber() // numbers kept as written
		var v any
		if err := d.Decode(&v); err != nil { // cannot happen: the tree is valid JSON
			f.errorf(m.Value.Offset, path+jsontree.Pointer(m.Key), "%v", err)
			continue
		}
		f.rules = append(f.rules, rule{kind: kind, function: function, arg: m.Key, value: v, path: path + jsontree.Pointer(m.Key), offset: m.KeyOffset})
	}
}

// check reports the rules that doc refutes (a function or argument it lacks, a
// value of the wrong type), each at its place.
func (f *optionsFile) check(doc *document.OpenTool, rules []rule) error {
	for i := range rules {
		r := &rules[i]
		if _, err := toolopt.NewArgs(doc, r.option()); err != nil {
			f.errorf(r.offset, r.path, "%s", strings.TrimPrefix(err.Error(), "opentool: "))
		}
	}
	return f.err()
}

// newTool builds the tool with the options of rules. When that fails, the
// rules are checked one by one against the tool's document (Command.Document,
// else the document of the tool built without options) so that the error
// names the place in the options file.
func (c *Command) newTool(ctx context.Context, file string, rules []rule) (runtime.Tool, error) {
	tool, err := c.NewTool(ctx, options(rules)...)
	if err == nil && tool == nil {
		err = errors.New("NewTool returned no tool")
	}
	if err == nil || len(rules) == 0 {
		return tool, err
	}
	doc := c.Document
	if doc == nil {
		bare, berr := c.NewTool(ctx)
		if berr != nil || bare == nil {
			return nil, err
		}
		if doc, berr = bare.Load(ctx); berr != nil || doc == nil {
			return nil, err
		}
	}
	data, rerr := readFile(file)
	if rerr != nil {
		return nil, err
	}
	if cerr := (&optionsFile{name: file, data: data}).check(doc, rules); cerr != nil {
		return nil, cerr
	}
	return nil, err
}

// unsetEnvs returns the variables the envs rules name that are not set, each
// once, in file order.
func unsetEnvs(rules []rule) []string {
	var out []string
	for _, r := range rules {
		if r.kind != "envs" || slices.Contains(out, r.env) {
			continue
		}
		if _, ok := os.LookupEnv(r.env); !ok {
			out = append(out, r.env)
		}
	}
	return out
}

// validEnvName reports whether s can name an environment variable.
func validEnvName(s string) bool {
	return s != "" && !strings.ContainsAny(s, "=\x00")
}

// describe is a JSON value for a message: a string quoted, else its kind.
func describe(n *jsontree.Node) string {
	if n.Kind == jsontree.String {
		return strconv.Quote(n.Str)
	}
	return n.KindName()
}
