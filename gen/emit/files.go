package emit

import (
	"io"
	"math"
	"strconv"
	"strings"

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
// hold about Split.Types lines each, tool.gen.go, tool2.gen.go, …
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
// memory, and none is too large to read. A zero field takes its default; a
// negative one (NoSplit) never splits its files.
type Split struct {
	// Types bounds a types file (types.gen.go, types2.gen.go, …) in the
	// lines its types are estimated to take (typeLines): the types, in
	// their order, are spread over as few files as hold them, about evenly;
	// a type larger than the bound has a file of its own. Default
	// DefaultTypesLines.
	Types int
	// Functions bounds the functions whose methods a tool or client file
	// holds (tool.gen.go, tool2.gen.go, …, client.gen.go, client2.gen.go,
	// …); default DefaultFunctionsPerFile.
	Functions int
}

// The defaults of Split: a file of about 5,000 lines at most for a typical
// REST API (a client method takes 30 to 50 lines).
const (
	DefaultTypesLines       = 5000
	DefaultFunctionsPerFile = 100
)

// NoSplit keeps a family of files in one file, as a field of Split.
const NoSplit = -1

func (s Split) withDefaults() Split {
	bound := func(n, def int) int {
		switch {
		case n < 0:
			return math.MaxInt
		case n == 0:
			return def
		}
		return n
	}
	return Split{Types: bound(s.Types, DefaultTypesLines), Functions: bound(s.Functions, DefaultFunctionsPerFile)}
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
		outs := []Output{{Name: base + ".gen.go", File: lazy(func() *jen.File { return first(p, fns[:n]) }), Cost: linesPerFunction * n}}
		for i := n; i < len(fns); i += s.Functions {
			chunk, part := fns[i:min(len(fns), i+s.Functions)], len(outs)+1
			outs = append(outs, Output{Name: base + strconv.Itoa(part) + ".gen.go", Cost: linesPerFunction * len(chunk),
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

// functionsCost is the Cost of a file with a method or two per function.
func functionsCost(p *model.Package) int { return linesPerFunction * len(p.Functions) }

// linesPerFunction is the lines a function's methods take in a tool or
// client file, about: the Cost of those files, in the units of typeLines.
const linesPerFunction = 40

// DocumentFile is the name of the equivalent OpenTool document in the
// generated package: document.gen.go embeds it.
const DocumentFile = "opentool.gen.json"

// emitDocumentJSON emits DocumentFile: the equivalent OpenTool document, as
// ResultDocument writes it (indented unless very large, ending in a newline).
// It is the same bytes that -document writes and that Document decodes.
func emitDocumentJSON(p *model.Package, _ Split) ([]Output, error) {
	cost := 0
	for _, t := range p.Types {
		cost += typeLines(t)
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

// typeFiles renders p's types in files of at most s.Types estimated lines
// each (typeLines), as few as hold them and about even (typeChunks); the
// first one also holds what belongs to the package as a whole.
func typeFiles(p *model.Package, s Split) ([]Output, error) {
	chunks, lines := typeChunks(p.Types, s.Types)
	if len(chunks) == 1 {
		return []Output{{Name: "types.gen.go", File: lazy(func() *jen.File { return emitTypes(p) }), Cost: lines[0]}}, nil
	}
	var outs []Output
	for i, chunk := range chunks {
		name := "types.gen.go"
		if i > 0 {
			name = "types" + strconv.Itoa(i+1) + ".gen.go"
		}
		first := i == 0
		outs = append(outs, Output{Name: name, File: lazy(func() *jen.File {
			f := newFile(p)
			for _, t := range chunk {
				emitType(f, t)
			}
			if first {
				emitPatterns(f, p)
			}
			return f
		}), Cost: lines[i]})
	}
	return outs, nil
}

// typeChunks cuts types, in their order, into the chunks of the types files
// and returns the estimated lines of each: as few chunks as hold the types
// in at most bound lines each (a type larger than bound alone in its
// chunk), and of those cuts the one whose largest chunk is the smallest, so
// that the files are about even. Deterministic: the cut depends only on the
// types' estimates.
func typeChunks(types []*model.Type, bound int) (chunks [][]*model.Type, lines []int) {
	each, total := make([]int, len(types)), 0
	for i, t := range types {
		each[i] = typeLines(t)
		total += each[i]
	}
	// The smallest cap that keeps the fewest chunks: a binary search between
	// the even share of the total and the bound.
	n := chunkCount(each, bound)
	lo, hi := min((total+n-1)/n, bound), bound
	for lo < hi {
		mid := lo + (hi-lo)/2
		if chunkCount(each, mid) <= n {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	start, sum := 0, 0
	for i, l := range each {
		if sum > 0 && sum+l > hi {
			chunks, lines = append(chunks, types[start:i]), append(lines, sum)
			start, sum = i, 0
		}
		sum += l
	}
	return append(chunks, types[start:]), append(lines, sum)
}

// chunkCount is the number of chunks of at most limit lines (or of one item
// larger) that items of each's lines, in their order, fill: the fewest
// that hold them.
func chunkCount(each []int, limit int) int {
	n, sum := 1, 0
	for _, l := range each {
		if sum > 0 && sum+l > limit {
			n, sum = n+1, 0
		}
		sum += l
	}
	return n
}

// typeLines estimates the lines of a type's declarations in a types file,
// so that Split.Types bounds the files whatever their types' shape: the
// type's doc comment and declaration; a struct's fields, each a line and
// its doc comment, and with a decoder its case (two lines, four for a value
// it checks, nine for an array or a map it loops over); an enum's values, a
// line each; a union's variants, ten lines each. Within 10 % of the
// formatted lines of GitHub's and EC2's types files (a count of fields,
// values and variants, each worth one, made files of 2,000 to 30,000
// lines).
func typeLines(t *model.Type) int {
	n, dec := 4+extraLines(t.Doc), t.Decoder != ""
	if t.Kind == model.KindAlias {
		return n // one line
	}
	switch t.Kind {
	case model.KindStruct:
		if dec {
			n += 11
		}
	case model.KindEnum:
		n += 11 + len(t.Values)
		if dec {
			n += 11
		}
	case model.KindUnion:
		n += 40 + 10*len(t.Variants)
	default:
		if dec {
			n += 8
		}
	}
	required := false
	for _, f := range t.Fields {
		n++
		if f.Doc != "" {
			n += 1 + extraLines(f.Doc)
		}
		if !dec {
			continue
		}
		n += 2
		if f.Required {
			n, required = n+1, true
		}
		switch r := f.Type; {
		case r == nil:
		case r.Check != nil:
			n += 2 // if v, ok := d.OptInt(&x.F); ok { check }
		case r.Kind == model.RefMap || r.Kind == model.RefSlice && sliceDecoder(r) == nil:
			n += 7 // a loop of its own
		}
	}
	if required {
		n += 2 // the members seen, the check that the required ones were
	}
	return n
}

// extraLines is the number of lines of a doc comment of text after its
// first: its line breaks within the bytes a doc comment keeps (clipDoc).
func extraLines(text string) int {
	return strings.Count(text[:min(len(text), maxDocComment+maxDocTail)], "\n")
}
