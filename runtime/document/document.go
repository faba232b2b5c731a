// Package document is the OpenTool document model: the functions of a tool,
// their parameters, results and JSON schemas, as encoding/json reads and
// writes them, with the hints and tags the generator keeps beside them.
package document

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// OpenTool is an OpenTool document (OpenTool Specification 1.x): the description of
// the functions a tool offers. The generator reads and validates documents
// (github.com/opentoolgen/opentoolgen/gen/load/opentool); encoding/json
// round-trips one.
type OpenTool struct {
	OpenTool  string     `json:"opentool"`
	Info      Info       `json:"info"`
	Server    *Server    `json:"server,omitempty"`
	Functions []Function `json:"functions"`
	Schemas   Schemas    `json:"schemas,omitempty"`
	// Tags are the tags of the OpenAPI document the tool was generated
	// from (see [Tag]); not in the OpenTool specification, omitted when
	// empty.
	Tags []Tag `json:"tags,omitempty"`
}

// Info describes the document.
type Info struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Version     string `json:"version"`
}

// Server is the OpenTool server the document describes.
type Server struct {
	URL         string `json:"url"`
	Description string `json:"description,omitempty"`
}

// Function is one function of the tool. Return is nil when the function returns
// nothing. Stream, from the reference implementation's model, maps an event name
// ("data") to the value each event of a streaming function carries.
//
// Tags and HTTP are not in the OpenTool specification: they say where a
// function generated from an OpenAPI operation comes from (the operation's
// tags; its method and path), for finding and grouping functions (package
// discover), and are omitted when empty.
type Function struct {
	Name        string             `json:"name"`
	Description string             `json:"description"`
	Parameters  []Parameter        `json:"parameters"`
	Return      *Return            `json:"return,omitempty"`
	Stream      map[string]*Return `json:"stream,omitempty"`
	Tags        []string           `json:"tags,omitempty"`
	HTTP        *FunctionHTTP      `json:"http,omitempty"`
	// Title, Hints and Execution are what an MCP server's tools/list says of
	// the tool beyond the OpenTool model: its title, its annotations, and
	// whether it runs as a task (execution.taskSupport). A package
	// generated from a listing keeps them, as mcpbridge.Tool does, and
	// mcpbridge serves them again. Other documents leave them empty.
	Title     string     `json:"title,omitempty"`
	Hints     *Hints     `json:"annotations,omitempty"`
	Execution *Execution `json:"execution,omitempty"`
	// Examples are example arguments of the function, each a JSON object
	// (not in the OpenTool specification): a package generated from an
	// OpenAPI document keeps its operations' examples here, and Anthropic's
	// declarations (package runtime/declare) write them as input_examples.
	// Omitted when empty.
	Examples []json.RawMessage `json:"examples,omitempty"`
}

// FunctionHTTP is the HTTP request a function makes: the method (upper case)
// and the path template of its OpenAPI operation ("/pets/{petId}").
type FunctionHTTP struct {
	Method string `json:"method"`
	Path   string `json:"path"`
}

// Execution is how an MCP tool runs (the execution member of an MCP tool).
type Execution struct {
	// TaskSupport is "forbidden" (or empty: called as a plain request),
	// "optional" (the caller may ask for a task) or "required" (the tool is
	// called as a task only): MCP's tasks extension.
	TaskSupport string `json:"taskSupport,omitempty"`
}

// TaskRequired reports whether the function is called as an MCP task only.
func (f *Function) TaskRequired() bool {
	return f.Execution != nil && f.Execution.TaskSupport == "required"
}

// IsStream reports whether the function streams its results.
func (f *Function) IsStream() bool { return len(f.Stream) > 0 }

// StreamData returns the value each event of a streaming function carries: the
// "data" entry of Stream, else its only entry, else nil.
func (f *Function) StreamData() *Return {
	if r, ok := f.Stream["data"]; ok {
		return r
	}
	if len(f.Stream) == 1 {
		for _, r := range f.Stream {
			return r
		}
	}
	return nil
}

// Parameter is one parameter of a function.
type Parameter struct {
	Name        string  `json:"name"`
	Description string  `json:"description,omitempty"`
	Schema      *Schema `json:"schema"`
	Required    bool    `json:"required"`
}

// Return is the return value of a function.
type Return struct {
	Name        string  `json:"name"`
	Description string  `json:"description,omitempty"`
	Schema      *Schema `json:"schema"`
}

// Schema is the format of a value: a subset of JSON Schema. Ref, when set, is a
// reference "#/schemas/Name" to an entry of the document's Schemas and the other
// members are empty, except perhaps Description.
//
// The members after Required are not in the OpenTool specification; they carry
// the constraints of JSON Schema (from OpenAPI documents, MCP listings or the
// document itself) and are omitted when empty. A package generated from a
// document checks every one of them in its decoders; a keyword its generator
// cannot check is dropped from the document it serves, with a warning.
//
// Exclusive bounds are in JSON Schema 2020-12's form (a number,
// "exclusiveMinimum": 0); a document in OpenAPI 3.0's form ("minimum": 0,
// "exclusiveMinimum": true) is read into it.
type Schema struct {
	Ref         string   `json:"$ref,omitempty"`
	Type        string   `json:"type,omitempty"`
	Description string   `json:"description,omitempty"`
	Properties  Schemas  `json:"properties,omitempty"`
	Items       *Schema  `json:"items,omitempty"`
	Enum        []any    `json:"enum,omitempty"`
	Required    []string `json:"required,omitempty"`

	Format               string          `json:"format,omitempty"`
	Nullable             bool            `json:"nullable,omitempty"`
	Default              json.RawMessage `json:"default,omitempty"`
	Const                json.RawMessage `json:"const,omitempty"`
	Minimum              *float64        `json:"minimum,omitempty"`
	Maximum              *float64        `json:"maximum,omitempty"`
	ExclusiveMinimum     *float64        `json:"exclusiveMinimum,omitempty"`
	ExclusiveMaximum     *float64        `json:"exclusiveMaximum,omitempty"`
	MultipleOf           *float64        `json:"multipleOf,omitempty"`
	MinLength            *int64          `json:"minLength,omitempty"`
	MaxLength            *int64          `json:"maxLength,omitempty"`
	Pattern              string          `json:"pattern,omitempty"`
	MinItems             *int64          `json:"minItems,omitempty"`
	MaxItems             *int64          `json:"maxItems,omitempty"`
	UniqueItems          bool            `json:"uniqueItems,omitempty"`
	MinProperties        *int64          `json:"minProperties,omitempty"`
	MaxProperties        *int64          `json:"maxProperties,omitempty"`
	AdditionalProperties *Schema         `json:"additionalProperties,omitempty"`
	// OneOf and AnyOf are the alternatives of a value that may take several
	// shapes (OpenAPI oneOf, anyOf).
	OneOf []*Schema `json:"oneOf,omitempty"`
	AnyOf []*Schema `json:"anyOf,omitempty"`
}

// UnmarshalJSON decodes a schema, reading OpenAPI 3.0's boolean
// exclusiveMinimum and exclusiveMaximum (which make minimum and maximum
// exclusive) into the number form.
func (s *Schema) UnmarshalJSON(data []byte) error {
	type plain Schema
	var x struct {
		*plain
		ExclusiveMinimum json.RawMessage `json:"exclusiveMinimum"`
		ExclusiveMaximum json.RawMessage `json:"exclusiveMaximum"`
	}
	*s = Schema{}
	x.plain = (*plain)(s)
	if err := json.Unmarshal(data, &x); err != nil {
		return err
	}
	var err error
	s.ExclusiveMinimum, err = exclusiveBound(x.ExclusiveMinimum, &s.Minimum, "exclusiveMinimum")
	if err != nil {
		return err
	}
	s.ExclusiveMaximum, err = exclusiveBound(x.ExclusiveMaximum, &s.Maximum, "exclusiveMaximum")
	return err
}

// exclusiveBound reads an exclusive bound: a number, or a boolean that makes
// the inclusive bound *incl exclusive (true) or leaves it (false).
func exclusiveBound(raw json.RawMessage, incl **float64, key string) (*float64, error) {
	raw = bytes.TrimSpace(raw)
	switch string(raw) {
	case "", "null", "false":
		return nil, nil
	case "true":
		v := *incl
		*incl = nil
		return v, nil
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("%s: got %s, want a number or a boolean", key, raw)
	}
	return &f, nil
}

// Schema types of the OpenTool specification.
const (
	TypeBoolean = "boolean"
	TypeInteger = "integer"
	TypeNumber  = "number"
	TypeString  = "string"
	TypeArray   = "array"
	TypeObject  = "object"
)

// RefPrefix is the prefix of a reference to an entry of a document's schemas.
const RefPrefix = "#/schemas/"

// Schemas is an ordered map from name to schema: the document's "schemas" and a
// schema's "properties". It is a JSON object on the wire and keeps the order of
// its members, which is the order of the generated struct fields.
type Schemas []NamedSchema

// NamedSchema is one member of [Schemas].
type NamedSchema struct {
	Name   string
	Schema *Schema
}

// Get returns the schema named name, or nil.
func (s Schemas) Get(name string) *Schema {
	for i := range s {
		if s[i].Name == name {
			return s[i].Schema
		}
	}
	return nil
}

// MarshalJSON encodes the schemas as a JSON object in order.
func (s Schemas) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.Name)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(m.Schema)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON decodes a JSON object keeping the order of its members.
func (s *Schemas) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		*s = nil
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("schemas: got %v, want a JSON object", tok)
	}
	out := Schemas{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		name := tok.(string)
		var sc *Schema
		if err := dec.Decode(&sc); err != nil {
			return fmt.Errorf("schemas: %s: %w", quote(name), err)
		}
		out = append(out, NamedSchema{Name: name, Schema: sc})
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	*s = out
	return nil
}

// Resolve follows s's reference chain in doc's schemas and returns the schema it
// ends at. It returns s itself when s is not a reference, and an error for a
// dangling reference or a chain that loops.
func (doc *OpenTool) Resolve(s *Schema) (*Schema, error) {
	seen := 0
	for s != nil && s.Ref != "" {
		name, ok := RefName(s.Ref)
		if !ok {
			return nil, fmt.Errorf("reference %s: want %s<name>", quote(s.Ref), RefPrefix)
		}
		next := doc.Schemas.Get(name)
		if next == nil {
			return nil, fmt.Errorf("reference %s: no schema named %s", quote(s.Ref), quote(name))
		}
		if seen++; seen > len(doc.Schemas) {
			return nil, fmt.Errorf("reference %s: the references form a cycle", quote(s.Ref))
		}
		s = next
	}
	return s, nil
}

// RefName returns the schema name of a reference "#/schemas/Name" (with JSON
// pointer escapes ~0 and ~1 undone).
func RefName(ref string) (string, bool) {
	if len(ref) <= len(RefPrefix) || ref[:len(RefPrefix)] != RefPrefix {
		return "", false
	}
	name := ref[len(RefPrefix):]
	var b []byte
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '/' {
			return "", false
		}
		if c == '~' && i+1 < len(name) && (name[i+1] == '0' || name[i+1] == '1') {
			if b == nil {
				b = []byte(name[:i])
			}
			if name[i+1] == '0' {
				b = append(b, '~')
			} else {
				b = append(b, '/')
			}
			i++
			continue
		}
		if b != nil {
			b = append(b, c)
		}
	}
	if b != nil {
		return string(b), true
	}
	return name, true
}

// IsFunctionName reports whether s is a valid function name: 1 to 64 of
// a-z, A-Z, 0-9, _ and - (the OpenTool specification, after OpenAI's rule).
func IsFunctionName(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Each calls f with s and every schema inside it (properties, items,
// additionalProperties, alternatives), depth first; references are not
// followed. f returns false to skip what is inside the schema it is given.
func (s *Schema) Each(f func(*Schema) bool) {
	if s == nil || !f(s) {
		return
	}
	for _, p := range s.Properties {
		p.Schema.Each(f)
	}
	s.Items.Each(f)
	s.AdditionalProperties.Each(f)
	for _, a := range s.OneOf {
		a.Each(f)
	}
	for _, a := range s.AnyOf {
		a.Each(f)
	}
}

// EachSchema calls fn with the schema of each parameter, of the return and of
// each stream event of f (the schemas a document gives f itself; fn may walk
// into them with Schema.Each).
func (f *Function) EachSchema(fn func(*Schema)) {
	for _, p := range f.Parameters {
		fn(p.Schema)
	}
	if f.Return != nil {
		fn(f.Return.Schema)
	}
	for _, r := range f.Stream {
		if r != nil {
			fn(r.Schema)
		}
	}
}

// quote quotes s as JSON does, for error messages.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// KindOf returns the JSON type of the JSON value raw: TypeObject, TypeArray,
// TypeString, TypeBoolean, TypeNumber (with a fraction or an exponent),
// TypeInteger, "null", or "" for none.
func KindOf(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '{':
		return TypeObject
	case '[':
		return TypeArray
	case '"':
		return TypeString
	case 't', 'f':
		return TypeBoolean
	case 'n':
		return "null"
	}
	if bytes.ContainsAny(raw, ".eE") {
		return TypeNumber
	}
	return TypeInteger
}
