package overlay

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/gen/source"
)

// referenceModule is the reference implementation of the Overlay
// Specification whose examples TestReferenceExamples runs: its overlay
// package's testdata, read from the Go module cache (nothing is copied).
const referenceModule = "github.com/speakeasy-api/openapi@v1.26.3"

// referenceExamples are the document, overlay and expected document that
// the reference's own tests pair (overlay/apply_test.go, copy_test.go,
// compare_test.go), in its overlay/testdata. An example without want
// expects the error wantErr.
var referenceExamples = []struct {
	name     string
	doc      string
	overlay  string
	want     string // the expected document
	wantErr  string // or a part of the error expected
	warnings int    // the warnings expected
	// edit, when set, is a replacement made in the overlay's text (in
	// memory) before it is applied: old, new.
	edit [2]string
}{
	// TestApplyTo, TestApplyTo_V100_BackwardCompatibility. Its fifth
	// target, $.tags[?(@.name == "authentication")].description~, ends in
	// the reference's property-name selector (~, of JSONPath-Plus), which
	// RFC 9535 has not: an error here. With the ~ taken out (removing the
	// member's value removes the member) the result is the reference's.
	{name: "apply", doc: "openapi.yaml", overlay: "overlay.yaml", wantErr: `unexpected '~'`},
	{name: "apply-without-~", doc: "openapi.yaml", overlay: "overlay.yaml", want: "openapi-overlayed.yaml",
		edit: [2]string{`.description~`, `.description`}},
	// TestCompare: the overlay the reference's Compare generates, applied.
	// Like overlay.yaml, it updates x-my-ignore: true with an object, which
	// an Overlay 1.0.0 document may (it replaces the primitive).
	{name: "generated", doc: "openapi.yaml", overlay: "overlay-generated.yaml", want: "openapi-overlayed.yaml"},
	// TestApplyToStrict: the reference drops the first action, which
	// selects nothing (an error in its strict mode); a warning here. The
	// third action sets again what the second set.
	{name: "mismatched", doc: "openapi.yaml", overlay: "overlay-mismatched.yaml", want: "openapi-strict-onechange.yaml", warnings: 1},
	// TestApplyTo_CopyVersionToHeader.
	{name: "version-header", doc: "openapi-version-header.yaml", overlay: "overlay-version-header.yaml", want: "openapi-version-header-expected.yaml"},
	// TestCopyAction_Basic, TestCopyAction_BasicStrict.
	{name: "copy", doc: "openapi-copy.yaml", overlay: "overlay-copy.yaml", want: "openapi-copy-expected.yaml"},
	// TestCopyAction_Move.
	{name: "copy-move", doc: "openapi-copy.yaml", overlay: "overlay-copy-move.yaml", want: "openapi-copy-move-expected.yaml"},
	// TestCopyAction_CopyIgnoredWithUpdate: copy has no impact when update
	// has a value (Overlay 1.1.0); the reference checks no error only. Its
	// target, $.paths["/bar"], selects nothing in openapi-copy.yaml: a
	// warning here, none in the reference's lax mode.
	{name: "copy-with-update", doc: "openapi-copy.yaml", overlay: "overlay-copy-mutual-exclusive.yaml", warnings: 1},
	// TestCopyAction_SourceNotFound: an error in the reference's strict
	// mode (its lax mode ignores the action); an error here.
	{name: "copy-errors", doc: "openapi-copy.yaml", overlay: "overlay-copy-errors.yaml", wantErr: "selects 0 values; want exactly one"},
	// TestApplyToOld: $.paths.*[?(@.x-my-ignore)] is the reference's
	// legacy JSONPath, not RFC 9535 (a name shorthand has no "-").
	{name: "old", doc: "openapi.yaml", overlay: "overlay-old.yaml", wantErr: "not an RFC 9535 JSONPath query"},
}

// TestReferenceExamples applies the reference implementation's example
// overlays and compares each result with the document the reference
// expects, as values (member order aside). Opt-in, as it downloads the
// module: OPENTOOLGEN_OVERLAY_EXAMPLES=1 go test ./gen/overlay/ -run TestReferenceExamples
func TestReferenceExamples(t *testing.T) {
	if os.Getenv("OPENTOOLGEN_OVERLAY_EXAMPLES") != "1" {
		t.Skip("the reference implementation's overlay examples: set OPENTOOLGEN_OVERLAY_EXAMPLES=1 to run them (go mod download " + referenceModule + ")")
	}
	dir := filepath.Join(referenceDir(t), "overlay", "testdata")
	readFile := func(t *testing.T, name string) File {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return File{Name: filepath.Join(dir, name), Data: data}
	}
	for _, ex := range referenceExamples {
		t.Run(ex.name, func(t *testing.T) {
			d := readFile(t, ex.doc)
			doc, err := source.ReadSource(d.Name, d.Data)
			if err != nil {
				t.Fatal(err)
			}
			o := readFile(t, ex.overlay)
			if ex.edit[0] != "" {
				if !strings.Contains(string(o.Data), ex.edit[0]) {
					t.Fatalf("%s has no %q to replace", ex.overlay, ex.edit[0])
				}
				o.Data = []byte(strings.ReplaceAll(string(o.Data), ex.edit[0], ex.edit[1]))
			}
			out, warnings, err := Apply(doc, []File{o})
			if ex.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), ex.wantErr) {
					t.Fatalf("Apply: got error %v, want one with %q", err, ex.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if len(warnings) != ex.warnings {
				t.Errorf("got %d warnings %v, want %d", len(warnings), warnings, ex.warnings)
			}
			if ex.want == "" {
				return
			}
			w := readFile(t, ex.want)
			want, err := source.ReadSource(w.Name, w.Data)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(asValue(t, want.JSON), asValue(t, out.JSON)); diff != "" {
				t.Errorf("%s with %s differs from %s (-want +got):\n%s", ex.doc, ex.overlay, ex.want, diff)
			}
		})
	}
}

// referenceDir downloads the reference module (go mod download) and
// returns its directory.
func referenceDir(t *testing.T) string {
	cmd := exec.Command("go", "mod", "download", "-json", referenceModule)
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v %s", referenceModule, err, out)
	}
	var m struct{ Dir, Error string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		t.Fatalf("go mod download %s: %s", referenceModule, out)
	}
	return m.Dir
}

func asValue(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
