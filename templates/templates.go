// Package templates holds the text/template sources of what opentoolgen
// generates that is not Go: the C side of the cgo bindings of OpenDyn packages.
// The generator (package gen) executes them; opendyn_guard.h, plain C, is
// copied into every OpenDyn header with a guarded function, and the tests of
// runtime/dynlib include it (runtime/dynlib/internal/ctest).
package templates

import "embed"

// FS holds the templates, by file name.
//
//go:embed *.tmpl *.h
var FS embed.FS
