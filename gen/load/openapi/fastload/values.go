package fastload

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// setterOf returns how a field of type t is decoded: as encoding/json fills
// a field of that type, here for the types of the objects this package
// decodes itself, and by encoding/json and the type's UnmarshalJSON, from its
// bytes, for any other (a discriminator, links, callbacks, security,
// servers, …), as it would be in place.
func setterOf(t reflect.Type) setter {
	if set, ok := kinds()[t]; ok {
		return set
	}
	for _, e := range elements() {
		switch {
		case t == e.typ:
			return e.ptr
		case t.Kind() == reflect.Slice && t.Elem() == e.typ:
			return e.list
		case t.Kind() == reflect.Map && t.Key().Kind() == reflect.String && t.Elem() == e.typ:
			return e.dict
		}
	}
	return func(d *decoder, n *jsontree.Node, rt bool, p unsafe.Pointer) error {
		return d.delegate(n, rt, reflect.NewAt(t, p).Interface())
	}
}

// A setter decodes n into the field p points to (rt: under paths or
// responses, where kin-openapi decodes re-encoded values).
type setter func(d *decoder, n *jsontree.Node, rt bool, p unsafe.Pointer) error

// kinds are the types of field decoded here, but for elements.
var kinds = sync.OnceValue(func() map[reflect.Type]setter {
	m := map[reflect.Type]setter{}
	for _, k := range []fieldKind{
		kind(setString), kind(setBool), kind(setFloat), kind(setUint), kind(opt(setString)), kind(setBoolPtr), kind(opt(setFloat)),
		kind(opt(setUint)), kind((*decoder).setStrings), kind((*decoder).setArray), kind((*decoder).setAny),
		kind((*decoder).types), kind((*decoder).exclusiveBound), kind((*decoder).boolSchema), kind((*decoder).setResponses),
	} {
		m[k.typ] = k.set
	}
	return m
})

// A fieldKind is a type of field and how it is decoded.
type fieldKind struct {
	typ reflect.Type
	set setter
}

func kind[T any](f func(d *decoder, n *jsontree.Node, rt bool, p *T) error) fieldKind {
	return fieldKind{reflect.TypeFor[T](), with(f)}
}

// with makes a setter of a decoding function of a field of type T.
func with[T any](f func(d *decoder, n *jsontree.Node, rt bool, p *T) error) setter {
	return func(d *decoder, n *jsontree.Node, rt bool, p unsafe.Pointer) error {
		return f(d, n, rt, (*T)(p))
	}
}

// opt fills a pointer field: null leaves it nil, anything else is decoded by
// set into a new value.
func opt[T any](set func(d *decoder, n *jsontree.Node, rt bool, p *T) error) func(*decoder, *jsontree.Node, bool, **T) error {
	return func(d *decoder, n *jsontree.Node, rt bool, out **T) error {
		if n.Kind == jsontree.Null {
			return nil
		}
		v := new(T)
		if err := set(d, n, rt, v); err != nil {
			return err
		}
		*out = v
		return nil
	}
}

// An element is a kind of value this package decodes itself (*V: a
// reference, an operation, a media type…) and how a field holding one is
// filled: a *V, a slice of them or a map of them (of any type with that
// underlying type: Schemas, Parameters, Content…).
type element struct {
	typ             reflect.Type
	ptr, list, dict setter
}

func elementOf[V any](one decodeFunc[V]) element {
	return element{
		typ:  reflect.TypeFor[*V](),
		ptr:  with(func(d *decoder, n *jsontree.Node, rt bool, out **V) error { return ptr(d, n, rt, out, one) }),
		list: with(func(d *decoder, n *jsontree.Node, rt bool, out *[]*V) error { return list(d, n, rt, out, one) }),
		dict: with(func(d *decoder, n *jsontree.Node, rt bool, out *map[string]*V) error { return each(d, n, rt, out, one) }),
	}
}

// elements are the values decoded here that fields hold.
var elements = sync.OnceValue(func() []element {
	return []element{
		elementOf(schemaRef.decode), elementOf(parameterRef.decode), elementOf(headerRef.decode),
		elementOf(exampleRef.decode), elementOf(requestBodyRef.decode), elementOf(responseRef.decode),
		elementOf(mediaType.decode), elementOf(operation.decode),
	}
})

// setResponses decodes an operation's responses (not null, which is
// remembered in a field of its own).
func (d *decoder) setResponses(n *jsontree.Node, _ bool, out **openapi3.Responses) error {
	if n.Kind != jsontree.Object {
		return errSlow
	}
	var err error
	*out, err = d.responses(n)
	return err
}

// decodeFunc decodes a value that is not null.
type decodeFunc[V any] func(d *decoder, n *jsontree.Node, rt bool) (*V, error)

// ptr fills a pointer field: null leaves it nil, anything else is decoded by
// one.
func ptr[V any](d *decoder, n *jsontree.Node, rt bool, out **V, one decodeFunc[V]) error {
	if n.Kind == jsontree.Null {
		return nil
	}
	v, err := one(d, n, rt)
	if err != nil {
		return err
	}
	*out = v
	return nil
}

// list fills a slice of pointers from an array: a null item is nil, any
// other is decoded by one.
func list[S ~[]*V, V any](d *decoder, n *jsontree.Node, rt bool, out *S, one decodeFunc[V]) error {
	switch n.Kind {
	case jsontree.Null:
		return nil
	case jsontree.Array:
	default:
		return errSlow
	}
	s := make(S, len(n.Items))
	for i, it := range n.Items {
		if err := ptr(d, it, rt, &s[i], one); err != nil {
			return err
		}
	}
	*out = s
	return nil
}

// each fills a map of pointers from an object: a null member is nil, any
// other is decoded by one.
func each[M ~map[string]*V, V any](d *decoder, n *jsontree.Node, rt bool, out *M, one decodeFunc[V]) error {
	if n.Kind == jsontree.Null {
		return nil
	}
	if err := object(n); err != nil {
		return err
	}
	mp := make(M, len(n.Members))
	for _, m := range n.Members {
		var v *V
		if err := ptr(d, m.Value, rt, &v, one); err != nil {
			return err
		}
		mp[m.Key] = v
	}
	*out = mp
	return nil
}

// set reports whether a field is set from n, whose kind is to be k: null
// leaves a field as it is (zero here), and a value of another kind gives up,
// as encoding/json would fail.
func set(n *jsontree.Node, k jsontree.Kind) (bool, error) {
	switch n.Kind {
	case k:
		return true, nil
	case jsontree.Null:
		return false, nil
	}
	return false, errSlow
}

// scalar makes the decoding function of a scalar field whose value, of kind
// k, conv converts (see set).
func scalar[T any](k jsontree.Kind, conv func(d *decoder, n *jsontree.Node, rt bool) (T, error)) func(*decoder, *jsontree.Node, bool, *T) error {
	return func(d *decoder, n *jsontree.Node, rt bool, out *T) error {
		ok, err := set(n, k)
		if ok {
			*out, err = conv(d, n, rt)
		}
		return err
	}
}

// The scalar fields.
var (
	setString = scalar(jsontree.String, func(_ *decoder, n *jsontree.Node, _ bool) (string, error) { return n.Str, nil })
	setBool   = scalar(jsontree.Bool, func(_ *decoder, n *jsontree.Node, _ bool) (bool, error) { return n.Bool, nil })
	setFloat  = scalar(jsontree.Number, func(_ *decoder, n *jsontree.Node, _ bool) (float64, error) { return float(n) })
	setUint   = scalar(jsontree.Number, (*decoder).toUint)

	setBoolPtr = opt(setBool)
)

func (d *decoder) setStrings(n *jsontree.Node, _ bool, s *[]string) error {
	ok, err := set(n, jsontree.Array)
	if !ok {
		return err
	}
	a := make([]string, len(n.Items))
	for i, it := range n.Items {
		if err := setString(d, it, false, &a[i]); err != nil {
			return err
		}
	}
	*s = a
	return nil
}

// setArray decodes an array of any values ([] is an empty, not a nil,
// slice).
func (d *decoder) setArray(n *jsontree.Node, _ bool, out *[]any) error {
	ok, err := set(n, jsontree.Array)
	if !ok {
		return err
	}
	a, err := d.any(n)
	if err != nil {
		return err
	}
	*out = a.([]any)
	return nil
}

func (d *decoder) setAny(n *jsontree.Node, _ bool, v *any) error {
	x, err := d.any(n)
	if err != nil {
		return err
	}
	*v = x
	return nil
}

// types decodes a schema's type: one string here, anything else by
// Types.UnmarshalJSON.
func (d *decoder) types(n *jsontree.Node, rt bool, out **openapi3.Types) error {
	if n.Kind == jsontree.String {
		*out = &openapi3.Types{n.Str}
		return nil
	}
	return d.delegate(n, rt, out)
}

// exclusiveBound decodes exclusiveMinimum/exclusiveMaximum: a boolean (3.0)
// or a number (3.1).
func (d *decoder) exclusiveBound(n *jsontree.Node, _ bool, out *openapi3.ExclusiveBound) error {
	if n.Kind == jsontree.Number {
		f, err := float(n)
		out.Value = &f
		return err
	}
	return setBoolPtr(d, n, false, &out.Bool)
}

// boolSchema decodes additionalProperties and its kind as
// BoolSchema.UnmarshalJSON does: a boolean, or a schema decoded from its
// re-encoded value ({} is an empty schema).
func (d *decoder) boolSchema(n *jsontree.Node, _ bool, out *openapi3.BoolSchema) error {
	if n.Kind == jsontree.Object {
		return ptr(d, n, true, &out.Schema, schemaRef.decode)
	}
	return setBoolPtr(d, n, false, &out.Has)
}
