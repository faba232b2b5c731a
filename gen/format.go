package gen

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"sort"
	"strings"
	"sync"
)

// buffers holds the buffers a file is rendered into before it is formatted
// (renderOne), reused from file to file: a large package's rendering would
// otherwise allocate each file's source twice more.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// formatSource formats a file rendered by jennifer the way
// golang.org/x/tools/imports (FormatOnly) does, standard library imports in a
// group before the others, but with one parse and one print instead of two:
// the import block jennifer writes (one import per line) is grouped and
// sorted as text, then the file is formatted as go/format.Source formats it,
// into a buffer of the size the formatted file is about to be. src is not
// kept.
func formatSource(src []byte) ([]byte, error) {
	grouped := buffers.Get().(*bytes.Buffer)
	defer func() { grouped.Reset(); buffers.Put(grouped) }()
	if groupImports(grouped, src) {
		src = grouped.Bytes()
	}
	src = abutDocs(src)
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	ast.SortImports(fset, file)
	var out bytes.Buffer
	out.Grow(len(src) + len(src)/8)
	if err := format.Node(&out, fset, file); err != nil { // gofmt's printer configuration
		return nil, err
	}
	return out.Bytes(), nil
}

// abutDocs returns src with the declarations that follow a comment line
// moved to the start of their line: jennifer writes the declaration after a
// doc comment it is given with (f.Add(doc).Func()…) a space further, "\n
// func", and go/printer formats a doc comment (go/doc/comment: lists, code
// blocks, headings) only when the declaration starts the next line, as it
// does once printed: gofmt would then format it a second time. The space
// is whitespace between tokens (the generated code has no multi-line raw
// string), so src is changed in place.
func abutDocs(src []byte) []byte {
	w := 0    // src[:w] is the output so far
	from := 0 // src[from:i] is not yet moved to w
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte("\n "))
		if j < 0 {
			break
		}
		i += j + 1
		rest := src[i+1:]
		if !(bytes.HasPrefix(rest, []byte("func ")) || bytes.HasPrefix(rest, []byte("type ")) ||
			bytes.HasPrefix(rest, []byte("var ")) || bytes.HasPrefix(rest, []byte("const "))) {
			continue
		}
		// the line before starts with "//"
		if start := bytes.LastIndexByte(src[:i-1], '\n') + 1; !bytes.HasPrefix(src[start:], []byte("//")) {
			continue
		}
		w += copy(src[w:], src[from:i])
		from = i + 1 // the space left out
	}
	if from == 0 {
		return src
	}
	w += copy(src[w:], src[from:])
	return src[:w]
}

// groupImports writes into b src with its first parenthesised import block
// rewritten into a group of standard library imports and a group of the
// others, each sorted by path, and reports whether it did: it does not when
// the import block has another shape.
func groupImports(b *bytes.Buffer, src []byte) bool {
	start := bytes.Index(src, []byte("\nimport (\n"))
	if start < 0 {
		return false
	}
	body := start + len("\nimport (\n")
	end := bytes.Index(src[body:], []byte("\n)\n"))
	if end < 0 {
		return false
	}
	type imp struct{ path, line string }
	var std, other []imp
	for _, line := range strings.Split(string(src[body:body+end]), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		q := strings.IndexByte(line, '"')
		if q < 0 || !strings.HasSuffix(line, `"`) || strings.Contains(line, "//") {
			return false // not a plain import line: leave the block to gofmt as is
		}
		path := line[q+1 : len(line)-1]
		first, _, _ := strings.Cut(path, "/")
		if strings.Contains(first, ".") {
			other = append(other, imp{path, line})
		} else {
			std = append(std, imp{path, line})
		}
	}
	b.Grow(len(src) + 2)
	b.Write(src[:body])
	for i, group := range [][]imp{std, other} {
		sort.SliceStable(group, func(a, c int) bool { return group[a].path < group[c].path })
		if i == 1 && len(std) > 0 && len(other) > 0 {
			b.WriteByte('\n')
		}
		for _, m := range group {
			b.WriteString("\t" + m.line + "\n")
		}
	}
	b.Write(src[body+end+1:])
	return true
}
