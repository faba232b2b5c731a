package openapi

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/overlay"
	"github.com/opentoolgen/opentoolgen/gen/source"
)

// TestOverlayFastAndSlow: a document patched by overlays loads to the same
// model by the fast path (fastload, from the patched tree) and by
// kin-openapi's own reading of its JSON form.
func TestOverlayFastAndSlow(t *testing.T) {
	read := func(name string) []byte {
		data, err := os.ReadFile("../../overlay/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	doc, err := source.ReadSource("shop.yaml", read("shop.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	patched, _, err := overlay.Apply(doc, []overlay.File{{Name: "rename.yaml", Data: read("rename.yaml")}, {Name: "copy.yaml", Data: read("copy.yaml")}})
	if err != nil {
		t.Fatal(err)
	}
	load := func(fast bool) []byte {
		defer func(was bool) { fastLoading = was }(fastLoading)
		fastLoading = fast
		slow := false
		pkg, _, err := Load(patched, model.LoadOptions{SlowLoad: func(string, string) { slow = true }})
		if err != nil {
			t.Fatal(err)
		}
		if fast && slow {
			t.Error("the fast path gave up on the patched document")
		}
		out, err := json.MarshalIndent(pkg.Document, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	fast, slow := load(true), load(false)
	if diff := cmp.Diff(string(slow), string(fast)); diff != "" {
		t.Errorf("fast path (+) and kin-openapi (-) differ:\n%s", diff)
	}
	var d struct {
		Functions []struct{ Name string }
	}
	if err := json.Unmarshal(fast, &d); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range d.Functions {
		names = append(names, f.Name)
	}
	if want := []string{"items", "createItem"}; !cmp.Equal(names, want) {
		t.Errorf("functions %v, want %v (renamed, the internal one removed)", names, want)
	}
}
