package opentool

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// Problem is one thing wrong with a document: an error, or a warning about
// something read in a guessed or degraded way.
type Problem struct {
	// Path is the JSON pointer (RFC 6901) of the value the problem is about,
	// such as "/functions/0/parameters/1/schema/type"; "" is the whole document.
	// For a missing member it is where the member should be. A path longer
	// than 16 KiB (a document nested thousands of levels deep) is kept
	// abbreviated: "/a/b/c/d/…(9,990 more)…/w/x/y/z".
	Path string `json:"path"`
	// Offset is the byte offset in the input of the value the problem is about
	// (for a missing member, of the object that lacks it); -1 if unknown.
	Offset  int64  `json:"offset"`
	Message string `json:"message"`
	Warning bool   `json:"warning,omitempty"`
}

// String returns "path: message", or "path: warning: message"; a path over
// 256 bytes is abbreviated.
func (p Problem) String() string {
	path := jsontree.ShortPointer(p.Path)
	if path == "" {
		path = "(root)"
	}
	if p.Warning {
		return path + ": warning: " + p.Message
	}
	return path + ": " + p.Message
}

// Position returns the 1-based line and column (counting bytes) of the problem
// in data, the document it was found in; 0, 0 when its offset is unknown.
func (p Problem) Position(data []byte) (line, col int) {
	if p.Offset < 0 {
		return 0, 0
	}
	return jsontree.LineCol(data, p.Offset)
}

// Format returns "file:line:col: path: message" for the problem found in
// data, read from the file named filename.
func (p Problem) Format(filename string, data []byte) string {
	if line, col := p.Position(data); line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", filename, line, col, p)
	}
	return filename + ": " + p.String()
}

// DocumentError is the error [LoadOpenTool] returns for a document it rejects:
// every error found in it, in document order.
type DocumentError struct {
	Problems []Problem `json:"problems"`
}

// Error lists the problems, one "path: message" per line.
func (e *DocumentError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// LoadOpenTool reads an OpenTool document, checks it against the OpenTool
// specification and its references, and returns it. Its error is a
// *[DocumentError] listing every problem found. Warnings are dropped; use
// [LoadOpenToolWarnings] to see them.
func LoadOpenTool(data []byte) (*document.OpenTool, error) {
	doc, _, err := LoadOpenToolWarnings(data)
	return doc, err
}

// LoadOpenToolWarnings is [LoadOpenTool] that also returns the warnings, in
// document order: things the document does not do as the specification says
// but that are read anyway (a missing function description or parameter list,
// a missing "required", members ignored in a schema). It returns them even when
// it also returns an error.
//
// The document is returned as written: references stay references (see
// [OpenTool.Resolve]). A function without parameters has an empty, non-nil
// Parameters; empty "properties", "schemas", "stream" and "required" are nil.
// JSON null for an optional member is the same as leaving it out.
func LoadOpenToolWarnings(data []byte) (*document.OpenTool, []Problem, error) {
	root, err := jsontree.Parse(data)
	if err != nil {
		se := err.(*jsontree.SyntaxError)
		return nil, nil, &DocumentError{Problems: []Problem{{Path: storedPath(se.Path), Offset: se.Offset, Message: "invalid JSON: " + se.Msg}}}
	}
	return LoadTree(root)
}

// LoadTree is [LoadOpenToolWarnings] of a document already parsed (or built,
// as the OpenDyn loader builds the equivalent OpenTool document): problems
// carry the offsets of root's nodes.
func LoadTree(root *jsontree.Node) (*document.OpenTool, []Problem, error) {
	return LoadTreeMembers(root, Members{})
}

// Members are the members an extension of OpenTool (OpenDyn) defines beyond
// OpenTool's, by object: a loader of the extension takes them out of the
// tree before [LoadTreeMembers] reads it, which suggests them for a member
// neither defines.
type Members struct {
	Document, Info, Function, Parameter, Return, Schema []string
}

// LoadTreeMembers is [LoadTree] of a document of an extension of OpenTool
// whose own members are extra.
func LoadTreeMembers(root *jsontree.Node, extra Members) (*document.OpenTool, []Problem, error) {
	l := otLoader{known: Members{
		Document:  append(slices.Clip(documentMembers), extra.Document...),
		Info:      append(slices.Clip(infoMembers), extra.Info...),
		Function:  append(slices.Clip(functionMembers), extra.Function...),
		Parameter: append(slices.Clip(parameterMembers), extra.Parameter...),
		Return:    append(slices.Clip(returnMembers), extra.Return...),
		Schema:    append(slices.Clip(schemaMembers), extra.Schema...),
	}}
	doc := l.document(root)
	slices.SortStableFunc(l.problems, func(a, b Problem) int { return cmp.Compare(a.Offset, b.Offset) })
	var errs, warnings []Problem
	for _, p := range l.problems {
		if p.Warning {
			warnings = append(warnings, p)
		} else {
			errs = append(errs, p)
		}
	}
	if len(errs) > 0 {
		return nil, warnings, &DocumentError{Problems: errs}
	}
	return doc, warnings, nil
}

// otLoader builds an OpenTool from a parsed document, collecting problems.
// Its methods read the value at path, the JSON pointer of the value being
// read, kept as a stack so that a path becomes a string only in a problem.
type otLoader struct {
	problems    []Problem
	path        []byte
	schemaNames []string            // the names in the document's "schemas", in order
	schemaSet   map[string]struct{} // the same names
	// known are the members each object defines.
	known Members
	// alts counts the oneOf and anyOf alternatives around the schema being
	// read: the OpenTool model does not type their values, so their
	// constraints are not checked.
	alts int
}

// enter appends tok to the path and returns what leave needs to undo it.
func (l *otLoader) enter(tok string) int {
	n := len(l.path)
	l.path = jsontree.AppendToken(l.path, tok)
	return n
}

// enterIndex appends an array index to the path.
func (l *otLoader) enterIndex(i int) int {
	n := len(l.path)
	l.path = strconv.AppendInt(append(l.path, '/'), int64(i), 10)
	return n
}

func (l *otLoader) leave(n int) { l.path = l.path[:n] }

// here is the path of the value being read.
func (l *otLoader) here() string { return string(l.path) }

// at is the path of member key of the value being read.
func (l *otLoader) at(key string) string {
	return string(jsontree.AppendToken(slices.Clip(l.path), key))
}

func (l *otLoader) errorf(path string, offset int64, format string, args ...any) {
	l.problems = append(l.problems, Problem{Path: storedPath(path), Offset: offset, Message: fmt.Sprintf(format, args...)})
}

func (l *otLoader) warnf(path string, offset int64, format string, args ...any) {
	l.problems = append(l.problems, Problem{Path: storedPath(path), Offset: offset, Message: fmt.Sprintf(format, args...), Warning: true})
}

// gotWant reports that the value v at path is not what is wanted.
func (l *otLoader) gotWant(path string, v *jsontree.Node, want string) {
	l.errorf(path, v.Offset, "got %s, want %s", describeJSONValue(v), want)
}

// describeJSONValue says what v is, for "got ..." in messages.
func describeJSONValue(v *jsontree.Node) string {
	switch v.Kind {
	case jsontree.Null:
		return "null"
	case jsontree.Bool:
		return "boolean " + strconv.FormatBool(v.Bool)
	case jsontree.Number:
		return "number " + clipText(v.Str)
	case jsontree.String:
		return "string " + strconv.Quote(clipText(v.Str))
	case jsontree.Array:
		if len(v.Items) == 0 {
			return "an empty array"
		}
		return "an array"
	default:
		return "an object"
	}
}

// clipText shortens s for a message.
func clipText(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && s[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}

// otMember returns obj's member key, or nil when it is missing or null (null
// is the same as leaving an optional member out).
func otMember(obj *jsontree.Node, key string) *jsontree.Node {
	v := obj.Get(key)
	if v != nil && v.Kind == jsontree.Null {
		return nil
	}
	return v
}

// str reads the string member key of obj.
func (l *otLoader) str(obj *jsontree.Node, key string, required bool) string {
	v := obj.Get(key)
	switch {
	case v == nil || v.Kind == jsontree.Null && !required:
		if required {
			l.errorf(l.at(key), obj.Offset, "missing, want a string")
		}
		return ""
	case v.Kind != jsontree.String:
		l.gotWant(l.at(key), v, "a string")
		return ""
	}
	return v.Str
}

// required returns obj's member key, or nil after reporting it missing or null.
func (l *otLoader) required(obj *jsontree.Node, key, want string) *jsontree.Node {
	v := obj.Get(key)
	switch {
	case v == nil:
		l.errorf(l.at(key), obj.Offset, "missing, want %s", want)
	case v.Kind == jsontree.Null:
		l.gotWant(l.at(key), v, want)
	default:
		return v
	}
	return nil
}

// Load loads and validates the OpenTool document src and builds its model
// (model.FromOpenTool): the shape of every loader's Load.
func Load(src *source.Source, _ model.LoadOptions) (*model.Package, []source.Diagnostic, error) {
	doc, problems, err := LoadOpenToolWarnings(src.JSON)
	var diags, warnings []source.Diagnostic
	for _, p := range problems {
		warnings = append(warnings, problemDiagnostic(src, p))
	}
	if err != nil {
		var de *DocumentError
		if errors.As(err, &de) {
			for _, p := range de.Problems {
				diags = append(diags, problemDiagnostic(src, p))
			}
		} else {
			diags = append(diags, source.Diagnostic{File: src.Name, Message: err.Error()})
		}
	}
	if len(diags) > 0 {
		return nil, warnings, &source.Error{Diagnostics: source.Dedup(diags)}
	}
	return model.FromOpenTool(doc, filepath.Base(src.Name)), warnings, nil
}

// problemDiagnostic is the diagnostic of a problem found in s's JSON form.
func problemDiagnostic(s *source.Source, p Problem) source.Diagnostic {
	line, col := s.Position(p.Path, p.Offset)
	return source.Diagnostic{File: s.Name, Line: line, Col: col, Path: p.Path, Message: p.Message, Warning: p.Warning}
}
