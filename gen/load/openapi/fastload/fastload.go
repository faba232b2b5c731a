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
// and lets kin-openapi resolve the references. The objects it decodes itself
// are the common ones (paths, operations, parameters, bodies, responses,
// media types, headers, schemas), with kin-openapi's own rules (what goes
// into Extensions, the float64 round trip of numbers under paths and
// responses, null members); every other member (a reference object with
// siblings, a discriminator, links, callbacks, security, servers, …) is
// decoded by its own UnmarshalJSON from its bytes, as it would be in place.
//
// # Staying correct
//
// The values are the same, field for field and unexported fields included,
// as json.Unmarshal makes them. Anything the fast path is not sure of (a
// duplicate key, a key encoding/json would match case-insensitively, a value
// of the wrong kind, a number out of range, a $ref outside paths and
// components) makes it give up, and the caller loads the whole document the
// usual way, so that errors stay kin-openapi's. TestFastLoadSame compares
// both ways with reflect.DeepEqual on documents written to reach the corners
// of kin-openapi's decoding and on the repository's OpenAPI documents;
// FuzzFastLoad fuzzes it; OPENTOOLGEN_REALWORLD=1 go test -run
// FastLoadRealWorld does it on ogen's and kin-openapi's test data.
package fastload

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// errSlow says the fast path gives up: the document is loaded the usual way.
var errSlow = errors.New("openapi: fast path gave up")

// Load loads the OpenAPI 3.x document whose tree is tree with l, decoding
// its paths, components and webhooks itself. data is the JSON the tree's offsets are
// into, or nil when the tree was repaired (then values are written out from
// the tree). ok false means it gave up before doing anything that matters:
// the caller loads the document the usual way.
func Load(l *openapi3.Loader, tree *jsontree.Node, data []byte, loc *url.URL) (doc *openapi3.T, ok bool, err error) {
	if tree == nil || tree.Kind != jsontree.Object {
		return nil, false, nil
	}
	d := &fastDecoder{data: data}
	var paths, components, webhooks *jsontree.Node
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
			components = m.Value
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
		if components != nil && components.Kind != jsontree.Null {
			c, compsErr = d.components(components)
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
		if wh, err = d.pathItemMap(webhooks); err != nil {
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

// fastDecoder decodes kin-openapi values from a source tree.
type fastDecoder struct {
	data []byte // the JSON the tree's offsets are into; nil if repaired
}

// bytesOf returns n as JSON: as written, or, with rt, as encoding/json
// writes the value it decodes n into (kin-openapi re-encodes paths and
// responses that way before decoding them).
func (d *fastDecoder) bytesOf(n *jsontree.Node, rt bool) ([]byte, error) {
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
func (d *fastDecoder) delegate(n *jsontree.Node, rt bool, target any) error {
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
func (d *fastDecoder) call(n *jsontree.Node, rt bool, v unmarshaler) error {
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
func (d *fastDecoder) any(n *jsontree.Node) (any, error) {
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

// uint decodes a number into a uint64 as encoding/json does: from the
// literal, or with rt from the float64 it was re-encoded from.
func (d *fastDecoder) uint(n *jsontree.Node, rt bool) (uint64, error) {
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
func (d *fastDecoder) extension(ext *map[string]any, m jsontree.Member, known []string) error {
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

// refStart begins decoding a reference type: a plain {"$ref": …} is made
// by plain, an object with $ref and siblings decoded by its own UnmarshalJSON
// (done is true for both); anything else must be an object, whose members
// the caller decodes into the value.
func refStart[R any, P interface {
	*R
	unmarshaler
}](d *fastDecoder, n *jsontree.Node, rt bool, plain func(ref string) P) (r P, done bool, err error) {
	if ref, ok := pureRef(n); ok {
		return plain(ref), true, nil
	}
	r = P(new(R))
	if hasRef(n) {
		return r, true, d.call(n, rt, r)
	}
	return r, false, object(n)
}

// The scalar fields, as encoding/json fills them: null leaves a field as it
// is (zero here), a value of another kind gives up.

func setString(n *jsontree.Node, s *string) error {
	switch n.Kind {
	case jsontree.String:
		*s = n.Str
	case jsontree.Null:
	default:
		return errSlow
	}
	return nil
}

func setBool(n *jsontree.Node, b *bool) error {
	switch n.Kind {
	case jsontree.Bool:
		*b = n.Bool
	case jsontree.Null:
	default:
		return errSlow
	}
	return nil
}

// pointer fills a pointer field: null leaves it nil, anything else is
// decoded by set into a new value.
func pointer[T any](n *jsontree.Node, out **T, set func(*jsontree.Node, *T) error) error {
	if n.Kind == jsontree.Null {
		return nil
	}
	v := new(T)
	if err := set(n, v); err != nil {
		return err
	}
	*out = v
	return nil
}

func setFloat(n *jsontree.Node, f *float64) error {
	switch n.Kind {
	case jsontree.Number:
		v, err := float(n)
		if err != nil {
			return err
		}
		*f = v
	case jsontree.Null:
	default:
		return errSlow
	}
	return nil
}

func (d *fastDecoder) setUint(n *jsontree.Node, rt bool, u *uint64) error {
	switch n.Kind {
	case jsontree.Number:
		v, err := d.uint(n, rt)
		if err != nil {
			return err
		}
		*u = v
	case jsontree.Null:
	default:
		return errSlow
	}
	return nil
}

func (d *fastDecoder) setUintPtr(n *jsontree.Node, rt bool, u **uint64) error {
	if n.Kind == jsontree.Null {
		return nil
	}
	var v uint64
	if err := d.setUint(n, rt, &v); err != nil {
		return err
	}
	*u = &v
	return nil
}

func setStrings(n *jsontree.Node, s *[]string) error {
	switch n.Kind {
	case jsontree.Array:
		a := make([]string, len(n.Items))
		for i, it := range n.Items {
			if err := setString(it, &a[i]); err != nil {
				return err
			}
		}
		*s = a
	case jsontree.Null:
	default:
		return errSlow
	}
	return nil
}

// setArray decodes an array of any values ([] is an empty, not a nil,
// slice).
func (d *fastDecoder) setArray(n *jsontree.Node, out *[]any) error {
	switch n.Kind {
	case jsontree.Null:
		return nil
	case jsontree.Array:
		a, err := d.any(n)
		if err != nil {
			return err
		}
		*out = a.([]any)
		return nil
	}
	return errSlow
}

func (d *fastDecoder) setAny(n *jsontree.Node, v *any) error {
	x, err := d.any(n)
	if err != nil {
		return err
	}
	*v = x
	return nil
}

// paths decodes a Paths object as Paths.UnmarshalJSON does.
func (d *fastDecoder) paths(n *jsontree.Node) (*openapi3.Paths, error) {
	p := openapi3.NewPathsWithCapacity(len(n.Members))
	return p, maplike(d, n, &p.Extensions, p.Set, d.pathItem)
}

// maplike decodes the members of Paths and Responses as kin-openapi's
// map-like types do: x- members are extensions (the map is never nil), every
// other member is decoded by one from its re-encoded value and given to set
// (null: an empty value).
func maplike[V any](d *fastDecoder, n *jsontree.Node, ext *map[string]any, set func(string, *V), one func(*jsontree.Node, bool) (*V, error)) error {
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
			if v, err = one(m.Value, true); err != nil {
				return err
			}
		default:
			return errSlow
		}
		set(m.Key, v)
	}
	return nil
}

// pathItemMap decodes webhooks: a map of path items, each decoded in place.
func (d *fastDecoder) pathItemMap(n *jsontree.Node) (map[string]*openapi3.PathItem, error) {
	if err := object(n); err != nil {
		return nil, err
	}
	out := make(map[string]*openapi3.PathItem, len(n.Members))
	for _, m := range n.Members {
		switch m.Value.Kind {
		case jsontree.Null:
			out[m.Key] = nil
		case jsontree.Object:
			item, err := d.pathItem(m.Value, false)
			if err != nil {
				return nil, err
			}
			out[m.Key] = item
		default:
			return nil, errSlow
		}
	}
	return out, nil
}

var pathItemFields = []string{"$ref", "summary", "description", "connect", "delete", "get", "head", "options", "patch", "post", "put", "trace", "query", "additionalOperations", "servers", "parameters"}

func (d *fastDecoder) pathItem(n *jsontree.Node, rt bool) (*openapi3.PathItem, error) {
	if err := object(n); err != nil {
		return nil, err
	}
	x := &openapi3.PathItem{}
	for _, m := range n.Members {
		v := m.Value
		var err error
		var op **openapi3.Operation
		switch m.Key {
		case "$ref":
			err = setString(v, &x.Ref)
		case "summary":
			err = setString(v, &x.Summary)
		case "description":
			err = setString(v, &x.Description)
		case "connect":
			op = &x.Connect
		case "delete":
			op = &x.Delete
		case "get":
			op = &x.Get
		case "head":
			op = &x.Head
		case "options":
			op = &x.Options
		case "patch":
			op = &x.Patch
		case "post":
			op = &x.Post
		case "put":
			op = &x.Put
		case "trace":
			op = &x.Trace
		case "query":
			op = &x.Query
		case "additionalOperations":
			err = d.delegate(v, rt, &x.AdditionalOperations)
		case "servers":
			err = d.delegate(v, rt, &x.Servers)
		case "parameters":
			err = d.parameters(v, rt, &x.Parameters)
		default:
			err = d.extension(&x.Extensions, m, pathItemFields)
		}
		if op != nil {
			switch v.Kind {
			case jsontree.Null:
			case jsontree.Object:
				*op, err = d.operation(v, rt)
			default:
				err = errSlow
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return x, nil
}

var operationFields = []string{"tags", "summary", "description", "operationId", "parameters", "requestBody", "responses", "callbacks", "deprecated", "security", "servers", "externalDocs"}

func (d *fastDecoder) operation(n *jsontree.Node, rt bool) (*openapi3.Operation, error) {
	if err := object(n); err != nil {
		return nil, err
	}
	x := &openapi3.Operation{}
	for _, m := range n.Members {
		v := m.Value
		var err error
		switch m.Key {
		case "tags":
			err = setStrings(v, &x.Tags)
		case "summary":
			err = setString(v, &x.Summary)
		case "description":
			err = setString(v, &x.Description)
		case "operationId":
			err = setString(v, &x.OperationID)
		case "parameters":
			err = d.parameters(v, rt, &x.Parameters)
		case "requestBody":
			switch v.Kind {
			case jsontree.Null:
			case jsontree.Object:
				x.RequestBody, err = d.requestBodyRef(v, rt)
			default:
				err = errSlow
			}
		case "responses":
			if v.Kind != jsontree.Object { // null is remembered in a field of its own
				return nil, errSlow
			}
			x.Responses, err = d.responses(v)
		case "callbacks":
			err = d.delegate(v, rt, &x.Callbacks)
		case "deprecated":
			err = setBool(v, &x.Deprecated)
		case "security":
			err = d.delegate(v, rt, &x.Security)
		case "servers":
			err = d.delegate(v, rt, &x.Servers)
		case "externalDocs":
			err = d.delegate(v, rt, &x.ExternalDocs)
		default:
			err = d.extension(&x.Extensions, m, operationFields)
		}
		if err != nil {
			return nil, err
		}
	}
	return x, nil
}

// responses decodes a Responses object as Responses.UnmarshalJSON does.
func (d *fastDecoder) responses(n *jsontree.Node) (*openapi3.Responses, error) {
	x := openapi3.NewResponsesWithCapacity(len(n.Members))
	return x, maplike(d, n, &x.Extensions, x.Set, d.responseRef)
}

func (d *fastDecoder) parameters(n *jsontree.Node, rt bool, out *openapi3.Parameters) error {
	switch n.Kind {
	case jsontree.Null:
		return nil
	case jsontree.Array:
	default:
		return errSlow
	}
	ps := make(openapi3.Parameters, len(n.Items))
	for i, it := range n.Items {
		switch it.Kind {
		case jsontree.Null:
		case jsontree.Object:
			var err error
			if ps[i], err = d.parameterRef(it, rt); err != nil {
				return err
			}
		default:
			return errSlow
		}
	}
	*out = ps
	return nil
}

func (d *fastDecoder) parameterRef(n *jsontree.Node, rt bool) (*openapi3.ParameterRef, error) {
	if ref, ok := pureRef(n); ok {
		return &openapi3.ParameterRef{Ref: ref}, nil
	}
	r := &openapi3.ParameterRef{}
	if hasRef(n) {
		return r, d.call(n, rt, r)
	}
	p, err := d.parameter(n, rt)
	r.Value = p
	return r, err
}

func (d *fastDecoder) headerRef(n *jsontree.Node, rt bool) (*openapi3.HeaderRef, error) {
	if ref, ok := pureRef(n); ok {
		return &openapi3.HeaderRef{Ref: ref}, nil
	}
	r := &openapi3.HeaderRef{}
	if hasRef(n) {
		return r, d.call(n, rt, r)
	}
	p, err := d.parameter(n, rt)
	if err != nil {
		return nil, err
	}
	r.Value = &openapi3.Header{Parameter: *p}
	return r, nil
}

var parameterFields = []string{"name", "in", "description", "style", "explode", "allowEmptyValue", "allowReserved", "deprecated", "required", "schema", "example", "examples", "content"}

func (d *fastDecoder) parameter(n *jsontree.Node, rt bool) (*openapi3.Parameter, error) {
	if err := object(n); err != nil {
		return nil, err
	}
	x := &openapi3.Parameter{}
	for _, m := range n.Members {
		v := m.Value
		var err error
		switch m.Key {
		case "name":
			err = setString(v, &x.Name)
		case "in":
			err = setString(v, &x.In)
		case "description":
			err = setString(v, &x.Description)
		case "style":
			err = setString(v, &x.Style)
		case "explode":
			err = pointer(v, &x.Explode, setBool)
		case "allowEmptyValue":
			err = setBool(v, &x.AllowEmptyValue)
		case "allowReserved":
			err = setBool(v, &x.AllowReserved)
		case "deprecated":
			err = setBool(v, &x.Deprecated)
		case "required":
			err = setBool(v, &x.Required)
		case "schema":
			err = d.setSchemaRef(v, rt, &x.Schema)
		case "example":
			err = d.setAny(v, &x.Example)
		case "examples":
			err = eachRef(d, v, rt, &x.Examples, d.exampleRef)
		case "content":
			err = d.content(v, rt, &x.Content)
		default:
			err = d.extension(&x.Extensions, m, parameterFields)
		}
		if err != nil {
			return nil, err
		}
	}
	return x, nil
}

var exampleFields = []string{"summary", "description", "value", "externalValue"}

func (d *fastDecoder) exampleRef(n *jsontree.Node, rt bool) (*openapi3.ExampleRef, error) {
	r, done, err := refStart(d, n, rt, func(ref string) *openapi3.ExampleRef { return &openapi3.ExampleRef{Ref: ref} })
	if done || err != nil {
		return r, err
	}
	x := &openapi3.Example{}
	for _, m := range n.Members {
		v := m.Value
		var err error
		switch m.Key {
		case "summary":
			err = setString(v, &x.Summary)
		case "description":
			err = setString(v, &x.Description)
		case "value":
			err = d.setAny(v, &x.Value)
		case "externalValue":
			err = setString(v, &x.ExternalValue)
		default:
			err = d.extension(&x.Extensions, m, exampleFields)
		}
		if err != nil {
			return nil, err
		}
	}
	r.Value = x
	return r, nil
}

var requestBodyFields = []string{"description", "required", "content"}

func (d *fastDecoder) requestBodyRef(n *jsontree.Node, rt bool) (*openapi3.RequestBodyRef, error) {
	r, done, err := refStart(d, n, rt, func(ref string) *openapi3.RequestBodyRef { return &openapi3.RequestBodyRef{Ref: ref} })
	if done || err != nil {
		return r, err
	}
	x := &openapi3.RequestBody{}
	for _, m := range n.Members {
		v := m.Value
		var err error
		switch m.Key {
		case "description":
			err = setString(v, &x.Description)
		case "required":
			err = setBool(v, &x.Required)
		case "content":
			err = d.content(v, rt, &x.Content)
		default:
			err = d.extension(&x.Extensions, m, requestBodyFields)
		}
		if err != nil {
			return nil, err
		}
	}
	r.Value = x
	return r, nil
}

var responseFields = []string{"description", "headers", "content", "links"}

func (d *fastDecoder) responseRef(n *jsontree.Node, rt bool) (*openapi3.ResponseRef, error) {
	r, done, err := refStart(d, n, rt, func(ref string) *openapi3.ResponseRef { return &openapi3.ResponseRef{Ref: ref} })
	if done || err != nil {
		return r, err
	}
	x := &openapi3.Response{}
	for _, m := range n.Members {
		v := m.Value
		var err error
		switch m.Key {
		case "description":
			err = pointer(v, &x.Description, setString)
		case "headers":
			err = d.headers(v, rt, &x.Headers)
		case "content":
			err = d.content(v, rt, &x.Content)
		case "links":
			err = d.delegate(v, rt, &x.Links)
		default:
			err = d.extension(&x.Extensions, m, responseFields)
		}
		if err != nil {
			return nil, err
		}
	}
	r.Value = x
	return r, nil
}

func (d *fastDecoder) headers(n *jsontree.Node, rt bool, out *openapi3.Headers) error {
	if n.Kind == jsontree.Null {
		return nil
	}
	if err := object(n); err != nil {
		return err
	}
	hs := make(openapi3.Headers, len(n.Members))
	for _, m := range n.Members {
		switch m.Value.Kind {
		case jsontree.Null:
			hs[m.Key] = nil
		case jsontree.Object:
			h, err := d.headerRef(m.Value, rt)
			if err != nil {
				return err
			}
			hs[m.Key] = h
		default:
			return errSlow
		}
	}
	*out = hs
	return nil
}

var mediaTypeFields = []string{"schema", "itemSchema", "example", "examples", "encoding"}

func (d *fastDecoder) content(n *jsontree.Node, rt bool, out *openapi3.Content) error {
	if n.Kind == jsontree.Null {
		return nil
	}
	if err := object(n); err != nil {
		return err
	}
	c := make(openapi3.Content, len(n.Members))
	for _, m := range n.Members {
		switch m.Value.Kind {
		case jsontree.Null:
			c[m.Key] = nil
			continue
		case jsontree.Object:
		default:
			return errSlow
		}
		if hasDuplicate(m.Value.Members) {
			return errSlow
		}
		x := &openapi3.MediaType{}
		for _, mm := range m.Value.Members {
			v := mm.Value
			var err error
			switch mm.Key {
			case "schema":
				err = d.setSchemaRef(v, rt, &x.Schema)
			case "itemSchema":
				err = d.setSchemaRef(v, rt, &x.ItemSchema)
			case "example":
				err = d.setAny(v, &x.Example)
			case "examples":
				err = eachRef(d, v, rt, &x.Examples, d.exampleRef)
			case "encoding":
				err = d.delegate(v, rt, &x.Encoding)
			default:
				err = d.extension(&x.Extensions, mm, mediaTypeFields)
			}
			if err != nil {
				return err
			}
		}
		c[m.Key] = x
	}
	*out = c
	return nil
}

var componentFields = []string{"schemas", "parameters", "headers", "requestBodies", "responses", "securitySchemes", "examples", "links", "callbacks"}

func (d *fastDecoder) components(n *jsontree.Node) (*openapi3.Components, error) {
	if err := object(n); err != nil {
		return nil, err
	}
	x := &openapi3.Components{}
	for _, m := range n.Members {
		v := m.Value
		var err error
		switch m.Key {
		case "schemas":
			err = d.schemas(v, false, &x.Schemas)
		case "parameters":
			err = eachRef(d, v, false, &x.Parameters, d.parameterRef)
		case "headers":
			err = d.headers(v, false, &x.Headers)
		case "requestBodies":
			err = eachRef(d, v, false, &x.RequestBodies, d.requestBodyRef)
		case "responses":
			err = eachRef(d, v, false, &x.Responses, d.responseRef)
		case "securitySchemes":
			err = d.delegate(v, false, &x.SecuritySchemes)
		case "examples":
			err = eachRef(d, v, false, &x.Examples, d.exampleRef)
		case "links":
			err = d.delegate(v, false, &x.Links)
		case "callbacks":
			err = d.delegate(v, false, &x.Callbacks)
		default:
			err = d.extension(&x.Extensions, m, componentFields)
		}
		if err != nil {
			return nil, err
		}
	}
	return x, nil
}

// eachRef decodes a map of components of one kind.
func eachRef[M ~map[string]*R, R any](d *fastDecoder, n *jsontree.Node, rt bool, out *M, one func(*jsontree.Node, bool) (*R, error)) error {
	if n.Kind == jsontree.Null {
		return nil
	}
	if err := object(n); err != nil {
		return err
	}
	mp := make(M, len(n.Members))
	for _, m := range n.Members {
		switch m.Value.Kind {
		case jsontree.Null:
			mp[m.Key] = nil
		case jsontree.Object:
			r, err := one(m.Value, rt)
			if err != nil {
				return err
			}
			mp[m.Key] = r
		default:
			return errSlow
		}
	}
	*out = mp
	return nil
}

func (d *fastDecoder) schemas(n *jsontree.Node, rt bool, out *openapi3.Schemas) error {
	if n.Kind == jsontree.Null {
		return nil
	}
	if err := object(n); err != nil {
		return err
	}
	s := make(openapi3.Schemas, len(n.Members))
	for _, m := range n.Members {
		var r *openapi3.SchemaRef
		if err := d.setSchemaRef(m.Value, rt, &r); err != nil {
			return err
		}
		s[m.Key] = r
	}
	*out = s
	return nil
}

func (d *fastDecoder) schemaRefs(n *jsontree.Node, rt bool, out *openapi3.SchemaRefs) error {
	switch n.Kind {
	case jsontree.Null:
		return nil
	case jsontree.Array:
	default:
		return errSlow
	}
	rs := make(openapi3.SchemaRefs, len(n.Items))
	for i, it := range n.Items {
		if err := d.setSchemaRef(it, rt, &rs[i]); err != nil {
			return err
		}
	}
	*out = rs
	return nil
}

// setSchemaRef decodes a schema into a *SchemaRef field: null leaves it nil;
// a reference or a boolean schema goes to SchemaRef.UnmarshalJSON.
func (d *fastDecoder) setSchemaRef(n *jsontree.Node, rt bool, out **openapi3.SchemaRef) error {
	if n.Kind == jsontree.Null {
		return nil
	}
	if ref, ok := pureRef(n); ok {
		*out = &openapi3.SchemaRef{Ref: ref}
		return nil
	}
	r := &openapi3.SchemaRef{}
	if n.Kind != jsontree.Object || hasRef(n) {
		if err := d.call(n, rt, r); err != nil {
			return err
		}
		*out = r
		return nil
	}
	s, err := d.schema(n, rt)
	if err != nil {
		return err
	}
	r.Value = s
	*out = r
	return nil
}

var schemaFields = []string{"oneOf", "anyOf", "allOf", "not", "type", "title", "format", "description", "enum", "default", "example", "externalDocs",
	"uniqueItems", "exclusiveMinimum", "exclusiveMaximum", "nullable", "readOnly", "writeOnly", "allowEmptyValue", "deprecated", "xml",
	"minimum", "maximum", "multipleOf", "minLength", "maxLength", "pattern", "minItems", "maxItems", "items",
	"required", "properties", "minProperties", "maxProperties", "additionalProperties", "discriminator",
	"const", "examples", "prefixItems", "contains", "minContains", "maxContains", "patternProperties", "dependentSchemas", "propertyNames",
	"unevaluatedItems", "unevaluatedProperties", "if", "then", "else", "dependentRequired", "$defs", "$schema", "$comment", "$id", "$anchor",
	"$dynamicRef", "$dynamicAnchor", "contentMediaType", "contentEncoding", "contentSchema"}

// schema decodes a schema object (not a reference) as Schema.UnmarshalJSON
// does.
func (d *fastDecoder) schema(n *jsontree.Node, rt bool) (*openapi3.Schema, error) {
	if err := object(n); err != nil {
		return nil, err
	}
	x := &openapi3.Schema{}
	for _, m := range n.Members {
		v := m.Value
		var err error
		switch m.Key {
		case "oneOf":
			err = d.schemaRefs(v, rt, &x.OneOf)
		case "anyOf":
			err = d.schemaRefs(v, rt, &x.AnyOf)
		case "allOf":
			err = d.schemaRefs(v, rt, &x.AllOf)
		case "prefixItems":
			err = d.schemaRefs(v, rt, &x.PrefixItems)
		case "not":
			err = d.setSchemaRef(v, rt, &x.Not)
		case "items":
			err = d.setSchemaRef(v, rt, &x.Items)
		case "contains":
			err = d.setSchemaRef(v, rt, &x.Contains)
		case "propertyNames":
			err = d.setSchemaRef(v, rt, &x.PropertyNames)
		case "if":
			err = d.setSchemaRef(v, rt, &x.If)
		case "then":
			err = d.setSchemaRef(v, rt, &x.Then)
		case "else":
			err = d.setSchemaRef(v, rt, &x.Else)
		case "contentSchema":
			err = d.setSchemaRef(v, rt, &x.ContentSchema)
		case "type":
			if v.Kind == jsontree.String {
				x.Type = &openapi3.Types{v.Str}
			} else {
				err = d.delegate(v, rt, &x.Type)
			}
		case "title":
			err = setString(v, &x.Title)
		case "format":
			err = setString(v, &x.Format)
		case "description":
			err = setString(v, &x.Description)
		case "pattern":
			err = setString(v, &x.Pattern)
		case "$schema":
			err = setString(v, &x.SchemaDialect)
		case "$comment":
			err = setString(v, &x.Comment)
		case "$id":
			err = setString(v, &x.SchemaID)
		case "$anchor":
			err = setString(v, &x.Anchor)
		case "$dynamicRef":
			err = setString(v, &x.DynamicRef)
		case "$dynamicAnchor":
			err = setString(v, &x.DynamicAnchor)
		case "contentMediaType":
			err = setString(v, &x.ContentMediaType)
		case "contentEncoding":
			err = setString(v, &x.ContentEncoding)
		case "enum":
			err = d.setArray(v, &x.Enum)
		case "default":
			err = d.setAny(v, &x.Default)
		case "example":
			err = d.setAny(v, &x.Example)
		case "const":
			err = d.setAny(v, &x.Const)
		case "uniqueItems":
			err = setBool(v, &x.UniqueItems)
		case "nullable":
			err = setBool(v, &x.Nullable)
		case "readOnly":
			err = setBool(v, &x.ReadOnly)
		case "writeOnly":
			err = setBool(v, &x.WriteOnly)
		case "allowEmptyValue":
			err = setBool(v, &x.AllowEmptyValue)
		case "deprecated":
			err = setBool(v, &x.Deprecated)
		case "exclusiveMinimum":
			err = d.exclusiveBound(v, rt, &x.ExclusiveMin)
		case "exclusiveMaximum":
			err = d.exclusiveBound(v, rt, &x.ExclusiveMax)
		case "minimum":
			err = pointer(v, &x.Min, setFloat)
		case "maximum":
			err = pointer(v, &x.Max, setFloat)
		case "multipleOf":
			err = pointer(v, &x.MultipleOf, setFloat)
		case "minLength":
			err = d.setUint(v, rt, &x.MinLength)
		case "maxLength":
			err = d.setUintPtr(v, rt, &x.MaxLength)
		case "minItems":
			err = d.setUint(v, rt, &x.MinItems)
		case "maxItems":
			err = d.setUintPtr(v, rt, &x.MaxItems)
		case "minProperties":
			err = d.setUint(v, rt, &x.MinProps)
		case "maxProperties":
			err = d.setUintPtr(v, rt, &x.MaxProps)
		case "minContains":
			err = d.setUintPtr(v, rt, &x.MinContains)
		case "maxContains":
			err = d.setUintPtr(v, rt, &x.MaxContains)
		case "required":
			err = setStrings(v, &x.Required)
		case "properties":
			err = d.schemas(v, rt, &x.Properties)
		case "patternProperties":
			err = d.schemas(v, rt, &x.PatternProperties)
		case "dependentSchemas":
			err = d.schemas(v, rt, &x.DependentSchemas)
		case "$defs":
			err = d.schemas(v, rt, &x.Defs)
		case "additionalProperties":
			err = d.boolSchema(v, &x.AdditionalProperties)
		case "unevaluatedItems":
			err = d.boolSchema(v, &x.UnevaluatedItems)
		case "unevaluatedProperties":
			err = d.boolSchema(v, &x.UnevaluatedProperties)
		case "externalDocs":
			err = d.delegate(v, rt, &x.ExternalDocs)
		case "xml":
			err = d.delegate(v, rt, &x.XML)
		case "discriminator":
			err = d.delegate(v, rt, &x.Discriminator)
		case "examples":
			err = d.setArray(v, &x.Examples)
		case "dependentRequired":
			err = d.delegate(v, rt, &x.DependentRequired)
		default:
			err = d.extension(&x.Extensions, m, schemaFields)
		}
		if err != nil {
			return nil, err
		}
	}
	return x, nil
}

// exclusiveBound decodes exclusiveMinimum/exclusiveMaximum: a boolean (3.0)
// or a number (3.1).
func (d *fastDecoder) exclusiveBound(n *jsontree.Node, rt bool, out *openapi3.ExclusiveBound) error {
	switch n.Kind {
	case jsontree.Null:
	case jsontree.Bool:
		b := n.Bool
		out.Bool = &b
	case jsontree.Number:
		f, err := float(n)
		if err != nil {
			return err
		}
		out.Value = &f
	default:
		return errSlow
	}
	return nil
}

// boolSchema decodes additionalProperties and its kind as
// BoolSchema.UnmarshalJSON does: a boolean, or a schema decoded from its
// re-encoded value ({} is an empty schema).
func (d *fastDecoder) boolSchema(n *jsontree.Node, out *openapi3.BoolSchema) error {
	switch n.Kind {
	case jsontree.Null:
	case jsontree.Bool:
		b := n.Bool
		out.Has = &b
	case jsontree.Object:
		if len(n.Members) == 0 {
			out.Schema = &openapi3.SchemaRef{Value: &openapi3.Schema{}}
			return nil
		}
		return d.setSchemaRef(n, true, &out.Schema)
	default:
		return errSlow
	}
	return nil
}
