// Command server serves a geometry library (examples/opendyn/c/geometry.c, built
// as a shared library) over OpenTool HTTP and MCP, through the Tool adapter
// generated from geometry.json, with package toolcli until SIGINT or SIGTERM.
//
// Usage:
//
//	go run ./examples/opendyn/server [start|mcp] -lib PATH [options]
//
// -lib PATH, required, is the shared library to open: libgeometry.so, .dylib
// or .dll. start (the default) serves OpenTool HTTP at
// http://127.0.0.1:9627/opentool and MCP streamable HTTP at /mcp; mcp serves
// MCP over standard input and output. The other options are toolcli's (go doc
// toolcli, or -h): -t PORT, -k KEY, --host HOST, --options FILE and the limits.
package main

import (
	"context"
	"flag"
	"sync"

	"github.com/opentoolgen/opentoolgen/examples/opendyn/geometry"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
	"github.com/opentoolgen/opentoolgen/toolcli"
)

func main() {
	command().Main()
}

// command is the server's command line: toolcli's, with -lib.
func command() *toolcli.Command {
	var path string
	// The library is opened once, when the tool is first built, and stays
	// open until the process exits.
	open := sync.OnceValues(func() (*geometry.Library, error) { return geometry.Open(path) })
	return &toolcli.Command{
		Name:     "geometry",
		Document: geometry.Document(),
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&path, "lib", "", "The shared library to open: libgeometry.so, .dylib or .dll")
		},
		Required: []string{"lib"},
		NewTool: func(_ context.Context, opts ...toolopt.Option) (runtime.Tool, error) {
			lib, err := open()
			if err != nil {
				return nil, err
			}
			return geometry.NewTool(lib.Service(), opts...)
		},
	}
}
