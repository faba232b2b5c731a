// Package fastload decodes an OpenAPI 3.x document into kin-openapi's values
// from a source tree that has already been parsed, giving the values
// kin-openapi's own decoding gives, much faster.
//
// # Why
//
// kin-openapi decodes a document with encoding/json, and every object's
// UnmarshalJSON decodes its bytes twice: into the typed struct and into a
// map[string]any for its extensions. Each level of nesting parses its whole
// subtree again, and Paths and Responses even re-encode each member to decode
// it once more, so loading costs the document's size times its depth, and
// most of it is garbage. For Kubernetes' 4.9 MB document, json.Unmarshal
// into openapi3.T takes 13 times what one generic parse takes (1.3–1.4 s
// against 0.1 s of CPU); with this package, kin-openapi's part of loading
// it went from 1.31 s to 0.13 s of CPU, and GitHub's 3.7 MB document's from
// 0.95 s to 0.27 s (docs/benchmarks; BenchmarkFastLoad measures both ways).
//
// # How
//
// [Load] builds the values kin-openapi's UnmarshalJSON would build for the
// document's paths, components and webhooks straight from the tree the
// loader has already parsed (to report positions), hands kin-openapi the
// rest of the document (small) to load as usual, puts the decoded parts in
// and lets kin-openapi resolve the references.
//
// It decodes the common objects itself (path items, operations, parameters,
// headers, bodies, responses, media types, examples, schemas, components and
// the references to them) with one table-driven decoder: each object's table
// is read once, by reflection, from kin-openapi's struct type as
// encoding/json reads it (json tags, promoted fields of embedded structs),
// and says, for each member name, the offset of the field it fills and how a
// field of that Go type is decoded. Members that name no field go into
// Extensions, as kin-openapi's UnmarshalJSON puts them. Fields of other types
// (a discriminator, links, callbacks, security, servers, …) and references
// with siblings are decoded by encoding/json and their own UnmarshalJSON from
// their bytes, as they would be in place. The rules of kin-openapi's decoding
// are kept: the float64 round trip of numbers under paths and responses
// (where it re-encodes each member), null members, Operation's null
// responses.
//
// # Staying correct
//
// The values are the same, field for field and unexported fields included,
// as json.Unmarshal makes them. Anything the fast path is not sure of (a
// duplicate key, a key encoding/json would match case-insensitively, a value
// of the wrong kind, a number out of range, a $ref outside paths and
// components) makes it give up, and the caller loads the whole document the
// usual way, so that errors stay kin-openapi's. The tests:
//
//   - TestFastLoadSame compares both ways with reflect.DeepEqual on documents
//     written to reach the corners of kin-openapi's decoding and on the
//     repository's OpenAPI documents; FuzzFastLoad fuzzes it;
//     OPENTOOLGEN_REALWORLD=1 go test -run FastLoadRealWorld does it on
//     ogen's and kin-openapi's test data.
//   - TestFastLoadEachField decodes every member of every object decoded
//     here alone, with values of its field's type, both ways; a field a new
//     kin-openapi adds is tried without anyone writing a case for it.
//   - TestFastLoadFields names every field (exported or not) of the types
//     built here that verifiedFields does not record; whatever kin-openapi
//     is linked, a type whose fields differ from verifiedFields turns the
//     fast path off ([SlowReason]), so a new field never passes silently.
//     Verified with kin-openapi v0.152.0 and v0.153.0 (which decodes
//     documents from YAML nodes, matching member names by case: a "$ref"
//     of another case is left to the usual way).
package fastload

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// SlowReason is why the fast path is off in this program, or "": the
// linked kin-openapi has a field in a type it builds that it was not
// verified with (TestFastLoadFields names it).
var SlowReason = sync.OnceValue(func() string {
	if err := linkedShapes(verifiedFields); err != nil {
		return err.Error()
	}
	return ""
})

// errSlow says the fast path gives up: the document is loaded the usual way.
var errSlow = errors.New("openapi: fast path gave up")

// Load loads the OpenAPI 3.x document whose tree is tree with l, decoding
// its paths, components and webhooks itself. data is the JSON the tree's offsets are
// into, or nil when the tree was repaired (then values are written out from
// the tree). ok false means it gave up before doing anything that matters:
// the caller loads the document the usual way.
func Load(l *openapi3.Loader, tree *jsontree.Node, data []byte, loc *url.URL) (doc *openapi3.T, ok bool, err error) {
	if tree == nil || tree.Kind != jsontree.Object || SlowReason() != "" {
		return nil, false, nil
	}
	d := &decoder{data: data}
	var paths, compsNode, webhooks *jsontree.Node
	skeleton := []byte{'{'}
	if hasDuplicate(tree.Members) {
		return nil, false, nil
	}
	for _, m := range tree.Members {
		switch m.Key {
		case "paths":
			paths = m.Value
			continue
		case "components":
			compsNode = m.Value
			continue
		case "webhooks":
			webhooks = m.Value
			continue
		}
		if foldsTo(m.Key, "paths", "components", "webhooks") {
			return nil, false, nil
		}
		if len(skeleton) > 1 {
			skeleton = append(skeleton, ',')
		}
		if data != nil {
			skeleton = append(skeleton, data[m.KeyOffset:m.Value.End]...)
		} else {
			q, _ := json.Marshal(m.Key)
			skeleton = append(skeleton, q...)
			skeleton = append(skeleton, ':')
			skeleton = jsontree.AppendJSON(skeleton, m.Value)
		}
	}
	skeleton = append(skeleton, '}')
	if bytes.Contains(skeleton, []byte("$ref")) {
		return nil, false, nil // what it names may be among the parts taken out
	}

	var (
		p        *openapi3.Paths
		c        *openapi3.Components
		wh       map[string]*openapi3.PathItem
		compsErr error
		done     = make(chan struct{})
	)
	// Components and paths are independent: decoded side by side.
	go func() {
		defer close(done)
		if compsNode != nil && compsNode.Kind != jsontree.Null {
			c, compsErr = components.decode(d, compsNode, false)
		}
	}()
	if paths != nil && paths.Kind != jsontree.Null {
		p, err = d.paths(paths)
	}
	<-done
	if err != nil || compsErr != nil {
		return nil, false, nil
	}
	if webhooks != nil && webhooks.Kind != jsontree.Null {
		if err = each(d, webhooks, false, &wh, pathItem.decode); err != nil {
			return nil, false, nil
		}
	}

	doc, err = l.LoadFromDataWithPath(skeleton, loc)
	if err != nil {
		return nil, false, nil // the usual way reports it as it does
	}
	doc.Paths, doc.Components, doc.Webhooks = p, c, wh
	if err := l.ResolveRefsIn(doc, loc); err != nil {
		return nil, true, err
	}
	return doc, true, nil
}

// decoder decodes kin-openapi values from a source tree.
type decoder struct {
	data []byte // the JSON the tree's offsets are into; nil if repaired
}

// bytesOf returns n as JSON: as written, or, with rt, as encoding/json
// writes the value it decodes n into (kin-openapi re-encodes paths and
// responses that way before decoding them).
func (d *decoder) bytesOf(n *jsontree.Node, rt bool) ([]byte, error) {
	if rt {
		v, err := d.any(n)
		if err != nil {
			return nil, err
		}
		return json.Marshal(v)
	}
	if d.data != nil {
		return d.data[n.Offset:n.End], nil
	}
	return jsontree.AppendJSON(nil, n), nil
}

// delegate decodes n into target (a pointer to a field) with encoding/json,
// as the enclosing object's UnmarshalJSON would.
func (d *decoder) delegate(n *jsontree.Node, rt bool, target any) error {
	b, err := d.bytesOf(n, rt)
	if err != nil {
		return err
	}
	if json.Unmarshal(b, target) != nil {
		return errSlow
	}
	return nil
}

// unmarshaler is a kin-openapi value with its own UnmarshalJSON.
type unmarshaler interface{ UnmarshalJSON([]byte) error }

// call decodes n with v's UnmarshalJSON, as encoding/json calls it.
func (d *decoder) call(n *jsontree.Node, rt bool, v unmarshaler) error {
	b, err := d.bytesOf(n, rt)
	if err != nil {
		return err
	}
	if v.UnmarshalJSON(b) != nil {
		return errSlow
	}
	return nil
}

// any is n as encoding/json decodes it into an interface value.
func (d *decoder) any(n *jsontree.Node) (any, error) {
	switch n.Kind {
	case jsontree.Null:
		return nil, nil
	case jsontree.Bool:
		return n.Bool, nil
	case jsontree.Number:
		return float(n)
	case jsontree.String:
		return n.Str, nil
	case jsontree.Array:
		a := make([]any, len(n.Items))
		for i, it := range n.Items {
			v, err := d.any(it)
			if err != nil {
				return nil, err
			}
			a[i] = v
		}
		return a, nil
	}
	m := make(map[string]any, len(n.Members))
	for _, mb := range n.Members {
		v, err := d.any(mb.Value)
		if err != nil {
			return nil, err
		}
		m[mb.Key] = v
	}
	return m, nil
}

// float is the float64 of a number (encoding/json's strconv.ParseFloat; a
// number out of range gives up). Re-encoding a float64 and decoding it again
// gives the same float64, so it is the same with and without the round trip.
func float(n *jsontree.Node) (float64, error) {
	f, err := strconv.ParseFloat(n.Str, 64)
	if err != nil {
		return 0, errSlow
	}
	return f, nil
}

// toUint decodes a number into a uint64 as encoding/json does: from the
// literal, or with rt from the float64 it was re-encoded from.
func (d *decoder) toUint(n *jsontree.Node, rt bool) (uint64, error) {
	if !rt {
		u, err := strconv.ParseUint(n.Str, 10, 64)
		if err != nil {
			return 0, errSlow
		}
		return u, nil
	}
	f, err := float(n)
	if err != nil || f != math.Trunc(f) || f < 0 || math.Signbit(f) || f >= 1<<63 {
		return 0, errSlow
	}
	return uint64(f), nil
}

// hasDuplicate reports whether a member name repeats.
func hasDuplicate(ms []jsontree.Member) bool {
	if len(ms) <= 12 {
		for i := 1; i < len(ms); i++ {
			for j := 0; j < i; j++ {
				if ms[i].Key == ms[j].Key {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[string]struct{}, len(ms))
	for _, m := range ms {
		if _, dup := seen[m.Key]; dup {
			return true
		}
		seen[m.Key] = struct{}{}
	}
	return false
}

// foldsTo reports whether key, which is none of names, is one of them but
// for case: encoding/json would decode it into that field.
func foldsTo(key string, names ...string) bool {
	if strings.HasPrefix(key, "x-") {
		return false
	}
	for _, n := range names {
		if strings.EqualFold(key, n) {
			return true
		}
	}
	return false
}

// object checks that n is an object without repeated member names.
func object(n *jsontree.Node) error {
	if n.Kind != jsontree.Object || hasDuplicate(n.Members) {
		return errSlow
	}
	return nil
}

// extension adds an unknown member to ext as the object's UnmarshalJSON
// keeps it; a name encoding/json would match to a field gives up.
func (d *decoder) extension(ext *map[string]any, m jsontree.Member, known []string) error {
	if foldsTo(m.Key, known...) {
		return errSlow
	}
	v, err := d.any(m.Value)
	if err != nil {
		return err
	}
	if *ext == nil {
		*ext = map[string]any{}
	}
	(*ext)[m.Key] = v
	return nil
}

// hasRef reports whether an object has a $ref member (or one encoding/json
// would take for it): reference objects are decoded by their own
// UnmarshalJSON.
func hasRef(n *jsontree.Node) bool {
	for _, m := range n.Members {
		if len(m.Key) == 4 && strings.EqualFold(m.Key, "$ref") {
			return true
		}
	}
	return false
}

// refOfAnotherCase reports whether an object has a member that is "$ref"
// but for case.
func refOfAnotherCase(n *jsontree.Node) bool {
	for _, m := range n.Members {
		if len(m.Key) == 4 && m.Key != "$ref" && strings.EqualFold(m.Key, "$ref") {
			return true
		}
	}
	return false
}

// pureRef returns the target of an object that is only {"$ref": "…"}, which
// a reference's UnmarshalJSON turns into a reference with Ref set and
// nothing else.
func pureRef(n *jsontree.Node) (string, bool) {
	if n.Kind != jsontree.Object || len(n.Members) != 1 {
		return "", false
	}
	m := n.Members[0]
	if m.Key != "$ref" || m.Value.Kind != jsontree.String || m.Value.Str == "" {
		return "", false
	}
	return m.Value.Str, true
}

// paths decodes a Paths object as Paths.UnmarshalJSON does.
func (d *decoder) paths(n *jsontree.Node) (*openapi3.Paths, error) {
	p := openapi3.NewPathsWithCapacity(len(n.Members))
	return p, maplike(d, n, &p.Extensions, p.Set, pathItem.decode)
}

// responses decodes a Responses object as Responses.UnmarshalJSON does.
func (d *decoder) responses(n *jsontree.Node) (*openapi3.Responses, error) {
	x := openapi3.NewResponsesWithCapacity(len(n.Members))
	return x, maplike(d, n, &x.Extensions, x.Set, responseRef.decode)
}

// maplike decodes the members of Paths and Responses as kin-openapi's
// map-like types do: x- members are extensions (the map is never nil), every
// other member is decoded by one from its re-encoded value and given to set
// (null: an empty value).
func maplike[V any](d *decoder, n *jsontree.Node, ext *map[string]any, set func(string, *V), one decodeFunc[V]) error {
	if err := object(n); err != nil {
		return err
	}
	*ext = map[string]any{}
	for _, m := range n.Members {
		if strings.HasPrefix(m.Key, "x-") {
			v, err := d.any(m.Value)
			if err != nil {
				return err
			}
			(*ext)[m.Key] = v
			continue
		}
		v := new(V)
		switch m.Value.Kind {
		case jsontree.Null: // UnmarshalJSON("null"): an empty value
		case jsontree.Object:
			var err error
			if v, err = one(d, m.Value, true); err != nil {
				return err
			}
		default:
			return errSlow
		}
		set(m.Key, v)
	}
	return nil
}
