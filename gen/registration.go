package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
)

// Registration asks Generate for the definitions of the functions as tools of
// the agent platform of seed 001 (§3.2), in the YAML its management API takes
// (POST /projects/{project_id}/tools): Result.Registration. Each function is
// one tool: tool_name is the function's name, target_subject the Subject
// template with {function} replaced by it ({project_id} and {channel_id} are
// left for the platform to expand), after_execution AfterExecution,
// parameters the function's parameters as one JSON Schema object (those of its
// LLM declaration), options {} and description the function's.
type Registration struct {
	// Subject is the target_subject template (default DefaultSubject): a
	// cmd.tool.* subject, short (cmd.tool.NAME…) or in the platform's full
	// form (cg.VERSION.{project_id}.{channel_id}.cmd.tool.NAME…), of tokens
	// or whole-token placeholders {function}, {project_id}, {channel_id}.
	Subject string
	// AfterExecution is "suspend" (the default) or "terminate".
	AfterExecution string
}

// DefaultSubject is the default target_subject template of a Registration:
// what package natsexec subscribes to by default.
const DefaultSubject = "cmd.tool.{function}"

// InternalToolNames are the names of the platform's own tools (PMO), which an
// external tool may not take (seed 001 §3.2).
var InternalToolNames = []string{"delegate_async", "launch_principal", "ask_expert", "fork_join", "provision_agent"}

// RegistrationError is a Registration's own problem: Field is "subject" or
// "after_execution".
type RegistrationError struct {
	Field, Message string
}

func (e *RegistrationError) Error() string { return e.Field + ": " + e.Message }

// Check reports a Subject or AfterExecution the platform refuses (empty ones
// are the defaults); Generate checks them too.
func (r *Registration) Check() error {
	switch r.AfterExecution {
	case "", "suspend", "terminate":
	default:
		return &RegistrationError{"after_execution", fmt.Sprintf("got %q, want suspend or terminate (the only values the platform takes for an external tool)", r.AfterExecution)}
	}
	s := r.subject()
	tokens := strings.Split(s, ".")
	for i, t := range tokens {
		switch {
		case t == "":
			return &RegistrationError{"subject", fmt.Sprintf("%q: token %d is empty", s, i+1)}
		case t == "{function}" || t == "{project_id}" || t == "{channel_id}":
		case strings.ContainsAny(t, "{}"):
			return &RegistrationError{"subject", fmt.Sprintf("%q: token %q: a placeholder is a whole token, one of {function}, {project_id}, {channel_id}", s, t)}
		case strings.ContainsAny(t, "*> \t\r\n"):
			return &RegistrationError{"subject", fmt.Sprintf("%q: token %q: a target_subject has no wildcards or white space", s, t)}
		}
	}
	family := tokens
	if tokens[0] == "cg" && len(tokens) > 4 {
		family = tokens[4:]
	}
	if len(family) >= 2 && family[0] == "cmd" && family[1] == "sys" {
		return &RegistrationError{"subject", fmt.Sprintf("%q: cmd.sys.* subjects are the platform's own; a tool's target_subject must be cmd.tool.*", s)}
	}
	if len(family) < 3 || family[0] != "cmd" || family[1] != "tool" {
		return &RegistrationError{"subject", fmt.Sprintf("%q: want a cmd.tool.* subject (cmd.tool.{function}, or cg.VERSION.{project_id}.{channel_id}.cmd.tool.{function})", s)}
	}
	return nil
}

func (r *Registration) subject() string {
	if r.Subject == "" {
		return DefaultSubject
	}
	return r.Subject
}

// registration returns the tool definitions of pkg's functions, or the
// problems: a Registration the platform refuses, a function whose
// name is an internal tool's or cannot be a subject token, functions that
// would share a target_subject.
func registration(name string, data []byte, src *source.Source, pkg *model.Package, r *Registration) ([]byte, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	after := r.AfterExecution
	if after == "" {
		after = "suspend"
	}
	subject := r.subject()
	decls := declare.Plain(pkg.Document)
	var diags []source.Diagnostic
	at := func(fn string, msg string) {
		path := functionPlace(src, pkg, fn)
		line, col := src.Position(path, -1)
		diags = append(diags, source.Diagnostic{File: name, Line: line, Col: col, Path: path, Message: msg})
	}
	perFunction := strings.Contains(subject, "{function}")
	if !perFunction && len(decls) > 1 {
		return nil, &RegistrationError{"subject", fmt.Sprintf("%q has no {function}: the %d functions would share one target_subject, by which the platform finds a tool's definition", subject, len(decls))}
	}
	for _, d := range decls {
		for _, in := range InternalToolNames {
			if d.Name == in {
				at(d.Name, fmt.Sprintf("function %q: %s is an internal tool of the platform (%s), which an external tool may not be named; rename it or leave it out with -exclude", d.Name, in, strings.Join(InternalToolNames, ", ")))
			}
		}
		if perFunction && strings.ContainsAny(d.Name, ".*> \t\r\n{}") {
			at(d.Name, fmt.Sprintf("function %q cannot be a token of target_subject %s (no dots, wildcards or white space)", d.Name, subject))
		}
	}
	if len(diags) > 0 {
		e := &source.Error{Diagnostics: diags}
		e.AddText(name, data)
		return nil, e
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Tool definitions of %s for the management API: POST /projects/{project_id}/tools,\n", yamlComment(pkg.Document.Info.Title))
	b.WriteString("# one YAML document (---) per tool. Generated by opentoolgen -registration.\n")
	for _, d := range decls {
		b.WriteString("---\n")
		fmt.Fprintf(&b, "tool_name: %s\n", yamlScalar(d.Name))
		fmt.Fprintf(&b, "target_subject: %s\n", yamlScalar(strings.ReplaceAll(subject, "{function}", d.Name)))
		fmt.Fprintf(&b, "after_execution: %s\n", after)
		fmt.Fprintf(&b, "description: %s\n", yamlScalar(d.Description))
		b.WriteString("parameters:")
		if err := writeYAML(&b, d.Parameters, 2); err != nil {
			return nil, fmt.Errorf("parameters of %q: %w", d.Name, err)
		}
		b.WriteString("options: {}\n")
	}
	return b.Bytes(), nil
}

// functionPlace is the JSON pointer of the function named fn in the input
// document: the OpenAPI operation (its operationId), or the name of the entry in "functions"
// (OpenTool, OpenDyn) or "tools" (an MCP listing).
func functionPlace(src *source.Source, pkg *model.Package, fn string) string {
	for _, f := range pkg.Functions {
		if f.Name == fn && f.HTTP != nil {
			esc := strings.NewReplacer("~", "~0", "/", "~1").Replace
			op := "/paths/" + esc(f.HTTP.Path) + "/" + strings.ToLower(f.HTTP.Method)
			if src.Tree.Find(op+"/operationId") != nil {
				return op + "/operationId"
			}
			return op
		}
	}
	for _, list := range []string{"functions", "tools", "result/tools"} {
		n := src.Tree.Find("/" + list)
		if n == nil {
			continue
		}
		for i, item := range n.Items {
			if v := item.Get("name"); v != nil && v.Str == fn {
				return fmt.Sprintf("/%s/%d/name", list, i)
			}
		}
	}
	return ""
}

// yamlComment is s on one comment line.
func yamlComment(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "the tool"
	}
	return strconv.Quote(s)
}

// writeYAML writes the JSON value data as block YAML at indent (after a key
// and its colon): scalars on the same line, objects and arrays on the next
// lines, object members in document order. Strings are plain when nothing in
// them could be read otherwise, else double-quoted with JSON's escapes, which
// YAML's double-quoted style reads alike.
func writeYAML(b *bytes.Buffer, data []byte, indent int) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readOrdered(dec)
	if err != nil {
		return err
	}
	writeValue(b, v, indent)
	return nil
}

// ordered is a JSON value with its object members in order.
type ordered struct {
	keys   []string
	vals   []*ordered
	items  []*ordered
	kind   byte // '{', '[', or 0 for a scalar
	scalar string
}

func readOrdered(dec *json.Decoder) (*ordered, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		v := &ordered{kind: byte(t)}
		for dec.More() {
			if t == '{' {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := k.(string)
				v.keys = append(v.keys, key)
			}
			item, err := readOrdered(dec)
			if err != nil {
				return nil, err
			}
			if t == '{' {
				v.vals = append(v.vals, item)
			} else {
				v.items = append(v.items, item)
			}
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return v, nil
	case string:
		return &ordered{scalar: yamlScalar(t)}, nil
	case json.Number:
		return &ordered{scalar: t.String()}, nil
	case bool:
		return &ordered{scalar: strconv.FormatBool(t)}, nil
	case nil:
		return &ordered{scalar: "null"}, nil
	}
	return nil, errors.New("unexpected JSON token")
}

// writeValue writes v after "key:" or "-": a scalar or an empty container
// after a space, a non-empty one on the following lines at indent.
func writeValue(b *bytes.Buffer, v *ordered, indent int) {
	switch {
	case v.kind == '{' && len(v.keys) == 0:
		b.WriteString(" {}\n")
	case v.kind == '[' && len(v.items) == 0:
		b.WriteString(" []\n")
	case v.kind == 0:
		b.WriteString(" " + v.scalar + "\n")
	default:
		b.WriteString("\n")
		writeBlock(b, v, indent, false)
	}
}

// writeBlock writes a non-empty object or array at indent; inline leaves out
// the first line's indentation (after "- ").
func writeBlock(b *bytes.Buffer, v *ordered, indent int, inline bool) {
	pad := strings.Repeat(" ", indent)
	if v.kind == '{' {
		for i, k := range v.keys {
			if i > 0 || !inline {
				b.WriteString(pad)
			}
			b.WriteString(yamlScalar(k) + ":")
			writeValue(b, v.vals[i], indent+2)
		}
		return
	}
	for i, item := range v.items {
		if i > 0 || !inline {
			b.WriteString(pad)
		}
		b.WriteString("-")
		if (item.kind == '{' && len(item.keys) > 0) || (item.kind == '[' && len(item.items) > 0) {
			b.WriteString(" ")
			writeBlock(b, item, indent+2, true)
			continue
		}
		writeValue(b, item, indent+2)
	}
}

// yamlScalar is s as a YAML scalar: plain when it is letters, digits and
// _ - / and does not start like a number, a boolean or null of YAML 1.1 or
// 1.2; else double-quoted, with \ escapes for quotes, backslashes and every
// character YAML does not print.
func yamlScalar(s string) string {
	if plainYAML(s) {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case r < 0x20 || r >= 0x7f && r <= 0x9f || r == 0x2028 || r == 0x2029 || r == 0xfeff || r >= 0xd800 && r <= 0xdfff || r == 0xfffe || r == 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func plainYAML(s string) bool {
	if s == "" {
		return false
	}
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null", "~":
		return false
	}
	c := s[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '/') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '/' || c == '.') {
			return false
		}
	}
	return true
}
