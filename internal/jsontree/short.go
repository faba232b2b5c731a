package jsontree

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Bounds of ShortPointer: pointers up to MaxShortPointer bytes are kept
// whole; longer ones keep their first and last shortEnds tokens, each cut to
// shortToken bytes.
const (
	MaxShortPointer = 256
	shortEnds       = 4
	shortToken      = 24
)

// ShortPointer returns the JSON pointer p as a message shows it: p itself
// when it has at most MaxShortPointer bytes, else its first and last four
// tokens around the count of those left out, each token cut to 24 bytes:
// "/a/b/c/d/…(9,990 more)…/w/x/y/z". It is for people to read, no longer a
// pointer; it never has more than about 250 bytes, and costs time linear in
// the length of p.
func ShortPointer(p string) string {
	if len(p) <= MaxShortPointer {
		return p
	}
	rest := p
	prefix := ""
	if strings.HasPrefix(rest, "/") {
		rest, prefix = rest[1:], "/"
	}
	n := strings.Count(rest, "/") + 1
	var b strings.Builder
	b.WriteString(prefix)
	if n <= 2*shortEnds {
		for i, tok := range strings.Split(rest, "/") {
			if i > 0 {
				b.WriteByte('/')
			}
			b.WriteString(shortTok(tok))
		}
		return b.String()
	}
	// the first tokens
	for i := range shortEnds {
		tok, after, _ := strings.Cut(rest, "/")
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(shortTok(tok))
		rest = after
	}
	// the last tokens
	end := len(rest)
	start := end
	for range shortEnds {
		start = strings.LastIndexByte(rest[:end], '/')
		end = start
	}
	b.WriteString("/…(")
	b.WriteString(Thousands(n - 2*shortEnds))
	b.WriteString(" more)…")
	for _, tok := range strings.Split(rest[start+1:], "/") {
		b.WriteByte('/')
		b.WriteString(shortTok(tok))
	}
	return b.String()
}

// shortTok cuts a token to shortToken bytes (at a rune boundary), marking
// the cut with "…".
func shortTok(tok string) string {
	if len(tok) <= shortToken {
		return tok
	}
	cut := shortToken
	for cut > 0 && !utf8.RuneStart(tok[cut]) {
		cut--
	}
	return tok[:cut] + "…"
}

// Thousands formats n with commas, for messages: 9990 → "9,990".
func Thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
