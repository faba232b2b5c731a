// Package templates holds the text/template sources of what opentoolgen
// generates that is not Go: the C side of the cgo bindings of OpenDyn packages.
// The generator (package gen) executes them; nothing else reads them.
package templates

import "embed"

// FS holds the templates, by file name.
//
//go:embed *.tmpl
var FS embed.FS
