package runtime

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/url"
	"sync/atomic"
)

// The answer of GET /load.
//
// The reference clients cannot read a $ref: their OpenTool.fromJson resolves
// each one the moment it meets it, in a registry that only their file loader
// fills, so their load() fails with "#ref not found: #/schemas/X" on any
// document that has one. The reference servers serve /load with every $ref
// inlined (and "schemas" kept), and so does this server: a plain GET /load
// answers the document with every $ref that is not part of a cycle replaced by
// the schema it refers to. A recursive schema cannot be written without a $ref,
// so the references that close a cycle stay (the reference clients cannot read
// those in any form).
//
// GET /load?refs=keep answers the document as the tool has it, references and
// all: [Client.Load] asks for that, so that a Go client gets the named schemas
// back; servers that do not know the parameter ignore it.

// maxInlinedSchemas bounds the inlined document: inlining copies a schema once
// per reference to it, which can multiply a document's size. Past
// max(maxInlinedSchemas, inlineGrowth × the schemas of the document as
// written), /load answers the document with its references.
const (
	maxInlinedSchemas = 1 << 16
	inlineGrowth      = 4
)

// loadAnswers keeps the answers of GET /load for the document the tool gave last.
//
// Tool.Load may return a different document at any time, so the answers are
// keyed by the document: by its pointer first, which costs nothing, then by its
// encoding, for tools that return a fresh copy each time. The pointer is sound
// as a key because the server already encodes the document it is given while
// other requests may be encoding it too, so a tool must not change a document
// after returning it; and the kept pointer keeps the document alive, so its
// address cannot come back as another document's.
type loadAnswers struct {
	last atomic.Pointer[loadAnswer]
}

type loadAnswer struct {
	doc     *OpenTool
	raw     []byte // the document as the tool has it
	inlined []byte // the document with its references inlined
}

// get returns the answers for doc, computing them unless doc is the document of
// the last answer, or encodes to the same bytes.
func (a *loadAnswers) get(doc *OpenTool, logger *slog.Logger) (*loadAnswer, error) {
	last := a.last.Load()
	if last != nil && last.doc == doc {
		return last, nil
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	if last != nil && bytes.Equal(last.raw, raw) {
		ans := &loadAnswer{doc: doc, raw: last.raw, inlined: last.inlined}
		a.last.Store(ans)
		return ans, nil
	}
	ans := &loadAnswer{doc: doc, raw: raw, inlined: raw}
	if in, ok := inlineRefs(doc); !ok {
		logger.Warn("opentool: GET /load answers the document with its $refs: inlining them would make it too large", "title", doc.Info.Title)
	} else if ans.inlined, err = json.Marshal(in); err != nil {
		return nil, err
	}
	a.last.Store(ans)
	return ans, nil
}

// body returns the answer a request with the query rawQuery gets.
func (ans *loadAnswer) body(rawQuery string) []byte {
	if rawQuery != "" {
		if q, err := url.ParseQuery(rawQuery); err == nil && q.Get("refs") == "keep" {
			return ans.raw
		}
	}
	return ans.inlined
}

// inlineRefs returns a copy of doc in which every $ref that is not part of a
// cycle is replaced by the schema it refers to, and nil parameter lists are
// empty ones (the Dart reference requires the member). The description next to
// a $ref, when there is one, replaces the description of the schema inlined in
// its place. Subschemas without references are shared with doc, which is not
// modified. It returns false when the inlined document would be too large.
func inlineRefs(doc *OpenTool) (*OpenTool, bool) {
	in := &inliner{schemas: make(map[string]*Schema, len(doc.Schemas)), active: map[string]bool{}}
	for _, ns := range doc.Schemas {
		if _, dup := in.schemas[ns.Name]; !dup { // the first, as Schemas.Get
			in.schemas[ns.Name] = ns.Schema
		}
	}
	in.left = max(maxInlinedSchemas, inlineGrowth*countSchemas(doc))

	out := *doc
	out.Functions = make([]Function, len(doc.Functions))
	for i, f := range doc.Functions {
		params := make([]Parameter, len(f.Parameters))
		for j, p := range f.Parameters {
			p.Schema = in.schema(p.Schema)
			params[j] = p
		}
		f.Parameters = params
		f.Return = in.ret(f.Return)
		if f.Stream != nil {
			stream := make(map[string]*Return, len(f.Stream))
			for k, r := range f.Stream {
				stream[k] = in.ret(r)
			}
			f.Stream = stream
		}
		out.Functions[i] = f
	}
	if doc.Schemas != nil {
		out.Schemas = make(Schemas, len(doc.Schemas))
		for i, ns := range doc.Schemas {
			// A schema's references to itself are cycles: they stay.
			in.active[ns.Name] = true
			out.Schemas[i] = NamedSchema{Name: ns.Name, Schema: in.schema(ns.Schema)}
			delete(in.active, ns.Name)
		}
	}
	return &out, in.left >= 0
}

type inliner struct {
	schemas map[string]*Schema
	active  map[string]bool // the schemas being inlined: a reference to one closes a cycle
	left    int             // how many more schemas the inlined document may have
}

func (in *inliner) ret(r *Return) *Return {
	if r == nil {
		return nil
	}
	c := *r
	c.Schema = in.schema(r.Schema)
	return &c
}

// schema returns s with its references inlined: s itself when it has none.
func (in *inliner) schema(s *Schema) *Schema {
	if s == nil || in.left < 0 {
		return s
	}
	in.left--
	if s.Ref != "" {
		name, ok := RefName(s.Ref)
		target := in.schemas[name]
		if !ok || target == nil || in.active[name] {
			return s // dangling (a document that was not checked) or closing a cycle
		}
		in.active[name] = true
		out := in.schema(target)
		delete(in.active, name)
		if s.Description != "" && out != nil && out.Description != s.Description {
			c := *out
			c.Description = s.Description
			out = &c
		}
		return out
	}
	var c *Schema // the copy, made at the first change
	edit := func() *Schema {
		if c == nil {
			cp := *s
			c = &cp
		}
		return c
	}
	if props, changed := in.list(s.Properties); changed {
		edit().Properties = props
	}
	if items := in.schema(s.Items); items != s.Items {
		edit().Items = items
	}
	if ap := in.schema(s.AdditionalProperties); ap != s.AdditionalProperties {
		edit().AdditionalProperties = ap
	}
	if alts, changed := in.alternatives(s.OneOf); changed {
		edit().OneOf = alts
	}
	if alts, changed := in.alternatives(s.AnyOf); changed {
		edit().AnyOf = alts
	}
	if c == nil {
		return s
	}
	return c
}

func (in *inliner) list(props Schemas) (Schemas, bool) {
	var out Schemas
	for i, p := range props {
		ps := in.schema(p.Schema)
		if ps != p.Schema && out == nil {
			out = append(make(Schemas, 0, len(props)), props[:i]...)
		}
		if out != nil {
			out = append(out, NamedSchema{Name: p.Name, Schema: ps})
		}
	}
	return out, out != nil
}

func (in *inliner) alternatives(alts []*Schema) ([]*Schema, bool) {
	var out []*Schema
	for i, a := range alts {
		as := in.schema(a)
		if as != a && out == nil {
			out = append(make([]*Schema, 0, len(alts)), alts[:i]...)
		}
		if out != nil {
			out = append(out, as)
		}
	}
	return out, out != nil
}

// countSchemas counts the schema objects of doc as written.
func countSchemas(doc *OpenTool) int {
	n := 0
	count := func(s *Schema) { s.Each(func(*Schema) bool { n++; return true }) }
	for i := range doc.Functions {
		doc.Functions[i].EachSchema(count)
	}
	for _, ns := range doc.Schemas {
		count(ns.Schema)
	}
	return n
}
