// Package opendyn is the OpenDyn example: a C library (c/geometry.c), the OpenDyn
// document that describes it (geometry.json) and the package generated from
// the document, geometry: typed cgo bindings that open the library at run time,
// and everything an OpenTool package has (argument types, a Tool adapter, a
// client, the equivalent OpenTool document).
//
// Regenerate geometry after editing geometry.json (CI fails when it is stale):
//
//	go generate ./examples/opendyn
//
// Build the library and serve it over OpenTool HTTP:
//
//	gcc -shared -fPIC -o /tmp/libgeometry.so examples/opendyn/c/geometry.c -lm
//	go run ./examples/opendyn/server -lib /tmp/libgeometry.so   # listens on 127.0.0.1:9627
//
// Then any OpenTool client can call it, for example with curl:
//
//	curl -s localhost:9627/opentool/call -H 'Content-Type: application/json' \
//	  -d '{"jsonrpc":"2.0","method":"distance","params":{"x1":0,"y1":0,"x2":3,"y2":4},"id":1}'
//
// In Go, without a server: lib, err := geometry.Open("/tmp/libgeometry.so"),
// then lib.Distance(0, 0, 3, 4). The end-to-end test next to this file builds
// the library with gcc, calls it directly, and serves it to the generated
// client over loopback HTTP.
package opendyn

//go:generate go run github.com/opentoolgen/opentoolgen/cmd/opentoolgen -o geometry geometry.json
