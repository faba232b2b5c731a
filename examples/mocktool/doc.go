// Package mocktool is the opentoolgen example with a streaming function: the
// OpenTool document of the reference implementations' mock tool, mock_tool.json
// (a text store with count, create, read, update, delete, a failing run, and
// sequentiallyRead, which streams every text), and the typed package generated
// from it, mocktool/mocktool.
//
// Regenerate the package after editing mock_tool.json (CI fails when it is stale):
//
//	go generate ./examples/mocktool
//
// Then serve the tool and call it, in two terminals:
//
//	go run ./examples/mocktool/server           # listens on 127.0.0.1:17001
//	go run ./examples/mocktool/client           # calls every function once
//
// server/main.go implements mocktool.Service (a mutex-guarded map) and serves it
// with runtime.Serve; client/main.go calls it through mocktool.Client, reading
// the stream with a range loop. The end-to-end test next to this file runs a
// generated client against a generated server over loopback HTTP, streaming and
// error cases included.
package mocktool

//go:generate go run github.com/opentoolgen/opentoolgen/cmd/opentoolgen -o mocktool mock_tool.json
