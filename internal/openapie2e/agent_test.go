package openapie2e

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
	petstore "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-petstore"
	agent "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-petstore-agent"
)

// TestPetstoreAgent is the whole chain with generated code at both ends: an
// agent holds a typed OpenTool client generated from the equivalent OpenTool
// document of the petstore package (what `opentoolgen -document` writes), and
// calls the petstore's Tool adapter over loopback, which calls the REST API
// with the generated REST client.
func TestPetstoreAgent(t *testing.T) {
	// The agent package is generated from a copy of the petstore's document:
	// it must be that document, not a stale copy.
	a, errA := os.ReadFile("../../testdata/golden/openapi-petstore/opentool.gen.json")
	b, errB := os.ReadFile("../../testdata/golden/openapi-petstore-agent/petstore-opentool.json")
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		t.Fatalf("testdata/golden/openapi-petstore-agent/petstore-opentool.json is not a copy of openapi-petstore/opentool.gen.json (%v, %v)", errA, errB)
	}

	ctx := context.Background()
	f, api := newFake(t)
	tool, err := petstore.NewTool(must(petstore.NewClient(api.URL+"/v1", petstore.WithAPIKey("k3y"))))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(runtime.NewHandler(tool))
	defer srv.Close()
	c := agent.NewClient(runtime.NewClient(srv.URL + "/opentool"))

	f.expect(exchange{method: "GET", path: "/v1/pets", query: "limit=2&status=available&status=pending",
		header: map[string]string{"X-API-Key": "k3y"}, status: 200, response: "[" + petJSON + "]"})
	limit := int32(2)
	pets, err := c.ListPets(ctx, agent.ListPetsArgs{Limit: &limit, Status: []agent.PetStatus{"available", "pending"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(pets) != 1 || pets[0].Name != "Rex" || pets[0].ID != 7 {
		t.Errorf("ListPets = %+v", pets)
	}

	f.expect(exchange{method: "GET", path: "/v1/pets/7", header: map[string]string{"X-API-Key": "k3y"}, status: 200, response: petJSON})
	pet, err := c.ShowPetByID(ctx, agent.ShowPetByIDArgs{PetID: 7})
	if err != nil || pet.Name != "Rex" || pet.Tag == nil || *pet.Tag != "dog" {
		t.Errorf("ShowPetByID = %+v, %v", pet, err)
	}
	if _, err := time.Parse(time.RFC3339, pet.Created); err != nil {
		t.Errorf("created %q: %v", pet.Created, err)
	}

	// A documented error response reaches the agent as a call error with the
	// HTTP status as code and the decoded body as data.
	f.expect(exchange{method: "GET", path: "/v1/pets/8", status: 404, response: `{"code":404,"message":"no pet 8"}`})
	_, err = c.ShowPetByID(ctx, agent.ShowPetByIDArgs{PetID: 8})
	var oe *runtime.Error
	if !errors.Is(err, runtime.ErrCall) || !errors.As(err, &oe) || oe.Code != 404 || !bytes.Contains(oe.Data, []byte("no pet 8")) {
		t.Errorf("ShowPetByID(8): got %v, want a call error 404 carrying the body", err)
	}

	// Arguments the REST API would reject never leave the tool: -32602.
	_, err = c.CreatePet(ctx, agent.CreatePetArgs{Name: "Tom", Status: ptr(agent.PetStatus("lost"))})
	if !errors.As(err, &oe) || oe.Code != runtime.CodeInvalidParams {
		t.Errorf("CreatePet with a bad status: got %v, want -32602", err)
	}
}
