package fastload

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// The kin-openapi objects this package decodes itself, and the references
// to them. Each is decoded by one table-driven decoder whose table is read
// from the struct type as encoding/json reads it (TestFastLoadFields checks
// that every field of these types was verified against the kin-openapi
// version in go.mod).
var (
	schema      = newObject[openapi3.Schema]()
	parameter   = newObject[openapi3.Parameter]()
	header      = newObject[openapi3.Header]()
	example     = newObject[openapi3.Example]()
	requestBody = newObject[openapi3.RequestBody]()
	response    = newObject[openapi3.Response]()
	mediaType   = newObject[openapi3.MediaType]()
	operation   = newObject[openapi3.Operation]()
	pathItem    = newObject[openapi3.PathItem]()
	components  = newObject[openapi3.Components]()

	schemaRef      = newRef[openapi3.SchemaRef](schema)
	parameterRef   = newRef[openapi3.ParameterRef](parameter)
	headerRef      = newRef[openapi3.HeaderRef](header)
	exampleRef     = newRef[openapi3.ExampleRef](example)
	requestBodyRef = newRef[openapi3.RequestBodyRef](requestBody)
	responseRef    = newRef[openapi3.ResponseRef](response)
)

// objectType decodes one kind of kin-openapi object (T: Schema, Operation,
// …) as its UnmarshalJSON does: every member into the field encoding/json
// fills from it, the others into Extensions. Its table of fields is read
// from T, as encoding/json reads it, when it is first used.
type objectType[T any] struct {
	once  sync.Once
	byLen [][]objectField // the fields by the length of their member name
	names []string        // the member names, which a member must not match but for case
	ext   uintptr         // the offset of Extensions
	err   error           // why T is not decoded here, if it is not: Load gives up
}

// objectField is a member name, the offset in T of the field it fills and
// how. Looking a member up by length and then name takes a third of the time
// a map takes.
type objectField struct {
	name   string
	offset uintptr
	set    setter
}

func newObject[T any]() *objectType[T] { return &objectType[T]{} }

// build reads T's fields as encoding/json does: by the name of their json
// tag, or their Go name, promoted from embedded structs; a field tagged "-"
// or unexported is not decoded.
func (t *objectType[T]) build() {
	typ := reflect.TypeFor[T]()
	ext, ok := typ.FieldByName("Extensions")
	if !ok || ext.Type != reflect.TypeFor[map[string]any]() {
		t.err = fmt.Errorf("%v has no Extensions map", typ)
		return
	}
	t.ext = offset(typ, ext.Index)
	for _, f := range reflect.VisibleFields(typ) {
		if !f.IsExported() || f.Anonymous && f.Type.Kind() == reflect.Struct {
			continue
		}
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		switch {
		case tag == "-":
			continue
		case name == "":
			name = f.Name
		}
		for len(t.byLen) <= len(name) {
			t.byLen = append(t.byLen, nil)
		}
		t.byLen[len(name)] = append(t.byLen[len(name)], objectField{name, offset(typ, f.Index), setterOf(f.Type)})
		t.names = append(t.names, name)
	}
}

// offset is the offset in typ of the field at index, through embedded
// structs.
func offset(typ reflect.Type, index []int) uintptr {
	var off uintptr
	for _, i := range index {
		f := typ.Field(i)
		off += f.Offset
		typ = f.Type
	}
	return off
}

// field returns the field the member key fills, or nil.
func (t *objectType[T]) field(key string) *objectField {
	if len(key) < len(t.byLen) {
		fs := t.byLen[len(key)]
		for i := range fs {
			if fs[i].name == key {
				return &fs[i]
			}
		}
	}
	return nil
}

// decode decodes the object n.
func (t *objectType[T]) decode(d *decoder, n *jsontree.Node, rt bool) (*T, error) {
	t.once.Do(t.build)
	if t.err != nil {
		return nil, errSlow
	}
	if err := object(n); err != nil {
		return nil, err
	}
	x := new(T)
	p := unsafe.Pointer(x)
	for _, m := range n.Members {
		var err error
		if f := t.field(m.Key); f != nil {
			err = f.set(d, m.Value, rt, unsafe.Add(p, f.offset))
		} else {
			err = d.extension((*map[string]any)(unsafe.Add(p, t.ext)), m, t.names)
		}
		if err != nil {
			return nil, err
		}
	}
	return x, nil
}

// refType decodes a reference to a V (R: SchemaRef, ParameterRef, …) as
// R's UnmarshalJSON does: {"$ref": "…"} alone sets Ref and nothing else; a
// $ref with siblings, or a value that is not an object (a boolean schema), is
// left to R's UnmarshalJSON; an object is the Value.
type refType[R, V any] struct {
	value      *objectType[V]
	ref, field uintptr // the offsets of Ref and Value
	err        error   // why R is not decoded here, if it is not
}

func newRef[R, V any](value *objectType[V]) *refType[R, V] {
	typ := reflect.TypeFor[R]()
	t := &refType[R, V]{value: value}
	ref, okRef := typ.FieldByName("Ref")
	val, okVal := typ.FieldByName("Value")
	_, okUnm := any(new(R)).(unmarshaler)
	if !okRef || !okVal || !okUnm || ref.Type != reflect.TypeFor[string]() || val.Type != reflect.TypeFor[*V]() {
		t.err = fmt.Errorf("%v is not a reference with Ref, Value *%v and UnmarshalJSON", typ, reflect.TypeFor[V]())
		return t
	}
	t.ref, t.field = offset(typ, ref.Index), offset(typ, val.Index)
	return t
}

// decode decodes the reference n (not null).
func (t *refType[R, V]) decode(d *decoder, n *jsontree.Node, rt bool) (*R, error) {
	if t.err != nil {
		return nil, errSlow
	}
	r := new(R)
	if ref, ok := pureRef(n); ok {
		*(*string)(unsafe.Add(unsafe.Pointer(r), t.ref)) = ref
		return r, nil
	}
	if n.Kind == jsontree.Object && refOfAnotherCase(n) {
		// kin-openapi up to v0.152.0 decodes it as a $ref (encoding/json
		// matches names case-insensitively), v0.153.0 as an extension (it
		// decodes documents from YAML nodes): the usual way decides.
		return nil, errSlow
	}
	if n.Kind != jsontree.Object || hasRef(n) {
		return r, d.call(n, rt, any(r).(unmarshaler))
	}
	v, err := t.value.decode(d, n, rt)
	if err != nil {
		return nil, err
	}
	*(**V)(unsafe.Add(unsafe.Pointer(r), t.field)) = v
	return r, nil
}
