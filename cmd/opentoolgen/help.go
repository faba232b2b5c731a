package main

import (
	_ "embed"
	"fmt"
	"io"
	"strings"
)

// doc is this command's package doc, the manual: -h prints its flags from
// it, so that they are written once.
//
//go:embed doc.go
var doc string

// helpParagraphs are the paragraphs of the package doc that -h prints, by the
// words they start with, each with the indented blocks that follow it.
var helpParagraphs = []string{"Command opentoolgen", "The kind of DOCUMENT", "The flags are:", "Flags go before", "Exit status:"}

// printHelp prints the usage line and, from the package doc, what the command
// does, its flags and its exit status (-h, -help).
func printHelp(w io.Writer) {
	fmt.Fprintln(w, usageLine)
	for _, p := range docParagraphs(doc) {
		fmt.Fprintln(w)
		for _, l := range p.lines {
			if p.indented {
				l = "  " + strings.TrimPrefix(l, "\t")
			}
			fmt.Fprintln(w, strings.TrimPrefix(l, "Command "))
		}
	}
}

// paragraph is a run of lines of the package doc without an empty line;
// indented, a code or list block.
type paragraph struct {
	lines    []string
	indented bool
}

// docParagraphs returns the paragraphs of the package doc comment in src: the
// text ones that helpParagraphs selects, and the indented blocks that follow
// them.
func docParagraphs(src string) []paragraph {
	var all []paragraph
	var cur *paragraph
	for _, line := range strings.Split(src, "\n") {
		text, ok := strings.CutPrefix(line, "//")
		if !ok {
			break // the end of the comment: package main
		}
		text = strings.TrimPrefix(text, " ")
		if text == "" {
			cur = nil
			continue
		}
		indented := strings.HasPrefix(text, "\t")
		if cur == nil || cur.indented != indented {
			all = append(all, paragraph{indented: indented})
			cur = &all[len(all)-1]
		}
		cur.lines = append(cur.lines, text)
	}
	// Keep the indented blocks that follow a selected paragraph only.
	var out []paragraph
	keep := false
	for _, p := range all {
		if !p.indented {
			keep = startsAny(p.lines[0], helpParagraphs)
		}
		if keep {
			out = append(out, p)
		}
	}
	return out
}

func startsAny(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
