// Command tool serves the petstore REST API as an OpenTool tool on
// 127.0.0.1:9627: each operation is a function. The API key is
// $PETSTORE_API_KEY; the REST API's address is -api.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"

	"github.com/opentoolgen/opentoolgen/examples/petstore/petstoreclient"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
)

func main() {
	api := flag.String("api", petstoreclient.DefaultBaseURL, "base URL of the petstore REST API")
	addr := flag.String("addr", "127.0.0.1:9627", "address to serve OpenTool on")
	flag.Parse()
	tool, err := newTool(*api, os.Getenv("PETSTORE_API_KEY"))
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	log.Printf("OpenTool server for %s on http://%s/opentool", *api, *addr)
	if err := runtime.Serve(ctx, *addr, tool); err != nil {
		log.Fatal(err)
	}
}

// newTool is the tool: every call of the API carries the key; listPets
// returns at most 20 pets whatever the caller asks (a fixed argument, hidden
// from the declared document), and addPet adds available pets unless told
// otherwise (a default).
func newTool(api, key string) (*petstoreclient.Tool, error) {
	c, err := petstoreclient.NewClient(api, petstoreclient.WithAPIKey(key))
	if err != nil {
		return nil, err
	}
	return petstoreclient.NewTool(c,
		toolopt.WithFixed("listPets", map[string]any{"limit": 20}),
		toolopt.WithDefaults("addPet", map[string]any{"status": "available"}),
	)
}
