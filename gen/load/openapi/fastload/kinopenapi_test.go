package fastload

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// When kin-openapi's version changes in go.mod, check the fast path
// against it:
//
//  1. go test ./gen/load/openapi/fastload (TestFastLoadFields names every
//     field kin-openapi added or removed in the types the fast path builds;
//     TestFastLoadEachField decodes each field both ways);
//  2. read kin-openapi's changes to the UnmarshalJSON of those types (what
//     goes into Extensions, special cases such as Operation's null
//     responses) and to the loader;
//  3. OPENTOOLGEN_REALWORLD=1 go test ./gen/load/openapi/fastload -run
//     FastLoadRealWorld, and go test -fuzz FuzzFastLoad for a while;
//  4. update verifiedFields (shapes.go).

// TestFastLoadShapes: the linked kin-openapi has the fields the fast path
// was verified against (else TestFastLoadFields names them), and a type
// with a field it does not know turns the fast path off at run time.
func TestFastLoadShapes(t *testing.T) {
	if err := linkedShapes(verifiedFields); err != nil {
		t.Errorf("linked kin-openapi: %v", err)
	}
	changed := map[reflect.Type]string{}
	for typ, f := range verifiedFields {
		changed[typ] = f
	}
	changed[reflect.TypeFor[openapi3.Example]()] = "Extensions Origin Summary Description Value"
	if err := linkedShapes(changed); err == nil || !strings.Contains(err.Error(), "ExternalValue") {
		t.Errorf("a field not verified: got %v, want an error naming openapi3.Example.ExternalValue", err)
	}
}

// built are the types the fast path builds, with the decoders of those it
// decodes member by member.
var built = []struct {
	typ    reflect.Type
	decode func(d *decoder, n *jsontree.Node, rt bool) (any, error) // nil: Paths and Responses, decoded by maplike
}{
	{reflect.TypeFor[openapi3.Paths](), nil},
	{reflect.TypeFor[openapi3.Responses](), nil},
	objectCase(pathItem), objectCase(operation), objectCase(parameter), objectCase(header), objectCase(requestBody),
	objectCase(response), objectCase(mediaType), objectCase(example), objectCase(schema), objectCase(components),
	objectCase(schemaRef), objectCase(parameterRef), objectCase(headerRef), objectCase(exampleRef),
	objectCase(requestBodyRef), objectCase(responseRef),
}

// decoderOf is an objectType or a refType.
type decoderOf[T any] interface {
	decode(d *decoder, n *jsontree.Node, rt bool) (*T, error)
}

func objectCase[T any](o decoderOf[T]) struct {
	typ    reflect.Type
	decode func(d *decoder, n *jsontree.Node, rt bool) (any, error)
} {
	return struct {
		typ    reflect.Type
		decode func(d *decoder, n *jsontree.Node, rt bool) (any, error)
	}{reflect.TypeFor[T](), func(d *decoder, n *jsontree.Node, rt bool) (any, error) { return o.decode(d, n, rt) }}
}

// TestFastLoadFields fails, naming the field, when a type the fast path
// builds has a field that was not there in the kin-openapi version it was
// verified against, or has lost one; and when a type it decodes is not
// recorded.
func TestFastLoadFields(t *testing.T) {
	seen := map[reflect.Type]bool{}
	for _, b := range built {
		seen[b.typ] = true
	}
	for _, e := range elements() {
		if !seen[e.typ.Elem()] {
			t.Errorf("%v is decoded here (elements) but not in built and verifiedFields", e.typ.Elem())
		}
	}
	for _, b := range built {
		recorded, ok := verifiedFields[b.typ]
		if !ok {
			t.Errorf("%v: no fields recorded in verifiedFields", b.typ)
			continue
		}
		want := map[string]bool{}
		for _, f := range strings.Fields(recorded) {
			want[f] = true
		}
		for i := range b.typ.NumField() {
			f := b.typ.Field(i)
			if !want[f.Name] {
				t.Errorf("%v.%s (%v, json %q): a field the fast path was not verified with: check that the fast path decodes it as json.Unmarshal does (see kinopenapi_test.go), then record it", b.typ, f.Name, f.Type, f.Tag.Get("json"))
			}
			delete(want, f.Name)
		}
		for f := range want {
			t.Errorf("%v.%s: recorded, but kin-openapi has it no more", b.typ, f)
		}
	}
}

// TestFastLoadEachField decodes every member of every object the fast path
// decodes itself, alone, with a value of its field's type, both ways (as
// written, and re-encoded as under paths and responses), and every kind of
// reference; each must give what json.Unmarshal gives. A field kin-openapi
// adds is tried here without anyone writing a case for it.
func TestFastLoadEachField(t *testing.T) {
	tried := 0
	for _, b := range built {
		if b.decode == nil {
			continue
		}
		var docs []string
		isRef := strings.HasSuffix(b.typ.Name(), "Ref") // decoded by their UnmarshalJSON, not by fields
		for i := 0; i < b.typ.NumField() && !isRef; i++ {
			f := b.typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" || f.Anonymous {
				continue
			}
			if name == "" {
				name = f.Name
			}
			fast := 0
			for _, v := range samples(f.Type, 0) {
				for _, rt := range []bool{false, true} {
					tried++
					if checkEachField(t, b.typ, b.decode, fmt.Sprintf(`{%q:%s}`, name, v), rt) {
						fast++
					}
				}
			}
			if fast == 0 {
				t.Errorf("%v.%s: no sample took the fast path: give samples a value of its type that kin-openapi decodes", b.typ, f.Name)
			}
			docs = append(docs, fmt.Sprintf(`{%q:null}`, name))
		}
		if b.typ == reflect.TypeFor[openapi3.Header]() {
			docs = append(docs, `{"name":"n","in":"header","schema":{"type":"string"},"x-h":1}`)
		}
		if isRef {
			docs = append(docs, `{"$ref":"#/components/x/y"}`, `{"$ref":"#/components/x/y","summary":"s","description":"d","x-e":1,"other":[2]}`,
				`{"description":"d","x-e":{"a":1}}`, `{}`)
		}
		docs = append(docs, `{"x-ext":[1,{"a":null}],"other":"o"}`)
		for _, doc := range docs {
			for _, rt := range []bool{false, true} {
				tried++
				checkEachField(t, b.typ, b.decode, doc, rt)
			}
		}
	}
	if tried < 400 {
		t.Errorf("tried %d documents, want at least 400", tried)
	}
}

// givesUp are the documents on which the fast path gives up by design.
var givesUp = map[string]bool{
	`{"responses":null}`: true, // Operation remembers it in an unexported field
}

// checkEachField decodes doc into a typ both ways: the fast path must give
// what json.Unmarshal gives, or give up where json.Unmarshal fails (the
// usual way then reports it). It reports whether the fast path was taken.
func checkEachField(t *testing.T, typ reflect.Type, decode func(*decoder, *jsontree.Node, bool) (any, error), doc string, rt bool) bool {
	t.Helper()
	data := []byte(doc)
	if rt { // under paths and responses, kin-openapi decodes the value re-encoded
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%v: %s: %v", typ, doc, err)
		}
		data, _ = json.Marshal(v)
	}
	want := reflect.New(typ)
	werr := json.Unmarshal(data, want.Interface())
	src, err := source.ReadSource("f.json", []byte(doc))
	if err != nil {
		t.Fatalf("%v: %s: %v", typ, doc, err)
	}
	got, err := decode(&decoder{data: src.JSON}, src.Tree, rt)
	switch {
	case err != nil && err != errSlow:
		t.Errorf("%v: %s (re-encoded %v): %v, want errSlow", typ, doc, rt, err)
	case err != nil && werr == nil && !givesUp[doc]:
		t.Errorf("%v: %s (re-encoded %v): the fast path gave up, json.Unmarshal did not", typ, doc, rt)
	case err == nil && werr != nil:
		t.Errorf("%v: %s (re-encoded %v): json.Unmarshal fails (%v), the fast path did not give up", typ, doc, rt, werr)
	case err == nil && !reflect.DeepEqual(got, want.Interface()):
		t.Errorf("%v: %s (re-encoded %v) decoded differently (-json.Unmarshal +fast):\n%s", typ, doc, rt,
			cmp.Diff(want.Interface(), got, cmp.Exporter(func(reflect.Type) bool { return true })))
	}
	return err == nil
}

// sampleOf are JSON values for the kin-openapi types whose value a JSON
// value of their Go kind would not be.
var sampleOf = map[reflect.Type][]string{
	reflect.TypeFor[openapi3.Types]():               {`"string"`, `["integer","null"]`},
	reflect.TypeFor[openapi3.ExclusiveBound]():      {`true`, `2.5`},
	reflect.TypeFor[openapi3.BoolSchema]():          {`false`, `{}`, `{"type":"string","maxLength":3}`},
	reflect.TypeFor[openapi3.SchemaRef]():           {`{"type":"integer","minimum":1.5,"maxLength":4,"x-s":[1]}`, `true`, `{"$ref":"#/components/schemas/S"}`},
	reflect.TypeFor[openapi3.Responses]():           {`{"200":{"description":"ok"},"default":null,"x-r":1}`},
	reflect.TypeFor[openapi3.SecurityRequirement](): {`{"k":["a"]}`},
}

// samples returns JSON values of type typ: from sampleOf, or by its kind.
func samples(typ reflect.Type, depth int) []string {
	if s, ok := sampleOf[typ]; ok {
		return s
	}
	if depth > 3 {
		return []string{`{}`}
	}
	switch typ.Kind() {
	case reflect.String:
		return []string{`"s\u00e9"`}
	case reflect.Bool:
		return []string{`true`, `false`}
	case reflect.Float32, reflect.Float64:
		return []string{`2.5`, `-1e3`}
	case reflect.Int, reflect.Int64, reflect.Uint64, reflect.Uint:
		return []string{`7`, `1e2`}
	case reflect.Interface:
		return []string{`{"a":[1,"b",null,2.50]}`, `"s"`, `3`}
	case reflect.Pointer:
		return samples(typ.Elem(), depth+1)
	case reflect.Slice:
		var out []string
		for _, e := range samples(typ.Elem(), depth+1) {
			out = append(out, "["+e+",null]")
		}
		return append(out, `[]`)
	case reflect.Map:
		var out []string
		for _, e := range samples(typ.Elem(), depth+1) {
			out = append(out, `{"k":`+e+`,"n":null}`)
		}
		return append(out, `{}`)
	}
	return []string{`{}`} // a struct
}
