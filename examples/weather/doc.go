// Package weather is the smallest opentoolgen example: the OpenTool document
// weather.json (two functions that take one object argument each, with an enum)
// and the typed package generated from it, weathertool.
//
// Regenerate weathertool after editing weather.json (CI fails when it is stale):
//
//	go generate ./examples/weather
//
// Then serve the tool and call it, in two terminals:
//
//	go run ./examples/weather/server            # listens on 127.0.0.1:9627
//	go run ./examples/weather/client            # calls every function once
//
// server/main.go implements weathertool.Service and serves it with
// runtime.Serve; client/main.go calls it through weathertool.Client. The
// end-to-end test next to this file runs a generated client against a
// generated server over loopback HTTP, error cases included.
package weather

//go:generate go run github.com/opentoolgen/opentoolgen/cmd/opentoolgen -o weathertool weather.json
