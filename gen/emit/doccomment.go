package emit

import (
	"strings"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// Doc comments carry at most maxDocComment bytes of a description: a longer
// one is cut at a paragraph, line or word boundary, and its last paragraph
// kept when it is at most maxDocTail bytes (the generator's own notes come
// last). The embedded document, and the one -document writes, keep the whole
// text; before, a 50 MB description was written three times.
const (
	maxDocComment = 2 << 10
	maxDocTail    = 512
)

// clipDoc returns text, or when it is longer than maxDocComment its head, a
// line that says how much was left out, and its last paragraph if short. It
// does not copy text.
func clipDoc(text string) string {
	if len(text) <= maxDocComment {
		return text
	}
	tail := ""
	rest := strings.TrimRight(text, " \t\r\n")
	if i := strings.LastIndex(rest, "\n\n"); i >= 0 && len(rest)-i-2 <= maxDocTail {
		tail, rest = rest[i+2:], rest[:i]
	}
	head := rest
	if len(head) > maxDocComment-len(tail) {
		head = head[:maxDocComment-len(tail)]
		for len(head) > 0 && !utf8.RuneStart(rest[len(head)]) {
			head = head[:len(head)-1]
		}
		// the last paragraph break, line break or space in the second half
		for _, sep := range []string{"\n\n", "\n", " "} {
			if i := strings.LastIndex(head, sep); i >= len(head)/2 {
				head = head[:i]
				break
			}
		}
	}
	head = strings.TrimRight(head, " \t\r\n")
	left := len(text) - len(head) - len(tail)
	var b strings.Builder
	b.WriteString(head)
	b.WriteString(" …\n\n(")
	b.WriteString(jsontree.Thousands(left))
	b.WriteString(" bytes of the description are left out here; the document has the whole text.)")
	if tail != "" {
		b.WriteString("\n\n")
		b.WriteString(tail)
	}
	return b.String()
}
