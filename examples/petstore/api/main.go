// Command api serves the in-memory petstore REST API on 127.0.0.1:8080. The
// API key is $PETSTORE_API_KEY ("secret" when unset).
package main

import (
	"log"
	"net/http"
	"os"

	"github.com/opentoolgen/opentoolgen/examples/petstore/fakeapi"
)

func main() {
	key := os.Getenv("PETSTORE_API_KEY")
	if key == "" {
		key = "secret"
	}
	api := &fakeapi.API{Key: key}
	log.Println("petstore REST API on http://127.0.0.1:8080/v1")
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", api.Handler()))
}
