package model

// The identifiers the generated files declare whatever the document says, in
// one table: names made from the document never take them, or the package
// would not compile. Emitters declare these and the names the model made
// (types, constants, decoders, functions' methods), nothing else.

// reservedPackageNames are declared by every package: tool.gen.go (Tool,
// NewTool, and the Service interface, whose name yields to a schema's:
// Package.ServiceName), client.gen.go (Client, NewClient) and
// document.gen.go (Document, Declarations).
var reservedPackageNames = []string{"Client", "NewClient", "Tool", "NewTool", "Document", "Declarations"}

// reservedOpenAPINames are declared by an OpenAPI package: the package's own
// names and those of its REST client (client.gen.go: WithCredential only when
// the document has security schemes, WithReconnect when an operation streams
// Server-Sent Events, WithServer when the document has several servers);
// ToolOption is kept from an earlier version of the package.
var reservedOpenAPINames = []string{
	"Client", "NewClient", "ClientOption", "WithHTTPClient", "WithRequestEditor",
	"WithRetry", "WithReconnect", "WithTimeout", "WithCredential", "WithServer",
	"WithCrossOriginRedirect", "WithResponseHeaderTimeout",
	"WithBaseURL", "DefaultBaseURL", "Tool", "NewTool", "ToolOption", "Document", "Declarations",
	// webhooks.gen.go, when the document has webhooks or callbacks
	"Webhooks", "NewWebhookHandler", "WebhookEvents", "NewWebhookFeed", "webhookFeed",
}

// ToolMethods returns the exported methods of every package's Tool
// (tool.gen.go): Hints only in OpenAPI packages and MCP listings with
// annotations, HeaderParameters only in OpenAPI packages with header
// parameters, StreamCall only when a function streams. Names made from a
// document never collide with them: Tool's other methods are the unexported
// Function.ToolMethod names (and Paging.Gather, gatherF, for a list
// function).
func ToolMethods() []string {
	return []string{"Call", "StreamCall", "Load", "Document", "Declarations", "Functions", "Hints", "HeaderParameters"}
}

// reservedOpenDynNames are declared by an OpenDyn package besides
// reservedPackageNames: library.gen.go's Library, Open and CodeText.
var reservedOpenDynNames = []string{"Library", "Open", "CodeText"}

// reservedLibraryMethods are the methods of an OpenDyn package's Library that
// are not functions of the document.
var reservedLibraryMethods = []string{"Close", "Path", "Service"}

// reservedFieldNames are the methods every generated struct may carry: fields
// never take them.
var reservedFieldNames = []string{"MarshalJSON", "UnmarshalJSON"}

// reservedVariantNames are the methods of a union (an OpenAPI oneOf or
// anyOf): the fields of its variants never take them.
var reservedVariantNames = []string{"IsZero", "MarshalJSON", "UnmarshalJSON"}

// reservedLibraryLocals are the identifiers the parameters of Library's
// generated methods must not shadow: Go's keywords and predeclared
// identifiers, the package names the file imports, and the receiver, results,
// locals and unexported helpers library.gen.go declares (the decoders of the
// package's types are added per package).
var reservedLibraryLocals = []string{
	"break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for",
	"func", "go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select",
	"struct", "switch", "type", "var",
	"any", "append", "bool", "byte", "cap", "clear", "close", "comparable", "complex", "complex64",
	"complex128", "copy", "delete", "error", "false", "float32", "float64", "imag", "int", "int8",
	"int16", "int32", "int64", "iota", "len", "make", "max", "min", "new", "nil", "panic", "print",
	"println", "real", "recover", "rune", "string", "true", "uint", "uint8", "uint16", "uint32",
	"uint64", "uintptr",
	"C", "unsafe", "sync", "errors", "bytes", "strings", "context", "json", "syscall", "runtime", "rest", "declare",
	"dynlib", "strconv", "l", "err", "ctx", "args", "documentJSON", "libraryService",
	"symbols", "cStringOf", "goStringOf", "invalidArg", "valueOf", "longOf", "ulongOf",
}

// ReservedNames returns the package-level names the generated files of a
// package of kind declare (so that no type, constant or option takes them),
// with the locals of an OpenDyn Library's methods (which its parameters
// never take); a new slice each call.
func ReservedNames(kind PackageKind) []string {
	out := append(append([]string(nil), reservedPackageNames...), reservedLibraryLocals...)
	switch kind {
	case PackageOpenAPI:
		out = append(out, reservedOpenAPINames...)
	case PackageOpenDyn:
		out = append(out, reservedOpenDynNames...)
	}
	return out
}
