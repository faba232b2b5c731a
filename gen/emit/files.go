package emit

import (
	"io"

	"github.com/dave/jennifer/jen"
	"github.com/opentoolgen/opentoolgen/gen/model"
)

// The files of a generated package, as one table: each row is a file (or a
// family of files, for the types of a large document), the fact of the model
// that decides whether the package has it, and its emitter. Every emitter has
// the one signature of an emitter; none is told what kind of document the
// model came from.
//
//	document.gen.go    every package       the package doc, Document (the embedded document), Declarations
//	opentool.gen.json  every package       the equivalent OpenTool document, embedded with //go:embed
//	types.gen.go …     every package       argument and result types, their decoders
//	tool.gen.go        every package       Service and the Tool adapter over it
//	client.gen.go      not hasHTTP         the typed OpenTool client (runtime.Caller)
//	client.gen.go      hasHTTP             the REST client of the operations
//	library.gen.go     hasC                the cgo bindings of the C library
//	opendyn.gen.h      hasC                the C side: prototypes and trampolines
//	webhooks.gen.go    hasWebhooks         the receiver of the events the API sends (webhooks, callbacks)
//	main.gen.go        hasCommand          the package main of opentoolgen -cmd (Output.Command)
var packageFiles = []struct {
	name string // the file's name, for the reader: emit names its outputs
	has  func(p *model.Package) bool
	emit emitter
}{
	{"document.gen.go", always, goFile("document.gen.go", emitDocument, zeroCost)},
	{DocumentFile, always, emitDocumentJSON},
	{"types.gen.go", always, typeFiles},
	{"tool.gen.go", always, goFile("tool.gen.go", emitTool, functionsCost)},
	{"client.gen.go", not(hasHTTP), goFile("client.gen.go", emitClient, functionsCost)},
	{"client.gen.go", hasHTTP, goFile("client.gen.go", emitRESTClient, functionsCost)},
	{"library.gen.go", hasC, goFile("library.gen.go", emitLibrary, functionsCost)},
	{"opendyn.gen.h", hasC, emitDynHeaderFile},
	{"webhooks.gen.go", hasWebhooks, goFile("webhooks.gen.go", emitWebhooks, webhooksCost)},
	{CommandFile, hasCommand, emitCommandFile},
}

// An emitter returns the outputs of one row of packageFiles. Go outputs are
// emitted lazily, in the goroutine that formats them (lazy).
type emitter func(p *model.Package) ([]Output, error)

// Package returns the files of the generated package of p, in the order of
// packageFiles: every Go file to render and format, the document, and the C
// header of a package with C functions; with p.Command, last, the package
// main (Output.Command).
func Package(p *model.Package) ([]Output, error) {
	var outs []Output
	for _, f := range packageFiles {
		if !f.has(p) {
			continue
		}
		o, err := f.emit(p)
		if err != nil {
			return nil, err
		}
		outs = append(outs, o...)
	}
	return outs, nil
}

// Output is one generated file before formatting.
type Output struct {
	Name string
	// File writes the file's content: jennifer's Go source for a .go file
	// (a *jen.File, or a lazy one), which the format stage formats, or the
	// final bytes of any other file (a Content).
	File Renderer
	// Cost estimates the work of rendering File, so that the format stage
	// starts the largest files first and no large file is left to format
	// alone at the end.
	Cost int
	// Command is set on the package main (CommandFile), which is written in
	// a directory of its own.
	Command bool
}

// Renderer is what the format stage needs of an emitted file.
type Renderer interface{ Render(w io.Writer) error }

// Content is a file that is not Go, made when it is rendered; the format
// stage takes its bytes as they are (Bytes), without a copy.
type Content func() ([]byte, error)

// Render writes the content.
func (c Content) Render(w io.Writer) error {
	b, err := c()
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Bytes returns the content.
func (c Content) Bytes() ([]byte, error) { return c() }

// lazy builds its file when it is rendered, in the goroutine that formats it:
// emission runs in parallel and the jennifer trees of a large package are not
// all held at once.
type lazy func() *jen.File

func (l lazy) Render(w io.Writer) error { return l().Render(w) }

// goFile is the emitter of one Go file, named name, made by emit.
func goFile(name string, emit func(*model.Package) *jen.File, cost func(*model.Package) int) emitter {
	return func(p *model.Package) ([]Output, error) {
		return []Output{{Name: name, File: lazy(func() *jen.File { return emit(p) }), Cost: cost(p)}}, nil
	}
}

// The predicates of packageFiles: facts of the model.

func always(*model.Package) bool { return true }

func not(has func(*model.Package) bool) func(*model.Package) bool {
	return func(p *model.Package) bool { return !has(p) }
}

// hasHTTP reports whether the functions are operations of a REST API.
func hasHTTP(p *model.Package) bool { return p.API != nil }

// hasC reports whether the functions are those of a C library.
func hasC(p *model.Package) bool { return p.Dyn != nil }

// hasCommand reports whether a package main is generated with the package.
func hasCommand(p *model.Package) bool { return p.Command != nil }

// streams reports whether a function streams its results.
func streams(p *model.Package) bool {
	for _, fn := range p.Functions {
		if fn.Stream {
			return true
		}
	}
	return false
}

func zeroCost(*model.Package) int { return 0 }

// functionsCost is the Cost of a file with a method or two per function,
// in the units of typeWeight.
func functionsCost(p *model.Package) int { return 8 * len(p.Functions) }

// DocumentFile is the name of the equivalent OpenTool document in the
// generated package: document.gen.go embeds it.
const DocumentFile = "opentool.gen.json"

// emitDocumentJSON emits DocumentFile: the equivalent OpenTool document, as
// ResultDocument writes it (indented unless very large, ending in a newline).
// It is the same bytes that -document writes and that Document decodes.
func emitDocumentJSON(p *model.Package) ([]Output, error) {
	cost := 0
	for _, t := range p.Types {
		cost += typeWeight(t)
	}
	return []Output{{Name: DocumentFile, Cost: cost, File: Content(func() ([]byte, error) {
		compact, err := MarshalDocument(p.Document)
		if err != nil {
			return nil, err
		}
		return ResultDocument(compact), nil
	})}}, nil
}

// emitDynHeaderFile emits the C header of the library's functions
// (p.Dyn.Header), from templates/opendyn.h.tmpl.
func emitDynHeaderFile(p *model.Package) ([]Output, error) {
	header, err := emitDynHeader(p)
	if err != nil {
		return nil, err
	}
	return []Output{{Name: p.Dyn.Header, File: Content(func() ([]byte, error) { return header, nil })}}, nil
}

// emitCommandFile emits the package main of p.Command (emit_cmd.go).
func emitCommandFile(p *model.Package) ([]Output, error) {
	return []Output{{Name: CommandFile, File: lazy(func() *jen.File { return emitCommand(p) }), Command: true}}, nil
}
