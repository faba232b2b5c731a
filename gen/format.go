package gen

import (
	"bytes"
	"go/format"
	"sort"
	"strings"
)

// formatSource formats a file rendered by jennifer the way
// golang.org/x/tools/imports (FormatOnly) does, standard library imports in a
// group before the others, but with one parse and one print instead of two:
// the import block jennifer writes (one import per line) is grouped and
// sorted as text, then go/format formats the file.
func formatSource(src []byte) ([]byte, error) {
	return format.Source(groupImports(src))
}

// groupImports rewrites the first parenthesised import block of src into a
// group of standard library imports and a group of the others, each sorted by
// path. src is returned as is when its import block has another shape.
func groupImports(src []byte) []byte {
	start := bytes.Index(src, []byte("\nimport (\n"))
	if start < 0 {
		return src
	}
	body := start + len("\nimport (\n")
	end := bytes.Index(src[body:], []byte("\n)\n"))
	if end < 0 {
		return src
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
			return src // not a plain import line: leave the block to gofmt as is
		}
		path := line[q+1 : len(line)-1]
		first, _, _ := strings.Cut(path, "/")
		if strings.Contains(first, ".") {
			other = append(other, imp{path, line})
		} else {
			std = append(std, imp{path, line})
		}
	}
	var b bytes.Buffer
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
	return b.Bytes()
}
