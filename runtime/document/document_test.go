package document_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

func TestSchemasJSONKeepsOrder(t *testing.T) {
	in := `{"z":{"type":"string"},"a":{"type":"object","properties":{"y":{"type":"integer"},"b":{"$ref":"#/schemas/z"}}},"m":{"type":"boolean"}}`
	var s document.Schemas
	if err := json.Unmarshal([]byte(in), &s); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range s {
		names = append(names, m.Name)
	}
	if diff := cmp.Diff([]string{"z", "a", "m"}, names); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if got := s.Get("a").Properties.Get("b").Ref; got != "#/schemas/z" {
		t.Errorf("a.b: got %q", got)
	}
	if s.Get("nope") != nil {
		t.Error("Get of a missing name: want nil")
	}
	out, err := json.Marshal(s)
	if err != nil || string(out) != in {
		t.Errorf("Marshal:\ngot  %s, %v\nwant %s", out, err, in)
	}

	var null document.Schemas = document.Schemas{}
	if err := json.Unmarshal([]byte(`null`), &null); err != nil || null != nil {
		t.Errorf("null: got %v, %v", null, err)
	}
	if err := json.Unmarshal([]byte(`[]`), &s); err == nil {
		t.Error("an array: want an error")
	}
	if out, err := json.Marshal(document.Schemas{}); err != nil || string(out) != "{}" {
		t.Errorf("empty: got %s, %v", out, err)
	}
}

func TestRefName(t *testing.T) {
	tests := []struct {
		ref  string
		name string
		ok   bool
	}{
		{"#/schemas/Id", "Id", true},
		{"#/schemas/a~1b~0c", "a/b~c", true},
		{"#/schemas/~01", "~1", true},
		{"#/schemas/a~", "a~", true},
		{"#/schemas/", "", false},
		{"#/schemas/a/b", "", false},
		{"#/definitions/Id", "", false},
		{"other.json#/schemas/Id", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		name, ok := document.RefName(tt.ref)
		if name != tt.name || ok != tt.ok {
			t.Errorf("RefName(%q): got %q, %v, want %q, %v", tt.ref, name, ok, tt.name, tt.ok)
		}
	}
}

func TestResolve(t *testing.T) {
	str := &document.Schema{Type: document.TypeString}
	doc := &document.OpenTool{Schemas: document.Schemas{
		{Name: "A", Schema: &document.Schema{Ref: "#/schemas/B"}},
		{Name: "B", Schema: &document.Schema{Ref: "#/schemas/S"}},
		{Name: "S", Schema: str},
		{Name: "L1", Schema: &document.Schema{Ref: "#/schemas/L2"}},
		{Name: "L2", Schema: &document.Schema{Ref: "#/schemas/L1"}},
	}}
	if got, err := doc.Resolve(&document.Schema{Ref: "#/schemas/A"}); err != nil || got != str {
		t.Errorf("A: got %+v, %v", got, err)
	}
	if got, err := doc.Resolve(str); err != nil || got != str {
		t.Errorf("not a reference: got %+v, %v", got, err)
	}
	if got, err := doc.Resolve(nil); err != nil || got != nil {
		t.Errorf("nil: got %+v, %v", got, err)
	}
	for ref, want := range map[string]string{
		"#/schemas/L1":   "cycle",
		"#/schemas/Nope": `no schema named "Nope"`,
		"#/other/A":      "want #/schemas/<name>",
	} {
		if _, err := doc.Resolve(&document.Schema{Ref: ref}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error containing %q", ref, err, want)
		}
	}
}

func TestStreamData(t *testing.T) {
	data, other := &document.Return{Name: "d"}, &document.Return{Name: "o"}
	tests := []struct {
		stream map[string]*document.Return
		want   *document.Return
	}{
		{nil, nil},
		{map[string]*document.Return{"data": data, "other": other}, data},
		{map[string]*document.Return{"other": other}, other},
		{map[string]*document.Return{"x": data, "y": other}, nil},
	}
	for _, tt := range tests {
		f := document.Function{Stream: tt.stream}
		if got := f.StreamData(); got != tt.want {
			t.Errorf("StreamData(%v): got %v, want %v", tt.stream, got, tt.want)
		}
		if f.IsStream() != (len(tt.stream) > 0) {
			t.Errorf("IsStream(%v): got %v", tt.stream, f.IsStream())
		}
	}
}
