package openapi

import (
	"fmt"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// Repairs of small violations found in public documents (scripts/corpus.sh),
// made by the checker of wild.go as it walks.

// unusedRefs checks the map n at ptr of objects the generator does not use
// (what names one): an entry whose $ref names nothing, which kin-openapi
// would refuse, is left out with a warning (a bundled document's links to a
// renamed operation); the rest is for kin-openapi to read as usual.
func (c *checker) unusedRefs(file, ptr string, n *jsontree.Node, what string) {
	if n == nil || n.Kind != jsontree.Object {
		return
	}
	for i := 0; i < len(n.Members); i++ {
		e := n.Members[i]
		r := e.Value.Get("$ref")
		if e.Value.Kind != jsontree.Object || r == nil || r.Kind != jsontree.String {
			continue
		}
		had := len(c.errs)
		eptr := ptr + jsontree.Pointer(e.Key)
		if _, _, t := c.resolve(file, eptr, r.Str); t != nil || len(c.errs) == had {
			continue
		}
		d := c.errs[had]
		c.errs = c.errs[:had]
		d.Warning = true
		d.Message += fmt.Sprintf("; the %s is left out (generated code does not use %ss)", what, what)
		c.b.warnings = append(c.b.warnings, d)
		n.Members = append(n.Members[:i:i], n.Members[i+1:]...)
		c.changed[file] = true
		i--
	}
}
