// Command opentoolgen generates a typed Go package from an OpenTool, OpenDyn or
// OpenAPI/Swagger document, or from an MCP server's saved tools/list result:
// argument and result types, a Service interface with a server Tool adapter, a typed
// client, the embedded OpenTool document and LLM function declarations, all on
// top of package github.com/opentoolgen/opentoolgen/runtime.
//
// Usage:
//
//	opentoolgen [flags] DOCUMENT
//
// The kind of DOCUMENT is read from its top-level member ("opentool",
// "opendyn", "openapi" or "swagger"; "tools" for a tools/list result, or
// the JSON-RPC response with it in its "result"); JSON and YAML are both
// accepted. From a
// //go:generate line, next to the document, with the command a tool of the
// module (go get -tool github.com/opentoolgen/opentoolgen/cmd/opentoolgen):
//
//	//go:generate go tool opentoolgen -o weathertool weather.json
//
// or, inside this module, go run github.com/opentoolgen/opentoolgen/cmd/opentoolgen.
//
// An OpenDyn document (a C dynamic library's functions with their C types) also
// gives cgo bindings: library.gen.go (Library, Open, Close, one typed method per
// C function, and lib.Service(), the Service that NewTool serves) and
// opendyn.gen.h (each function's C prototype and a trampoline that calls it).
// The library is opened at run time, with package runtime/dynlib (dlopen;
// LoadLibrary on Windows): nothing links against it. Building the bindings
// needs cgo; without cgo the package builds without them (types, client,
// document).
//
// An MCP tools/list result gives the package of its equivalent OpenTool
// document (-document writes it): each tool a function, its inputSchema the
// parameters, its outputSchema the result type (else the text it answers, a
// string), converted as mcpbridge converts a live server's tools, so that the
// typed client calls the server through runtime.Local of an mcpbridge tool (or
// an OpenTool gateway in front of it). The server's name and version come from
// the listing's "_meta" (or a "serverInfo" beside "tools").
//
// The flags are:
//
//	-o DIR
//		Write the generated files into DIR (default "."), creating it if needed.
//		Only the generated files are written; other files in DIR are left alone,
//		but for files an earlier run generated from the same document (a .gen.
//		name and the same generated header) that this run no longer produces:
//		they are removed (-check reports them).
//	-pkg NAME
//		Name of the generated package (default: derived from DIR's base name).
//	-check
//		Write nothing; exit 1 and name the files that differ when the generated
//		files on disk are stale (for CI).
//	-document FILE
//		Also write the equivalent OpenTool document as indented JSON to FILE:
//		for OpenDyn and OpenAPI inputs, the description OpenTool clients in any
//		language understand.
//	-declarations FILE
//		Also write the functions' declarations for an LLM provider to FILE: the
//		JSON its API takes in its "tools" member, for a program in any
//		language to hand to its model. What the provider's schema dialect
//		cannot say, and limits the declarations exceed (too many tools, too
//		deep), are warnings.
//	-for PROFILE
//		The profile of -declarations (default openai): openai, openai-strict
//		(Chat Completions), openai-responses, openai-responses-strict (the
//		Responses API), anthropic, anthropic-strict, gemini (JSON Schema in
//		parametersJsonSchema), gemini-openapi (the OpenAPI subset in
//		parameters, for older models) or mcp. The anthropic profiles write
//		the OpenAPI operations' examples as input_examples (at most 5 a
//		tool; one that does not validate against the schema is a warning).
//	-tool-search
//		Declare the functions for the provider's tool search: each with
//		"defer_loading": true, and the search tool first in the list
//		(OpenAI's tool_search; Anthropic's BM25 tool search tool). Only
//		with -for openai-responses, openai-responses-strict, anthropic or
//		anthropic-strict. Limits: Anthropic searches at most 10,000 tools;
//		OpenAI takes 128 tools at the top level (a namespace counts as one).
//	-namespaces tag|none
//		Group the declared functions in namespaces (default none): tag puts
//		each OpenAPI operation in the namespace of its first tag, its name
//		made to fit [a-zA-Z0-9_-]{1,64}, described by the tag's description
//		or summary (a tag nested in another, OpenAPI 3.2's parent, is a
//		namespace of its own, its description naming its parents);
//		operations without tags stay at the top level. At run time,
//		declare.Options{TagNamespaces: true} on a Tool's Document does the
//		same. Only with -for openai-responses or
//		openai-responses-strict. A namespace of 10 functions or more (OpenAI
//		advises fewer) is a warning.
//	-include PATTERN, -exclude PATTERN
//		Generate only the functions an -include pattern matches (all, without
//		one) that no -exclude pattern matches, and only the types they need
//		(repeatable). A pattern is a glob over function names (path.Match:
//		* ? [a-z]), tag:GLOB over an OpenAPI operation's tags, or path:GLOB
//		over its path template (* does not cross a /).
//	-allow-ref-dir DIR
//		Let OpenAPI $refs read files under DIR too (repeatable). By default a
//		$ref may only name a regular file inside the directory tree of the
//		document (after resolving .. and symbolic links).
//	-overlay FILE
//		Apply the OpenAPI Overlay document FILE (1.0.0, or 1.1.0 with copy)
//		to the OpenAPI document before generating (repeatable: applied in
//		the order given). Targets are RFC 9535 JSONPath queries; update
//		merges, remove removes, copy (1.1.0) merges the one value its query
//		selects. A problem of an overlay is an error at its line, naming
//		the action (/actions/N) and its target; an action whose target
//		selects nothing is a warning, and so is an extends that names
//		another document than the one given (which is patched all the
//		same). Problems of the patched document are at the document's lines,
//		or, for what an overlay wrote, say "(from overlay FILE:LINE:COL)".
//		The generated header names the overlays after the document; -check
//		compares against the patched document. Only for OpenAPI documents.
//	-cmd DIR
//		Also write a package main into DIR (main.gen.go) that serves the
//		generated package as an OpenTool and MCP server with no code of yours
//		(package toolcli: DIR's base name start | mcp | -h): OpenAPI calls the
//		REST API at --base-url (--server, its deprecated alias) with credentials from environment variables;
//		OpenDyn opens the library at --library; OpenTool is a gateway to the
//		server at --upstream. DIR and -o must be in one module: the main
//		imports the package by the path the enclosing go.mod gives it.
//		By default the main serves OpenTool HTTP and MCP (stdio and
//		streamable HTTP) and links nothing else; -with adds more.
//	-with FRONTS
//		What the -cmd main links besides OpenTool HTTP and MCP, a
//		comma-separated list (repeatable): nats, the nats and exec commands
//		(package toolcli/natscli: a NATS micro service, the executor of an agent platform's tool development guide,
//		an embedded NATS server); otel, OpenTelemetry export (package
//		toolcli/otelcli); nats,otel for both. A binary holds what it serves:
//		without nats it links neither the NATS client nor a NATS server, and
//		its help names no nats or exec command.
//	-package LIST
//		Also write beside the -cmd main (in DIR) the files that install it,
//		derived from the document (a comma-separated list, repeatable):
//		opentoolfile, an Opentoolfile for the OpenTool daemon (go build,
//		ENTRYPOINT the command, CMD ["start"], ENV for its credentials);
//		mcpb, an MCPB manifest.json (binary server started as "NAME mcp",
//		user_config for its credentials, sensitive, passed in its
//		environment; the tools, or discovery's three above 128 functions);
//		registry, a server.json for the MCP registry (schema 2025-12-11);
//		oci, the OCI image in server.json's packages; all for the four.
//		Then "go run github.com/opentoolgen/opentoolgen/cmd/opentoolgen-pack DIR"
//		builds the binaries, the .mcpb bundle and the OCI image from them
//		(docs/packaging.md). Not for OpenDyn, whose main links cgo.
//	-registry-name NAME
//		The server's name in the MCP registry for -package registry and oci:
//		reverse DNS with one "/" (io.github.USER/NAME); the OCI image's
//		io.modelcontextprotocol.server.name label.
//	-image REPOSITORY
//		The OCI image's repository in server.json, without tag (the tag is
//		the document's version; default for io.github.USER/NAME:
//		ghcr.io/USER/NAME).
//	-release-url URL
//		Where the .mcpb bundle is downloaded from, without its file name
//		(default for io.github.USER/NAME: its GitHub release vVERSION).
//	-remote-url URL
//		The URL of the server's MCP endpoint over streamable HTTP
//		(https://host/mcp), for server.json's remotes.
//	-registration FILE
//		Also write to FILE the functions as tool definitions of the agent
//		platform whose tool executors natsexec serves (its tool development
//		guide, §3.2; docs/natsexec.md): the YAML its
//		management API takes (POST /projects/{project_id}/tools), one
//		document (---) per function with tool_name (the function's name),
//		target_subject (-subject), after_execution (-after-execution),
//		parameters (the function's parameters as one JSON Schema object),
//		options ({}) and description. What the platform refuses is an error:
//		a function named as one of its internal tools (delegate_async,
//		launch_principal, ask_expert, fork_join, provision_agent), at the
//		function's place in the document. Package natsexec serves the
//		functions on those subjects.
//	-subject TEMPLATE
//		The target_subject of -registration (default cmd.tool.{function}): a
//		cmd.tool.* subject (cmd.sys.* is the platform's own), short or in the
//		platform's full form cg.VERSION.{project_id}.{channel_id}.cmd.tool.…;
//		{function} is each function's name (required with more than one
//		function: the platform finds a tool by its subject), {project_id} and
//		{channel_id} are left for the platform to expand; no wildcards.
//	-after-execution suspend|terminate
//		The after_execution of -registration (default suspend): what the
//		calling agent does once the result is reported.
//	-split-types LINES
//		Spread the types over files of about LINES lines each (default 5000):
//		types.gen.go, types2.gen.go, … in the document's order, as few files
//		as hold them and about even, each type's lines estimated from its
//		fields, values and doc comments; a type larger than LINES has a file
//		of its own. 0 keeps every type in types.gen.go.
//	-split-functions N
//		Put the methods of at most N functions in each tool and client file
//		(default 100): tool.gen.go, tool2.gen.go, … and client.gen.go,
//		client2.gen.go, …, the first of each also holding what belongs to
//		the package as a whole. 0 keeps them in tool.gen.go and
//		client.gen.go. Splitting bounds the memory of generating and the size
//		of each file, not the compiler's: Go compiles a package whole, so a
//		package too large to build (Microsoft Graph's, 2 million lines) is
//		better made several packages, one per group of tags (-include
//		'tag:GLOB'; see docs/limits.md).
//	-cpuprofile FILE
//		Write a CPU profile of the run to FILE (go tool pprof FILE).
//	-memprofile FILE
//		Write the profile of the run's allocations to FILE when it ends
//		(go tool pprof -sample_index=alloc_space FILE).
//	-q
//		Print no warnings; errors are still printed, and the command that
//		completes go.mod (below).
//	-version
//		Print the version of opentoolgen and exit: the version of the
//		module github.com/opentoolgen/opentoolgen the command was built
//		from, as the go command stamped it (v1.2.3, a pseudo-version, or
//		"(devel)" with the VCS revision for a build from a checkout), and
//		Go's.
//	-h, -help
//		Print this list of flags on standard output and exit.
//
// Flags go before DOCUMENT. A flag the command does not have is bad usage,
// with the flag it most likely meant ("-ouptut … (did you mean -o?)").
//
// When the go.mod of the module that holds -o lacks a module the generated
// code needs to build (the MCP Go SDK, which a -cmd main needs through
// package toolcli; golang.org/x/oauth2 for OAuth 2 client credentials), the
// command prints the exact command that adds it, a go get of the packages
// that need it at the version go.mod already requires, for example
//
//	go get github.com/opentoolgen/opentoolgen/toolcli@v0.0.0
//
// (go build alone would say "go mod tidy", which also fetches what the tests
// of every dependency need). A go.mod that lists a module at a version older
// than this module requires is not detected: go build then says so.
//
// Limits, so that a hostile or broken document costs little: a document, and
// each file its $refs name, may be at most 64 MiB; a $ref reads only a regular
// file inside the document's directory tree (or an -allow-ref-dir), never a
// URL, device or pipe; OpenAPI documents nested deeper than 1,000 levels are
// refused (kin-openapi reads them in quadratic time). JSON paths over 256
// bytes are shortened in messages (/a/b/c/d/…(N more)…/w/x/y/z); doc comments
// carry at most 2 KiB of a description (the embedded document keeps all of
// it); names of nested types stop growing at 64 bytes and go on as the
// member's name, numbered when taken. Output grows linearly with the input.
//
// Unless GOGC or GOMEMLIMIT is set, the garbage collector runs only at a
// soft memory limit of 64 MiB (GOGC=off with debug.SetMemoryLimit) until a
// collection finds 48 MiB or more live; then it is handed back to the Go
// default (GOGC=100, no limit). Documents of a few megabytes stay within
// 64 MiB and are rarely collected; larger ones take about twice their live
// heap, and the collector never runs back to back.
//
// Warnings (what was read in a degraded way) go to standard error, one a
// line, at their place in the document as errors are (file:line:col:
// json-path; for a Swagger 2.0 document its own places, not those of the
// OpenAPI 3 document it is converted to); -q leaves them out. A warning given
// at more than three places is printed once, with the number of its places
// and the first three of them, indented. With -include or -exclude, warnings
// about operations and schemas that are not generated are left out.
//
// Exit status: 0 on success; 1 when the document has problems (each printed as
// file:line:col: json-path: message, all at once, the first ten errors followed
// by the document's lines around them with a caret under the column) or -check
// found stale files; 2 on bad usage (the mistake on standard error).
// Nothing is written when any error occurred: every output is written to a
// temporary file beside its place first, and renamed into place only when
// all of them were written.
//
// The manual of the generated code is in the repository's docs/ directory:
// docs/openapi.md, docs/mcp.md, docs/declarations.md, docs/server.md,
// docs/opendyn.md and docs/limits.md.
package main
