package openapie2e

import (
	"encoding/json"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	schemas "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-schemas"
	wild "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-wild"
)

// TestTuples: a tuple whose items share a schema (written as an array of
// schemas in items, which OpenAPI 3.0 does not allow) is a typed slice whose
// items are checked, and one whose items differ a slice of untyped values,
// through the Tool adapter to the REST API and back; a 3.1 prefixItems tuple
// closed by items: false is at most as long as it.
func TestTuples(t *testing.T) {
	api := &echoAPI{}
	rest := httptest.NewServer(api)
	defer rest.Close()
	tool, err := wild.NewTool(must(wild.NewClient(rest.URL)))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(runtime.NewHandler(tool))
	defer srv.Close()
	oc := runtime.NewClient(srv.URL + "/opentool")
	ctx := t.Context()

	var place wild.Place
	args := json.RawMessage(`{"name":"Home","location":[52.5,13.4],"label":["home",1]}`)
	if err := oc.Invoke(ctx, "addPlace", args, "", &place); err != nil {
		t.Fatal(err)
	}
	if got := string(api.last()); got != `{"name":"Home","location":[52.5,13.4],"label":["home",1]}` {
		t.Errorf("the API got %s", got)
	}
	if len(place.Location) != 2 || place.Location[1] != 13.4 || len(place.Label) != 2 || string(place.Label[1]) != "1" {
		t.Errorf("the place came back as %+v", place)
	}

	for _, tc := range []struct{ args, want string }{
		{`{"name":"x","location":["north",13.4]}`, `/location/0: got "north", want number`},
		{`{"name":"x","location":[52.5]}`, `/location: got 1 elements, want at least 2`},
	} {
		err := oc.Invoke(ctx, "addPlace", json.RawMessage(tc.args), "", nil)
		var e *runtime.Error
		if !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams || len(e.Violations()) != 1 || e.Violations()[0].String() != tc.want {
			t.Errorf("addPlace(%s): got %v, want %s", tc.args, err, tc.want)
		}
	}

	// The same in Go.
	c := must(wild.NewClient(rest.URL))
	if _, err := c.AddPlace(ctx, wild.AddPlaceArgs{Place: wild.Place{Name: "Work", Location: []float64{1, 2}, Label: []json.RawMessage{json.RawMessage(`"w"`), json.RawMessage(`2`)}}}); err != nil {
		t.Error(err)
	}
	if string(api.last()) != `{"name":"Work","location":[1,2],"label":["w",2]}` {
		t.Errorf("AddPlace sent %s", api.last())
	}

	// OpenAPI 3.1: prefixItems with items: false, through the Tool.
	fake := &fakeSchemas{}
	st, err := schemas.NewTool(fake)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Call(ctx, "putTree", json.RawMessage(`{"value":1,"meta":{"span":[3,9]}}`)); err != nil {
		t.Fatal(err)
	}
	if a := fake.got.(schemas.PutTreeArgs); a.Meta == nil || len(a.Meta.Span) != 2 || a.Meta.Span[1] != 9 {
		t.Errorf("span [3,9]: %+v", a.Meta)
	}
	for _, tc := range []struct{ span, want string }{
		{`[3,9,12]`, `/meta/span: got 3 elements, want at most 2`},
		{`[3,"9"]`, `/meta/span/1: got "9", want integer`},
	} {
		_, err := st.Call(ctx, "putTree", json.RawMessage(`{"value":1,"meta":{"span":`+tc.span+`}}`))
		var e *runtime.Error
		if !errors.As(err, &e) || len(e.Violations()) != 1 || e.Violations()[0].String() != tc.want {
			t.Errorf("span %s: got %v, want %s", tc.span, err, tc.want)
		}
	}
}
