// Package gen is the generator behind the opentoolgen command: it drives the
// stages, each a package that imports only the stages before it
// (gen/layout_test.go says which may import which), and returns the
// formatted files. It writes nothing; the command does.
//
// # A document through the stages
//
// Generate(name, data, opts) takes weather.json to a package this way:
//
//  1. Read (gen/source): source.ReadSource reads JSON or YAML into a jsontree
//     with byte offsets and tells the kind of document by its top-level
//     member (Source.Kind), so that every later problem is reported as
//     file:line:col: /json/pointer: message (source.Diagnostic, all of them
//     at once in a source.Error).
//  2. Load (load in generate.go): one loader per kind checks its format and
//     returns a model.Package and its warnings, each with the same shape,
//     Load(src, model.LoadOptions): gen/load/opentool, gen/load/opendyn,
//     gen/load/openapi (over kin-openapi, read fast by
//     gen/load/openapi/fastload; its $refs read files only where
//     LoadOptions.AllowRefDirs lets them) and gen/load/mcptools for a saved
//     MCP tools/list result. Loaders know their format and nothing of Go:
//     they record the document's names and make no identifier, and take no
//     package name (Generate sets it after: Package.SetName).
//  3. Model (gen/model): one Package for every kind: functions, their
//     argument and result types, and what backs each function (Function.HTTP,
//     a REST operation; Function.C, a C symbol; neither, the user's code).
//     Every builder (model.FromOpenTool for OpenTool documents, OpenDyn and
//     MCP listings; the OpenAPI loader) records what needs a name in a
//     model.Naming, and model.Name makes every Go name, once, in document
//     order: GoName and LocalName make an identifier of a document name, a
//     Scope per namespace takes it or numbers it, never taking what the
//     generated files declare (declared.go), and bounds it to 64 runes
//     (BoundName). Pointer-ness is decided once the model is complete
//     (decidePointers). Then Generate keeps what Options.Include and
//     Options.Exclude choose (model.Select), refuses names that ended up
//     equal (model.Collisions) and, with Options.Command, names the package
//     main (model.NewCommand). Emitters never invent a name.
//  4. Emit (gen/emit, jennifer; nothing of input formats): emit.Package walks
//     one table of files (packageFiles in gen/emit/files.go), each chosen by
//     a fact of the model and made by an emitter of one signature:
//     document.gen.go and opentool.gen.json (the equivalent OpenTool
//     document, which document.gen.go embeds with //go:embed), types.gen.go
//     (split in types2.gen.go … when large: files of about
//     Options.Split.Types estimated lines, default 5,000, as few and as even
//     as the types' sizes allow), tool.gen.go (Service and the
//     one Tool adapter), client.gen.go (the OpenTool client, or the REST
//     client when the functions are HTTP operations) — the methods of a large
//     document's functions split in tool2.gen.go …, client2.gen.go …, at
//     most Options.Split.Functions functions a file (default 100), so that no
//     file grows with the document past about 5,000 lines —, webhooks.gen.go (the
//     receiver of the events an API sends: docs/webhooks.md), library.gen.go and
//     opendyn.gen.h when they are C functions, and main.gen.go with a
//     command. Go files are emitted lazily, when they are rendered.
//  5. Format (render, renderOne, formatSource in format.go): the files are
//     rendered and formatted in parallel, one goroutine per CPU, the costliest
//     first; Go source is grouped and sorted as goimports does and gofmt'd
//     once (parsed and printed as go/format does, into buffers reused from
//     file to file); other files are taken as they are. Result.Files are the
//     package's files, Result.Document the bytes of opentool.gen.json (what
//     -document writes), Result.Command the main; with
//     Options.Declarations, Result.Declarations are the functions declared in
//     that profile (declare.Functions); with Options.Registration,
//     Result.Registration is the YAML of the functions as tool definitions
//     of seed 001's platform (registration.go; made before emitting, so that
//     a name or subject the platform refuses costs no generation).
//  6. Write (cmd/opentoolgen): the command writes every file to a temporary
//     file beside it and renames them all into place only when all are
//     written; it removes the files an earlier run generated that this one no
//     longer does; -check compares instead of writing, the embedded document
//     included.
//
// To add an input kind: a loader in gen/load that produces a model.Package
// (through model.FromOpenTool if the input converts to an OpenTool document,
// as OpenDyn does, or built directly with its names asked of a model.Naming,
// as OpenAPI does) and a case in load. To add an output: a row in
// packageFiles, with the fact of the model that decides it and its emitter;
// names it declares are added to the model's reserved names (declared.go).
package gen
