package source

import (
	"fmt"
	"sort"
	"strings"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// A patched document is one made from a document and other files (OpenAPI
// overlays, package gen/overlay): its JSON form is the result, and each
// value and member key in it is recorded at the file, line and column it
// was written at. Loaders read it as any other Source; its Position is the
// line and column in the file the value came from, and FromOverlays says
// which file that is in the diagnostics that name the document.

// Origin is where a value or member key of a patched document was written.
type Origin struct {
	Offset    int64 // where it starts in the patched JSON form
	File      int   // index in the files given to Patched: 0 for the document
	Line, Col int
}

// Patched returns the Source of the document made from orig and the other
// files (by their names; files[0] is orig's): json is its JSON form, origins
// the places its values and keys came from, by increasing Offset. orig's
// duplicate keys stay its duplicates.
func Patched(orig *Source, json []byte, files []string, origins []Origin) (*Source, error) {
	tree, err := jsontree.Parse(json)
	if err != nil {
		return nil, fmt.Errorf("internal error: patched document: %v", err)
	}
	s := &Source{Name: orig.Name, Data: orig.Data, JSON: json, Tree: tree, Duplicates: orig.Duplicates,
		files: append([]string(nil), files...), Pos: make([]yamlPosition, len(origins))}
	for i, o := range origins {
		s.Pos[i] = yamlPosition{off: o.Offset, line: int32(o.Line), col: int32(o.Col), file: int32(o.File)}
	}
	return s, nil
}

// Patched reports whether s is a patched document (see Patched).
func (s *Source) Patched() bool { return len(s.files) > 0 }

// At returns the line and column of the value or member key that starts at
// offset of s's JSON form, if one written out in the text starts there (a
// value reached through a YAML alias does not).
func (s *Source) At(offset int64) (line, col int, ok bool) {
	if s.Pos == nil {
		s.linesOnce.Do(func() { s.lines = jsontree.NewLines(s.Data) })
		line, col = s.lines.LineCol(offset)
		return line, col, true
	}
	if !s.recordedAt(offset) {
		return 0, 0, false
	}
	i := sort.Search(len(s.Pos), func(i int) bool { return s.Pos[i].off >= offset })
	return int(s.Pos[i].line), int(s.Pos[i].col), true
}

// OriginOf returns the name of the file the value at the JSON pointer path
// (or the nearest enclosing value there is) came from, and its line and
// column there: s's own name and Position for a document that is not
// patched.
func (s *Source) OriginOf(path string) (file string, line, col int) {
	line, col = s.Position(path, -1)
	if !s.Patched() {
		return s.Name, line, col
	}
	off := int64(0)
	for p := path; ; {
		if n := s.Tree.Find(p); n != nil {
			off = n.Offset
			break
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	i := sort.Search(len(s.Pos), func(i int) bool { return s.Pos[i].off > off })
	if i == 0 {
		return s.Name, line, col
	}
	return s.files[s.Pos[i-1].file], line, col
}

// FromOverlays rewrites the diagnostics of ds that name the patched document
// s at a value that came from another file (an overlay): with no line of
// the document, and "(from overlay FILE:LINE:COL)" after the message. The
// others are left as they are: their lines are the document's.
func (s *Source) FromOverlays(ds []Diagnostic) {
	if !s.Patched() {
		return
	}
	for i, d := range ds {
		if d.File != s.Name || d.Path == "" {
			continue
		}
		file, line, col := s.OriginOf(d.Path)
		if file == s.Name {
			continue
		}
		ds[i].Line, ds[i].Col = 0, 0
		ds[i].Message = fmt.Sprintf("%s (from overlay %s:%d:%d)", d.Message, file, line, col)
	}
}
