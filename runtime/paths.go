package runtime

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// maxStoredPath bounds the JSON pointers a [Problem] or a [Violation] keeps:
// a longer one, which only a document or arguments nested thousands of
// levels deep (or with keys of kilobytes) have, is kept abbreviated as
// messages show it ("/a/b/c/d/…(9,990 more)…/w/x/y/z"), so that a problem
// reported at every level of such a value does not take memory growing with
// the square of its depth.
const maxStoredPath = 16 << 10

// storedPath is p as a Problem or Violation keeps it.
func storedPath(p string) string {
	if len(p) > maxStoredPath {
		return jsontree.ShortPointer(p)
	}
	return p
}

// maxViolations bounds the violations one call's arguments are reported with:
// past it they are counted, and the last violation says how many were left
// out. Without a bound, an array of 20,000 wrong values nested 1,000 levels
// deep (46 kB of arguments) made an error of 80 MB.
const maxViolations = 100

// violate records a violation at the current position, or counts it past
// maxViolations.
func (d *Decoder) violate(msg string) {
	if len(d.violations) >= maxViolations {
		d.omitted++
		return
	}
	d.violations = append(d.violations, Violation{Path: storedPath(d.Path()), Message: msg})
}

// reported returns the violations to report: those recorded, and one that
// counts those left out.
func (d *Decoder) reported() []Violation {
	if d.omitted == 0 {
		return d.violations
	}
	return append(d.violations, Violation{Message: strconv.Itoa(d.omitted) + " more violations not listed"})
}

// maxErrorData bounds the data an [Error]'s message shows; Data itself is
// kept whole.
const maxErrorData = 512

// writeClipped writes data, or its first maxErrorData bytes and how many
// were left out.
func writeClipped(b *strings.Builder, data []byte) {
	if len(data) <= maxErrorData {
		b.Write(data)
		return
	}
	cut := maxErrorData
	for cut > 0 && !utf8.RuneStart(data[cut]) {
		cut--
	}
	b.Write(data[:cut])
	b.WriteString("…(")
	b.WriteString(strconv.Itoa(len(data) - cut))
	b.WriteString(" more bytes)")
}
