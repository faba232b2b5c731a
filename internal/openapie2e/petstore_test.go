// Package openapie2e tests packages generated from OpenAPI documents end to
// end: the generated REST client against an httptest server that checks every
// request exactly, and the generated Tool adapter served over loopback and
// called with an OpenTool client (REST API → OpenTool → agent).
package openapie2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/rest"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
	petstore "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-petstore"
)

// exchange is one request the fake API expects and the response it gives.
type exchange struct {
	method, path, query string
	header              map[string]string // "" value: the header must be absent
	cookie              string
	body                string // exact request body ("" for none)
	contentType         string
	status              int
	response            string
	responseType        string                                           // default application/json
	responseHeader      map[string]string                                // headers of the response
	inspect             func(t *testing.T, r *http.Request, body []byte) // instead of the body check
}

// fakeAPI answers the expected exchanges in order and records mismatches.
type fakeAPI struct {
	t    *testing.T
	mu   sync.Mutex
	next []exchange
}

func (f *fakeAPI) expect(ex ...exchange) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next = append(f.next, ex...)
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	if len(f.next) == 0 {
		f.mu.Unlock()
		f.t.Errorf("unexpected request %s %s", r.Method, r.URL)
		http.Error(w, "unexpected", 500)
		return
	}
	ex := f.next[0]
	f.next = f.next[1:]
	f.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	check := func(what, got, want string) {
		if got != want {
			f.t.Errorf("%s %s: %s: got %q, want %q", ex.method, ex.path, what, got, want)
		}
	}
	check("method", r.Method, ex.method)
	check("path", r.URL.EscapedPath(), ex.path)
	check("query", r.URL.RawQuery, ex.query)
	for k, v := range ex.header {
		check("header "+k, r.Header.Get(k), v)
	}
	check("cookie", r.Header.Get("Cookie"), ex.cookie)
	if ex.inspect != nil {
		r.Body = io.NopCloser(bytes.NewReader(body))
		ex.inspect(f.t, r, body)
	} else {
		check("body", string(body), ex.body)
		if ex.contentType != "" || len(body) > 0 {
			check("content type", r.Header.Get("Content-Type"), ex.contentType)
		}
	}
	if ex.response != "" {
		ct := ex.responseType
		if ct == "" {
			ct = "application/json"
		}
		w.Header().Set("Content-Type", ct)
	}
	for k, v := range ex.responseHeader {
		w.Header().Set(k, v)
	}
	w.WriteHeader(ex.status)
	io.WriteString(w, ex.response)
}

func (f *fakeAPI) done() {
	f.t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.next) > 0 {
		f.t.Errorf("%d expected requests were not made, first %s %s", len(f.next), f.next[0].method, f.next[0].path)
	}
}

func newFake(t *testing.T) (*fakeAPI, *httptest.Server) {
	f := &fakeAPI{t: t}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	t.Cleanup(f.done)
	return f, srv
}

func ptr[T any](v T) *T { return &v }

const petJSON = `{"name":"Rex","tag":"dog","id":7,"created":"2024-05-01T10:00:00Z","owner":null}`

func TestPetstoreClient(t *testing.T) {
	ctx := context.Background()
	f, srv := newFake(t)
	c := must(petstore.NewClient(srv.URL+"/v1", petstore.WithAPIKey("k3y"), petstore.WithBearerAuth("t0ken"),
		petstore.WithRequestEditor(func(_ context.Context, r *http.Request) error {
			r.Header.Set("User-Agent", "e2e")
			return nil
		})))

	// GET with query parameters (an array, exploded) and a header; the API key.
	f.expect(exchange{method: "GET", path: "/v1/pets", query: "limit=5&status=available&status=sold",
		header: map[string]string{"X-Request-ID": "r-1", "X-API-Key": "k3y", "Authorization": "", "User-Agent": "e2e", "Accept": "application/json"},
		status: 200, response: "[" + petJSON + "]"})
	pets, err := c.ListPets(ctx, petstore.ListPetsArgs{Limit: ptr[int32](5), Status: []petstore.PetStatus{petstore.PetStatusAvailable, petstore.PetStatusSold}, XRequestID: ptr("r-1")})
	if err != nil {
		t.Fatal(err)
	}
	if len(pets) != 1 || pets[0].ID != 7 || pets[0].Name != "Rex" || *pets[0].Tag != "dog" || !pets[0].Created.Equal(time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)) || pets[0].Owner != nil {
		t.Errorf("ListPets: got %+v", pets)
	}

	// POST with a flattened JSON body, in document order, optional members left out.
	f.expect(exchange{method: "POST", path: "/v1/pets", body: `{"name":"Rex","tag":"dog"}`, contentType: "application/json",
		header: map[string]string{"X-API-Key": "k3y"}, status: 201, response: petJSON})
	pet, err := c.CreatePet(ctx, petstore.CreatePetArgs{NewPet: petstore.NewPet{Name: "Rex", Tag: ptr("dog")}})
	if err != nil || pet.ID != 7 {
		t.Fatalf("CreatePet: %+v, %v", pet, err)
	}

	// A documented error: typed body and status.
	f.expect(exchange{method: "POST", path: "/v1/pets", body: `{"name":"Rex"}`, contentType: "application/json",
		status: 409, response: `{"code":409,"message":"exists"}`})
	_, err = c.CreatePet(ctx, petstore.CreatePetArgs{NewPet: petstore.NewPet{Name: "Rex"}})
	var apiErr *rest.APIError[petstore.Error]
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 409 || apiErr.Body.Message != "exists" || apiErr.Body.Code != 409 {
		t.Errorf("CreatePet 409: got %v", err)
	}

	// The default response is documented too.
	f.expect(exchange{method: "POST", path: "/v1/pets", body: `{"name":"Rex"}`, contentType: "application/json",
		status: 503, response: `{"code":1,"message":"down"}`})
	_, err = c.CreatePet(ctx, petstore.CreatePetArgs{NewPet: petstore.NewPet{Name: "Rex"}})
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || apiErr.Body.Message != "down" {
		t.Errorf("CreatePet default: got %v", err)
	}

	// Path parameter; 404 documented; 500 not documented: status and raw body.
	f.expect(exchange{method: "GET", path: "/v1/pets/7", status: 200, response: petJSON},
		exchange{method: "GET", path: "/v1/pets/8", status: 404, response: `{"code":404,"message":"no pet 8"}`},
		exchange{method: "GET", path: "/v1/pets/9", status: 500, response: `oops`})
	if pet, err := c.ShowPetByID(ctx, petstore.ShowPetByIDArgs{PetID: 7}); err != nil || pet.Name != "Rex" {
		t.Errorf("ShowPetByID: %+v, %v", pet, err)
	}
	if _, err := c.ShowPetByID(ctx, petstore.ShowPetByIDArgs{PetID: 8}); !errors.As(err, &apiErr) || apiErr.StatusCode != 404 || apiErr.Body.Message != "no pet 8" {
		t.Errorf("ShowPetByID 404: got %v", err)
	}
	var statusErr *rest.StatusError
	if _, err := c.ShowPetByID(ctx, petstore.ShowPetByIDArgs{PetID: 9}); !errors.As(err, &statusErr) || statusErr.StatusCode != 500 || string(statusErr.Body) != "oops" {
		t.Errorf("ShowPetByID 500: got %v", err)
	}

	// PATCH with the bearer scheme only, a query flag and an optional body.
	f.expect(exchange{method: "PATCH", path: "/v1/pets/7", query: "dryRun=true", body: `{"status":"sold","tags":["a","b"]}`, contentType: "application/json",
		header: map[string]string{"Authorization": "Bearer t0ken", "X-API-Key": ""}, status: 200, response: petJSON})
	if _, err := c.UpdatePet(ctx, petstore.UpdatePetArgs{PetID: 7, DryRun: ptr(true), Status: ptr(petstore.PetStatusSold), Tags: []string{"a", "b"}}); err != nil {
		t.Error(err)
	}
	// No body member at all: no body.
	f.expect(exchange{method: "PATCH", path: "/v1/pets/7", status: 200, response: petJSON})
	if _, err := c.UpdatePet(ctx, petstore.UpdatePetArgs{PetID: 7}); err != nil {
		t.Error(err)
	}

	// DELETE without security: no credentials at all.
	f.expect(exchange{method: "DELETE", path: "/v1/pets/7", header: map[string]string{"Authorization": "", "X-API-Key": ""}, status: 204})
	if err := c.DeletePet(ctx, petstore.DeletePetArgs{PetID: 7}); err != nil {
		t.Error(err)
	}

	// A binary body.
	f.expect(exchange{method: "PUT", path: "/v1/pets/7/photo", body: "\x89PNG", contentType: "image/png", status: 204})
	if err := c.PutPetsPetIDPhoto(ctx, petstore.PutPetsPetIDPhotoArgs{PetID: 7, Body: []byte("\x89PNG")}); err != nil {
		t.Error(err)
	}

	// A map result.
	f.expect(exchange{method: "GET", path: "/v1/stats", status: 200, response: `{"sold":3}`})
	if m, err := c.Stats(ctx); err != nil || m["sold"] != 3 {
		t.Errorf("Stats: %v, %v", m, err)
	}

	// Context on every call.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Stats(cctx); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled context: got %v", err)
	}
}

func TestPetstoreDefaultBaseURL(t *testing.T) {
	if petstore.DefaultBaseURL != "https://eu.petstore.example.com/v1" {
		t.Errorf("DefaultBaseURL = %q", petstore.DefaultBaseURL)
	}
}

// TestPetstoreTool serves the generated Tool adapter over loopback and calls it
// with an OpenTool client: REST API → OpenTool → agent.
func TestPetstoreTool(t *testing.T) {
	ctx := context.Background()
	f, api := newFake(t)
	env := map[string]string{"PETSTORE_REQUEST_ID": "5f0c8a1e-7b2d-4c3e-9a4f-1d2e3f4a5b6c"}
	tool, err := petstore.NewTool(must(petstore.NewClient(api.URL+"/v1", petstore.WithAPIKey("k3y"))),
		toolopt.WithFixed("listPets", map[string]any{"limit": 3}),
		toolopt.WithEnvs("", map[string]string{"X-Request-ID": "PETSTORE_REQUEST_ID"}),
		toolopt.WithDefaults("createPet", map[string]any{"tag": "cat"}),
		toolopt.WithLookupEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok }),
	)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(runtime.NewHandler(tool))
	defer srv.Close()
	oc := runtime.NewClient(srv.URL + "/opentool")

	// The declared document hides the fixed and the environment arguments.
	doc, err := oc.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range doc.Functions {
		if fn.Name != "listPets" {
			continue
		}
		var names []string
		for _, p := range fn.Parameters {
			names = append(names, p.Name)
		}
		if strings.Join(names, ",") != "status" {
			t.Errorf("declared parameters of listPets: %v, want [status]", names)
		}
	}
	raw, _ := json.Marshal(doc)
	if strings.Contains(string(raw), "5f0c8a1e-7b2d-4c3e-9a4f-1d2e3f4a5b6c") {
		t.Error("the document shows the value of an environment variable")
	}
	declared, err := tool.Declarations(declare.OpenAI)
	if err != nil {
		t.Fatal(err)
	}
	decls := declared.Tools
	if strings.Contains(string(decls), `"limit"`) || strings.Contains(string(decls), "X-Request-ID") {
		t.Errorf("declarations show hidden arguments: %s", decls)
	}

	// The caller's limit is overridden by the fixed value; the env fills the header.
	f.expect(exchange{method: "GET", path: "/v1/pets", query: "limit=3&status=pending",
		header: map[string]string{"X-Request-ID": "5f0c8a1e-7b2d-4c3e-9a4f-1d2e3f4a5b6c", "X-API-Key": "k3y"}, status: 200, response: "[" + petJSON + "]"})
	var pets petstore.Pets
	if err := oc.Invoke(ctx, "listPets", map[string]any{"limit": 50, "status": []string{"pending"}}, "result", &pets); err != nil {
		t.Fatal(err)
	}
	if len(pets) != 1 || pets[0].Name != "Rex" {
		t.Errorf("listPets through the tool: %+v", pets)
	}

	// Defaults fill omitted arguments only.
	f.expect(exchange{method: "POST", path: "/v1/pets", body: `{"name":"Tom","tag":"cat"}`, contentType: "application/json", status: 201, response: petJSON},
		exchange{method: "POST", path: "/v1/pets", body: `{"name":"Tom","tag":"mouse"}`, contentType: "application/json", status: 201, response: petJSON})
	var pet petstore.Pet
	if err := oc.Invoke(ctx, "createPet", map[string]any{"name": "Tom"}, "", &pet); err != nil || pet.ID != 7 {
		t.Fatalf("createPet: %+v %v", pet, err)
	}
	if err := oc.Invoke(ctx, "createPet", map[string]any{"name": "Tom", "tag": "mouse"}, "", &pet); err != nil {
		t.Fatal(err)
	}

	// Invalid arguments: every violation, with its path.
	err = oc.Invoke(ctx, "createPet", map[string]any{"name": "", "status": "lost"}, "", nil)
	var oe *runtime.Error
	if !errors.As(err, &oe) || oe.Code != runtime.CodeInvalidParams {
		t.Fatalf("invalid createPet: got %v", err)
	}
	if vs := oe.Violations(); len(vs) != 2 || vs[0].Path != "/name" || vs[1].Path != "/status" {
		t.Errorf("violations: %+v", oe.Violations())
	}

	// An API error reaches the agent with its status as code and its body as data.
	f.expect(exchange{method: "GET", path: "/v1/pets/8", status: 404, response: `{"code":404,"message":"no pet 8"}`})
	err = oc.Invoke(ctx, "showPetById", map[string]any{"petId": 8}, "", &pet)
	if !errors.As(err, &oe) || oe.Code != 404 || !strings.Contains(string(oe.Data), "no pet 8") {
		t.Errorf("showPetById 404 through the tool: got %v", err)
	}

	// A bad environment value is reported by the variable's name, never its value.
	env["PETSTORE_REQUEST_ID"] = "s3cr3t\nvalue"
	err = oc.Invoke(ctx, "listPets", map[string]any{}, "result", &pets)
	if err == nil || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("bad env value: got %v", err)
	}
	delete(env, "PETSTORE_REQUEST_ID")
	f.expect(exchange{method: "GET", path: "/v1/pets", query: "limit=3", header: map[string]string{"X-Request-ID": ""}, status: 200, response: "[]"})
	if err := oc.Invoke(ctx, "listPets", nil, "result", &pets); err != nil {
		t.Error(err)
	}
}

// TestClientCredentials: the option the document's client credentials flow
// gives fetches a token from a token endpoint (the document's URL, replaced
// here by an httptest one through the HTTP client of the token requests) and
// sends it with the operations of the scheme.
func TestClientCredentials(t *testing.T) {
	var scopes []string
	tokens := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, secret, _ := r.BasicAuth()
		if r.FormValue("grant_type") != "client_credentials" || id != "app" || secret != "s3cret" {
			http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
			return
		}
		scopes = append(scopes, r.FormValue("scope"))
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"access_token":"tok-1","token_type":"bearer","expires_in":3600}`))
	}))
	defer tokens.Close()
	var auth []string
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = append(auth, r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"sold":3}`))
	}))
	defer api.Close()
	// The document's token URL points elsewhere: send the token requests to ours.
	toTokens := &http.Client{Transport: rewriteHost{tokens.URL}}
	ctx := context.WithValue(t.Context(), oauth2.HTTPClient, toTokens)
	c := must(petstore.NewClient(api.URL, petstore.WithPetstoreAuthClientCredentials(ctx, "app", "s3cret", "pets:read")))
	for range 2 {
		if m, err := c.Stats(t.Context()); err != nil || m["sold"] != 3 {
			t.Fatalf("Stats: %v %v", m, err)
		}
	}
	if strings.Join(auth, ",") != "Bearer tok-1,Bearer tok-1" || strings.Join(scopes, ",") != "pets:read" {
		t.Errorf("API saw %q; token endpoint asked for scopes %q (want one token for both calls)", auth, scopes)
	}
	// Without the option, stats goes without credentials (its other alternative).
	auth = nil
	if _, err := must(petstore.NewClient(api.URL)).Stats(t.Context()); err != nil || auth[0] != "" {
		t.Errorf("without credentials: %q %v", auth, err)
	}
}

// rewriteHost sends every request to base, keeping its path.
type rewriteHost struct{ base string }

func (h rewriteHost) RoundTrip(r *http.Request) (*http.Response, error) {
	u, err := url.Parse(h.base)
	if err != nil {
		return nil, err
	}
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host, r.Host = u.Scheme, u.Host, u.Host
	return http.DefaultTransport.RoundTrip(r)
}

// must is v, or a panic with err: the client of a test whose base URL is
// right (NewClient returns an error only for a client that cannot call).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
