// Package model is the intermediate model of opentoolgen: what every loader
// (gen/load/...) produces and every emitter (gen/emit) reads. A Package is
// one generated Go package: its Types (structs, enums, named types, aliases,
// unions) in declaration order, its Functions in document order with what
// backs each (nothing: the user's code; Function.HTTP: a REST operation;
// Function.C: a C symbol of an OpenDyn library), the equivalent OpenTool
// Document it embeds, and, by kind, API (OpenAPI: servers, security) or Dyn
// (OpenDyn: the library). Slices keep document order and nothing is a Go
// map, so emission is deterministic.
//
// # One way to build it
//
// Every loader has the same shape, Load(src, LoadOptions) (*Package,
// warnings, error), and none makes a Go name or takes the package's name
// (the generator gives it after loading: Package.SetName). A loader that
// reads an OpenTool document, or converts its input to one (OpenDyn, MCP
// tools/list results), hands it to FromOpenTool or FromOpenDyn; the OpenAPI
// loader builds the Package itself. Either way the builder records, in a
// Naming, each thing that needs a name, in the order it meets it, with the
// document's words: the name of a schema, member, parameter, scheme or
// operation, and for a type that has no name of its own its Place (the
// member of that type, the request body of that function, an element of the
// value at that place…). Name then makes every name and decides what follows
// from the model being complete: which fields and variants are pointers (one
// rule, pointers.go), the pointers that break value cycles, the decoders and
// the per-function methods.
//
// # How names are made
//
// GoName turns a document name into an exported identifier: its words
// (Words: split at every rune that is neither letter nor digit and at case
// changes) in CamelCase, initialisms in capitals (user_id → UserID), an X
// before a leading digit; LocalName makes the lowerCamelCase names of
// parameters. A type with no name of its own is named after its place
// (NestedName: the parent's name and the member's, UserAddress, its
// elements UserAddressItem). Each namespace is a Scope: package-level names
// in one (never taking what the generated files declare, declared.go),
// methods in another, fields and variants in one per struct or union. A name
// asked for first is kept and a later equal one gets a number, in the order
// the names were asked for, so that names depend on the document alone.
// Collisions checks the result.
//
// Names are bounded in length: a name a Scope hands out has at most
// MaxNameLength (64) runes before the number that tells apart a name taken
// twice. A longer one (BoundName) keeps its first words, then six
// hexadecimal digits of a hash of the whole name, then its last words (what
// it ends with tells what it is: Args, Result, an enum's value), so it stays
// readable, depends on that name alone (adding an operation renames no
// other), and two long names that differ anywhere stay apart.
//
// # One type per shape
//
// A large document repeats itself (Microsoft Graph: the same $orderby enum
// in every operation that lists an entity, the same request body in every
// operation that writes it). The OpenAPI loader makes inline schemas alike
// one Type and asks for its name again once every place is known
// (Naming.Shared: the shortest name of its places, so that neither document
// order nor an unrelated operation renames it); a JSON request body that is
// a component is one embedded field of the arguments (Field.Embedded,
// Naming.Embed), whose struct has a BodySender. An operation's arguments
// are always a struct of its own, named for it.
package model
