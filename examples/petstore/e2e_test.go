package petstore_test

// End to end: the generated REST client against the REST API, and an agent's
// OpenTool calls through the generated Tool adapter to the same API, all over
// loopback HTTP.

import (
	"context"
	"errors"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/opentoolgen/opentoolgen/examples/petstore/fakeapi"
	"github.com/opentoolgen/opentoolgen/examples/petstore/petstoreclient"
	"github.com/opentoolgen/opentoolgen/examples/petstore/readonlyclient"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/rest"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
)

func TestPetstore(t *testing.T) {
	ctx := context.Background()
	api := httptest.NewServer((&fakeapi.API{Key: "secret"}).Handler())
	defer api.Close()

	// The typed REST client.
	c := must(petstoreclient.NewClient(api.URL+"/v1", petstoreclient.WithAPIKey("secret")))
	pet, err := c.AddPet(ctx, petstoreclient.AddPetArgs{Name: "Rex"})
	if err != nil || pet.ID != 1 || pet.Status != petstoreclient.PetStatusAvailable {
		t.Fatalf("AddPet: %+v, %v", pet, err)
	}
	_, err = c.GetPet(ctx, petstoreclient.GetPetArgs{PetID: 42})
	var notFound *rest.APIError[petstoreclient.Error]
	if !errors.As(err, &notFound) || notFound.StatusCode != 404 || notFound.Body.Message != "no pet 42" {
		t.Errorf("GetPet 42: %v", err)
	}
	var unauthorized *rest.StatusError
	if _, err := must(petstoreclient.NewClient(api.URL+"/v1")).ListPets(ctx, petstoreclient.ListPetsArgs{}); !errors.As(err, &unauthorized) || unauthorized.StatusCode != 401 {
		t.Errorf("without a key: %v", err)
	}

	// The same API as an OpenTool tool.
	tool, err := petstoreclient.NewTool(c,
		toolopt.WithFixed("listPets", map[string]any{"limit": 1}),
		toolopt.WithDefaults("addPet", map[string]any{"status": "pending"}))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(runtime.NewHandler(tool))
	defer srv.Close()
	agent := runtime.NewClient(srv.URL + "/opentool")
	var added petstoreclient.Pet
	if err := agent.Invoke(ctx, "addPet", map[string]any{"name": "Tom"}, "", &added); err != nil || added.Status != petstoreclient.PetStatusPending {
		t.Fatalf("addPet through OpenTool: %+v, %v", added, err)
	}
	var pets []petstoreclient.Pet
	if err := agent.Invoke(ctx, "listPets", map[string]any{"limit": 50}, "result", &pets); err != nil || len(pets) != 1 {
		t.Errorf("listPets (limit fixed at 1): %+v, %v", pets, err)
	}
	var oe *runtime.Error
	if err := agent.Invoke(ctx, "getPet", map[string]any{"petId": 42}, "", &added); !errors.As(err, &oe) || oe.Code != 404 {
		t.Errorf("getPet 42 through OpenTool: %v", err)
	}
	if err := agent.Invoke(ctx, "addPet", map[string]any{"name": ""}, "", &added); !errors.As(err, &oe) || oe.Code != runtime.CodeInvalidParams {
		t.Errorf("addPet without a name: %v", err)
	}
	doc, err := agent.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range doc.Functions {
		if f.Name == "listPets" && len(f.Parameters) != 1 {
			t.Errorf("declared listPets parameters: %+v (limit is fixed)", f.Parameters)
		}
	}
}

// must is v, or a panic with err: the client of a test whose base URL is
// right (NewClient returns an error only for a client that cannot call).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestReadOnly: the client generated through readonly.overlay.yaml has
// findPet (getPet renamed) and no addPet, against the same API.
func TestReadOnly(t *testing.T) {
	ctx := context.Background()
	api := httptest.NewServer((&fakeapi.API{Key: "secret"}).Handler())
	defer api.Close()
	c := must(readonlyclient.NewClient(api.URL+"/v1", readonlyclient.WithAPIKey("secret")))
	_, err := c.FindPet(ctx, readonlyclient.FindPetArgs{PetID: 42})
	var notFound *rest.APIError[readonlyclient.Error]
	if !errors.As(err, &notFound) || notFound.StatusCode != 404 {
		t.Errorf("FindPet 42: %v", err)
	}
	var names []string
	for _, f := range readonlyclient.Document().Functions {
		names = append(names, f.Name)
	}
	if want := []string{"listPets", "findPet"}; !slices.Equal(names, want) {
		t.Errorf("functions %v, want %v", names, want)
	}
}
