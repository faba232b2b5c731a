package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"io"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/opentoolgen/opentoolgen/gen/emit"
	"github.com/opentoolgen/opentoolgen/gen/load/mcptools"
	"github.com/opentoolgen/opentoolgen/gen/load/openapi"
	"github.com/opentoolgen/opentoolgen/gen/load/opendyn"
	otload "github.com/opentoolgen/opentoolgen/gen/load/opentool"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/overlay"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
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
	// MaxFileBytes is the largest document or referenced file accepted; 0
	// means MaxFileBytes (64 MiB).
	MaxFileBytes int64
	// SlowLoad, when set, is told of each OpenAPI document loaded the usual
	// (slower) way instead of by the fast path, and why (opentoolgen notes
	// it once).
	SlowLoad func(doc, reason string)
	// Declarations, when set, is the profile in which Result.Declarations
	// declares the functions for an LLM provider.
	Declarations Profile
	// ToolSearch prepares Result.Declarations for the provider's tool
	// search (declare.Options.ToolSearch): openai-responses and anthropic
	// profiles.
	ToolSearch bool
	// Namespaces groups the functions of Result.Declarations in namespaces
	// (openai-responses profiles): "tag" puts each OpenAPI operation in the
	// namespace of its first tag (declare.Options.TagNamespaces, as a
	// generated Tool's document at run time), "" or "none" groups nothing.
	Namespaces string
	// Include and Exclude choose the functions generated (model.Selector):
	// a glob over function names, "tag:GLOB" over an OpenAPI operation's
	// tags, "path:GLOB" over its path. The package keeps the functions an
	// Include pattern matches (all without one) that no Exclude pattern
	// matches, and only the types they need.
	Include, Exclude []string
	// Command, when set, also generates a package main that serves the
	// package through package toolcli (Result.Command).
	Command *Command
	// Packaging, when set with Command, also writes the files that install
	// the main (Result.Packaging): Opentoolfile, manifest.json, server.json.
	Packaging *Packaging
	// Registration, when set, also writes the functions' definitions as tools
	// of seed 001's platform (Result.Registration).
	Registration *Registration
	// Split bounds the size of the generated files (emit.Split): a large
	// document's types, tool and client are split over numbered files
	// (types2.gen.go, tool2.gen.go, client2.gen.go, …). The zero value
	// takes the defaults; a field NoSplit keeps its files whole.
	Split Split
	// Overlays are OpenAPI Overlay documents (1.0.0, 1.1.0) applied to the
	// document, in order, before it is loaded (package gen/overlay): an
	// OpenAPI document only. The generated files' header names them after
	// the document.
	Overlays []Overlay
}

// Overlay is an OpenAPI Overlay document as read: its name, for messages
// and the generated header, and its text.
type Overlay = overlay.File

// Split bounds the size of the generated files (Options.Split).
type Split = emit.Split

// NoSplit keeps a family of files in one file, as a field of Split.
const NoSplit = emit.NoSplit

// The defaults of Split's fields: types files of about 5,000 lines, the
// methods of 100 functions a tool or client file.
const (
	DefaultTypesLines       = emit.DefaultTypesLines
	DefaultFunctionsPerFile = emit.DefaultFunctionsPerFile
)

// Command describes the package main Generate writes with Options.Command.
type Command struct {
	// Name is the executable's name: the base name of the main's directory.
	Name string
	// ImportPath is the import path of the generated package.
	ImportPath string
	// NATS links the nats and exec commands (package toolcli/natscli) into
	// the main: opentoolgen -with nats. Without it the main serves OpenTool
	// HTTP and MCP only, and links no NATS.
	NATS bool
	// OTel links OpenTelemetry export (package toolcli/otelcli) into the
	// main: opentoolgen -with otel.
	OTel bool
}

// Profile is an LLM provider's form of declarations (declare.Profile).
type Profile = declare.Profile

// ParseProfile returns the profile named s ("openai", "openai-strict",
// "openai-responses", "anthropic", "anthropic-strict", "gemini", "mcp", …), or an error listing them.
func ParseProfile(s string) (Profile, error) { return declare.ParseProfile(s) }

// MaxFileBytes is the largest document or referenced file accepted: 64 MiB.
const MaxFileBytes = source.MaxFileBytes

// File is one generated file.
type File = emit.File

// Diagnostic is a problem in an input document, at a place.
type Diagnostic = source.Diagnostic

// Error is the error of a document that cannot be generated: every problem
// found.
type Error = source.Error

// Result is what Generate produced.
type Result struct {
	Files []File
	// Document is the equivalent OpenTool document: the input itself for
	// OpenTool, the converted description for OpenDyn, OpenAPI and MCP; the
	// bytes of emit.DocumentFile (opentool.gen.json) among Files, which the
	// package embeds. It is
	// indented JSON up to 256 KiB; beyond, only when it is at most 16 MiB
	// compact and indenting makes it at most 4 times larger (a document
	// nested thousands of levels deep, or of tens of megabytes, stays
	// compact).
	Document []byte
	// Declarations are the functions declared in Options.Declarations's
	// profile: the JSON of the provider's "tools" member, indented; nil
	// without a profile.
	Declarations []byte
	// Warnings are problems the generator worked around, and what the
	// declarations could not say or exceed (declare.Functions).
	Warnings []source.Diagnostic
	// Command is the package main's file (emit.CommandFile), when
	// Options.Command asked for it.
	Command *File
	// Packaging are the files Options.Packaging asked for, named as in the
	// main's directory (Opentoolfile, manifest.json, server.json).
	Packaging []File
	// Registration is the YAML of the tool definitions Options.Registration
	// asked for; nil without it.
	Registration []byte
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
	if limit := source.FileLimit(opts.MaxFileBytes); int64(len(data)) > limit {
		return nil, &source.Error{Diagnostics: []source.Diagnostic{{File: name,
			Message: fmt.Sprintf("the document is larger than %s (%d bytes)", source.SizeText(limit), len(data))}}}
	}
	sel := model.Selector{Include: opts.Include, Exclude: opts.Exclude}
	if err := sel.Check(); err != nil {
		return nil, err
	}
	src, pkg, warnings, err := load(name, data, opts)
	if err != nil {
		return nil, err
	}
	if len(sel.Include)+len(sel.Exclude) > 0 {
		all := len(pkg.Functions)
		for _, p := range model.Select(pkg, sel) {
			warnings = append(warnings, source.Diagnostic{File: name, Warning: true, Message: fmt.Sprintf("pattern %q chose no function", p)})
		}
		if len(pkg.Functions) == 0 {
			return nil, &source.Error{Diagnostics: []source.Diagnostic{{File: name,
				Message: fmt.Sprintf("-include and -exclude keep none of the %d functions", all)}}}
		}
		warnings = generatedOnly(warnings, name, pkg)
	}
	// Two names or values that ended up equal are the generator's bug: an
	// error that names both, never code the compiler refuses.
	if cs := model.Collisions(pkg); len(cs) > 0 {
		var ds []source.Diagnostic
		for _, c := range cs {
			ds = append(ds, source.Diagnostic{File: name, Message: "internal error: " + c})
		}
		return nil, &source.Error{Diagnostics: ds}
	}
	var reg []byte
	if opts.Registration != nil { // before emitting: a refused registration costs no generation
		if reg, err = registration(name, data, src, pkg, opts.Registration); err != nil {
			return nil, err
		}
	}
	if opts.Command != nil {
		pkg.Command = model.NewCommand(pkg, opts.Command.Name, opts.Command.ImportPath)
		pkg.Command.NATS, pkg.Command.OTel = opts.Command.NATS, opts.Command.OTel
	}
	var packs []File
	if opts.Packaging != nil {
		if pkg.Command == nil {
			return nil, errors.New("packaging needs the command (Options.Command): the files install the main")
		}
		if packs, err = packaging(pkg, opts.Packaging); err != nil {
			return nil, err
		}
	}
	outs, err := emit.Package(pkg, opts.Split)
	if err != nil {
		return nil, err
	}
	files, err := render(outs)
	if err != nil {
		return nil, err
	}
	res := &Result{Warnings: warnings, Registration: reg, Packaging: packs}
	for i, f := range files {
		switch {
		case outs[i].Command:
			res.Command = &files[i]
		case f.Name == emit.DocumentFile:
			res.Document = f.Content
			res.Files = append(res.Files, f)
		default:
			res.Files = append(res.Files, f)
		}
	}
	if opts.Declarations != "" {
		if err := addDeclarations(name, pkg, opts, res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// WriteWarnings writes warnings one a line, a warning given at many places
// once with their number and the first of them (source.WriteWarnings).
func WriteWarnings(w io.Writer, ws []Diagnostic) error { return source.WriteWarnings(w, ws) }

// generatedOnly returns the warnings about the parts of the document the
// package generates after -include and -exclude: not those at an operation
// that is left out (or a path none of whose operations is kept), nor at a
// schema whose type no kept function needs. Warnings elsewhere (info,
// servers, the files $refs name) are kept.
func generatedOnly(ws []source.Diagnostic, name string, pkg *model.Package) []source.Diagnostic {
	ops, paths, schemas := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, fn := range pkg.Functions {
		if fn.HTTP != nil {
			ops[fn.HTTP.Path+" "+strings.ToLower(fn.HTTP.Method)] = true
			paths[fn.HTTP.Path] = true
		}
	}
	for _, t := range pkg.Types {
		if t.Schema != "" {
			schemas[t.Schema] = true
		}
	}
	unescape := strings.NewReplacer("~1", "/", "~0", "~").Replace
	var out []source.Diagnostic
	for _, w := range ws {
		tok := strings.Split(w.Path, "/")
		keep := true
		switch {
		case w.File != name || len(tok) < 3 || pkg.API == nil:
		case tok[1] == "paths" && len(tok) > 3 && httpMethods[tok[3]]:
			keep = ops[unescape(tok[2])+" "+tok[3]]
		case tok[1] == "paths":
			keep = paths[unescape(tok[2])]
		case tok[1] == "components" && tok[2] == "schemas" && len(tok) > 3:
			keep = schemas[unescape(tok[3])]
		case tok[1] == "definitions": // Swagger 2.0
			keep = schemas[unescape(tok[2])]
		}
		if keep {
			out = append(out, w)
		}
	}
	return out
}

// httpMethods are the operations of a path item.
var httpMethods = map[string]bool{"get": true, "put": true, "post": true, "delete": true,
	"options": true, "head": true, "patch": true, "trace": true, "query": true}

// addDeclarations puts the declarations of pkg's document in profile p into res: what the profile
// cannot say and the provider limits they exceed are warnings (the runtime
// function that builds them at run time returns the latter as an error).
func addDeclarations(name string, pkg *model.Package, opts Options, res *Result) error {
	p := opts.Declarations
	d, err := declare.FunctionsWith(pkg.Document, p, declarationOptions(opts))
	var le *declare.LimitError
	switch {
	case errors.As(err, &le):
		for _, l := range le.Limits {
			msg := fmt.Sprintf("%s declarations: %d %s, the provider takes at most %d", p, l.Count, l.What, l.Max)
			if l.Function != "" {
				msg = fmt.Sprintf("%s declaration of %q: %d %s, the provider takes at most %d", p, l.Function, l.Count, l.What, l.Max)
			}
			res.Warnings = append(res.Warnings, source.Diagnostic{File: name, Message: msg, Warning: true})
		}
	case err != nil:
		return err
	}
	for _, w := range d.Warnings {
		res.Warnings = append(res.Warnings, source.Diagnostic{File: name, Message: w, Warning: true})
	}
	var b bytes.Buffer
	if err := json.Indent(&b, d.Tools, "", "  "); err != nil {
		return err
	}
	b.WriteByte('\n')
	res.Declarations = b.Bytes()
	return nil
}

// declarationOptions are the declare.Options opts asks for: tool search,
// and namespaces from the functions' first tags (declare.NamespacesByTag,
// the same code a generated Tool's served document is grouped by at run
// time).
func declarationOptions(opts Options) declare.Options {
	return declare.Options{ToolSearch: opts.ToolSearch, TagNamespaces: opts.Namespaces == "tag"}
}

// load reads and loads the document and builds its model, names included:
// the stages before emit.
func load(name string, data []byte, opts Options) (*source.Source, *model.Package, []source.Diagnostic, error) {
	// withText gives the document's diagnostics its text, for the lines
	// around each (source.Excerpt).
	withText := func(err error) error {
		var e *source.Error
		if errors.As(err, &e) {
			e.AddText(name, data)
		}
		return err
	}
	src, err := source.ReadSource(name, data)
	if err != nil {
		return nil, nil, nil, withText(err)
	}
	if len(src.Duplicates) > 0 && src.Kind() != "openapi" {
		// OpenAPI documents as they are found in the wild may repeat a key
		// (read with a warning); the other kinds are ours, and strict.
		return nil, nil, nil, withText(&source.Error{Diagnostics: src.DuplicateDiagnostics(false)})
	}
	var (
		pkg      *model.Package
		warnings []source.Diagnostic
		lopts    = model.LoadOptions{AllowRefDirs: opts.AllowRefDirs, MaxFileBytes: opts.MaxFileBytes, SlowLoad: opts.SlowLoad}
		patched  []source.Diagnostic // the overlays' warnings
	)
	if len(opts.Overlays) > 0 {
		if src, patched, err = applyOverlays(src, opts.Overlays); err != nil {
			return nil, nil, nil, withText(err)
		}
	}
	switch kind := src.Kind(); kind {
	case "opentool":
		pkg, warnings, err = otload.Load(src, lopts)
	case "opendyn":
		pkg, warnings, err = opendyn.Load(src, lopts)
	case "openapi":
		if d := src.TooDeep(source.MaxOpenAPIDepth); d != nil {
			return nil, nil, nil, withText(&source.Error{Diagnostics: []source.Diagnostic{*d}})
		}
		pkg, warnings, err = openapi.Load(src, lopts)
	case "mcp": // a saved tools/list result, through its OpenTool document
		pkg, warnings, err = mcptools.Load(src, lopts)
	default:
		return nil, nil, nil, withText(&source.Error{Diagnostics: []source.Diagnostic{{File: name, Line: 1, Col: 1,
			Message: `not an OpenTool, OpenDyn, OpenAPI or MCP tools/list document: want a top-level "opentool", "opendyn", "openapi", "swagger" or "tools" member`}}})
	}
	src.FromOverlays(warnings)
	warnings = append(patched, warnings...)
	if err != nil {
		// The warnings go with the errors, in document order: a warning often
		// explains an error that follows from it.
		var e *source.Error
		if errors.As(err, &e) {
			src.FromOverlays(e.Diagnostics)
		}
		if errors.As(err, &e) && len(warnings) > 0 {
			all := append(append([]source.Diagnostic(nil), warnings...), e.Diagnostics...)
			sort.SliceStable(all, func(i, j int) bool {
				if all[i].Line != all[j].Line {
					return all[i].Line < all[j].Line
				}
				return all[i].Col < all[j].Col
			})
			err = &source.Error{Diagnostics: all, Texts: e.Texts}
		}
		return nil, nil, warnings, withText(err)
	}
	pkg.SetName(opts.Package)
	if len(opts.Overlays) > 0 {
		pkg.Source += overlayNames(opts.Overlays)
	}
	return src, pkg, warnings, nil
}

// applyOverlays applies the overlays to the OpenAPI document src
// (overlay.Apply); they apply to no other kind.
func applyOverlays(src *source.Source, overlays []Overlay) (*source.Source, []source.Diagnostic, error) {
	if kind := src.Kind(); kind != "openapi" {
		what := map[string]string{"opentool": "an OpenTool", "opendyn": "an OpenDyn", "mcp": "an MCP tools/list"}[kind]
		if what == "" {
			what = "not an OpenAPI"
		}
		return nil, nil, &source.Error{Diagnostics: []source.Diagnostic{{File: src.Name, Line: 1, Col: 1,
			Message: fmt.Sprintf("-overlay: overlays apply to OpenAPI documents; this is %s document", what)}}}
	}
	return overlay.Apply(src, overlays)
}

// overlayNames is what the generated header says after the document's
// name: " with overlay a.yaml", " with overlays a.yaml, b.yaml".
func overlayNames(overlays []Overlay) string {
	names := make([]string, len(overlays))
	for i, o := range overlays {
		names[i] = filepath.Base(o.Name)
	}
	if len(names) == 1 {
		return " with overlay " + names[0]
	}
	return " with overlays " + strings.Join(names, ", ")
}

// render formats the emitted files, once (formatSource: gofmt with the
// imports grouped as x/tools/imports groups them). Files are rendered and
// formatted concurrently, one goroutine per CPU.
func render(outs []emit.Output) ([]File, error) {
	files := make([]File, len(outs))
	errs := make([]error, len(outs))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	// The costliest files first: with one goroutine per CPU, a large file
	// started last would be formatted alone while the other CPUs idle.
	order := make([]int, len(outs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return outs[order[a]].Cost > outs[order[b]].Cost })
	for _, i := range order {
		o := outs[i]
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

// renderOne renders one output: Go source formatted, any other file as it
// is.
func renderOne(o emit.Output) (File, error) {
	if c, ok := o.File.(emit.Content); ok {
		b, err := c.Bytes()
		if err != nil {
			return File{}, fmt.Errorf("opentoolgen: internal error: generating %s: %w", o.Name, err)
		}
		return File{Name: o.Name, Content: b}, nil
	}
	buf := buffers.Get().(*bytes.Buffer)
	defer func() { buf.Reset(); buffers.Put(buf) }()
	if err := o.File.Render(buf); err != nil {
		return File{}, &FormatError{File: o.Name, Source: bytes.Clone(buf.Bytes()), Err: err}
	}
	src, err := formatSource(buf.Bytes())
	if err != nil {
		return File{}, &FormatError{File: o.Name, Source: bytes.Clone(buf.Bytes()), Err: err}
	}
	return File{Name: o.Name, Content: src}, nil
}
