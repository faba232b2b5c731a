package openapi

import (
	"path/filepath"
	"strconv"

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
