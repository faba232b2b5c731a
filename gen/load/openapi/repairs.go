package openapi

import (
	"fmt"
	"slices"
	"strings"

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
		if what == "callback" {
			d.Message += "; the callback is left out (its events get no receiver method)"
		} else {
			d.Message += fmt.Sprintf("; the %s is left out (generated code does not use %ss)", what, what)
		}
		c.b.warnings = append(c.b.warnings, d)
		n.Members = append(n.Members[:i:i], n.Members[i+1:]...)
		c.changed[file] = true
		i--
	}
}

// responseSchemaRef repairs the Swagger 2.0 response n at ptr whose schema is
// a $ref to a response ("schema": {"$ref": "#/responses/empty"}, as in
// Gitea's document), which the conversion to OpenAPI 3 refuses: it is read as
// that response's schema, or as no body when it has none, with a warning.
func (c *checker) responseSchemaRef(file, ptr string, n *jsontree.Node) {
	s := n.Get("schema")
	if s == nil || s.Kind != jsontree.Object {
		return
	}
	r := s.Get("$ref")
	if r == nil || r.Kind != jsontree.String || !strings.HasPrefix(r.Str, "#/responses/") || strings.Count(r.Str, "/") != 2 {
		return
	}
	t := c.b.find(c.b.tree(file), r.Str[1:])
	if t == nil || t.Kind != jsontree.Object {
		return // names nothing: reported when the schema is walked
	}
	rptr := ptr + "/schema/$ref"
	if ts := t.Get("schema"); ts != nil && ts.Kind != jsontree.Null {
		c.warn(file, rptr, "the schema is a $ref to a response (%q); read as that response's schema", clipRef(r.Str))
		for i := range n.Members {
			if n.Members[i].Key == "schema" {
				n.Members = slices.Clone(n.Members)
				n.Members[i].Value = ts
			}
		}
	} else {
		c.warn(file, rptr, "the schema is a $ref to a response (%q), which has no schema; read as a response without a body", clipRef(r.Str))
		c.remove(file, n, "schema")
	}
	c.changed[file] = true
}

// requiredInProperties repairs the schema n at ptr whose properties have a
// member "required" that is a list of names rather than a schema: the
// object's required list written one level too deep. It is read as the
// object's "required" (added to it when there is one), with a warning.
func (c *checker) requiredInProperties(file, ptr string, n *jsontree.Node) {
	props := n.Get("properties")
	if props == nil || props.Kind != jsontree.Object {
		return
	}
	r := props.Get("required")
	if r == nil || r.Kind != jsontree.Array {
		return
	}
	for _, e := range r.Items {
		if e.Kind != jsontree.String {
			return // not a list of names: reported as a schema that is not one
		}
	}
	ko := keyOffset(props, "required")
	c.warnAt(file, ptr+"/properties/required", ko, "\"properties\" has a member \"required\" that lists names, not a schema: read as the object's \"required\"")
	c.remove(file, props, "required")
	have := n.Get("required")
	if have == nil || have.Kind != jsontree.Array {
		if have != nil {
			c.remove(file, n, "required")
		}
		n.Members = append(slices.Clone(n.Members), jsontree.Member{Key: "required", KeyOffset: ko, Value: r})
		return
	}
	merged := *have
	merged.Items = slices.Clone(have.Items)
	for _, e := range r.Items {
		if !slices.ContainsFunc(merged.Items, func(x *jsontree.Node) bool { return x.Kind == jsontree.String && x.Str == e.Str }) {
			merged.Items = append(merged.Items, e)
		}
	}
	*have = merged
}
