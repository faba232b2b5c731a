package openapie2e

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	schemas "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-schemas"
)

// TestUnionJSON round-trips unions with and without discriminator.
func TestUnionJSON(t *testing.T) {
	for _, tc := range []struct {
		in    string
		check func(p schemas.Pet) bool
	}{
		{`{"kind":"cat","name":"Tom","lives":7}`, func(p schemas.Pet) bool { return p.Cat != nil && p.Dog == nil && *p.Cat.Lives == 7 }},
		{`{"kind":"dog","name":"Rex","good":true,"friend":{"kind":"cat","name":"Tom"}}`, func(p schemas.Pet) bool {
			return p.Dog != nil && p.Dog.Good && p.Dog.Friend.Cat != nil && p.Dog.Friend.Cat.Name == "Tom"
		}},
	} {
		var p schemas.Pet
		if err := json.Unmarshal([]byte(tc.in), &p); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if !tc.check(p) {
			t.Errorf("%s: decoded %+v", tc.in, p)
		}
		out, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var again schemas.Pet
		if err := json.Unmarshal(out, &again); err != nil || !tc.check(again) {
			t.Errorf("%s: round trip %s: %v", tc.in, out, err)
		}
	}
	// The discriminator decides; the variant's violations are reported.
	var p schemas.Pet
	err := json.Unmarshal([]byte(`{"kind":"dog","name":"Rex"}`), &p)
	if err == nil || !strings.Contains(err.Error(), "/good") {
		t.Errorf("dog without good: got %v", err)
	}
	if err := json.Unmarshal([]byte(`{"kind":"bird","name":"Tweety"}`), &p); err == nil || !strings.Contains(err.Error(), `names no variant`) {
		t.Errorf("unknown kind: got %v", err)
	}

	// anyOf without discriminator: the first variant that accepts the value.
	for in, want := range map[string]string{`{"radius":2}`: "circle", `{"side":3}`: "square", `1.5`: "float"} {
		var s schemas.Shape
		if err := json.Unmarshal([]byte(in), &s); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		got := ""
		switch {
		case s.Circle != nil:
			got = "circle"
		case s.Square != nil:
			got = "square"
		case s.Float != nil:
			got = "float"
		}
		if got != want {
			t.Errorf("Shape %s: got %s, want %s", in, got, want)
		}
		if out, _ := json.Marshal(s); string(out) != in {
			t.Errorf("Shape %s: encodes as %s", in, out)
		}
	}
	var s schemas.Shape
	if err := json.Unmarshal([]byte(`{"radius":-1}`), &s); err == nil {
		t.Error("Shape with a negative radius: no error")
	}
	var id schemas.ID
	if err := json.Unmarshal([]byte(`42`), &id); err != nil || id.Int == nil || *id.Int != 42 {
		t.Errorf("ID 42: %+v %v", id, err)
	}
	if err := json.Unmarshal([]byte(`"0b5e2c1a-3d4f-4e6a-8b7c-9d0e1f2a3b4c"`), &id); err != nil || id.String == nil || *id.String != "0b5e2c1a-3d4f-4e6a-8b7c-9d0e1f2a3b4c" {
		t.Errorf("ID abc: %+v %v", id, err)
	}
}

// TestNullableRef: anyOf [{$ref: Circle}, {type: object, nullable: true}]
// (OpenAPI.NET's nullable reference) is a *Circle that may be null, checked
// as a Circle; the same nullable object beside two other alternatives is a
// union whose last variant takes any object. Decoded as the Square variant
// of the union Shape, through the generated decoders and their checks.
func TestNullableRef(t *testing.T) {
	for in, want := range map[string]float64{`{"side":2,"inscribed":{"radius":1.5}}`: 1.5, `{"side":2,"inscribed":null}`: 0, `{"side":2}`: 0} {
		var sh schemas.Shape
		if err := json.Unmarshal([]byte(in), &sh); err != nil || sh.Square == nil {
			t.Fatalf("%s: %+v, %v", in, sh, err)
		}
		switch c := sh.Square.Inscribed; {
		case c == nil && want != 0:
			t.Errorf("%s: no inscribed circle", in)
		case c != nil && c.Radius != want:
			t.Errorf("%s: radius %v, want %v", in, c.Radius, want)
		}
	}
	// A value Circle refuses is no Square: before, any object was one.
	for _, in := range []string{`{"side":2,"inscribed":{"radius":-1}}`, `{"side":2,"inscribed":{}}`, `{"side":2,"inscribed":"round"}`} {
		var sh schemas.Shape
		if err := json.Unmarshal([]byte(in), &sh); err == nil || !strings.Contains(err.Error(), "none of the variants") {
			t.Errorf("%s: got %+v, %v; want none of the variants", in, sh, err)
		}
	}
	for in, want := range map[string]string{`{"side":2,"label":{"color":"red"}}`: "object", `{"side":2,"label":{"radius":3}}`: "circle", `{"side":2,"label":"big"}`: "string"} {
		var sh schemas.Shape
		if err := json.Unmarshal([]byte(in), &sh); err != nil || sh.Square == nil || sh.Square.Label == nil {
			t.Fatalf("%s: %+v, %v", in, sh, err)
		}
		got := ""
		switch l := sh.Square.Label; {
		case l.Circle != nil:
			got = "circle"
		case l.String != nil:
			got = "string"
		case l.Object != nil:
			got = "object"
		}
		if got != want {
			t.Errorf("%s: label is a %s, want a %s", in, got, want)
		}
	}
}

// fakeSchemas implements the Service of the schemas package.
type fakeSchemas struct{ got any }

func (f *fakeSchemas) AddPet(_ context.Context, a schemas.AddPetArgs) (schemas.Pet, error) {
	f.got = a
	return a.Body, nil
}

func (f *fakeSchemas) Area(_ context.Context, a schemas.AreaArgs) (float64, error) {
	f.got = a
	switch {
	case a.Shape.Circle != nil:
		return 3 * a.Shape.Circle.Radius * a.Shape.Circle.Radius, nil
	case a.Shape.Square != nil:
		return a.Shape.Square.Side * a.Shape.Square.Side, nil
	}
	return 0, errors.New("no shape")
}

func (f *fakeSchemas) PutTree(_ context.Context, a schemas.PutTreeArgs) (schemas.Tree, error) {
	f.got = a
	return schemas.Tree{Value: a.Value, Children: a.Children}, nil
}

func TestSchemasTool(t *testing.T) {
	ctx := context.Background()
	fake := &fakeSchemas{}
	tool, err := schemas.NewTool(fake)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(runtime.NewHandler(tool))
	defer srv.Close()
	oc := runtime.NewClient(srv.URL + "/opentool")

	var area float64
	if err := oc.Invoke(ctx, "area", map[string]any{"shape": map[string]any{"side": 2}, "id": 5, "scale": nil, "anything": []int{1}}, "result", &area); err != nil || area != 4 {
		t.Fatalf("area: %v, %v", area, err)
	}
	got := fake.got.(schemas.AreaArgs)
	if got.ID.Int == nil || *got.ID.Int != 5 || got.Scale != nil || string(got.Anything) != "[1]" {
		t.Errorf("area args: %+v", got)
	}

	var pet schemas.Pet
	if err := oc.Invoke(ctx, "addPet", map[string]any{"body": map[string]any{"kind": "cat", "name": "Tom", "nickname": nil}}, "", &pet); err != nil || pet.Cat == nil || pet.Cat.Name != "Tom" {
		t.Fatalf("addPet: %+v, %v", pet, err)
	}

	// Violations inside a discriminated variant carry their full path.
	err = oc.Invoke(ctx, "addPet", map[string]any{"body": map[string]any{"kind": "cat", "name": 3, "lives": 12}}, "", &pet)
	var oe *runtime.Error
	if !errors.As(err, &oe) || oe.Code != runtime.CodeInvalidParams {
		t.Fatalf("addPet invalid: %v", err)
	}
	var paths []string
	for _, v := range oe.Violations() {
		paths = append(paths, v.Path)
	}
	if strings.Join(paths, " ") != "/body/lives /body/name" {
		t.Errorf("violation paths: %v (%v)", paths, oe.Violations())
	}

	// Recursive types.
	var tree schemas.Tree
	in := map[string]any{"value": 1, "children": []any{map[string]any{"value": 2, "children": []any{map[string]any{"value": 3}}}}, "meta": map[string]any{"created": nil}}
	if err := oc.Invoke(ctx, "putTree", in, "", &tree); err != nil {
		t.Fatal(err)
	}
	if len(tree.Children) != 1 || tree.Children[0].Children[0].Value != 3 {
		t.Errorf("putTree: %+v", tree)
	}
}

// TestExclusiveBoundDeclared: an integer's exclusive bound is declared as
// the nearest integer inside it, so the least value the declaration allows
// is one the generated decoder accepts (Prism found Telegram's durations,
// declared "at least 0" and refused at 0), and the one below is refused.
func TestExclusiveBoundDeclared(t *testing.T) {
	fake := &fakeSchemas{}
	tool, err := schemas.NewTool(fake)
	if err != nil {
		t.Fatal(err)
	}
	d, err := declare.Functions(tool.Document(), declare.OpenAI)
	if err != nil {
		t.Fatal(err)
	}
	var decls []struct {
		Function struct {
			Name       string `json:"name"`
			Parameters struct {
				Defs map[string]struct {
					Properties map[string]struct {
						Minimum *float64 `json:"minimum"`
					} `json:"properties"`
				} `json:"$defs"`
			} `json:"parameters"`
		} `json:"function"`
	}
	if err := json.Unmarshal(d.Tools, &decls); err != nil {
		t.Fatal(err)
	}
	var least *float64
	for _, decl := range decls {
		if decl.Function.Name == "area" {
			least = decl.Function.Parameters.Defs["Square"].Properties["corners"].Minimum
		}
	}
	if least == nil || *least != 3 {
		t.Fatalf("Square.corners (exclusiveMinimum 2) declared with minimum %v, want 3\n%s", least, d.Tools)
	}
	call := func(corners float64) error {
		args, _ := json.Marshal(map[string]any{"shape": map[string]any{"side": 2, "corners": corners}, "id": 5})
		_, err := tool.Call(context.Background(), "area", args)
		return err
	}
	if err := call(*least); err != nil {
		t.Errorf("corners %v, the declared minimum: %v", *least, err)
	}
	var e *runtime.Error
	if err := call(2); !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams || !strings.Contains(err.Error(), "/shape") {
		t.Errorf("corners 2: got %v, want invalid params at /shape", err)
	}
}
