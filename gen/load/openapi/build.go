package openapi

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

func (b *oaBuilder) build() *model.Package {
	doc := b.doc
	info := doc.Info
	if info == nil {
		info = &openapi3.Info{}
	}
	b.pkg = &model.Package{
		Source: filepath.Base(b.src.Name), Kind: model.PackageOpenAPI,
		Title: info.Title, Version: info.Version, Doc: info.Description,
		API: &model.API{BaseURL: serverURL(doc.Servers)},
	}
	b.naming = &model.Naming{}
	b.pkg.Naming = b.naming
	b.security()
	servers := serversOf(doc.Servers)
	if u := b.pkg.API.BaseURL; u != "" && model.RelativeURL(u) {
		at, what := oaLoc{file: b.root}.add("servers", "0", "url"), "the first server's URL"
		if b.swagger {
			at, what = oaLoc{file: b.root}.add("basePath"), "the basePath, with no host,"
		}
		b.warn(at, "%s %s is relative: the client resolves it against the base URL given to NewClient (NewClient(%s) calls %s); NewClient(\"\") returns an error that says so",
			what, strconv.Quote(u), strconv.Quote("https://host"), strconv.Quote(model.ResolveRelative("https://host", u)))
	}
	var server *model.Server
	if len(servers) > 0 {
		server = servers[0]
		b.pkg.API.Variables = mergeVariables(servers)
		for _, v := range b.pkg.API.Variables {
			b.naming.ServerVariable(v)
		}
	}

	// Components first: they own their names.
	rootLoc := oaLoc{file: b.root}
	if doc.Components != nil {
		names := make([]string, 0, len(doc.Components.Schemas))
		for n := range doc.Components.Schemas {
			names = append(names, n)
		}
		for _, n := range b.ordered(rootLoc.add("components", "schemas"), names) {
			b.namedAt(b.root+"#"+rootLoc.add("components", "schemas", n).ptr, n)
		}
		b.componentKeys(b.ordered(rootLoc.add("components", "schemas"), names))
		for _, n := range b.ordered(rootLoc.add("components", "schemas"), names) {
			sr := doc.Components.Schemas[n]
			nd := b.named[b.root+"#"+rootLoc.add("components", "schemas", n).ptr]
			if sr != nil && sr.Value != nil {
				b.define(nd, sr, rootLoc.add("components", "schemas", n))
			}
		}
	}
	b.operations()
	b.webhooks()
	if server != nil && (len(server.Variables) > 0 || b.opServers || len(servers) > 1) {
		b.pkg.API.Server = server
	}
	if len(servers) > 1 {
		// Named after the schemas, which keep their names.
		b.pkg.API.Servers = servers
		b.naming.Servers(b.pkg.API)
	}
	// Named schemas referenced from other files were defined on first use;
	// those left have no value: their references form a cycle.
	var unresolved []*oaNamed
	for _, n := range b.namedList {
		if !n.defined {
			n.defined = true
			n.t.Kind = model.KindAlias
			n.t.Underlying = &model.TypeRef{Kind: model.RefRaw}
			n.schema = &document.Schema{}
			unresolved = append(unresolved, n)
		}
	}
	b.pagination()
	b.nameShared()
	model.Name(b.pkg)
	for _, n := range unresolved {
		b.warnUnresolved(n) // which names the Go type, made now
	}

	odoc := &document.OpenTool{
		OpenTool: "1.0.0",
		Info:     document.Info{Title: info.Title, Description: info.Description, Version: info.Version},
	}
	if odoc.Info.Version == "" {
		odoc.Info.Version = "0.0.0"
	}
	odoc.Functions = b.docFunctions
	if odoc.Functions == nil {
		odoc.Functions = []document.Function{}
	}
	for _, n := range b.namedList {
		odoc.Schemas = append(odoc.Schemas, document.NamedSchema{Name: n.docName, Schema: n.schema})
	}
	odoc.Schemas = append(odoc.Schemas, b.extra...)
	odoc.Tags = b.docTags()
	b.pkg.Document = odoc
	return b.pkg
}

// componentKeys records the component schemas of names (in that order:
// the first component of a shape takes it) by a cheap signature of each
// (shapeSig), and the inline schema a component that is an allOf of one
// wraps, so that conv makes an inline schema alike the component's type
// (componentLike). Their shapeKeys, which write the whole schema, are made
// only for the components an inline schema's signature meets. A component
// that is a $ref, or whose schema makes no type of its own (shapeKey ""),
// is left out.
func (b *oaBuilder) componentKeys(names []string) {
	b.componentShapes = map[string][]*componentShape{}
	add := func(s *openapi3.Schema, name string) {
		if sig := shapeSig(s); sig != "" {
			b.componentShapes[sig] = append(b.componentShapes[sig], &componentShape{name: name, s: s})
		}
	}
	for _, n := range names {
		if sr := b.doc.Components.Schemas[n]; sr != nil && sr.Ref == "" && sr.Value != nil {
			add(sr.Value, n)
		}
	}
	for _, n := range names {
		sr := b.doc.Components.Schemas[n]
		if sr == nil || sr.Ref != "" || sr.Value == nil {
			continue
		}
		if s := sr.Value; len(s.AllOf) == 1 && len(s.Properties) == 0 && len(s.OneOf) == 0 && len(s.AnyOf) == 0 &&
			s.AllOf[0] != nil && s.AllOf[0].Ref == "" && s.AllOf[0].Value != nil {
			add(s.AllOf[0].Value, n)
		}
	}
}

// componentShape is a component's schema (or the one its allOf of one
// wraps), its shapeKey made when first compared.
type componentShape struct {
	name string
	s    *openapi3.Schema
	key  string
	made bool
}

// shapeSig is a cheap signature of a schema that has a shapeKey: two
// schemas of one shapeKey have one signature. "" when shapeKey is "".
func shapeSig(s *openapi3.Schema) string {
	if len(s.Properties) == 0 && len(s.OneOf)+len(s.AnyOf) < 2 && len(s.AllOf) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %d %d %q %q %v\x00", len(s.AllOf), len(s.OneOf), len(s.AnyOf), s.Title, s.Description, s.Required)
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		b.WriteString(name)
		b.WriteByte(0)
	}
	return b.String()
}

// componentAlike is the name of the first component whose schema (or the
// one its allOf of one wraps) has the shapeKey key of the inline schema s,
// or "".
func (b *oaBuilder) componentAlike(s *openapi3.Schema, key string) string {
	for _, c := range b.componentShapes[shapeSig(s)] {
		if !c.made {
			c.key, c.made = shapeKey(c.s), true
		}
		if c.key == key {
			return c.name
		}
	}
	return ""
}
