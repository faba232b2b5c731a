package model

// The identifiers the generated files declare whatever the document says, in
// one table: names made from the document never take them, or the package
// would not compile. Emitters declare these and the names the model made
// (types, constants, decoders, functions' methods), nothing else.

// ReservedPackageNames are declared by every package: tool.gen.go (Service,
// Tool, NewTool), client.gen.go (Client, NewClient) and document.gen.go
// (Document, Declarations).
var ReservedPackageNames = []string{"Service", "Client", "NewClient", "Tool", "NewTool", "Document", "Declarations"}

// ReservedOpenAPINames are declared by an OpenAPI package: the package's own
// names and those of its REST client (client.gen.go: WithCredential only when
// the document has security schemes, WithReconnect when an operation streams
// Server-Sent Events, WithServer when the document has several servers);
// ToolOption is kept from an earlier version of the package.
var ReservedOpenAPINames = []string{
	"Service", "Client", "NewClient", "ClientOption", "WithHTTPClient", "WithRequestEditor",
	"WithRetry", "WithReconnect", "WithTimeout", "WithCredential", "WithServer",
	"WithCrossOriginRedirect", "WithResponseHeaderTimeout",
	"WithBaseURL", "DefaultBaseURL", "Tool", "NewTool", "ToolOption", "Document", "Declarations",
}

// ToolMethods are the exported methods of every package's Tool (tool.gen.go):
// Hints only in OpenAPI packages, StreamCall only when a function streams.
// Names made from a document never collide with them: Tool's other methods
// are the unexported Function.ToolMethod names.
var ToolMethods = []string{"Call", "StreamCall", "Load", "Document", "Declarations", "Functions", "Hints"}

// ReservedOpenDynNames are declared by an OpenDyn package besides
// ReservedPackageNames: library.gen.go's Library, Open and CodeText.
var ReservedOpenDynNames = []string{"Library", "Open", "CodeText"}

// ReservedLibraryMethods are the methods of an OpenDyn package's Library that
// are not functions of the document.
var ReservedLibraryMethods = []string{"Close", "Path", "Service"}

// ReservedFieldNames are the methods every generated struct may carry: fields
// never take them.
var ReservedFieldNames = []string{"MarshalJSON", "UnmarshalJSON"}

// ReservedVariantNames are the methods of a union (an OpenAPI oneOf or
// anyOf): the fields of its variants never take them.
var ReservedVariantNames = []string{"IsZero", "MarshalJSON", "UnmarshalJSON"}

// ReservedLibraryLocals are the identifiers the parameters of Library's
// generated methods must not shadow: Go's keywords and predeclared
// identifiers, the package names the file imports, and the receiver, results,
// locals and unexported helpers library.gen.go declares (the decoders of the
// package's types are added per package).
var ReservedLibraryLocals = []string{
	"break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for",
	"func", "go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select",
	"struct", "switch", "type", "var",
	"any", "append", "bool", "byte", "cap", "clear", "close", "comparable", "complex", "complex64",
	"complex128", "copy", "delete", "error", "false", "float32", "float64", "imag", "int", "int8",
	"int16", "int32", "int64", "iota", "len", "make", "max", "min", "new", "nil", "panic", "print",
	"println", "real", "recover", "rune", "string", "true", "uint", "uint8", "uint16", "uint32",
	"uint64", "uintptr",
	"C", "unsafe", "sync", "errors", "bytes", "strings", "context", "json", "syscall", "runtime", "opentool",
	"dynlib", "strconv", "l", "err", "ctx", "args", "documentJSON", "libraryService",
	"symbols", "cStringOf", "goStringOf", "invalidArg", "valueOf", "longOf", "ulongOf",
}
