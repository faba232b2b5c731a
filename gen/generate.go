// Package gen is the generator behind the opentoolgen command: loaders (one per
// input kind) build one model, emitters (jennifer) render it, and the result is
// formatted. It writes nothing; the command does.
//
// # A document through the stages
//
// Generate(name, data, opts) takes weather.json this way:
//
//  1. Read (source.go): JSON or YAML into a jsontree with byte offsets, so that
//     every later problem is reported as file:line:col: /json/pointer: message.
//  2. Load (gen/load/opentool for OpenTool; opendyn.go; openapi.go and refs.go
//     with kin-openapi): the input format checked and read; all problems at
//     once, warnings for what is read in a degraded way.
//  3. Model (gen/model: model.go, model_dyn.go, names.go; built by
//     model.FromOpenTool (build.go) for OpenTool documents and the OpenTool
//     side of OpenDyn, by openapi.go for OpenAPI): one Package for every kind — functions, their argument
//     and result types, and what backs each function (Function.C: a C symbol;
//     Function.HTTP: a REST operation; neither: the user's code). Go names are
//     decided there (GoName, Scope, NameMethods), never in emitters.
//  4. Emit (gen/emit, jennifer; nothing of input formats): one emitter per
//     output file — types and decoders (emitTypes), the Service and the one
//     Tool adapter of every kind (emit_tool.go), the typed OpenTool client
//     (emitClient), the REST client (emit_rest.go), the library bindings
//     (emit_dyn.go, over runtime/dynlib), the embedded document (docfile.go,
//     docjson.go). emit.OpenTool, emit.OpenDyn and emit.OpenAPI list the
//     files of each kind.
//  5. Render (render in this file, format.go): files formatted in parallel,
//     once.
//
// The command (cmd/opentoolgen) writes the files. gen/layout_test.go asserts
// which package may import which.
//
// To add an input kind: a loader that produces a model.Package (reuse
// model.FromOpenTool if the input converts to an OpenTool document, as OpenDyn
// does)
// and a case in Generate. To add an output: an emitter in gen/emit reading the
// Package, listed with the files of the kinds that get it; names it declares
// are added to the model's reserved names.
//
// Not yet as the design wants it (see the project's issue on the one-way
// pipeline): the loaders of OpenAPI and OpenDyn are still files of this
// package, and the OpenAPI loader names Go types itself instead of leaving it
// to the model.
package gen

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/opentoolgen/opentoolgen/gen/emit"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"go/token"
	"path/filepath"
	goruntime "runtime"
	"sort"
	"strings"
	"sync"

	otload "github.com/opentoolgen/opentoolgen/gen/load/opentool"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// Options configure Generate.
type Options struct {
	// Package is the name of the generated package.
	Package string
	// AllowRefDirs are directories besides the document's own tree that the
	// $refs of an OpenAPI document may read files from (with their
	// subdirectories). Without them a $ref reads only regular files inside the
	// directory of the document, after resolving ".." and symbolic links.
	AllowRefDirs []string
}

// File is one generated file.
type File = emit.File

// Result is what Generate produced.
type Result struct {
	Files []File
	// Document is the equivalent OpenTool document: the input itself for
	// OpenTool, the converted description for OpenDyn and OpenAPI. It is
	// indented JSON up to 256 KiB; beyond, only when it is at most 16 MiB
	// compact and indenting makes it at most 4 times larger (a document
	// nested thousands of levels deep, or of tens of megabytes, stays
	// compact).
	Document []byte
	// Warnings are problems the generator worked around.
	Warnings []Diagnostic
}

// Diagnostic is a problem in an input document, at a place.
type Diagnostic struct {
	File      string
	Line, Col int    // 1-based; 0 when unknown
	Path      string // JSON pointer of the value, "" for the document
	Message   string
	Warning   bool
}

// String formats d as file:line:col: json-path: message. A path longer than
// 256 bytes is abbreviated to its first and last four tokens
// ("/a/b/c/d/…(9,990 more)…/w/x/y/z").
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.File)
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", d.Line, d.Col)
	}
	b.WriteString(": ")
	if d.Warning {
		b.WriteString("warning: ")
	}
	if d.Path != "" {
		b.WriteString(jsontree.ShortPointer(d.Path))
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	return b.String()
}

// Error is the error of a document that cannot be generated: every problem found.
type Error struct {
	Diagnostics []Diagnostic
}

func (e *Error) Error() string {
	lines := make([]string, len(e.Diagnostics))
	for i, d := range e.Diagnostics {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// FormatError reports generated code that does not parse: a bug of the
// generator. Source is the unformatted file, for a .dump.
type FormatError struct {
	File   string
	Source []byte
	Err    error
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("opentoolgen: internal error: generated %s does not format: %v", e.File, e.Err)
}

// Generate generates the Go package for the document data read from name.
func Generate(name string, data []byte, opts Options) (*Result, error) {
	if !token.IsIdentifier(opts.Package) || opts.Package == "_" {
		return nil, fmt.Errorf("package name %q is not a Go identifier", opts.Package)
	}
	if int64(len(data)) > maxFileBytes {
		return nil, &Error{Diagnostics: []Diagnostic{{File: name,
			Message: fmt.Sprintf("the document is larger than %s (%d bytes)", sizeText(maxFileBytes), len(data))}}}
	}
	src, err := readSource(name, data)
	if err != nil {
		return nil, err
	}
	var (
		pkg      *model.Package
		warnings []Diagnostic
	)
	switch kind := src.kind(); kind {
	case "opentool":
		pkg, warnings, err = loadOpenTool(src, opts)
	case "opendyn":
		pkg, warnings, err = loadOpenDyn(src, opts)
	case "openapi":
		if d := src.tooDeep(maxOpenAPIDepth); d != nil {
			return nil, &Error{Diagnostics: []Diagnostic{*d}}
		}
		pkg, warnings, err = loadOpenAPI(src, opts)
	default:
		return nil, &Error{Diagnostics: []Diagnostic{{File: name, Line: 1, Col: 1,
			Message: `not an OpenTool, OpenDyn or OpenAPI document: want a top-level "opentool", "opendyn", "openapi" or "swagger" member`}}}
	}
	if err != nil {
		// The warnings go with the errors, in document order: a warning often
		// explains an error that follows from it.
		var e *Error
		if errors.As(err, &e) && len(warnings) > 0 {
			all := append(append([]Diagnostic(nil), warnings...), e.Diagnostics...)
			sort.SliceStable(all, func(i, j int) bool {
				if all[i].Line != all[j].Line {
					return all[i].Line < all[j].Line
				}
				return all[i].Col < all[j].Col
			})
			err = &Error{Diagnostics: all}
		}
		return nil, err
	}
	model.NameMethods(pkg)
	docOut := &emit.DocumentOut{SizeHint: len(src.json)}
	var outs []emit.Output
	var extra []File
	if pkg.API == nil {
		outs = emit.OpenTool(pkg, docOut)
	}
	if pkg.Dyn != nil { // OpenDyn: cgo bindings and a C header besides
		if outs, extra, err = emit.OpenDyn(pkg, docOut); err != nil {
			return nil, err
		}
	}
	if pkg.API != nil { // OpenAPI: a REST client and a Tool adapter over it
		outs = emit.OpenAPI(pkg, docOut)
	}
	files, err := render(outs)
	if err != nil {
		return nil, err
	}
	files = append(files, extra...)
	doc := docOut.Compact // written with document.gen.go
	if doc == nil {
		if doc, err = emit.MarshalDocument(pkg.Document); err != nil {
			return nil, err
		}
	}
	doc = emit.ResultDocument(doc)
	return &Result{Files: files, Document: doc, Warnings: warnings}, nil
}

// kind returns the kind of the document from its top-level member.
func (s *source) kind() string {
	for _, k := range []string{"opentool", "opendyn", "openapi"} {
		if s.tree.Get(k) != nil {
			return k
		}
	}
	if s.tree.Get("swagger") != nil {
		return "openapi"
	}
	return ""
}

// loadOpenTool loads and validates an OpenTool document and builds its model.
func loadOpenTool(src *source, opts Options) (*model.Package, []Diagnostic, error) {
	doc, problems, err := otload.LoadOpenToolWarnings(src.json)
	var diags, warnings []Diagnostic
	for _, p := range problems {
		warnings = append(warnings, src.diagnostic(p))
	}
	if err != nil {
		var de *otload.DocumentError
		if errors.As(err, &de) {
			for _, p := range de.Problems {
				diags = append(diags, src.diagnostic(p))
			}
		} else {
			diags = append(diags, Diagnostic{File: src.name, Message: err.Error()})
		}
	}
	if len(diags) > 0 {
		return nil, warnings, &Error{Diagnostics: dedup(diags)}
	}
	return model.FromOpenTool(doc, opts.Package, filepath.Base(src.name)), warnings, nil
}

func dedup(ds []Diagnostic) []Diagnostic {
	seen := map[Diagnostic]bool{}
	var out []Diagnostic
	for _, d := range ds {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// diagnostic is the diagnostic of a problem found in s's JSON form.
func (s *source) diagnostic(p otload.Problem) Diagnostic {
	line, col := s.position(p.Path, p.Offset)
	return Diagnostic{File: s.name, Line: line, Col: col, Path: p.Path, Message: p.Message, Warning: p.Warning}
}

// render formats the emitted files, once (formatSource: gofmt with the
// imports grouped as x/tools/imports groups them). Files are rendered and
// formatted concurrently, one goroutine per CPU.
func render(outs []emit.Output) ([]File, error) {
	files := make([]File, len(outs))
	errs := make([]error, len(outs))
	sem := make(chan struct{}, goruntime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, o := range outs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			files[i], errs[i] = renderOne(o)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

func renderOne(o emit.Output) (File, error) {
	var buf bytes.Buffer
	if err := o.File.Render(&buf); err != nil {
		return File{}, &FormatError{File: o.Name, Source: buf.Bytes(), Err: err}
	}
	src, err := formatSource(buf.Bytes())
	if err != nil {
		return File{}, &FormatError{File: o.Name, Source: buf.Bytes(), Err: err}
	}
	if s, ok := o.File.(emit.Splicer); ok {
		if src, err = s.Splice(src); err != nil {
			return File{}, &FormatError{File: o.Name, Source: buf.Bytes(), Err: err}
		}
	}
	return File{Name: o.Name, Content: src}, nil
}
