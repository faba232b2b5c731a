package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Documents like those of the public corpus (scripts/corpus.sh) that the
// generator once refused: small ones of our own in testdata/corpus, each with
// the warnings it gets and what its generated package must hold; the packages
// are vetted together.
var corpusCases = []struct {
	file     string
	warnings []string
	contains []string
}{{
	file: "dangling_refs.yaml",
	warnings: []string{
		`dangling_refs.yaml:20:21: warning: /paths/~1orders~1{id}/get/parameters/0/examples/typical/$ref: $ref "#/components/examples/orderID" names nothing: #/components has no member "examples"; the example is left out (generated code does not use examples)`,
		`dangling_refs.yaml:23:17: warning: /paths/~1orders~1{id}/get/callbacks/shipped/$ref: $ref "#/components/callbacks/shipped" names nothing: #/components has no member "callbacks"; the callback is left out (its events get no receiver method)`,
		`dangling_refs.yaml:29:21: warning: /paths/~1orders~1{id}/get/responses/200/links/cancel/$ref: $ref "#/components/links/cancelOrder" names nothing: #/components/links has no member "cancelOrder"; the link is left out (generated code does not use links)`,
		`dangling_refs.yaml:38:25: warning: /paths/~1orders~1{id}/get/responses/200/content/application~1json/examples/paid/$ref: $ref "#/components/examples/paidOrder" names nothing: #/components has no member "examples"; the example is left out (generated code does not use examples)`,
	},
	contains: []string{"func (c *Client) GetOrder(ctx context.Context, args GetOrderArgs) (Order, error)", "Total *float64"},
}, {
	file: "swagger_response_ref.yaml",
	warnings: []string{
		`swagger_response_ref.yaml:24:19: warning: /paths/~1members~1{name}/get/responses/200/schema/$ref: the schema is a $ref to a response ("#/responses/member"); read as that response's schema`,
		`swagger_response_ref.yaml:28:19: warning: /paths/~1members~1{name}/get/responses/404/schema/$ref: the schema is a $ref to a response ("#/responses/empty"), which has no schema; read as a response without a body`,
		`swagger_response_ref.yaml:35:19: warning: /paths/~1members~1{name}/delete/responses/204/schema/$ref: the schema is a $ref to a response ("#/responses/empty"), which has no schema; read as a response without a body`,
	},
	contains: []string{
		"func (c *Client) GetMember(ctx context.Context, args GetMemberArgs) (Member, error)",
		"func (c *Client) RemoveMember(ctx context.Context, args RemoveMemberArgs) error",
		"Since *time.Time",
	},
}, {
	file: "required_in_properties.yaml",
	warnings: []string{
		`required_in_properties.path.yaml:22:13: warning: /post/requestBody/content/application~1json/schema/properties/required: "properties" has a member "required" that lists names, not a schema: read as the object's "required"`,
		`required_in_properties.schemas.yaml:12:9: warning: /components/schemas/Note/properties/required: "properties" has a member "required" that lists names, not a schema: read as the object's "required"`,
		`required_in_properties.schemas.yaml:19:9: warning: /components/schemas/Orphan/properties/required: "properties" has a member "required" that lists names, not a schema: read as the object's "required"`,
	},
	contains: []string{
		"func (c *Client) AddNote(ctx context.Context, args AddNoteArgs) (Note, error)",
		"type Note struct {\n\tID   int64  `json:\"id\"`\n\tText string `json:\"text\"`\n}",
		"\tDraft *bool    `json:\"draft,omitzero\"`",
		"\tText  string   `json:\"text\"`",
	},
}, {
	file: "repeated_enum.yaml",
	warnings: []string{
		`repeated_enum.yaml:23:23: warning: /paths/~1webhooks/post/requestBody/content/application~1json/schema/properties/version/enum/1: the enum lists the value "2025-10-15" 3 times (first at index 0): kept once`,
		`repeated_enum.yaml:28:29: warning: /paths/~1webhooks/post/requestBody/content/application~1json/schema/properties/weight/enum/1: the enum lists the value 1 2 times (first at index 0): kept once`,
		`repeated_enum.yaml:31:32: warning: /paths/~1webhooks/post/requestBody/content/application~1json/schema/properties/retries/enum/2: the enum lists the value 3 2 times (first at index 1): kept once`,
		`repeated_enum.yaml:31:35: warning: /paths/~1webhooks/post/requestBody/content/application~1json/schema/properties/retries/enum/3: the enum lists the value 0 2 times (first at index 0): kept once`,
	},
	contains: []string{
		"case AddWebhookVersion20251015, AddWebhookVersion20240101:",
		"case AddWebhookWeightValue1, AddWebhookWeightValue2:",
		"case AddWebhookRetries0, AddWebhookRetries3:",
	},
}, {
	file: "schema_examples_object.yaml",
	warnings: []string{
		`schema_examples_object.yaml:24:7: warning: /components/schemas/Status/examples: a schema's "examples" is an object, want an array; left out (generated code does not use examples)`,
	},
	contains: []string{"func (c *Client) GetStatus(ctx context.Context) (Status, error)", "State *string"},
}}

func TestCorpusDocuments(t *testing.T) {
	dir, err := os.MkdirTemp("../testdata", "tmp-corpus-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	var pkgs []string
	for _, tc := range corpusCases {
		name := strings.TrimSuffix(tc.file, filepath.Ext(tc.file))
		pkg := strings.ReplaceAll(name, "_", "")
		t.Run(name, func(t *testing.T) {
			res, got, err := generateTreeDoc(t, "../testdata/corpus", tc.file)
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if diff := cmp.Diff(tc.warnings, got); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			var all strings.Builder
			pdir := filepath.Join(dir, pkg)
			if err := os.MkdirAll(pdir, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range res.Files {
				all.Write(f.Content)
				content := f.Content
				if strings.HasSuffix(f.Name, ".go") {
					content = []byte(strings.Replace(string(content), "package wild", "package "+pkg, 1))
				}
				if err := os.WriteFile(filepath.Join(pdir, f.Name), content, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, s := range tc.contains {
				if !strings.Contains(all.String(), s) {
					t.Errorf("the generated package lacks %q", s)
				}
			}
		})
		pkgs = append(pkgs, "./testdata/"+filepath.Base(dir)+"/"+pkg)
	}
	if testing.Short() {
		return
	}
	goTool(t, nil, append([]string{"vet"}, pkgs...)...)
}
