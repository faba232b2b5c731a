package decode

import (
	"strconv"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// maxStoredPath bounds the JSON pointers a [Problem] or a [runtime.Violation] keeps:
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
	d.violations = append(d.violations, runtime.Violation{Path: storedPath(d.Path()), Message: msg})
}

// reported returns the violations to report: those recorded, and one that
// counts those left out.
func (d *Decoder) reported() []runtime.Violation {
	if d.omitted == 0 {
		return d.violations
	}
	return append(d.violations, runtime.Violation{Message: strconv.Itoa(d.omitted) + " more violations not listed"})
}
