package emit

import (
	"io"
	"strconv"

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
//	tool.gen.go …      every package       Service and the Tool adapter over it
//	client.gen.go …    not hasHTTP         the typed OpenTool client (runtime.Caller)
//	client.gen.go …    hasHTTP             the REST client of the operations
//
// A family of files (…) is split when large: types.gen.go, types2.gen.go, …
// hold at most Split.Types of type weight each, tool.gen.go, tool2.gen.go, …
// and client.gen.go, client2.gen.go, … the methods of at most
// Split.Functions functions each, the first file of a family also holding
// what belongs to the package as a whole (Service, Call, NewClient…).
//
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
	{"tool.gen.go", always, functionFiles("tool", emitTool, emitToolPart)},
	{"client.gen.go", not(hasHTTP), functionFiles("client", emitClient, methodsOf(emitClientMethod))},
	{"client.gen.go", hasHTTP, functionFiles("client", emitRESTClient, methodsOf(emitRESTMethods))},
	{"library.gen.go", hasC, goFile("library.gen.go", emitLibrary, functionsCost)},
	{"opendyn.gen.h", hasC, emitDynHeaderFile},
	{"webhooks.gen.go", hasWebhooks, goFile("webhooks.gen.go", emitWebhooks, webhooksCost)},
	{CommandFile, hasCommand, emitCommandFile},
}

// An emitter returns the outputs of one row of packageFiles. Go outputs are
// emitted lazily, in the goroutine that formats them (lazy).
type emitter func(p *model.Package, s Split) ([]Output, error)

// Split bounds the size of the generated files, so that the files of a large
// document are emitted, formatted and compiled in parallel and in bounded
// memory, and none is too large to read. A zero field takes its default.
type Split struct {
	// Types bounds a types file (types.gen.go, types2.gen.go, …), counted
	// in types plus their fields, enum values and variants; default
	// DefaultTypesPerFile.
	Types int
	// Functions bounds the functions whose methods a tool or client file
	// holds (tool.gen.go, tool2.gen.go, …, client.gen.go, client2.gen.go,
	// …); default DefaultFunctionsPerFile.
	Functions int
}

// The defaults of Split: a file of about 5,000 lines at most for a typical
// REST API (a client method takes 30 to 50 lines).
const (
	DefaultTypesPerFile     = 1500
	DefaultFunctionsPerFile = 100
)

func (s Split) withDefaults() Split {
	if s.Types <= 0 {
		s.Types = DefaultTypesPerFile
	}
	if s.Functions <= 0 {
		s.Functions = DefaultFunctionsPerFile
	}
	return s
}

// Package returns the files of the generated package of p, in the order of
// packageFiles: every Go file to render and format, the document, and the C
// header of a package with C functions; with p.Command, last, the package
// main (Output.Command). s bounds the size of the files.
func Package(p *model.Package, s Split) ([]Output, error) {
	s = s.withDefaults()
	var outs []Output
	for _, f := range packageFiles {
		if !f.has(p) {
			continue
		}
		o, err := f.emit(p, s)
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
	return func(p *model.Package, _ Split) ([]Output, error) {
		return []Output{{Name: name, File: lazy(func() *jen.File { return emit(p) }), Cost: cost(p)}}, nil
	}
}

// functionFiles is the emitter of a family of Go files named base.gen.go,
// base2.gen.go, …: the first made by first, given the functions whose
// methods it holds (the first s.Functions), each other (part 2, 3, …) made by
// rest, given the next s.Functions functions.
func functionFiles(base string, first func(*model.Package, []*model.Function) *jen.File, rest func(*model.Package, int, []*model.Function) *jen.File) emitter {
	return func(p *model.Package, s Split) ([]Output, error) {
		fns := p.Functions
		n := min(len(fns), s.Functions)
		outs := []Output{{Name: base + ".gen.go", File: lazy(func() *jen.File { return first(p, fns[:n]) }), Cost: 8 * n}}
		for i := n; i < len(fns); i += s.Functions {
			chunk, part := fns[i:min(len(fns), i+s.Functions)], len(outs)+1
			outs = append(outs, Output{Name: base + strconv.Itoa(part) + ".gen.go", Cost: 8 * len(chunk),
				File: lazy(func() *jen.File { return rest(p, part, chunk) })})
		}
		return outs, nil
	}
}

// methodsOf is the rest of functionFiles whose files hold a method (or a
// few) per function, made by each.
func methodsOf(each func(*jen.File, *model.Function)) func(*model.Package, int, []*model.Function) *jen.File {
	return func(p *model.Package, _ int, fns []*model.Function) *jen.File {
		f := newFile(p)
		for _, fn := range fns {
			each(f, fn)
		}
		return f
	}
}

// parts is the number of files of a family of functionFiles whose first
// file holds first of p's functions.
func parts(p *model.Package, first int) int {
	if first == 0 {
		return 1
	}
	return (len(p.Functions) + first - 1) / first
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
func emitDocumentJSON(p *model.Package, _ Split) ([]Output, error) {
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
func emitDynHeaderFile(p *model.Package, _ Split) ([]Output, error) {
	header, err := emitDynHeader(p)
	if err != nil {
		return nil, err
	}
	return []Output{{Name: p.Dyn.Header, File: Content(func() ([]byte, error) { return header, nil })}}, nil
}

// emitCommandFile emits the package main of p.Command (emit_cmd.go).
func emitCommandFile(p *model.Package, _ Split) ([]Output, error) {
	return []Output{{Name: CommandFile, File: lazy(func() *jen.File { return emitCommand(p) }), Command: true}}, nil
}
