package runtime

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// FunctionDeclaration is a function as an LLM function-calling declaration, the
// shape OpenAI-style chat APIs take under "tools": [{"type":"function",
// "function": …}]. Parameters is a JSON Schema object.
type FunctionDeclaration struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Declarations returns each function of doc as an LLM function declaration. The
// parameters become the properties of one object schema; references to the
// document's schemas become references into that schema's "$defs", so recursive
// schemas stay finite.
func Declarations(doc *OpenTool) []FunctionDeclaration {
	if doc == nil {
		return nil
	}
	out := make([]FunctionDeclaration, 0, len(doc.Functions))
	for i := range doc.Functions {
		f := &doc.Functions[i]
		out = append(out, FunctionDeclaration{Name: f.Name, Description: f.Description, Parameters: parametersSchema(doc, f)})
	}
	return out
}

type declSchema struct {
	Type       string   `json:"type"`
	Properties Schemas  `json:"properties"`
	Required   []string `json:"required,omitempty"`
	Defs       Schemas  `json:"$defs,omitempty"`
}

func parametersSchema(doc *OpenTool, f *Function) json.RawMessage {
	c := &declConverter{doc: doc, used: map[string]bool{}}
	props, required := c.parameters(f.Parameters)
	s := declSchema{Type: TypeObject, Properties: props, Required: required, Defs: c.defs()}
	b, err := json.Marshal(s)
	if err != nil { // cannot happen for a loaded document; keep the declaration usable
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return b
}

// parameters returns the schemas of params as properties of one object schema
// (references rewritten into $defs, the description of a parameter moved into
// its schema when that has none) and the names of the required ones.
func (c *declConverter) parameters(params []Parameter) (Schemas, []string) {
	props := Schemas{}
	var required []string
	for _, p := range params {
		ps := c.convertOrAny(p.Schema)
		if p.Description != "" && ps.Description == "" {
			ps.Description = p.Description // ps is a copy
		}
		props = append(props, NamedSchema{Name: p.Name, Schema: ps})
		if p.Required {
			required = append(required, p.Name)
		}
	}
	return props, required
}

// defs returns the $defs the converted schemas refer to: the document's schemas
// they reference, and what those reference in turn, in name order.
func (c *declConverter) defs() Schemas {
	var defs Schemas
	eachDef(c.doc, c.used, func(n string, def *Schema) {
		defs = append(defs, NamedSchema{Name: n, Schema: c.convertOrAny(def)})
	})
	sort.Slice(defs, func(i, j int) bool { return defs[i].Name < defs[j].Name })
	return defs
}

// eachDef calls f with every schema of doc named in used, and those the
// calls add to used in turn (a converter marks the references it rewrites), a
// round at a time in name order; it returns the names it saw.
func eachDef(doc *OpenTool, used map[string]bool, f func(name string, def *Schema)) map[string]bool {
	return jsontree.EachName(used, func(n string) {
		if def := doc.Schemas.Get(n); def != nil {
			f(n, def)
		}
	})
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

type declConverter struct {
	doc  *OpenTool
	used map[string]bool
}

// convert copies s with references rewritten from #/schemas/N to #/$defs/N.
func (c *declConverter) convert(s *Schema) *Schema {
	if s == nil {
		return nil
	}
	cp := *s
	if s.Ref != "" {
		if name, ok := RefName(s.Ref); ok {
			c.used[name] = true
			cp.Ref = jsontree.DefsRef(name)
		}
		return &cp
	}
	if len(s.Properties) > 0 {
		cp.Properties = make(Schemas, len(s.Properties))
		for i, p := range s.Properties {
			cp.Properties[i] = NamedSchema{Name: p.Name, Schema: c.convertOrAny(p.Schema)}
		}
	}
	cp.Items = c.convert(s.Items)
	cp.AdditionalProperties = c.convert(s.AdditionalProperties)
	cp.OneOf = c.convertAll(s.OneOf)
	cp.AnyOf = c.convertAll(s.AnyOf)
	return &cp
}

func (c *declConverter) convertAll(list []*Schema) []*Schema {
	if list == nil {
		return nil
	}
	out := make([]*Schema, len(list))
	for i, s := range list {
		out[i] = c.convertOrAny(s)
	}
	return out
}

// convertOrAny is convert, with a missing schema (JSON null, which is not a
// schema) as {}, which allows any value.
func (c *declConverter) convertOrAny(s *Schema) *Schema {
	if s == nil {
		return &Schema{}
	}
	return c.convert(s)
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

// DeclaredNames returns the name under which each function of doc is
// declared: its own when it fits every provider (1 to 64 ASCII letters,
// digits, "_" and "-", a letter or "_" first), else a name made from it
// deterministically: every other character replaced by "_", a "_" put first
// when needed, and when that is too long or taken, cut and ended with "_" and
// eight hex digits of the name's SHA-256. The result maps every function name.
func DeclaredNames(doc *OpenTool) map[string]string {
	out := make(map[string]string, len(doc.Functions))
	taken := make(map[string]bool, len(doc.Functions))
	for i := range doc.Functions {
		if n := doc.Functions[i].Name; fitsEveryProvider(n) {
			out[n] = n
			taken[n] = true
		}
	}
	for i := range doc.Functions {
		n := doc.Functions[i].Name
		if _, ok := out[n]; ok {
			continue
		}
		d := sanitizeToolName(n)
		if len(d) > 64 || taken[d] {
			sum := sha256.Sum256([]byte(n))
			suffix := "_" + hex.EncodeToString(sum[:4])
			if len(d) > 64-len(suffix) {
				d = d[:64-len(suffix)]
			}
			d += suffix
			for k := 2; taken[d]; k++ { // two names with one hash prefix: never seen, but stay unique
				d = d[:len(d)-len(strconv.Itoa(k-1))] + strconv.Itoa(k)
			}
		}
		out[n] = d
		taken[d] = true
	}
	return out
}

func fitsEveryProvider(n string) bool {
	// Gemini's rule on top of the OpenTool one: a letter or "_" first.
	return IsFunctionName(n) && n[0] != '-' && (n[0] < '0' || n[0] > '9')
}

func sanitizeToolName(n string) string {
	var b strings.Builder
	for _, r := range n {
		switch {
		case r == '_' || r == '-', 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" || s[0] == '-' || ('0' <= s[0] && s[0] <= '9') {
		s = "_" + s
	}
	return s
}
