package source

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Context lines of a diagnostic, as the command prints them under an error:
//
//	bad.yaml:3:10: /info/title: want a string, got an array
//	    2 | info:
//	  > 3 |   title: [unclosed
//	      |          ^
//	    4 | paths: {}
//
// Excerpt makes them from the text of the file; the diagnostic's String
// stays one line, so that errors compare, match and wrap as before.

// ExcerptLines is how many lines Excerpt shows before and after the line of
// the problem.
const ExcerptLines = 2

// excerptWidth is the widest a line of an excerpt gets, in characters: a
// longer line (a minified JSON document is one) shows the part around the
// column, cut with "…".
const excerptWidth = 100

// Excerpt returns the lines of text around line (1-based), each after its
// number, the line itself marked with ">" and followed by a caret under
// column col (1-based, in bytes, as a Diagnostic counts it; none when 0).
// Characters that would act on a terminal (control characters, bidirectional
// overrides, invalid UTF-8) are shown as "?". It returns "" when text has no
// such line.
func Excerpt(text []byte, line, col int) string {
	if line < 1 {
		return ""
	}
	first := max(1, line-ExcerptLines)
	// The offset where line first starts.
	start, n := 0, 1
	for n < first {
		i := bytes.IndexByte(text[start:], '\n')
		if i < 0 {
			return ""
		}
		start += i + 1
		n++
	}
	var lines [][]byte
	for n <= line+ExcerptLines && start <= len(text) {
		end := bytes.IndexByte(text[start:], '\n')
		last := end < 0
		if last {
			end = len(text) - start
			if end == 0 && n != line && n > first {
				break // what follows the final newline is no line
			}
		}
		lines = append(lines, bytes.TrimSuffix(text[start:start+end], []byte("\r")))
		start += end + 1
		n++
		if last {
			break
		}
	}
	if line-first >= len(lines) {
		return ""
	}
	width := len(strconv.Itoa(first + len(lines) - 1))
	var b strings.Builder
	for i, l := range lines {
		num := first + i
		mark := "    "
		if num == line {
			mark = "  > "
		}
		caretAt := -1
		if num == line && col > 0 {
			caretAt = col - 1
		}
		shown, caret, ok := excerptLine(l, caretAt)
		b.WriteString(mark)
		b.WriteString(strings.Repeat(" ", width-len(strconv.Itoa(num))))
		b.WriteString(strconv.Itoa(num))
		b.WriteString(" |")
		if shown != "" {
			b.WriteString(" ")
			b.WriteString(shown)
		}
		b.WriteString("\n")
		if ok {
			b.WriteString("    ")
			b.WriteString(strings.Repeat(" ", width))
			b.WriteString(" | ")
			b.WriteString(caret)
			b.WriteString("^\n")
		}
	}
	return b.String()
}

// excerptLine returns line as shown (safe characters, at most excerptWidth
// of them around byte caretAt) and, when caretAt ≥ 0, what goes before the
// caret under it (a tab under a tab, a space under any other character) and
// true.
func excerptLine(line []byte, caretAt int) (shown, caret string, ok bool) {
	var runes []rune
	at := -1 // the rune the caret is under
	for i := 0; i < len(line); {
		if at < 0 && i >= caretAt && caretAt >= 0 {
			at = len(runes)
		}
		r, size := utf8.DecodeRune(line[i:])
		if r == utf8.RuneError && size <= 1 || r != '\t' && !safeRune(r) {
			r = '?'
		}
		runes = append(runes, r)
		i += size
	}
	if caretAt >= 0 && at < 0 {
		at = len(runes) // past the end of the line
	}
	from, to := 0, len(runes)
	if len(runes) > excerptWidth {
		from = max(0, min(at-excerptWidth/2, len(runes)-excerptWidth))
		to = from + excerptWidth
	}
	var s, c strings.Builder
	if from > 0 {
		s.WriteString("…")
		c.WriteString(" ")
	}
	for i := from; i < to; i++ {
		s.WriteRune(runes[i])
		if i < at {
			if runes[i] == '\t' {
				c.WriteByte('\t')
			} else {
				c.WriteByte(' ')
			}
		}
	}
	if to < len(runes) {
		s.WriteString("…")
	}
	if caretAt < 0 {
		return strings.TrimRight(s.String(), " \t"), "", false
	}
	for i := max(from, to); i < at; i++ { // a caret past the end of the line
		c.WriteByte(' ')
	}
	return strings.TrimRight(s.String(), " \t"), c.String(), true
}

// safeRune reports whether r may be written to a terminal as it is: a
// printable character, not one of the bidirectional controls that reorder
// what a reader sees.
func safeRune(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return false
	}
	return unicode.IsPrint(r) || r == ' '
}
