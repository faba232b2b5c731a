// Package petstore is the OpenAPI example: the REST API described by
// petstore.yaml, and the package generated from it, petstoreclient: a typed
// REST client (petstoreclient.NewClient) and an OpenTool Tool adapter over it
// (petstoreclient.NewTool) that exposes every operation as a function an
// agent or LLM can call.
//
// Regenerate petstoreclient after editing petstore.yaml (CI fails when it is
// stale):
//
//	go generate ./examples/petstore
//
// Then, in three terminals: the REST API (an in-memory fake, fakeapi), the
// OpenTool server in front of it, and a call through OpenTool:
//
//	go run ./examples/petstore/api                        # REST on 127.0.0.1:8080
//	PETSTORE_API_KEY=secret go run ./examples/petstore/tool  # OpenTool on 127.0.0.1:9627
//	curl -s -X POST 127.0.0.1:9627/opentool/call -H 'Content-Type: application/json' \
//	  -d '{"jsonrpc":"2.0","method":"addPet","params":{"name":"Rex"},"id":1}'
//
// The tool sends the API key as the X-API-Key header (petstoreclient.WithAPIKey),
// forces the limit of listPets (toolopt.WithFixed: the argument disappears
// from the declared document) and gives addPet a default status
// (toolopt.WithDefaults). The end-to-end test next to this file runs the
// pieces over loopback.
//
// readonlyclient is the same document through an OpenAPI Overlay,
// readonly.overlay.yaml, which removes addPet and renames getPet to findPet:
// the way to change a document you do not own without forking it.
package petstore

//go:generate go run github.com/opentoolgen/opentoolgen/cmd/opentoolgen -o petstoreclient petstore.yaml
//go:generate go run github.com/opentoolgen/opentoolgen/cmd/opentoolgen -o readonlyclient -overlay readonly.overlay.yaml petstore.yaml
