// Package source reads the generator's input documents: JSON, or YAML
// converted to JSON, parsed once into a jsontree with the byte offset of every
// value, so that each problem a later stage finds is reported where it is in
// the original text (file:line:col: /json/pointer: message, see Diagnostic).
package source

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// Source is an input document, read once. Loaders see its JSON form; problems
// are reported at positions in the original text (JSON or YAML).
type Source struct {
	Name string
	Data []byte // as read
	JSON []byte // the JSON form (Data itself for JSON input)
	Tree *jsontree.Node
	// Pos holds the YAML positions of the values and member keys written
	// out in the YAML text, by their offset in the JSON form, in order (YAML
	// input only).
	Pos []yamlPosition
	// Duplicates are the members of objects (YAML mappings) that came again
	// with a name an earlier member has, in order. The tree (and the JSON
	// form of YAML input) holds the last one's value in the first one's
	// place, as encoding/json and JavaScript read such a document; the JSON
	// form of JSON input is the input, duplicates and all. Loaders that take
	// such documents warn (DuplicateDiagnostics), the others refuse them.
	Duplicates []Duplicate

	// files are the names of the files a patched document was made from
	// (Patched), the document's first; nil for any other.
	files []string

	linesOnce sync.Once
	lines     *jsontree.Lines // of Data, made by the first Position that needs it
}

// Duplicate is a member that came again in an object.
type Duplicate struct {
	Path      string // JSON pointer of the member
	Line, Col int    // where its key is
	FirstLine int    // the line of the earlier member of the name
}

// DuplicateDiagnostics returns the diagnostics of s's duplicate keys: errors,
// or with warning the warnings of a loader that reads the last value.
func (s *Source) DuplicateDiagnostics(warning bool) []Diagnostic {
	out := make([]Diagnostic, len(s.Duplicates))
	for i, d := range s.Duplicates {
		key := d.Path[strings.LastIndexByte(d.Path, '/')+1:]
		key = strings.NewReplacer("~1", "/", "~0", "~").Replace(key)
		msg := fmt.Sprintf("duplicate key %q (the first is at line %d)", ClipValue(key), d.FirstLine)
		if warning {
			msg = fmt.Sprintf("duplicate key %q (an earlier one is at line %d): the last one's value is used, as most JSON readers do", ClipValue(key), d.FirstLine)
		}
		out[i] = Diagnostic{File: s.Name, Line: d.Line, Col: d.Col, Path: d.Path, Message: msg, Warning: warning}
	}
	return out
}

// ReadSource parses data as JSON, or as YAML when it is not JSON.
func ReadSource(name string, data []byte) (*Source, error) {
	s := &Source{Name: name, Data: data}
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		tree, dups, err := jsontree.ParseLenient(data)
		if err == nil {
			s.JSON, s.Tree = data, tree
			for _, d := range dups {
				line, col := jsontree.LineCol(data, d.Offset)
				first, _ := jsontree.LineCol(data, d.First)
				s.Duplicates = append(s.Duplicates, Duplicate{Path: d.Path, Line: line, Col: col, FirstLine: first})
			}
			return s, nil
		}
		if !LooksLikeYAML(name) {
			se, _ := err.(*jsontree.SyntaxError)
			d := Diagnostic{File: name, Message: err.Error()}
			if se != nil {
				d.Line, d.Col = jsontree.LineCol(data, se.Offset)
				d.Path, d.Message = se.Path, se.Msg
			}
			return nil, &Error{Diagnostics: []Diagnostic{d}}
		}
	}
	if err := s.fromYAML(); err != nil {
		return nil, err
	}
	return s, nil
}

// Position returns the line and column of the value at the JSON pointer path
// (or, failing that, at offset in the JSON form), falling back to the nearest
// enclosing value that has one.
//
// For YAML input, offset is in the JSON form; when it is not where a value
// or key written out in the YAML text starts (a value reached through an
// alias), path says where. A value reached through an alias is at the alias.
func (s *Source) Position(path string, offset int64) (int, int) {
	if s.Pos != nil && offset >= 0 && !s.recordedAt(offset) {
		offset = -1 // a value reached through an alias: by path
	}
	if offset < 0 {
		offset = 0
		for p := path; ; {
			if n := s.Tree.Find(p); n != nil {
				offset = n.Offset
				break
			}
			i := strings.LastIndexByte(p, '/')
			if i < 0 {
				break
			}
			p = p[:i]
		}
	}
	if s.Pos != nil { // YAML: the last value that starts at or before offset
		i := sort.Search(len(s.Pos), func(i int) bool { return s.Pos[i].off > offset })
		if i == 0 {
			return 1, 1
		}
		return int(s.Pos[i-1].line), int(s.Pos[i-1].col)
	}
	s.linesOnce.Do(func() { s.lines = jsontree.NewLines(s.Data) })
	return s.lines.LineCol(offset)
}

// recordedAt reports whether a value or key written out in the YAML text
// starts at offset of the JSON form.
func (s *Source) recordedAt(offset int64) bool {
	i := sort.Search(len(s.Pos), func(i int) bool { return s.Pos[i].off >= offset })
	return i < len(s.Pos) && s.Pos[i].off == offset
}

// MaxFileBytes is the largest document or referenced file accepted: 64 MiB.
const MaxFileBytes = 64 << 20

// FileLimit is the largest document or referenced file accepted under an
// option of n bytes: n, or MaxFileBytes when n is not above 0.
func FileLimit(n int64) int64 {
	if n > 0 {
		return n
	}
	return MaxFileBytes
}

// SizeText writes a size limit for a message: "64 MiB", or bytes.
func SizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
