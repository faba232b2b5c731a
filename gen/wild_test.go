package gen

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/gen/source"
)

// writeTree writes files (slash paths to contents) under a new temporary
// directory and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// generateTreeDoc generates the document at root/name, and returns its
// diagnostics (errors, or else warnings) one per line, with root/ cut.
func generateTreeDoc(t *testing.T, root, name string) (*Result, []string, error) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate(p, data, Options{Package: "wild"})
	var diags []source.Diagnostic
	var e *source.Error
	switch {
	case errors.As(err, &e):
		diags = e.Diagnostics
	case err != nil:
		t.Fatalf("Generate: %v", err)
	default:
		diags = res.Warnings
	}
	var lines []string
	for _, d := range diags {
		lines = append(lines, strings.ReplaceAll(d.String(), filepath.ToSlash(root)+"/", ""))
	}
	return res, lines, err
}

// wildEcho is a path item kept in its own file, as multi-file documents do,
// with small violations of the specification whose intent is clear.
const wildEcho = `post:
  operationId: echo
  parameters:
    - name: trace
      in: header
      required: "false"
      schema:
        type: string
      content:
        text/plain:
          schema:
            type: string
` + cleanEchoBody

// cleanEcho is wildEcho without the violations.
const cleanEcho = `post:
  operationId: echo
` + cleanEchoBody

const cleanEchoBody = `  requestBody:
    required: true
    content:
      application/json:
        schema:
          $ref: ../schemas/message.yaml
  responses:
    "200":
      description: ok
      content:
        application/json:
          schema:
            $ref: ../schemas/message.yaml
`

// TestOpenAPIWild: a multi-file document whose $refs lead into sibling
// folders, relative to the file that names them, with a YAML file named
// .json, loads; what the specification does not allow but whose intent is
// clear is read so, with a warning at its place.
func TestOpenAPIWild(t *testing.T) {
	root := writeTree(t, map[string]string{
		"api/openapi.yaml": `openapi: 3.0.3
info:
  title: Wild
  version: 2.5
  description:
    $ref: ./intro.md
paths:
  /echo:
    $ref: paths/echo.yaml
`,
		"api/intro.md":             "Echoes messages back.\n",
		"api/paths/echo.yaml":      wildEcho,
		"api/schemas/message.yaml": "type: object\nrequired: [text]\nproperties:\n  text:\n    type: string\n    description: 7\n  meta:\n    $ref: ./meta.json\n",
		"api/schemas/meta.json":    "# YAML, whatever the name says\ntype: object\nproperties:\n  count: {type: integer}\n",
	})
	res, got, err := generateTreeDoc(t, root, "api/openapi.yaml")
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	want := []string{
		`api/openapi.yaml:4:12: warning: /info/version: want a string, got the number 2.5; read as the string "2.5"`,
		`api/openapi.yaml:6:5: warning: /info/description: a $ref where the specification wants a plain string; the text it names is used`,
		`api/paths/echo.yaml:6:17: warning: /post/parameters/0/required: want a boolean, got the string "false"; read as false`,
		`api/paths/echo.yaml:9:7: warning: /post/parameters/0/content: a parameter has both "schema" and "content", which exclude each other; "content" is ignored`,
		`api/schemas/message.yaml:6:18: warning: /properties/text/description: want a string, got the number 7; read as the string "7"`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	var all strings.Builder
	for _, f := range res.Files {
		all.Write(f.Content)
	}
	for _, s := range []string{"Echoes messages back.", `"2.5"`, "Trace *string", "Count *int64"} {
		if !strings.Contains(all.String(), s) {
			t.Errorf("the generated package lacks %q", s)
		}
	}
}

// TestOpenAPIWildErrors: problems in the files $refs name are reported at
// their place in those files, and a $ref from a sibling folder stays confined
// to the document's directory tree.
func TestOpenAPIWildErrors(t *testing.T) {
	doc := "openapi: 3.0.3\ninfo: {title: Wild, version: \"1\"}\npaths:\n  /echo:\n    $ref: paths/echo.yaml\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{{
		name: "syntax error in a referenced file",
		files: map[string]string{
			"api/paths/echo.yaml":      cleanEcho,
			"api/schemas/message.yaml": "type: object\nproperties:\n  text: {type: string\n",
		},
		want: []string{`api/schemas/message.yaml:3:3: did not find expected ',' or '}'`},
	}, {
		name: "wrong type in a referenced file",
		files: map[string]string{
			"api/paths/echo.yaml":      cleanEcho,
			"api/schemas/message.yaml": "type: object\nproperties:\n  text:\n    type: string\n    nullable: maybe\n",
		},
		want: []string{`api/schemas/message.yaml:5:15: /properties/text/nullable: want a boolean, got the string "maybe"`},
	}, {
		name: "nothing at the pointer of a referenced file",
		files: map[string]string{
			"api/paths/echo.yaml":      strings.ReplaceAll(cleanEcho, "message.yaml", "message.yaml#/Message"),
			"api/schemas/message.yaml": "Msg: {type: string}\n",
		},
		want: []string{
			`api/paths/echo.yaml:8:17: /post/requestBody/content/application~1json/schema/$ref: $ref "../schemas/message.yaml#/Message" names nothing: the document of ../schemas/message.yaml has no member "Message"`,
			`api/paths/echo.yaml:15:19: /post/responses/200/content/application~1json/schema/$ref: $ref "../schemas/message.yaml#/Message" names nothing: the document of ../schemas/message.yaml has no member "Message"`,
		},
	}, {
		name: "out of the tree from a sibling folder",
		files: map[string]string{
			"api/paths/echo.yaml": strings.ReplaceAll(cleanEcho, "../schemas/message.yaml", "../../outside.yaml"),
			"outside.yaml":        "type: string\n",
		},
		want: []string{
			`api/paths/echo.yaml:8:17: /post/requestBody/content/application~1json/schema/$ref: $ref "../../outside.yaml": outside the document's directory tree api; allow it with -allow-ref-dir`,
			`api/paths/echo.yaml:15:19: /post/responses/200/content/application~1json/schema/$ref: $ref "../../outside.yaml": outside the document's directory tree api; allow it with -allow-ref-dir`,
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			tc.files["api/openapi.yaml"] = doc
			root := writeTree(t, tc.files)
			_, got, err := generateTreeDoc(t, root, "api/openapi.yaml")
			if err == nil {
				t.Fatalf("Generate succeeded; want %v", tc.want)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
