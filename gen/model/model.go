package model

import (
	"net/url"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// Package is one generated Go package.
type Package struct {
	Name      string      // Go package name
	Source    string      // base name of the input document, for the header
	Kind      PackageKind // what kind of document it was generated from
	Title     string      // the document's title and version, for the package comment
	Version   string
	Doc       string
	Types     []*Type     // named types, in declaration order
	Functions []*Function // in document order
	// ServiceName is the name of the Service interface (tool.gen.go), made
	// by the naming: Service, unless a schema of the document has that
	// name (the user's name is kept), then ToolService; "" means Service.
	ServiceName string
	// Document is the equivalent OpenTool document, embedded in the package.
	Document *document.OpenTool
	// Dyn is set for packages generated from OpenDyn documents: the cgo
	// bindings of the library (model_dyn.go).
	Dyn *DynLibrary
	// API is set for packages generated from OpenAPI documents.
	API *API
	// Patterns are the regular expressions the decoders check (Constraints).
	Patterns []PatternVar
	// Webhooks are the events the API sends (OpenAPI webhooks and
	// callbacks), in document order: the package gets a receiver for them
	// (webhooks.go); none, no receiver.
	Webhooks []*Webhook
	// Command is set when a package main that serves the package is
	// generated too (opentoolgen -cmd; command.go).
	Command *Command
	// Naming holds the names a loader that builds the model itself asked
	// for (naming.go); Name makes them and clears it.
	Naming *Naming
}

// TypeKind says what a named type is.
type TypeKind int

const (
	KindStruct TypeKind = iota // struct with Fields
	KindEnum                   // defined type over Underlying with constants Values
	KindNamed                  // defined type over Underlying (type Count int64, type Tags []string)
	KindAlias                  // alias of Underlying (type A = B), for a schema that is a reference
	KindUnion                  // one of Variants (OpenAPI oneOf/anyOf): a struct of one pointer per variant
)

// Type is a named Go type.
type Type struct {
	Name string
	Doc  string
	// Origin says where the type comes from, for its comment when the document
	// has no description ("the \"loc\" parameter of \"get_weather\"").
	Origin string
	// Schema is the document's name of the schema whose type it is (a
	// component, a definition), "" for a type with no name of its own.
	Schema     string
	Kind       TypeKind
	Fields     []*Field    // KindStruct
	Underlying *TypeRef    // KindEnum, KindNamed, KindAlias
	Values     []EnumValue // KindEnum
	// Decoder is the name of the generated decode function, "" when none is
	// needed (the type is never decoded from arguments).
	Decoder string
	// CustomJSON is set for structs with a JSON member name that a struct tag
	// cannot carry: they get MarshalJSON and UnmarshalJSON methods.
	CustomJSON bool
	// Variants are the alternatives of a KindUnion, in document order; a value
	// decodes as the first that accepts it, or as the one Discriminator names.
	Variants []*Variant
	// Discriminator is the member whose value selects the variant ("" when the
	// variants are told apart by trying each).
	Discriminator string
	// Check holds the constraints of a KindStruct as a whole (MinProperties,
	// MaxProperties); nil when there are none.
	Check *Constraints
	// BodySender is, for a struct that operations' arguments embed as their
	// JSON request body (Field.Embedded), the name of the generated function
	// that puts its members into a request ("" otherwise); its fields that
	// may be sent null have null flags (Field.NullFlag).
	BodySender string
}

// EmbeddedStruct is the struct the Embedded field f embeds (through the
// alias it may embed it by).
func EmbeddedStruct(f *Field) *Type {
	t := f.Type.Named
	for t.Kind == KindAlias && t.Underlying.Kind == RefNamed {
		t = t.Underlying.Named
	}
	return t
}

// ArgFields returns the arguments among the fields of t: its fields, with
// the members of an embedded request body (Field.Embedded) in the place of
// the field that embeds them.
func ArgFields(t *Type) []*Field {
	for i, f := range t.Fields {
		if f.Embedded {
			out := append([]*Field(nil), t.Fields[:i]...)
			out = append(out, EmbeddedStruct(f).Fields...)
			return append(out, t.Fields[i+1:]...)
		}
	}
	return t.Fields
}

// Variant is one alternative of a union.
type Variant struct {
	Name string // Go field name
	Type *TypeRef
	// Tags are the discriminator values that select the variant.
	Tags    []string
	Pointer bool // the field is a pointer (everything but slices, maps, bytes, raw)
}

// PatternVar is a package-level compiled pattern of a schema.
type PatternVar struct {
	Name string // Go variable
	Expr string
}

// EnumValue is one constant of an enum type.
type EnumValue struct {
	Name  string // Go constant name
	Value any    // string, int64 or float64
	// suffix is what the name adds to the type's, until the name is made.
	suffix string
}

// RefKind is the kind of a use of a type.
type RefKind int

const (
	RefString RefKind = iota
	RefInt            // int64 unless Bits/Unsigned say otherwise
	RefFloat          // float64, or float32 with Bits 32
	RefBool
	RefSlice // []Elem
	RefMap   // map[string]Elem
	RefAny   // any (a value of any JSON type)
	RefNamed // a named Type
	RefTime  // time.Time (OpenAPI format date-time)
	RefBytes // []byte, base64 in JSON (OpenAPI format byte or binary)
	RefRaw   // json.RawMessage: a value the generator cannot type (see the field's doc)
	// RefDate is civil.Date: a string of format date (an RFC 3339
	// full-date). Its Check holds what the schema says of the string besides
	// its format (lengths, pattern, const), checked on the text as read.
	RefDate
)

// TypeRef is a use of a type: a field's, an element's, a result's.
type TypeRef struct {
	Kind     RefKind
	Elem     *TypeRef // RefSlice, RefMap
	Named    *Type    // RefNamed
	Bits     int      // RefInt (8, 16, 32, 64), RefFloat (32, 64); 0 means 64
	Unsigned bool     // RefInt
	// Check holds the constraints the decoder checks on the value (OpenAPI
	// minimum, maxLength, pattern…); nil when there are none.
	Check *Constraints
}

// Field is a field of a struct.
type Field struct {
	Name     string // Go name
	JSONName string // the member name, kept exactly
	Doc      string
	Type     *TypeRef
	Required bool
	// Pointer is set for optional fields whose zero value is a valid value
	// (scalars, structs, named types), so that absent and zero differ, and for
	// required fields that would otherwise make a recursive type infinite.
	Pointer bool
	// Nullable is set when the value may be null (OpenAPI nullable, or a type
	// list with "null"): the field is a pointer and null decodes to nil.
	Nullable bool
	// NullFlag is, for an optional nullable argument of an HTTP operation
	// whose null has a form on the wire (a member of a JSON body, a JSON
	// parameter), the Go name of the bool field beside it that sends null
	// when the field is nil ("" otherwise). A null argument of a tool call
	// still means absent (strict-mode models send null for every optional
	// argument), so decoders leave it alone.
	NullFlag string
	// HTTP says where an argument of an OpenAPI operation travels; nil for
	// fields that are not arguments of an HTTP operation.
	HTTP *FieldHTTP
	// WriteOnly is set for a required member the document marks writeOnly:
	// a response may leave it out (its decoder lets it be absent when it
	// checks a response, decode.Response).
	WriteOnly bool
	// JSONText is set for the data member of a Server-Sent Event whose type
	// is not text (Operation.StreamEvents): the member is a string holding
	// the value's JSON text, as an event's data is, or the value itself.
	// Its struct has CustomJSON.
	JSONText bool
	// Embedded is set for the field of an OpenAPI operation's arguments that
	// holds its JSON request body when the body is a component: the struct
	// Type names (Type.BodySender) is embedded (the field's Name is its
	// type's), so that its members are arguments beside the parameters, in
	// Go (promoted fields) and in JSON (encoding/json flattens an embedded
	// struct) alike, and one type and one decoder serve every operation that
	// sends it. Its HTTP.In is InBodyMembers; JSONName is "". Should a
	// parameter have the struct's name, it embeds an alias of the struct
	// (EmbeddedStruct) named after the arguments.
	Embedded bool
}

// Function is one function of the tool.
type Function struct {
	Name   string // as called on the wire
	GoName string // method name on Service and Client
	// ToolMethod is the Tool's unexported method that serves the function
	// (callF, or streamF for a streaming function).
	ToolMethod string
	// SeqName is, for a streaming function, the typed OpenTool Client's method
	// that returns the results as an iterator (FSeq, as strings.SplitSeq is to
	// strings.Split); its method GoName has the Service's emit form.
	SeqName string
	Doc     string
	Args    *Type // struct of the arguments; nil when the function has no parameters
	// Result is the type of the return value (or of each streamed value); nil
	// when the function returns nothing.
	Result *TypeRef
	// ResultName is the member name a scalar or array result travels under
	// ({"N": v}); "" when the result is an object and travels as itself.
	ResultName string
	Stream     bool
	// C is set for the functions of an OpenDyn package: how to call the C
	// function (model_dyn.go).
	C *CFunction
	// HTTP is the REST operation behind the function (OpenAPI); nil otherwise.
	HTTP *Operation
}

// ---- OpenAPI -----------------------------------------------------------------

// In says where an argument of an HTTP operation travels (FieldHTTP.In).
type In string

// Where an argument of an HTTP operation travels.
const (
	InPath   In = "path"
	InQuery  In = "query"
	InHeader In = "header"
	InCookie In = "cookie"
	// InQueryString is OpenAPI 3.2's querystring: the argument is the whole
	// query string, serialised per its media type (FieldHTTP.JSON for a
	// JSON one, else application/x-www-form-urlencoded).
	InQueryString In = "querystring"
	InBody        In = "body"     // the whole request body
	InBodyProp    In = "bodyprop" // one member of an object request body
	// InBodyMembers is the embedded struct whose members are the members of
	// a JSON object body (Field.Embedded).
	InBodyMembers In = "bodymembers"
)

// FieldHTTP says where and how an argument travels in the HTTP request.
type FieldHTTP struct {
	In   In     // InPath, InQuery, …
	Name string // name on the wire: parameter name, body member or form field
	// Style and Explode are the parameter's serialisation (simple, form, label,
	// matrix, deepObject, spaceDelimited, pipeDelimited); for form fields of a
	// body too.
	Style         string
	Explode       bool
	AllowReserved bool
	// ContentType of a multipart part ("" for the default).
	ContentType string
	// JSON is set for a parameter declared with a JSON media type (content)
	// instead of a schema: its value travels as its JSON text.
	JSON bool
}

// Operation is an HTTP operation of an OpenAPI document.
type Operation struct {
	Method string   // GET, POST, …
	Path   string   // template, "/pets/{petId}"
	Tags   []string // the operation's tags, for choosing functions (Select)
	// BodyMedia is the media type of the request body: application/json,
	// application/x-www-form-urlencoded, multipart/form-data,
	// application/octet-stream, text/plain or another one sent as bytes; ""
	// when the operation has no body.
	BodyMedia    string
	BodyRequired bool
	// StreamMedia is the media type of a streamed success response
	// (text/event-stream, application/x-ndjson…), asked for in the Accept
	// header; "" when the function does not stream (Function.Stream).
	StreamMedia string
	// StreamEvents is set when each value of a text/event-stream response
	// is the event whole, {"event", "data", "id", "retry"} (an OpenAPI 3.2
	// itemSchema, or a schema that maps event names to shapes), rather
	// than its data.
	StreamEvents bool
	// Responses are the documented responses, success first, in status order.
	Responses []*Response
	// Security lists the alternative sets of security schemes (names of
	// API.Security entries) the operation accepts; the request carries the
	// credentials of the first set the client has all of.
	Security [][]string
	// Server is the operation's own server (the first of its or its path's
	// servers); nil when it has none.
	Server *Server
	// Headers is set when a success response (not streamed) declares
	// headers: the struct of the response's body (its field Body, not among
	// Fields) and of those headers (Fields: each field's HTTP.Name is the
	// header, Type a scalar, Required a plain value rather than a pointer).
	// The Client then has the method HeadersMethod, which returns it.
	Headers       *Type
	HeadersMethod string
	// Paging is set for a list operation whose pages the Client can walk
	// (paging.go); nil otherwise.
	Paging *Paging
	// Idempotency is the header of the operation's idempotency key, when
	// the document declares one: each call carries one key, the same on
	// its retries (rest.Request.Idempotency); "" for none.
	Idempotency string
}

// Response is a documented response of an operation.
type Response struct {
	Status  string // "200", "4XX", "default"
	Success bool   // a 2xx (or, with no 2xx documented, the default) response
	// Type is the type of the body; nil when the response has no body.
	Type *TypeRef
	// Media is how the body is read: "json", "text" (Type is a string) or
	// "binary" (Type is []byte); "" without body. A streamed success
	// response is "sse" or "ndjson" (StreamKind): Type is that of each event.
	Media Media
	Doc   string
}

// API is what an OpenAPI package knows of the service.
type API struct {
	BaseURL  string // the first server's URL with its variables substituted
	Security []*SecurityScheme
	// Server is the first server, set when its URL has variables, an
	// operation has servers of its own or the document has several servers:
	// the client then expands the URL as it calls; nil when BaseURL says
	// all.
	Server *Server
	// Servers are the document's servers when it has more than one: the
	// client option WithServer chooses one by a constant of the type
	// ServerType (each server's Const); nil otherwise.
	Servers    []*Server
	ServerType string
	// Variables are the variables of the document's servers, each name
	// once, in the order the servers name them: the client has an option
	// for each. One that several servers have takes the first's default
	// and doc, and the values any of them allow (any value when one of them
	// has no enum).
	Variables []*ServerVariable
}

// Server is a server of the document: a URL template and its variables.
type Server struct {
	URL       string
	Variables []*ServerVariable // in the order the URL names them
	Doc       string            // the server's description
	// Const is the Go name of the constant of API.ServerType that chooses
	// it (API.Servers only): ServerProduction.
	Const string
}

// ServerVariable is a variable of a server's URL ("{region}").
type ServerVariable struct {
	Name    string // the document's name
	Default string
	Enum    []string // the values allowed; none means any
	Doc     string
	// Option is the Go name of the client option that sets it (of
	// API.Variables only): WithServerRegion.
	Option string
	// Type is, for a variable of API.Variables with an enum, the type of
	// its values, which its option takes: a KindEnum over string whose
	// constants are the enum (type ServerRegion string; ServerRegionUs…);
	// nil otherwise.
	Type *Type
}

// SecurityScheme is a way of authenticating requests; the client has one
// option per scheme.
type SecurityScheme struct {
	Name   string // the document's name of the scheme
	Option string // Go name of the client option (WithPetstoreAuth)
	Doc    string
	// Kind is SchemeAPIKey (Key in In: header, query, cookie), SchemeBearer
	// (HTTP bearer, OAuth 2, OpenID Connect: a token) or SchemeBasic.
	Kind SchemeKind
	In   In
	Key  string // header, query parameter or cookie name of an API key
	// ClientCredentials is the scheme's OAuth 2 client credentials flow, when
	// the document gives one: the client gets an option that fetches and
	// refreshes tokens from its token URL (FlowOption).
	ClientCredentials *OAuthFlow
	FlowOption        string // Go name of that option (WithPetstoreAuthClientCredentials)
}

// OAuthFlow is an OAuth 2 flow of a security scheme.
type OAuthFlow struct {
	TokenURL string
	Scopes   []string // the scopes the document lists, sorted
}

// Constraints are the checks of a value beyond its type: the JSON Schema
// keywords a package serves, checked by its decoders with the runtime's
// Check functions (runtime/check.go), whatever the input kind. Which apply
// depends on the kind of the value: numbers (Minimum … MultipleOf, Const),
// strings (MinLength … Format, Const), booleans (Const), arrays (MinItems,
// MaxItems, UniqueItems), objects (MinProperties, MaxProperties; of a struct
// on its Type, of a map on its TypeRef).
type Constraints struct {
	Minimum, Maximum                   *float64
	ExclusiveMinimum, ExclusiveMaximum bool
	// MultipleOf is > 0 when set.
	MultipleOf           *float64
	MinLength, MaxLength *int64
	Pattern              string
	PatternVar           string // the PatternVar that checks Pattern
	// Format is a string format decode.CheckFormat checks
	// (decode.FormatChecked), "" for none.
	Format                       string
	MinItems, MaxItems           *int64
	UniqueItems                  bool
	MinProperties, MaxProperties *int64
	// Const is the one value allowed: a string, int64, float64 or bool
	// (the kind of the value's type); nil for none.
	Const any
}

// PackageKind is the kind of document a package is generated from.
type PackageKind string

// The kinds of document.
const (
	PackageOpenTool PackageKind = "opentool"
	PackageOpenDyn  PackageKind = "opendyn"
	PackageOpenAPI  PackageKind = "openapi"
	// PackageMCP is a package generated from an MCP tools/list result: an
	// OpenTool package whose command is a gateway to the MCP server.
	PackageMCP PackageKind = "mcp"
)

// Media is how the body of a response is read (Response.Media).
type Media string

// How a response body is read.
const (
	MediaNone   Media = ""       // no body
	MediaJSON   Media = "json"   // JSON, decoded into Type
	MediaText   Media = "text"   // text: Type is a string
	MediaBinary Media = "binary" // bytes: Type is []byte
	MediaSSE    Media = "sse"    // a stream of Server-Sent Events
	MediaNDJSON Media = "ndjson" // a stream of JSON values, one a line
)

// SchemeKind is the kind of a security scheme (SecurityScheme.Kind).
type SchemeKind string

// The kinds of security scheme.
const (
	SchemeAPIKey SchemeKind = "apiKey" // a key in a header, query parameter or cookie
	SchemeBearer SchemeKind = "bearer" // a token: HTTP bearer, OAuth 2, OpenID Connect
	SchemeBasic  SchemeKind = "basic"  // HTTP basic authentication
)

// RelativeURL reports whether the server URL u is a reference relative to
// another URL ("/api/v3", "v1", "//host/v1"), not an absolute URL with a
// scheme: the client resolves it against the base URL it is given.
func RelativeURL(u string) bool {
	i := strings.Index(u, "://")
	return i <= 0 || strings.ContainsAny(u[:i], "/?#")
}

// ResolveRelative resolves the reference ref against base (RFC 3986), as the
// client does; ref when either does not parse.
func ResolveRelative(base, ref string) string {
	b, err := url.Parse(base)
	if err != nil {
		return ref
	}
	r, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	return b.ResolveReference(r).String()
}

// Service is the name of the package's Service interface (ServiceName).
func (p *Package) Service() string {
	if p.ServiceName == "" {
		return "Service"
	}
	return p.ServiceName
}
