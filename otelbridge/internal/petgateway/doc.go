// Package petgateway is generated from the OpenTool document of the petstore
// example (what examples/petstore's Tool serves): its typed Client calls an
// OpenTool server of that document, and NewTool(NewClient(caller)) serves
// the same functions as a gateway to it. otelbridge's test traces a call
// through such a gateway down to the REST API.
package petgateway

//go:generate go run github.com/opentoolgen/opentoolgen/cmd/opentoolgen -o . ../../../examples/petstore/petstoreclient/opentool.gen.json
