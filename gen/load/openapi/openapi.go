// Package openapi is the loader of OpenAPI 3.0/3.1 and Swagger 2.0 documents:
// kin-openapi reads them (following $refs to local files only, see refs.go),
// and Load builds the model, types and all, without their Go names: it
// records what needs one, with the document's words and places, in the
// package's model.Naming, and hands the package to model.Name, which makes
// the names (see the model's naming.go).
package openapi

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/checked"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// The OpenAPI loader: kin-openapi parses the document (3.0, 3.1, or Swagger 2.0
// converted by openapi2conv) and resolves its references, local files
// included; this file turns the result into the model. kin-openapi keeps
// objects in Go maps, so the order of paths, properties and components is read
// back from the source tree (document order), falling back to name order.

// Load loads an OpenAPI or Swagger document and builds its model; model.Name
// makes its Go names (see the package doc).
func Load(src *source.Source, pkgName string, allowRefDirs []string) (*model.Package, []source.Diagnostic, error) {
	b := &oaBuilder{
		src:     src,
		root:    path.Clean(filepath.ToSlash(src.Name)),
		swagger: src.Tree.Get("swagger") != nil,
		named:   map[string]*oaNamed{},
		byType:  map[*model.Type]*oaNamed{},
		found:   map[nodeKey]*jsontree.Node{},
		index:   map[*jsontree.Node]map[string]*jsontree.Node{},
		inline:  map[*openapi3.Schema]*oaType{},
		trees:   map[string]*jsontree.Node{},
		sources: map[string]*source.Source{},
		files:   map[string][]byte{},
		refs:    &refFiles{doc: src.Name, allow: allowRefDirs},
	}
	b.json = src.JSON
	b.trees[b.root] = src.Tree
	if len(src.Duplicates) > 0 {
		// Read as most JSON readers do: the last value of a key that comes
		// again. The tree holds them so; kin-openapi is given the tree.
		b.warnings = append(b.warnings, src.DuplicateDiagnostics(true)...)
		if src.Pos == nil { // JSON input, which src.JSON is as read
			b.json = jsontree.AppendJSON(nil, src.Tree)
		}
	}
	if errs := b.loadErrors(b.check()); len(errs) > 0 {
		return nil, b.warnings, b.errorOf(errs)
	}
	doc, err := b.load()
	if errs := b.loadErrors(nil); len(errs) > 0 { // at the $refs, even if the loader went on without them
		return nil, b.warnings, b.errorOf(errs)
	}
	if err != nil {
		d := source.Diagnostic{File: src.Name, Line: 1, Col: 1, Message: err.Error()}
		return nil, b.warnings, b.errorOf([]source.Diagnostic{d})
	}
	b.doc = doc
	pkg := b.build(pkgName)
	return pkg, b.warnings, nil
}

// errorOf is the error of diagnostics, with the texts of the files $refs
// named (the document's own is added by the caller), for their excerpts.
func (b *oaBuilder) errorOf(diags []source.Diagnostic) *source.Error {
	e := &source.Error{Diagnostics: diags}
	for name, text := range b.texts {
		e.AddText(name, text)
	}
	return e
}

// oaBuilder builds the model of one OpenAPI document.
type oaBuilder struct {
	// opServers is set when an operation has servers of its own.
	opServers bool
	src       *source.Source
	root      string // slash path of the document, as kin-openapi's RefPath has it
	swagger   bool
	doc       *openapi3.T

	pkg    *model.Package
	naming *model.Naming // the Go names the model is to make
	// named are the named schemas (components and referenced schemas), by
	// location "file#pointer"; namedList in the order of their creation.
	named     map[string]*oaNamed
	namedList []*oaNamed
	docNames  unique // names of the OpenTool document's schemas
	// inline memoises the types of inline schemas that need one (objects,
	// enums), by schema: a schema shared through kin-openapi's resolution gets
	// one type.
	inline map[*openapi3.Schema]*oaType
	// building are the inline schemas whose members are being converted: a
	// schema met again inside its own members is recursive, and its OpenTool
	// schema becomes an entry of the document's schemas (promoted, by
	// schema) that the recursion refers to, so the document stays finite.
	building map[*openapi3.Schema]oaLoc
	promoted map[*openapi3.Schema]string
	extra    []runtime.NamedSchema // the promoted schemas, in the order met

	trees    map[string]*jsontree.Node // parsed documents, by slash path
	sources  map[string]*source.Source // the other files among them
	files    map[string][]byte         // other files read for references, as JSON for kin-openapi
	texts    map[string][]byte         // and as read, by the name their diagnostics give
	json     []byte                    // the document as JSON for kin-openapi (repaired by check)
	fileErrs []source.Diagnostic       // problems of the files read for references
	refs     *refFiles                 // reads them
	refused  []refusal                 // files references name that were not read
	warnings []source.Diagnostic
	// warned are the warnings given by warn, by place and message: a schema
	// converted twice (a component and a request body's members) warns once.
	warned map[[3]string]bool

	docFunctions []runtime.Function // the functions of the OpenTool document
	byType       map[*model.Type]*oaNamed

	found map[nodeKey]*jsontree.Node                   // find's answers
	index map[*jsontree.Node]map[string]*jsontree.Node // members of large objects

	// anon counts the slices and maps around the value being typed in the
	// type expression being built (see maxAnonymousNesting).
	anon int
}

// oaNamed is a named schema: its Go type and its OpenTool document schema.
type oaNamed struct {
	key     string // its location, "file#pointer"
	t       *model.Type
	docName string
	schema  *runtime.Schema // the definition, set once defined
	object  bool            // values are JSON objects
	defined bool
}

// oaType is what a schema converts to.
type oaType struct {
	ref      *model.TypeRef
	schema   *runtime.Schema // the schema in the OpenTool document
	nullable bool
	object   bool   // values are JSON objects (results travel as themselves)
	note     string // why the value could not be typed, for the field's doc
}

// oaLoc is the place of a schema: a file and a JSON pointer in it.
type oaLoc struct{ file, ptr string }

func (l oaLoc) add(tokens ...string) oaLoc {
	for _, t := range tokens {
		if strings.ContainsAny(t, "~/") {
			t = pointerEscaper.Replace(t)
		}
		l.ptr += "/" + t
	}
	return l
}

// JSON pointer token escaping, built once.
var (
	pointerEscaper   = strings.NewReplacer("~", "~0", "/", "~1")
	pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

// load parses the document with kin-openapi.
func (b *oaBuilder) load() (*openapi3.T, error) {
	newLoader := func() *openapi3.Loader {
		l := openapi3.NewLoader()
		l.IsExternalRefsAllowed = true
		l.ReadFromURIFunc = b.readLocal
		return l
	}
	l := newLoader()
	loc := &url.URL{Path: b.root}
	if b.swagger {
		var d2 openapi2.T
		if err := json.Unmarshal(b.json, &d2); err != nil {
			return nil, fmt.Errorf("reading the Swagger 2.0 document: %v", err)
		}
		doc, err := openapi2conv.ToV3WithLoader(&d2, l, loc)
		if err != nil {
			return nil, fmt.Errorf("converting the Swagger 2.0 document: %v", err)
		}
		return doc, nil
	}
	if fastLoading {
		data := b.json // the tree's offsets are into it unless check repaired the tree
		if len(data) == 0 || len(b.src.JSON) != len(data) || &b.src.JSON[0] != &data[0] {
			data = nil
		}
		if doc, ok, err := fastLoad(l, b.trees[b.root], data, loc); ok {
			return doc, err
		}
		l = newLoader() // the fast path may have used l
	}
	return l.LoadFromDataWithPath(b.json, loc)
}

// fastLoading turns fastLoad on; tests turn it off to compare.
var fastLoading = true

// readLocal reads the files references name: local files only, never URLs,
// and only those refFiles accepts.
func (b *oaBuilder) readLocal(_ *openapi3.Loader, u *url.URL) ([]byte, error) {
	if u.Scheme != "" && u.Scheme != "file" || u.Host != "" || u.Opaque != "" {
		return nil, b.refuse(u, "only references to local files are followed")
	}
	p := path.Clean(u.Path)
	if data, ok := b.files[p]; ok {
		return data, nil
	}
	if p == path.Clean(b.root) {
		return b.json, nil
	}
	if _, ok := b.trees[p]; ok {
		return nil, fmt.Errorf("%s cannot be read", p) // reported by fileErrs
	}
	data, err := b.refs.read(filepath.FromSlash(p))
	if err != nil {
		return nil, b.refuse(u, err.Error())
	}
	if b.texts == nil {
		b.texts = map[string][]byte{}
	}
	b.texts[p] = data
	// Parsed by its content, as the document is: JSON or YAML whatever its name.
	s, err := source.ReadSource(p, data)
	if err != nil {
		b.trees[p] = nil
		if se, ok := err.(*source.Error); ok {
			b.fileErrs = append(b.fileErrs, se.Diagnostics...)
		} else {
			b.fileErrs = append(b.fileErrs, source.Diagnostic{File: p, Message: err.Error()})
		}
		return nil, fmt.Errorf("%s cannot be read", p)
	}
	b.trees[p], b.sources[p] = s.Tree, s
	b.files[p] = s.JSON
	if len(s.Duplicates) > 0 {
		b.warnings = append(b.warnings, s.DuplicateDiagnostics(true)...)
		if s.Pos == nil {
			b.files[p] = jsontree.AppendJSON(nil, s.Tree)
		}
	}
	return b.files[p], nil
}

// loadErrors returns the problems found in the files read and the references
// refused (at the $refs, even if the loader went on without them), after
// errs.
func (b *oaBuilder) loadErrors(errs []source.Diagnostic) []source.Diagnostic {
	errs = append(errs, b.fileErrs...)
	b.fileErrs = nil
	if len(b.refused) > 0 {
		errs = append(errs, b.refusedDiagnostics()...)
		b.refused = nil
	}
	return source.Dedup(errs)
}

// tree returns the parsed form of a file, for member order; nil when it
// cannot be read.
func (b *oaBuilder) tree(file string) *jsontree.Node {
	file = path.Clean(file)
	if t, ok := b.trees[file]; ok {
		return t
	}
	return nil // not read
}

// node returns the source value at loc, or nil.
func (b *oaBuilder) node(loc oaLoc) *jsontree.Node {
	t := b.tree(loc.file)
	if t == nil {
		return nil
	}
	ptr := loc.ptr
	if b.swagger && path.Clean(loc.file) == path.Clean(b.root) {
		// Converted documents keep Swagger's places for definitions.
		if rest, ok := strings.CutPrefix(ptr, "/components/schemas/"); ok {
			ptr = "/definitions/" + rest
		}
	}
	return b.find(t, ptr)
}

// find resolves ptr in t like Node.Find, with the nodes found and the members
// of large objects indexed: the loader looks up the places of thousands of
// schemas in documents with thousands of members.
func (b *oaBuilder) find(t *jsontree.Node, ptr string) *jsontree.Node {
	if ptr == "" {
		return t
	}
	key := nodeKey{t, ptr}
	if n, ok := b.found[key]; ok {
		return n
	}
	var n *jsontree.Node
	if i := strings.LastIndexByte(ptr, '/'); i >= 0 {
		if parent := b.find(t, ptr[:i]); parent != nil {
			tok := pointerUnescaper.Replace(ptr[i+1:])
			switch {
			case parent.Kind == jsontree.Object && len(parent.Members) > 16:
				idx := b.index[parent]
				if idx == nil {
					idx = make(map[string]*jsontree.Node, len(parent.Members))
					for _, m := range parent.Members {
						if _, dup := idx[m.Key]; !dup {
							idx[m.Key] = m.Value
						}
					}
					b.index[parent] = idx
				}
				n = idx[tok]
			case parent.Kind == jsontree.Object:
				n = parent.Get(tok)
			default:
				n = parent.Find("/" + ptr[i+1:])
			}
		}
	}
	b.found[key] = n
	return n
}

type nodeKey struct {
	tree *jsontree.Node
	ptr  string
}

// ordered returns keys in the order of the members of the object at loc,
// those not found after them in name order.
func (b *oaBuilder) ordered(loc oaLoc, keys []string) []string {
	want := make(map[string]bool, len(keys))
	for _, k := range keys {
		want[k] = true
	}
	out := make([]string, 0, len(keys))
	if n := b.node(loc); n != nil && n.Kind == jsontree.Object {
		for _, m := range n.Members {
			if want[m.Key] {
				out = append(out, m.Key)
				delete(want, m.Key)
			}
		}
	}
	var rest []string
	for _, k := range keys {
		if want[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

func (b *oaBuilder) warn(loc oaLoc, format string, args ...any) {
	d := source.Diagnostic{File: loc.file, Path: loc.ptr, Message: fmt.Sprintf(format, args...), Warning: true}
	key := [3]string{loc.file, loc.ptr, d.Message}
	if b.warned[key] {
		return
	}
	if b.warned == nil {
		b.warned = map[[3]string]bool{}
	}
	b.warned[key] = true
	if path.Clean(loc.file) == path.Clean(b.root) {
		d.File = b.src.Name
		if !b.swagger || !strings.HasPrefix(loc.ptr, "/components/") {
			d.Line, d.Col = b.src.Position(loc.ptr, -1)
		}
	} else if b.tree(loc.file) != nil { // another file read for references
		d.Line, d.Col = b.sources[path.Clean(loc.file)].Position(loc.ptr, -1)
	}
	b.warnings = append(b.warnings, d)
}

// ---- package ------------------------------------------------------------------

func (b *oaBuilder) build(pkgName string) *model.Package {
	doc := b.doc
	info := doc.Info
	if info == nil {
		info = &openapi3.Info{}
	}
	b.pkg = &model.Package{
		Name: pkgName, Source: filepath.Base(b.src.Name), Kind: "openapi",
		Title: info.Title, Version: info.Version, Doc: info.Description,
		API: &model.API{BaseURL: serverURL(doc.Servers)},
	}
	b.naming = &model.Naming{}
	b.pkg.Naming = b.naming
	b.security()
	servers := serversOf(doc.Servers)
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
			n.schema = &runtime.Schema{}
			unresolved = append(unresolved, n)
		}
	}
	model.Name(b.pkg)
	for _, n := range unresolved {
		b.warnUnresolved(n) // which names the Go type, made now
	}

	odoc := &runtime.OpenTool{
		OpenTool: "1.0.0",
		Info:     runtime.Info{Title: info.Title, Description: info.Description, Version: info.Version},
	}
	if odoc.Info.Title == "" {
		odoc.Info.Title = pkgName
	}
	if odoc.Info.Version == "" {
		odoc.Info.Version = "0.0.0"
	}
	odoc.Functions = b.docFunctions
	if odoc.Functions == nil {
		odoc.Functions = []runtime.Function{}
	}
	for _, n := range b.namedList {
		odoc.Schemas = append(odoc.Schemas, runtime.NamedSchema{Name: n.docName, Schema: n.schema})
	}
	odoc.Schemas = append(odoc.Schemas, b.extra...)
	b.pkg.Document = odoc
	return b.pkg
}

// serverURL is the first server's URL with its variables' defaults.
func serverURL(servers openapi3.Servers) string {
	if len(servers) == 0 || servers[0] == nil {
		return ""
	}
	s := servers[0]
	u := s.URL
	for name, v := range s.Variables {
		if v != nil {
			u = strings.ReplaceAll(u, "{"+name+"}", v.Default)
		}
	}
	return u
}

// serverOf is the first of servers, its variables in the order its URL
// names them; nil when there is none.
func serverOf(servers openapi3.Servers) *model.Server {
	if len(servers) == 0 || servers[0] == nil {
		return nil
	}
	return convServer(servers[0])
}

// serversOf are the servers of the document, from the first; a server
// after a missing one is left out.
func serversOf(servers openapi3.Servers) []*model.Server {
	var out []*model.Server
	for _, s := range servers {
		if s == nil {
			break
		}
		out = append(out, convServer(s))
	}
	return out
}

// mergeVariables are the variables of servers, each name once: the first
// server's that has it, with the values any of them allow (any value when
// one of them has no enum).
func mergeVariables(servers []*model.Server) []*model.ServerVariable {
	var out []*model.ServerVariable
	byName := map[string]*model.ServerVariable{}
	for _, s := range servers {
		for _, v := range s.Variables {
			m, ok := byName[v.Name]
			if !ok {
				m = &model.ServerVariable{Name: v.Name, Default: v.Default, Enum: slices.Clone(v.Enum), Doc: v.Doc}
				byName[v.Name] = m
				out = append(out, m)
				continue
			}
			if len(m.Enum) == 0 || len(v.Enum) == 0 {
				m.Enum = nil
				continue
			}
			for _, e := range v.Enum {
				if !slices.Contains(m.Enum, e) {
					m.Enum = append(m.Enum, e)
				}
			}
		}
	}
	return out
}

// convServer is a server, its variables in the order its URL names them.
func convServer(s *openapi3.Server) *model.Server {
	out := &model.Server{URL: s.URL, Doc: s.Description}
	seen := map[string]bool{}
	rest := s.URL
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			break
		}
		name := rest[i+1 : i+j]
		rest = rest[i+j+1:]
		v := s.Variables[name]
		if v == nil || seen[name] {
			continue
		}
		seen[name] = true
		sv := &model.ServerVariable{Name: name, Default: v.Default, Doc: v.Description}
		sv.Enum = append(sv.Enum, v.Enum...)
		out.Variables = append(out.Variables, sv)
	}
	return out
}

// security reads the security schemes: one client option each.
func (b *oaBuilder) security() {
	if b.doc.Components == nil || len(b.doc.Components.SecuritySchemes) == 0 {
		return
	}
	names := make([]string, 0, len(b.doc.Components.SecuritySchemes))
	for n := range b.doc.Components.SecuritySchemes {
		names = append(names, n)
	}
	loc := oaLoc{file: b.root}.add("components", "securitySchemes")
	if b.swagger {
		loc = oaLoc{file: b.root}.add("securityDefinitions")
	}
	for _, n := range b.ordered(loc, names) {
		ref := b.doc.Components.SecuritySchemes[n]
		if ref == nil || ref.Value == nil {
			continue
		}
		s := ref.Value
		sc := &model.SecurityScheme{Name: n, Doc: s.Description}
		switch strings.ToLower(s.Type) {
		case "apikey":
			sc.Kind, sc.In, sc.Key = "apiKey", strings.ToLower(s.In), s.Name
			if sc.In != "header" && sc.In != "query" && sc.In != "cookie" {
				b.warn(loc.add(n), "API key in %q is not supported: the client cannot send it", source.ClipValue(s.In))
				continue
			}
		case "http":
			switch strings.ToLower(s.Scheme) {
			case "bearer":
				sc.Kind = "bearer"
			case "basic":
				sc.Kind = "basic"
			default:
				b.warn(loc.add(n), "HTTP authentication scheme %q is not supported: the client cannot send it", source.ClipValue(s.Scheme))
				continue
			}
		case "oauth2", "openidconnect":
			sc.Kind = "bearer" // an access token obtained elsewhere
			if s.Flows != nil && s.Flows.ClientCredentials != nil && s.Flows.ClientCredentials.TokenURL != "" {
				cc := s.Flows.ClientCredentials
				flow := &model.OAuthFlow{TokenURL: cc.TokenURL}
				for scope := range cc.Scopes {
					flow.Scopes = append(flow.Scopes, scope)
				}
				sort.Strings(flow.Scopes)
				sc.ClientCredentials = flow
			}
		default:
			b.warn(loc.add(n), "security scheme type %q is not supported", source.ClipValue(s.Type))
			continue
		}
		b.naming.Option(sc)
		b.pkg.API.Security = append(b.pkg.API.Security, sc)
	}
}

// ---- schemas --------------------------------------------------------------------

// namedAt returns the named schema at key, creating it with a
// document name (made unique among the document's schemas).
func (b *oaBuilder) namedAt(key, name string) *oaNamed {
	if n := b.named[key]; n != nil {
		return n
	}
	t := &model.Type{}
	b.naming.Schema(t, name)
	n := &oaNamed{key: key, t: t, docName: b.docNames.name(name)}
	b.named[key] = n
	b.byType[t] = n
	b.namedList = append(b.namedList, n)
	b.pkg.Types = append(b.pkg.Types, t)
	return n
}

// refKey returns the location of the schema a reference points to.
func (b *oaBuilder) refKey(sr *openapi3.SchemaRef) (string, oaLoc) {
	if u := sr.RefPath(); u != nil && (u.Path != "" || u.Fragment != "") {
		file := u.Path
		if file == "" {
			file = b.root
		}
		file = path.Clean(file)
		// kin-openapi gives "#/components/…" as the fragment of some
		// references to the schema they are in.
		frag := strings.TrimLeft(u.Fragment, "#")
		return file + "#" + frag, oaLoc{file: file, ptr: frag}
	}
	ref := sr.Ref
	if strings.HasPrefix(ref, "#") {
		return path.Clean(b.root) + ref, oaLoc{file: b.root, ptr: ref[1:]}
	}
	file, frag, _ := strings.Cut(ref, "#")
	return ref, oaLoc{file: file, ptr: frag}
}

// ref returns the named schema a reference points to, defining it on first use.
func (b *oaBuilder) ref(sr *openapi3.SchemaRef) *oaNamed {
	key, loc := b.refKey(sr)
	if n := b.named[key]; n != nil {
		if !n.defined && sr.Value != nil {
			b.define(n, &openapi3.SchemaRef{Value: sr.Value}, loc)
		}
		return n
	}
	name := loc.ptr
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	name = pointerUnescaper.Replace(name)
	if name == "" {
		name = strings.TrimSuffix(path.Base(loc.file), path.Ext(loc.file))
	}
	n := b.namedAt(key, name)
	if sr.Value != nil {
		b.define(n, b.definition(key, sr), loc)
	}
	return n
}

// definition returns the schema that defines the named schema at key: the
// component itself (which may be a reference, making an alias), or the
// resolved value.
func (b *oaBuilder) definition(key string, sr *openapi3.SchemaRef) *openapi3.SchemaRef {
	if name, ok := strings.CutPrefix(key, path.Clean(b.root)+"#/components/schemas/"); ok && b.doc.Components != nil {
		name = pointerUnescaper.Replace(name)
		if c := b.doc.Components.Schemas[name]; c != nil && c.Value != nil {
			return c
		}
	}
	return &openapi3.SchemaRef{Value: sr.Value}
}

// define gives a named schema its type and document schema.
func (b *oaBuilder) define(n *oaNamed, sr *openapi3.SchemaRef, loc oaLoc) {
	if n.defined {
		return
	}
	n.defined = true
	t := n.t
	s := sr.Value
	if sr.Ref != "" {
		// A component that is a reference to another schema: an alias (but
		// kin-openapi may report the component itself as the target).
		if target := b.ref(sr); target != n {
			t.Kind = model.KindAlias
			t.Underlying = &model.TypeRef{Kind: model.RefNamed, Named: target.t}
			n.object = target.object
			n.schema = &runtime.Schema{Ref: runtime.RefPrefix + pointerEscaper.Replace(target.docName)}
			return
		}
	}
	t.Doc = schemaDoc(s)
	ot := b.schemaType(s, loc, model.SchemaPlace(t), t)
	n.object = ot.object
	n.schema = ot.schema
	if ot.ref.Kind == model.RefNamed && ot.ref.Named == t {
		return // defined in place: struct, enum
	}
	switch ot.ref.Kind {
	case model.RefNamed, model.RefTime, model.RefRaw, model.RefBytes, model.RefAny:
		// An alias keeps the JSON methods of the target.
		t.Kind = model.KindAlias
	default:
		t.Kind = model.KindNamed
	}
	t.Underlying = ot.ref
	if ot.note != "" {
		t.Doc = model.JoinDoc(t.Doc, ot.note)
	}
}

// conv converts the schema of the value at a place, which names the types an
// inline schema needs.
func (b *oaBuilder) conv(sr *openapi3.SchemaRef, loc oaLoc, at *model.Place) *oaType {
	if sr == nil {
		return &oaType{ref: &model.TypeRef{Kind: model.RefRaw}, schema: &runtime.Schema{}, note: "The document gives no schema: any JSON value."}
	}
	if sr.Ref != "" {
		saved := b.anon
		b.anon = 0 // a named schema's type is a type expression of its own
		n := b.ref(sr)
		b.anon = saved
		nullable := sr.Value != nil && sr.Value.Nullable
		return &oaType{
			ref:      &model.TypeRef{Kind: model.RefNamed, Named: n.t},
			schema:   &runtime.Schema{Ref: runtime.RefPrefix + pointerEscaper.Replace(n.docName)},
			nullable: nullable,
			object:   n.object || (sr.Value != nil && isObjectSchema(sr.Value)),
		}
	}
	if sr.Value == nil {
		return &oaType{ref: &model.TypeRef{Kind: model.RefRaw}, schema: &runtime.Schema{}, note: "The schema could not be resolved: any JSON value."}
	}
	if ot, ok := b.inline[sr.Value]; ok {
		if l, recursive := b.building[sr.Value]; recursive {
			return b.recursion(sr.Value, ot, l)
		}
		return ot
	}
	return b.schemaType(sr.Value, loc, at, nil)
}

func isObjectSchema(s *openapi3.Schema) bool {
	return s.Type.Is(openapi3.TypeObject) || len(s.Properties) > 0 || len(s.AllOf) > 0 && s.Type == nil
}

// schemaType converts an inline schema. A struct or enum it needs is named
// after its place, or is self when self is not nil (a named schema being
// defined).
func (b *oaBuilder) schemaType(s *openapi3.Schema, loc oaLoc, at *model.Place, self *model.Type) *oaType {
	var types []string
	nullable := s.Nullable
	if s.Type != nil {
		for _, t := range *s.Type {
			if t == openapi3.TypeNull {
				nullable = true
			} else {
				types = append(types, t)
			}
		}
	}
	// ds is what the package serves: every constraint keyword put in it is
	// one the decoders check (model.ConstraintsOf); a format is put by
	// b.format, which warns about one they cannot check.
	ds := &runtime.Schema{Description: schemaDoc(s), Nullable: nullable}
	if s.Default != nil {
		if raw, err := json.Marshal(s.Default); err == nil {
			ds.Default = raw
		}
	}
	raw := func(note string) *oaType {
		b.format(s, "", loc, ds)
		ds.Description = model.JoinDoc(ds.Description, note)
		return &oaType{ref: &model.TypeRef{Kind: model.RefRaw}, schema: ds, nullable: nullable, note: note}
	}
	// A schema that only wraps one other (allOf: [$ref], nullable), or a
	// oneOf/anyOf of one schema and null.
	if len(s.AllOf) == 1 && len(s.Properties) == 0 && len(s.OneOf) == 0 && len(s.AnyOf) == 0 {
		ot := *b.conv(s.AllOf[0], loc.add("allOf", "0"), at)
		ot.nullable = ot.nullable || nullable
		return b.wrapped(&ot, s)
	}
	for _, alts := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
		if len(alts) == 0 {
			continue
		}
		var rest []*openapi3.SchemaRef
		nullAlt := false
		for _, a := range alts {
			if a != nil && a.Value != nil && a.Value.Type != nil && len(*a.Value.Type) == 1 && (*a.Value.Type)[0] == openapi3.TypeNull {
				nullAlt = true
				continue
			}
			rest = append(rest, a)
		}
		if len(rest) == 1 && len(s.Properties) == 0 {
			key := "oneOf"
			if len(s.OneOf) == 0 {
				key = "anyOf"
			}
			ot := *b.conv(rest[0], loc.add(key, "0"), at)
			ot.nullable = ot.nullable || nullable || nullAlt
			return b.wrapped(&ot, s)
		}
		if len(rest) > 1 {
			b.format(s, "", loc, ds)
			return b.union(s, loc, at, self, nullable || nullAlt, ds)
		}
	}
	if len(s.AllOf) > 1 || len(s.AllOf) == 1 && len(s.Properties) > 0 {
		b.format(s, openapi3.TypeObject, loc, ds)
		return b.allOf(s, loc, at, self, nullable, ds)
	}
	if len(types) > 1 {
		return raw("Untyped: the value may be any of the JSON types " + strings.Join(types, ", ") + ".")
	}
	typ := ""
	if len(types) == 1 {
		typ = types[0]
	}
	if typ == "" {
		switch {
		case len(s.Properties) > 0 || s.AdditionalProperties.Schema != nil:
			typ = openapi3.TypeObject
		case s.Items != nil || len(s.PrefixItems) > 0:
			typ = openapi3.TypeArray
		case len(enumOf(s)) > 0:
			typ = enumType(enumOf(s))
		}
	}
	ds.Type = typ
	switch typ {
	case openapi3.TypeObject, openapi3.TypeArray:
		b.format(s, typ, loc, ds)
	}
	switch typ {
	case openapi3.TypeObject:
		if len(s.Properties) > 0 {
			b.objectBounds(s, loc, ds)
			ot := b.object(s, loc, at, self, nullable, ds, objectMembers{schemas: []*openapi3.Schema{s}, locs: []oaLoc{loc}})
			if ot.ref.Kind == model.RefNamed && ot.ref.Named.Kind == model.KindStruct {
				ot.ref.Named.Check = model.ConstraintsOf(ds, model.RefMap)
			}
			return ot
		}
		if ap := s.AdditionalProperties; ap.Schema != nil {
			return b.nesting(at, self, func() *oaType {
				elem := b.conv(ap.Schema, loc.add("additionalProperties"), at.Value())
				ds.AdditionalProperties = elem.schema
				b.objectBounds(s, loc, ds)
				return &oaType{ref: &model.TypeRef{Kind: model.RefMap, Elem: elem.ref, Check: model.ConstraintsOf(ds, model.RefMap)}, schema: ds, nullable: nullable, object: true}
			})
		}
		b.objectBounds(s, loc, ds)
		return &oaType{ref: &model.TypeRef{Kind: model.RefMap, Elem: &model.TypeRef{Kind: model.RefAny}, Check: model.ConstraintsOf(ds, model.RefMap)}, schema: ds, nullable: nullable, object: true}
	case openapi3.TypeArray:
		if len(s.PrefixItems) > 0 {
			return b.tuple(s, loc, at, self, nullable, ds)
		}
		return b.nesting(at, self, func() *oaType {
			elem := b.conv(s.Items, loc.add("items"), at.Item())
			ds.Items = elem.schema
			b.arrayBounds(s, loc, ds)
			r := &model.TypeRef{Kind: model.RefSlice, Elem: elem.ref, Check: model.ConstraintsOf(ds, model.RefSlice)}
			return &oaType{ref: r, schema: ds, nullable: nullable}
		})
	case openapi3.TypeString, openapi3.TypeInteger, openapi3.TypeNumber, openapi3.TypeBoolean:
		if len(enumOf(s)) > 0 && typ != openapi3.TypeBoolean {
			if ot := b.enum(s, loc, at, self, typ, nullable, ds); ot != nil {
				return ot
			}
		}
		r := b.scalar(s, typ, loc, ds)
		return &oaType{ref: r, schema: ds, nullable: nullable}
	case "":
		if s.Not != nil {
			return raw("Untyped: the schema only says what the value is not (not); any other JSON value.")
		}
		if len(s.Properties) == 0 && s.Items == nil {
			return raw("Untyped: the schema does not restrict the value; any JSON value.")
		}
	}
	return raw("Untyped: type " + strconv.Quote(typ) + " is not a JSON Schema type.")
}

// tuple is the type of an array schema with prefixItems (OpenAPI 3.1, or
// an array of schemas in items, which check reads so): a tuple, whose items
// have a schema each. Go has no tuple type that a model, a Go caller and the
// declarations' profiles all take (OpenAI's and Gemini's schemas have no
// prefixItems), so a tuple whose items all have the same schema (a point
// [x, y]; the items after them too, unless items is false) is a slice of
// that schema's type, at most as long as the tuple when no more items are
// allowed; any other is a slice of untyped values (json.RawMessage) whose
// description lists the items' schemas.
func (b *oaBuilder) tuple(s *openapi3.Schema, loc oaLoc, at *model.Place, self *model.Type, nullable bool, ds *runtime.Schema) *oaType {
	closed := s.Items != nil && s.Items.Value != nil && s.Items.Value.Always != nil && !*s.Items.Value.Always
	parts := s.PrefixItems
	if s.Items != nil && !closed {
		parts = append(slices.Clone(parts), s.Items)
	}
	same := true
	for _, p := range parts[1:] {
		same = same && sameSchema(parts[0], p)
	}
	return b.nesting(at, self, func() *oaType {
		b.arrayBounds(s, loc, ds)
		if closed && ds.MaxItems == nil {
			v := int64(len(s.PrefixItems))
			ds.MaxItems = &v
		}
		c := model.ConstraintsOf(ds, model.RefSlice)
		if same {
			elem := b.conv(parts[0], loc.add("prefixItems", "0"), at.Item())
			ds.Items = elem.schema
			// The items' own descriptions, which the one items schema
			// cannot hold: "Items: 1. latitude; 2. longitude."
			var says []string
			for i, p := range s.PrefixItems {
				if p.Ref == "" && p.Value != nil && strings.TrimSpace(p.Value.Description) != "" {
					says = append(says, strconv.Itoa(i+1)+". "+strings.TrimSpace(p.Value.Description))
				}
			}
			if len(says) > 0 {
				ds.Description = model.JoinDoc(ds.Description, "Items: "+strings.Join(says, "; ")+".")
				if elem.schema.Ref == "" && elem.schema.Description != "" {
					cp := *elem.schema // the first item's description is in the list
					cp.Description = ""
					ds.Items = &cp
				}
			}
			return &oaType{ref: &model.TypeRef{Kind: model.RefSlice, Elem: elem.ref, Check: c}, schema: ds, nullable: nullable}
		}
		kinds := make([]string, len(s.PrefixItems))
		for i, p := range s.PrefixItems {
			kinds[i] = schemaKind(p)
		}
		more := "; any items after them"
		switch {
		case closed:
			more = "; no items after them"
		case s.Items != nil:
			more = "; items after them: " + schemaKind(s.Items)
		}
		note := "Untyped items: a tuple whose items have different schemas (" + strings.Join(kinds, ", ") + more + "); each item is any JSON value."
		ds.Items = &runtime.Schema{}
		ds.Description = model.JoinDoc(ds.Description, note)
		return &oaType{ref: &model.TypeRef{Kind: model.RefSlice, Elem: &model.TypeRef{Kind: model.RefRaw}, Check: c}, schema: ds, nullable: nullable, note: note}
	})
}

// sameSchema reports whether a and b are the same schema: the same
// reference, or inline schemas that differ in their descriptions at most.
func sameSchema(a, b *openapi3.SchemaRef) bool {
	if a == nil || b == nil || a.Ref != "" || b.Ref != "" {
		return a != nil && b != nil && a.Ref == b.Ref && a.Ref != ""
	}
	if a.Value == nil || b.Value == nil {
		return false
	}
	x, y := *a.Value, *b.Value
	x.Title, x.Description, x.Example, x.Examples = "", "", nil, nil
	y.Title, y.Description, y.Example, y.Examples = "", "", nil, nil
	jx, errx := json.Marshal(&x)
	jy, erry := json.Marshal(&y)
	return errx == nil && erry == nil && string(jx) == string(jy)
}

// schemaKind names the schema of a tuple's item for a description: the
// schema a reference names, else its type ("number", "string or null"), or
// "any value".
func schemaKind(sr *openapi3.SchemaRef) string {
	if sr == nil {
		return "any value"
	}
	if sr.Ref != "" {
		name := sr.Ref
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = pointerUnescaper.Replace(name[i+1:])
		}
		return source.ClipValue(name)
	}
	if sr.Value == nil || sr.Value.Type == nil || len(*sr.Value.Type) == 0 {
		return "any value"
	}
	return strings.Join(*sr.Value.Type, " or ")
}

// nesting returns the slice or map type that build makes, one level deeper
// in the type expression; at maxAnonymousNesting levels (and not for a named
// schema being defined, self), a named type over it (named after its place),
// which starts a new type expression.
func (b *oaBuilder) nesting(at *model.Place, self *model.Type, build func() *oaType) *oaType {
	if b.anon < model.MaxAnonymousNesting || self != nil {
		b.anon++
		defer func() { b.anon-- }()
		return build()
	}
	t := &model.Type{Kind: model.KindNamed}
	b.naming.Type(t, at)
	b.pkg.Types = append(b.pkg.Types, t)
	saved := b.anon
	b.anon = 1
	ot := *build()
	b.anon = saved
	t.Underlying = ot.ref
	ot.ref = &model.TypeRef{Kind: model.RefNamed, Named: t}
	return &ot
}

// wrapped is the type of a schema that wraps another: the other's, with the
// wrapper's description in the document.
func (b *oaBuilder) wrapped(ot *oaType, s *openapi3.Schema) *oaType {
	if d := schemaDoc(s); d != "" || s.Nullable {
		cp := *ot.schema
		if cp.Ref != "" {
			// A reference carries no other members in OpenTool: keep the reference.
			return ot
		}
		if d != "" {
			cp.Description = d
		}
		cp.Nullable = cp.Nullable || ot.nullable
		ot.schema = &cp
	}
	return ot
}

// enumType is the JSON type of enum values, "" when they mix types.
func enumType(values []any) string {
	typ := ""
	for _, v := range values {
		var t string
		switch x := v.(type) {
		case string:
			t = openapi3.TypeString
		case bool:
			t = openapi3.TypeBoolean
		case float64:
			t = openapi3.TypeInteger
			if x != float64(int64(x)) {
				t = openapi3.TypeNumber
			}
		case json.Number:
			t = openapi3.TypeInteger
			if _, err := x.Int64(); err != nil {
				t = openapi3.TypeNumber
			}
		case nil:
			continue
		default:
			return ""
		}
		if typ != "" && typ != t {
			if typ == openapi3.TypeInteger && t == openapi3.TypeNumber || typ == openapi3.TypeNumber && t == openapi3.TypeInteger {
				typ = openapi3.TypeNumber
				continue
			}
			return ""
		}
		typ = t
	}
	return typ
}

// scalar is the type of a string, integer, number or boolean schema, with its
// format and constraints (b.constrain).
func (b *oaBuilder) scalar(s *openapi3.Schema, typ string, loc oaLoc, ds *runtime.Schema) *model.TypeRef {
	var r *model.TypeRef
	switch typ {
	case openapi3.TypeString:
		switch s.Format {
		case "date-time":
			r = &model.TypeRef{Kind: model.RefTime}
		case "byte", "binary":
			r = &model.TypeRef{Kind: model.RefBytes}
		default:
			r = &model.TypeRef{Kind: model.RefString}
		}
	case openapi3.TypeInteger:
		r = &model.TypeRef{Kind: model.RefInt}
		if s.Format == "int32" {
			r.Bits = 32
		}
	case openapi3.TypeNumber:
		r = &model.TypeRef{Kind: model.RefFloat}
		if s.Format == "float" {
			r.Bits = 32
		}
	default:
		r = &model.TypeRef{Kind: model.RefBool}
	}
	if r.Kind == model.RefTime || r.Kind == model.RefBytes {
		// The type checks the format; no other constraint is checked.
		ds.Format = s.Format
		return r
	}
	r.Check = b.constrain(s, typ, loc, ds, r.Kind)
	return r
}

// constrain puts in ds the format and the constraints of a string, integer,
// number or boolean schema s (a value of kind k), and returns the checks of
// the decoders (model.ConstraintsOf): what ds keeps, the decoders check. A
// format or pattern they cannot check is dropped from ds with a warning, as
// are bounds that no value meets (b.conflicts).
func (b *oaBuilder) constrain(s *openapi3.Schema, typ string, loc oaLoc, ds *runtime.Schema, k model.RefKind) *model.Constraints {
	b.format(s, typ, loc, ds)
	switch typ {
	case openapi3.TypeString:
		if s.MinLength > 0 {
			v := int64(s.MinLength)
			ds.MinLength = &v
		}
		if s.MaxLength != nil {
			v := int64(*s.MaxLength)
			ds.MaxLength = &v
		}
		if s.Pattern != "" {
			if _, err := regexp.Compile(s.Pattern); err != nil {
				b.warn(loc.add("pattern"), "pattern %q is not checked: Go's regexp package does not accept it (%v)", source.ClipValue(s.Pattern), source.ClipTo(strings.TrimPrefix(err.Error(), "error parsing regexp: "), 120))
			} else {
				ds.Pattern = s.Pattern
			}
		}
	case openapi3.TypeInteger, openapi3.TypeNumber:
		b.bounds(s, ds)
	}
	b.conflicts(s, loc, ds)
	c := model.ConstraintsOf(ds, k)
	if c != nil && c.Pattern != "" {
		b.naming.Pattern(c)
	}
	return c
}

// format puts the format of s, of JSON type typ ("" when it has none or
// several: a union, an untyped value), in ds when the decoders check it
// (checked.Format); else it warns at its place.
func (b *oaBuilder) format(s *openapi3.Schema, typ string, loc oaLoc, ds *runtime.Schema) {
	if s.Format == "" {
		return
	}
	if ok, why := checked.Format(typ, s.Format); !ok {
		b.warn(loc.add("format"), "format %q is not checked: %s", source.ClipValue(s.Format), why)
		return
	}
	ds.Format = s.Format
}

// conflicts drops from ds the bounds that no value meets
// (checked.Conflicts), with a warning at the upper bound's place.
func (b *oaBuilder) conflicts(s *openapi3.Schema, loc oaLoc, ds *runtime.Schema) {
	for _, c := range checked.Conflicts(ds) {
		loKey, lo := b.boundLiteral(s, loc, c.Lo, ds)
		hiKey, hi := b.boundLiteral(s, loc, c.Hi, ds)
		b.warn(loc.add(hiKey), "%s", c.Warning(loKey, lo, hi))
		c.Drop(ds)
	}
}

// boundLiteral returns the member of s that holds the bound key of ds and
// its literal: key's own, or for OpenAPI 3.0's boolean exclusiveMinimum
// (exclusiveMaximum) the minimum (maximum) it makes exclusive.
func (b *oaBuilder) boundLiteral(s *openapi3.Schema, loc oaLoc, key string, ds *runtime.Schema) (string, string) {
	var v float64
	switch key {
	case "minimum":
		v = *ds.Minimum
	case "exclusiveMinimum":
		v = *ds.ExclusiveMinimum
		if s.ExclusiveMin.Bool != nil {
			key = "minimum"
		}
	case "maximum":
		v = *ds.Maximum
	case "exclusiveMaximum":
		v = *ds.ExclusiveMaximum
		if s.ExclusiveMax.Bool != nil {
			key = "maximum"
		}
	case "minLength":
		v = float64(*ds.MinLength)
	case "maxLength":
		v = float64(*ds.MaxLength)
	case "minItems":
		v = float64(*ds.MinItems)
	case "maxItems":
		v = float64(*ds.MaxItems)
	case "minProperties":
		v = float64(*ds.MinProperties)
	case "maxProperties":
		v = float64(*ds.MaxProperties)
	}
	if n := b.node(loc.add(key)); n != nil && n.Kind == jsontree.Number {
		return key, n.Str
	}
	return key, strconv.FormatFloat(v, 'g', -1, 64)
}

// bounds puts the bounds of a number schema in ds: minimum, maximum,
// exclusive ones in JSON Schema's form (OpenAPI 3.0's boolean
// exclusiveMinimum makes minimum the exclusive bound; 3.1's is the number),
// multipleOf.
func (b *oaBuilder) bounds(s *openapi3.Schema, ds *runtime.Schema) {
	if s.Min != nil {
		v := *s.Min
		if s.ExclusiveMin.Bool != nil && *s.ExclusiveMin.Bool {
			ds.ExclusiveMinimum = &v
		} else {
			ds.Minimum = &v
		}
	}
	if s.Max != nil {
		v := *s.Max
		if s.ExclusiveMax.Bool != nil && *s.ExclusiveMax.Bool {
			ds.ExclusiveMaximum = &v
		} else {
			ds.Maximum = &v
		}
	}
	if v := s.ExclusiveMin.Value; v != nil && ds.ExclusiveMinimum == nil {
		x := *v
		ds.ExclusiveMinimum = &x
	}
	if v := s.ExclusiveMax.Value; v != nil && ds.ExclusiveMaximum == nil {
		x := *v
		ds.ExclusiveMaximum = &x
	}
	if m := s.MultipleOf; m != nil && *m > 0 && !math.IsInf(*m, 0) {
		x := *m
		ds.MultipleOf = &x
	}
}

// arrayBounds puts minItems, maxItems and uniqueItems of an array schema in
// ds, what no value meets dropped with a warning (b.conflicts).
func (b *oaBuilder) arrayBounds(s *openapi3.Schema, loc oaLoc, ds *runtime.Schema) {
	defer b.conflicts(s, loc, ds)
	if s.MinItems > 0 {
		v := int64(s.MinItems)
		ds.MinItems = &v
	}
	if s.MaxItems != nil {
		v := int64(*s.MaxItems)
		ds.MaxItems = &v
	}
	ds.UniqueItems = s.UniqueItems
}

// objectBounds puts minProperties and maxProperties of an object schema in
// ds, what no value meets dropped with a warning (b.conflicts).
func (b *oaBuilder) objectBounds(s *openapi3.Schema, loc oaLoc, ds *runtime.Schema) {
	defer b.conflicts(s, loc, ds)
	if s.MinProps > 0 {
		v := int64(s.MinProps)
		ds.MinProperties = &v
	}
	if s.MaxProps != nil {
		v := int64(*s.MaxProps)
		ds.MaxProperties = &v
	}
}

// enumKey is what an enum value of type typ means, to find values listed
// twice: the string, or the number as Go's constants compare them (1 and
// 1.0 are one integer, one float64); false for a value of no such kind.
func enumKey(v any, typ string) (any, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		if n, err := x.Int64(); err == nil && typ == openapi3.TypeInteger {
			return n, true
		}
		f, err := x.Float64()
		if err != nil {
			return nil, false
		}
		v = f
	}
	f, ok := v.(float64)
	if !ok {
		return nil, false
	}
	if typ == openapi3.TypeInteger && f == float64(int64(f)) {
		return int64(f), true
	}
	return f, true
}

// enumOf are the values a schema allows: its enum, else its const (OpenAPI
// 3.1) as the one value.
func enumOf(s *openapi3.Schema) []any {
	if len(s.Enum) == 0 && s.Const != nil {
		return []any{s.Const}
	}
	return s.Enum
}

// enum makes an enum type of a string, integer or number schema; nil when the
// values do not fit the type. A value the enum lists again (Stripe lists one
// api_version 98 times) is kept once, with a warning at its second place:
// two equal constants would be duplicate cases of the type's Valid.
func (b *oaBuilder) enum(s *openapi3.Schema, loc oaLoc, at *model.Place, self *model.Type, typ string, nullable bool, ds *runtime.Schema) *oaType {
	var vals []any
	type repeat struct {
		first, again int // indexes in enumOf(s)
		n            int // times the value is listed
	}
	seen := map[any]*repeat{} // a value's meaning (string, int64 or float64) → where
	var repeats []*repeat
	for i, v := range enumOf(s) {
		if key, ok := enumKey(v, typ); ok {
			if r := seen[key]; r != nil {
				if r.n++; r.n == 2 {
					r.again = i
					repeats = append(repeats, r)
				}
				continue
			}
			seen[key] = &repeat{first: i, n: 1}
		}
		switch x := v.(type) {
		case nil:
			nullable = true
			continue
		case string:
			if typ != openapi3.TypeString {
				return nil
			}
			vals = append(vals, x)
		case float64:
			if typ == openapi3.TypeString {
				return nil
			}
			if typ == openapi3.TypeInteger && x != float64(int64(x)) {
				return nil
			}
			vals = append(vals, json.Number(strconv.FormatFloat(x, 'g', -1, 64)))
		case json.Number:
			if typ == openapi3.TypeString {
				return nil
			}
			vals = append(vals, x)
		default:
			return nil
		}
	}
	if len(vals) == 0 {
		return nil
	}
	for _, r := range repeats {
		v, _ := json.Marshal(enumOf(s)[r.first])
		b.warn(loc.add("enum", strconv.Itoa(r.again)), "the enum lists the value %s %d times (first at index %d): kept once", source.ClipTo(string(v), 100), r.n, r.first)
	}
	t := b.inlineType(s, at, self)
	b.naming.Enum(t, &runtime.Schema{Type: typ, Enum: vals})
	ds.Enum = vals
	ds.Nullable = nullable
	// The enum's type checks the constraints of its values too: what ds
	// serves, the decoder checks.
	t.Underlying.Check = b.constrain(s, typ, loc, ds, t.Underlying.Kind)
	ot := &oaType{ref: &model.TypeRef{Kind: model.RefNamed, Named: t}, schema: ds, nullable: nullable}
	if self == nil {
		b.inline[s] = ot
	}
	return ot
}

// recursion returns the type of the inline schema s met again inside its own
// members (at l): the same Go type, and in the OpenTool document a reference
// to s's schema, which becomes an entry of the document's schemas named after
// where s is.
func (b *oaBuilder) recursion(s *openapi3.Schema, ot *oaType, l oaLoc) *oaType {
	name, ok := b.promoted[s]
	if !ok {
		toks := strings.Split(strings.TrimPrefix(l.ptr, "/"), "/")
		if len(toks) > 4 {
			toks = toks[len(toks)-4:]
		}
		for i, t := range toks {
			toks[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
		}
		name = b.docNames.name(strings.Join(toks, "."))
		if b.promoted == nil {
			b.promoted = map[*openapi3.Schema]string{}
		}
		b.promoted[s] = name
		b.extra = append(b.extra, runtime.NamedSchema{Name: name, Schema: ot.schema})
	}
	cp := *ot
	cp.schema = &runtime.Schema{Ref: runtime.RefPrefix + pointerEscaper.Replace(name)}
	return &cp
}

// enter marks the inline schema s at l as being converted, until the
// function it returns is called.
func (b *oaBuilder) enter(s *openapi3.Schema, l oaLoc) func() {
	if b.building == nil {
		b.building = map[*openapi3.Schema]oaLoc{}
	}
	b.building[s] = l
	return func() { delete(b.building, s) }
}

// objectMembers are the schemas whose properties make one struct (one
// schema, or the parts of an allOf), with their places.
type objectMembers struct {
	schemas []*openapi3.Schema
	locs    []oaLoc
}

// pathTemplateNames returns the names in braces in the path template p, in
// order, once each.
func pathTemplateNames(p string) []string {
	var out []string
	for {
		i := strings.IndexByte(p, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(p[i:], '}')
		if j < 0 {
			return out
		}
		if name := p[i+1 : i+j]; name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
		p = p[i+j+1:]
	}
}

// hasProperties reports whether any of the schemas declares properties.
func (m objectMembers) hasProperties() bool {
	for _, s := range m.schemas {
		if len(s.Properties) > 0 {
			return true
		}
	}
	return false
}

// undeclaredMember is a member that a schema requires and none declares.
type undeclaredMember struct {
	name string
	loc  oaLoc // of the name in the required list
}

// undeclared returns the members the schemas require that are not among
// their properties (declared), in order, with a warning for each: they are
// kept, with any JSON value, since a request without them is refused.
func (b *oaBuilder) undeclared(m objectMembers, declared map[string]bool) []undeclaredMember {
	var out []undeclaredMember
	done := map[string]bool{}
	for i, s := range m.schemas {
		for j, r := range s.Required {
			if declared[r] || done[r] {
				continue
			}
			done[r] = true
			l := m.locs[i].add("required", strconv.Itoa(j))
			b.warn(l, "the member %q is required but not among the properties: it takes any JSON value", source.ClipValue(r))
			out = append(out, undeclaredMember{r, l})
		}
	}
	return out
}

// anySchema is the schema of any JSON value.
func anySchema() *openapi3.SchemaRef { return &openapi3.SchemaRef{Value: &openapi3.Schema{}} }

// inlineType returns self, or when it is nil a new type for the schema s at
// a place.
func (b *oaBuilder) inlineType(s *openapi3.Schema, at *model.Place, self *model.Type) *model.Type {
	if self != nil {
		return self
	}
	t := &model.Type{Doc: schemaDoc(s)}
	b.naming.Type(t, at)
	b.pkg.Types = append(b.pkg.Types, t)
	return t
}

// object makes a struct of the properties of members.
func (b *oaBuilder) object(s *openapi3.Schema, loc oaLoc, at *model.Place, self *model.Type, nullable bool, ds *runtime.Schema, members objectMembers) *oaType {
	t := b.inlineType(s, at, self)
	t.Kind = model.KindStruct
	ds.Type = openapi3.TypeObject
	ot := &oaType{ref: &model.TypeRef{Kind: model.RefNamed, Named: t}, schema: ds, nullable: nullable, object: true}
	if self == nil {
		b.inline[s] = ot // before the fields: a recursive inline schema ends here
		defer b.enter(s, loc)()
	}
	saved := b.anon
	b.anon = 0 // a field's type starts a type expression
	defer func() { b.anon = saved }()
	seen := map[string]bool{}
	required := map[string]bool{}
	for _, m := range members.schemas {
		for _, r := range m.Required {
			required[r] = true
		}
	}
	for i, m := range members.schemas {
		keys := make([]string, 0, len(m.Properties))
		for k := range m.Properties {
			keys = append(keys, k)
		}
		ploc := members.locs[i].add("properties")
		for _, k := range b.ordered(ploc, keys) {
			if seen[k] {
				continue
			}
			seen[k] = true
			p := m.Properties[k]
			f := &model.Field{JSONName: k, Required: required[k]}
			b.naming.Member(t, f)
			pt := b.conv(p, ploc.add(k), model.MemberPlace(t, f))
			if p != nil && p.Value != nil {
				f.Doc = schemaDoc(p.Value)
				if p.Ref != "" && f.Doc == schemaDoc(p.Value) {
					f.Doc = "" // the type's doc says it
				}
			}
			f.Doc = model.JoinDoc(f.Doc, pt.note)
			b.setNullable(f, pt)
			t.Fields = append(t.Fields, f)
			ds.Properties = append(ds.Properties, runtime.NamedSchema{Name: k, Schema: pt.schema})
			if f.Required {
				ds.Required = append(ds.Required, k)
			}
		}
	}
	for _, u := range b.undeclared(members, seen) {
		f := &model.Field{JSONName: u.name, Required: true}
		b.naming.Member(t, f)
		pt := b.conv(anySchema(), u.loc, model.MemberPlace(t, f))
		b.setNullable(f, pt)
		t.Fields = append(t.Fields, f)
		ds.Properties = append(ds.Properties, runtime.NamedSchema{Name: u.name, Schema: pt.schema})
		ds.Required = append(ds.Required, u.name)
	}
	if ds.Properties == nil {
		ds.Properties = runtime.Schemas{}
	}
	if ap := s.AdditionalProperties; ap.Schema != nil || ap.Has != nil && *ap.Has {
		t.Doc = model.JoinDoc(t.Doc, "Members other than the fields are not kept (additionalProperties).")
	}
	return ot
}

// setNullable sets a field's pointer-ness from its type.
func (b *oaBuilder) setNullable(f *model.Field, pt *oaType) {
	f.Type = pt.ref
	f.Nullable = pt.nullable
	f.Pointer = f.Nullable && pt.ref.Kind != model.RefRaw || !f.Required && oaNeedsPointer(pt.ref)
}

// oaNeedsPointer is needsPointer for the kinds of OpenAPI types: slices,
// maps, bytes and raw values tell absent (nil) from empty already.
func oaNeedsPointer(r *model.TypeRef) bool {
	switch r.Kind {
	case model.RefSlice, model.RefMap, model.RefAny, model.RefBytes, model.RefRaw:
		return false
	case model.RefNamed:
		if r.Named.Kind == model.KindNamed || r.Named.Kind == model.KindAlias {
			if r.Named.Underlying == nil {
				return true // not defined yet: a struct or enum in the making
			}
			return oaNeedsPointer(r.Named.Underlying)
		}

	}
	return true
}

// allOf merges the parts of an allOf (and the schema's own properties) into
// one struct.
func (b *oaBuilder) allOf(s *openapi3.Schema, loc oaLoc, at *model.Place, self *model.Type, nullable bool, ds *runtime.Schema) *oaType {
	var m objectMembers
	var add func(sr *openapi3.SchemaRef, l oaLoc, depth int) bool
	add = func(sr *openapi3.SchemaRef, l oaLoc, depth int) bool {
		if sr == nil || sr.Value == nil || depth > 32 {
			return false
		}
		if sr.Ref != "" {
			_, l = b.refKey(sr)
		}
		v := sr.Value
		for i, part := range v.AllOf {
			if !add(part, l.add("allOf", strconv.Itoa(i)), depth+1) {
				return false
			}
		}
		if len(v.OneOf) > 0 || len(v.AnyOf) > 0 {
			return false
		}
		if v.Type != nil && !v.Type.Is(openapi3.TypeObject) && !v.Type.Includes(openapi3.TypeObject) {
			return false
		}
		m.schemas = append(m.schemas, v)
		m.locs = append(m.locs, l)
		if ds.Description == "" {
			ds.Description = schemaDoc(v)
		}
		return true
	}
	ok := true
	for i, part := range s.AllOf {
		if !add(part, loc.add("allOf", strconv.Itoa(i)), 0) {
			ok = false
			break
		}
	}
	if ok {
		m.schemas = append(m.schemas, s)
		m.locs = append(m.locs, loc)
		return b.object(s, loc, at, self, nullable, ds, m)
	}
	note := "Untyped: the parts of this allOf are not all objects, so they cannot be merged."
	ds.Description = model.JoinDoc(ds.Description, note)
	return &oaType{ref: &model.TypeRef{Kind: model.RefRaw}, schema: ds, nullable: nullable, note: note}
}

// union makes a type of a oneOf or anyOf with several alternatives: a struct
// with one field per variant, decoded by discriminator or by trying each.
func (b *oaBuilder) union(s *openapi3.Schema, loc oaLoc, at *model.Place, self *model.Type, nullable bool, ds *runtime.Schema) *oaType {
	t := b.inlineType(s, at, self)
	t.Kind = model.KindUnion
	t.CustomJSON = true
	ot := &oaType{ref: &model.TypeRef{Kind: model.RefNamed, Named: t}, schema: ds, nullable: nullable}
	if self == nil {
		b.inline[s] = ot
		defer b.enter(s, loc)()
	}
	key, alts := "oneOf", s.OneOf
	if len(alts) == 0 {
		key, alts = "anyOf", s.AnyOf
	}
	saved := b.anon
	b.anon = 0 // a variant's type starts a type expression
	defer func() { b.anon = saved }()
	allObjects := true
	var docAlts []*runtime.Schema
	var varAlts []*openapi3.SchemaRef // the schema of each variant
	for i, a := range alts {
		if a != nil && a.Value != nil && a.Value.Type != nil && len(*a.Value.Type) == 1 && (*a.Value.Type)[0] == openapi3.TypeNull {
			continue
		}
		vt := b.conv(a, loc.add(key, strconv.Itoa(i)), model.VariantPlace(t, i+1))
		v := &model.Variant{Type: vt.ref}
		b.naming.Variant(t, v)
		switch vt.ref.Kind {
		case model.RefSlice, model.RefMap, model.RefBytes, model.RefRaw, model.RefAny:
		default:
			v.Pointer = true
		}
		if vt.ref.Kind == model.RefNamed {
			if n := b.namedOf(vt.ref.Named); n != nil {
				v.Tags = append(v.Tags, n.docName)
			}
		}
		allObjects = allObjects && vt.object
		t.Variants = append(t.Variants, v)
		varAlts = append(varAlts, a)
		docAlts = append(docAlts, vt.schema)
	}
	ot.object = allObjects
	if allObjects {
		ds.Type = runtime.TypeObject // for OpenTool readers that require a type
	}
	if key == "oneOf" {
		ds.OneOf = docAlts
	} else {
		ds.AnyOf = docAlts
	}
	if d := s.Discriminator; d != nil && d.PropertyName != "" {
		t.Discriminator = d.PropertyName
		shared := b.variantTags(t, varAlts, d, loc)
		for i, v := range t.Variants {
			// The document says which values of the member pick this
			// variant, so that a declaration made from it does too.
			docAlts[i] = b.tagged(docAlts[i], d.PropertyName, v.Tags)
		}
		if key == "oneOf" {
			ds.OneOf = docAlts
		} else {
			ds.AnyOf = docAlts
		}
		how := "The member " + strconv.Quote(d.PropertyName) + " tells which variant the value is."
		if shared {
			how = "The member " + strconv.Quote(d.PropertyName) + " tells which variant the value is; variants that share a value of it are told apart by their other members."
		}
		ds.Description = model.JoinDoc(ds.Description, how)
	}
	return ot
}

// variantTags sets the discriminator values that pick each variant of the
// union t (of schemas alts), which has discriminator d: the values its mapping
// gives a variant; for a variant it does not name, the values the variant's
// own schema pins its member to (an enum or a const, else a string default:
// Telegram's InlineQueryResultCachedAudio, "type" default "audio", which
// InlineQueryResultAudio is mapped from too), else its schema's name. A value
// the mapping gives a variant whose own schema excludes it can never pick it:
// a warning, and the variant is picked by its own values instead. Several
// variants may share a value: the decoder tries them in document order. It
// reports whether some do.
func (b *oaBuilder) variantTags(t *model.Type, alts []*openapi3.SchemaRef, d *openapi3.Discriminator, loc oaLoc) bool {
	prop := d.PropertyName
	mapped := make([]bool, len(t.Variants))
	var tags []string
	for k := range d.Mapping {
		tags = append(tags, k)
	}
	sort.Strings(tags)
	for _, tag := range tags {
		target := d.Mapping[tag].Ref
		name := target
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = pointerUnescaper.Replace(name[i+1:])
		}
		v, _ := b.mappedVariant(t, name)
		if v == nil {
			b.warn(loc.add("discriminator", "mapping", tag), "discriminator value %q maps to %q, which is not one of the variants", source.ClipValue(tag), source.ClipTo(target, 120))
			continue
		}
		i := slices.Index(t.Variants, v)
		if !mapped[i] {
			mapped[i] = true
			v.Tags = nil // an explicit mapping replaces the implicit value (the name)
		}
		if own := pinnedValues(discriminatorSchema(schemaOf(alts[i]), prop, 0)); own != nil && !slices.Contains(own, tag) {
			b.warn(loc.add("discriminator", "mapping", tag), "discriminator value %q maps to %q, whose %q is %s; the variant is picked by those values instead, in the decoder and the declarations",
				source.ClipValue(tag), source.ClipTo(target, 120), source.ClipValue(prop), valueList(own))
			continue
		}
		v.Tags = append(v.Tags, tag)
	}
	for i, v := range t.Variants {
		if mapped[i] && len(v.Tags) > 0 {
			continue
		}
		ps := discriminatorSchema(schemaOf(alts[i]), prop, 0)
		if own := pinnedValues(ps); own != nil {
			v.Tags = own
		} else if def, ok := ps.defaultString(); ok && !mapped[i] {
			v.Tags = []string{def}
		}
	}
	seen := map[string]bool{}
	shared := false
	for _, v := range t.Variants {
		for _, tag := range v.Tags {
			shared = shared || seen[tag]
			seen[tag] = true
		}
	}
	return shared
}

// maxDiscriminatorDepth bounds the search for a discriminator member through
// allOf parts.
const maxDiscriminatorDepth = 8

// discriminatorSchema returns the schema of the member prop of the object
// schema s, looked for in its properties and those of its allOf parts; a
// member's schema that only wraps another (allOf of one) is that other.
func discriminatorSchema(s *openapi3.Schema, prop string, depth int) *discSchema {
	if s == nil || depth > maxDiscriminatorDepth {
		return nil
	}
	if p := s.Properties[prop]; p != nil && p.Value != nil {
		ps := p.Value
		for k := 0; k < maxDiscriminatorDepth && len(ps.Enum) == 0 && ps.Const == nil && len(ps.AllOf) == 1 && ps.AllOf[0] != nil && ps.AllOf[0].Value != nil; k++ {
			ps = ps.AllOf[0].Value
		}
		return &discSchema{ps}
	}
	for _, a := range s.AllOf {
		if a != nil {
			if ps := discriminatorSchema(a.Value, prop, depth+1); ps != nil {
				return ps
			}
		}
	}
	return nil
}

// schemaOf returns the schema sr refers to, or nil.
func schemaOf(sr *openapi3.SchemaRef) *openapi3.Schema {
	if sr == nil {
		return nil
	}
	return sr.Value
}

// discSchema is the schema of a discriminator member.
type discSchema struct{ s *openapi3.Schema }

// defaultString returns the member's default when it is a string.
func (d *discSchema) defaultString() (string, bool) {
	if d == nil {
		return "", false
	}
	v, ok := d.s.Default.(string)
	return v, ok
}

// pinnedValues returns the string values a discriminator member's schema
// allows (its const or enum, in document order); nil when it does not list
// them.
func pinnedValues(d *discSchema) []string {
	if d == nil {
		return nil
	}
	var out []string
	if c, ok := d.s.Const.(string); ok {
		out = append(out, c)
	}
	for _, e := range d.s.Enum {
		if str, ok := e.(string); ok && !slices.Contains(out, str) {
			out = append(out, str)
		}
	}
	return out
}

// valueList quotes values for a message: at most four, then how many more.
func valueList(vals []string) string {
	var parts []string
	for i, v := range vals {
		if i == 4 {
			parts = append(parts, fmt.Sprintf("… (%d values)", len(vals)))
			break
		}
		parts = append(parts, strconv.Quote(source.ClipValue(v)))
	}
	if len(vals) == 1 {
		return parts[0]
	}
	return "one of " + strings.Join(parts, ", ")
}

// tagged returns the OpenTool schema of a variant of a discriminated union
// whose member prop takes one of tags: a copy of the variant's object schema
// (a reference resolved one level) with that member's values listed, or the
// schema itself when it is not an object with properties.
func (b *oaBuilder) tagged(alt *runtime.Schema, prop string, tags []string) *runtime.Schema {
	if len(tags) == 0 || alt == nil {
		return alt
	}
	base := alt
	if alt.Ref != "" {
		name, ok := runtime.RefName(alt.Ref)
		if !ok {
			return alt
		}
		base = nil
		for _, n := range b.namedList {
			if n.docName == name {
				base = n.schema
				break
			}
		}
	}
	if base == nil || base.Type != runtime.TypeObject || len(base.Properties) == 0 {
		return alt
	}
	enum := make([]any, len(tags))
	for i, tag := range tags {
		enum[i] = tag
	}
	cp := *base
	cp.Properties = append(runtime.Schemas(nil), base.Properties...)
	found := false
	for i, p := range cp.Properties {
		if p.Name == prop {
			ps := runtime.Schema{Type: runtime.TypeString}
			if p.Schema != nil && p.Schema.Ref == "" {
				ps = *p.Schema
			}
			ps.Enum = enum
			cp.Properties[i].Schema = &ps
			found = true
		}
	}
	if !found {
		cp.Properties = append(cp.Properties, runtime.NamedSchema{Name: prop, Schema: &runtime.Schema{Type: runtime.TypeString, Enum: enum}})
	}
	if !slices.Contains(cp.Required, prop) {
		cp.Required = append(append([]string(nil), cp.Required...), prop)
	}
	return &cp
}

// namedOf returns the named schema of a type, or nil.
func (b *oaBuilder) namedOf(t *model.Type) *oaNamed { return b.byType[t] }

// mappedVariant returns the variant of the union t whose schema a
// discriminator's mapping names (the last token of its reference, or a
// schema name), and that schema: the first whose name is the same, else the
// first whose name is the same but for case and punctuation ("pet_dog" for
// "PetDog"); nil when none is.
func (b *oaBuilder) mappedVariant(t *model.Type, name string) (*model.Variant, *oaNamed) {
	for _, exact := range []bool{true, false} {
		for _, v := range t.Variants {
			if v.Type.Kind != model.RefNamed {
				continue
			}
			n := b.namedOf(v.Type.Named)
			if n != nil && (n.docName == name || !exact && looseName(n.docName) == looseName(name)) {
				return v, n
			}
		}
	}
	return nil, nil
}

// looseName is a name's letters and digits, in lower case.
func looseName(s string) string {
	return strings.Map(func(r rune) rune {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// unique hands out document names (the OpenTool document's schema names,
// the functions' names on the wire) that differ from those it handed out
// before: a name handed out again gets the smallest number ≥ 2 that makes it
// new (pet, pet2); its zero value is ready to use.
type unique struct {
	used map[string]bool
	// next is, per name handed out more than once, the number to try first.
	next map[string]int
}

func (u *unique) name(base string) string {
	if u.used == nil {
		u.used, u.next = map[string]bool{}, map[string]int{}
	}
	name := base
	if u.used[name] {
		n := max(u.next[base], 2)
		for name = base + strconv.Itoa(n); u.used[name]; name = base + strconv.Itoa(n) {
			n++
		}
		u.next[base] = n + 1
	}
	u.used[name] = true
	return name
}

// ---- operations -----------------------------------------------------------------

var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace", "query"}

// operations builds one function per operation, in document order.
func (b *oaBuilder) operations() {
	if b.doc.Paths == nil {
		return
	}
	paths := b.ordered(oaLoc{file: b.root}.add("paths"), b.doc.Paths.Keys())
	var wire unique // function names on the wire
	for _, p := range paths {
		item := b.doc.Paths.Value(p)
		if item == nil {
			continue
		}
		ops := item.Operations()
		var keys []string
		for m := range ops {
			keys = append(keys, strings.ToLower(m))
		}
		ploc := oaLoc{file: b.root}.add("paths", p)
		// Document order, else the order of httpMethods.
		var order []string
		if n := b.node(ploc); n != nil && n.Kind == jsontree.Object {
			for _, m := range n.Members {
				if ops[strings.ToUpper(m.Key)] != nil {
					order = append(order, m.Key)
				}
			}
		}
		if len(order) != len(ops) {
			order = nil
			for _, m := range httpMethods {
				if ops[strings.ToUpper(m)] != nil {
					order = append(order, m)
				}
			}
			var extra []string
			for _, k := range keys {
				if !model.Contains(httpMethods, k) {
					extra = append(extra, k)
				}
			}
			sort.Strings(extra)
			order = append(order, extra...)
		}
		for _, m := range order {
			op := ops[strings.ToUpper(m)]
			b.operation(strings.ToUpper(m), p, item, op, ploc.add(m), &wire)
		}
	}
}

// wireName is an operation's function name: the operationId with every
// character but letters, digits, _ and - replaced (LLM function names allow
// no others), or one derived from method and path.
func wireName(opID, method, p string) string {
	src := opID
	if src == "" {
		src = strings.ToLower(method) + "_" + p
	}
	var b strings.Builder
	under := false
	for _, r := range src {
		ok := r < 128 && (model.IsLetterOrDigit(r) || r == '-') || r == '_'
		if !ok {
			if !under && b.Len() > 0 {
				b.WriteByte('_')
				under = true
			}
			continue
		}
		b.WriteRune(r)
		under = r == '_'
	}
	s := strings.Trim(b.String(), "_")
	if opID != "" && s != opID && len(s) < 3 {
		return wireName("", method, p) // too little of the operationId survived
	}
	if s == "" {
		s = strings.ToLower(method)
	}
	if len(s) > 60 {
		s = s[:60]
	}
	return s
}

// operation builds the function of one operation.
func (b *oaBuilder) operation(method, p string, item *openapi3.PathItem, op *openapi3.Operation, loc oaLoc, wire *unique) {
	name := wire.name(wireName(op.OperationID, method, p))
	fn := &model.Function{Name: name}
	if op.OperationID != "" {
		b.naming.Method(fn, op.OperationID)
	} else {
		b.naming.Method(fn, name)
	}
	fn.Doc = op.Summary
	if op.Description != "" && op.Description != op.Summary {
		fn.Doc = model.JoinDoc(fn.Doc, op.Description)
	}
	if op.Deprecated {
		fn.Doc = model.JoinDoc(fn.Doc, "Deprecated: the document marks this operation as deprecated.")
	}
	hop := &model.Operation{Method: method, Path: p, Tags: append([]string(nil), op.Tags...)}
	switch {
	case op.Servers != nil && len(*op.Servers) > 0:
		hop.Server = serverOf(*op.Servers)
	case len(item.Servers) > 0:
		hop.Server = serverOf(item.Servers)
	}
	if hop.Server != nil {
		b.opServers = true
	}
	fn.HTTP = hop
	dfn := runtime.Function{Name: name, Description: fn.Doc, Parameters: []runtime.Parameter{}}

	args := &model.Type{Kind: model.KindStruct}
	b.naming.Args(fn, args) // taken even if the operation has no arguments
	argNames := map[string]bool{}
	argName := func(n, in string) string {
		if !argNames[n] {
			argNames[n] = true
			return n
		}
		base := n + "_" + in
		c := base
		for i := 2; argNames[c]; i++ {
			c = base + strconv.Itoa(i)
		}
		argNames[c] = true
		return c
	}
	addField := func(f *model.Field, pt *oaType, doc string) {
		args.Fields = append(args.Fields, f)
		dfn.Parameters = append(dfn.Parameters, runtime.Parameter{Name: f.JSONName, Description: doc, Schema: pt.schema, Required: f.Required})
	}

	// Parameters: the path item's, replaced by the operation's of the same
	// name and place.
	type param struct {
		p   *openapi3.Parameter
		loc oaLoc
	}
	var params []param
	index := map[string]int{}
	for i, list := range []openapi3.Parameters{item.Parameters, op.Parameters} {
		base := loc.add("parameters")
		if i == 0 {
			base = oaLoc{file: loc.file, ptr: loc.ptr[:strings.LastIndexByte(loc.ptr, '/')]}.add("parameters")
		}
		for j, pr := range list {
			if pr == nil || pr.Value == nil {
				continue
			}
			pl := base.add(strconv.Itoa(j))
			k := pr.Value.In + " " + pr.Value.Name
			if at, ok := index[k]; ok {
				params[at] = param{pr.Value, pl}
				continue
			}
			index[k] = len(params)
			params = append(params, param{pr.Value, pl})
		}
	}
	for _, pp := range params {
		prm := pp.p
		in := strings.ToLower(prm.In)
		switch in {
		case model.InPath, model.InQuery, model.InHeader, model.InCookie:
		default:
			b.warn(pp.loc, "parameter in %q is not supported: left out", source.ClipValue(prm.In))
			continue
		}
		if in == model.InPath && !strings.Contains(p, "{"+prm.Name+"}") {
			// Asked for and sent nowhere: a validating server refuses the call.
			b.warn(pp.loc, "the path %q has no {%s}: the path parameter is left out", source.ClipTo(p, 100), source.ClipValue(prm.Name))
			continue
		}
		if in == model.InHeader {
			switch strings.ToLower(prm.Name) {
			case "accept", "content-type", "authorization":
				continue // the specification says these are ignored
			}
		}
		sm, err := prm.SerializationMethod()
		if err != nil {
			b.warn(pp.loc, "%v", err)
			continue
		}
		schema := prm.Schema
		sloc := pp.loc.add("schema")
		content := ""
		if schema == nil {
			// A parameter with content: its schema; a JSON media type's
			// value is sent as its JSON text.
			for _, mt := range sortedKeysOf(prm.Content) {
				if c := prm.Content[mt]; c != nil && c.Schema != nil {
					schema, sloc, content = c.Schema, pp.loc.add("content", mt, "schema"), mt
					break
				}
			}
		}
		f := &model.Field{JSONName: argName(prm.Name, in), Required: prm.Required || in == model.InPath}
		b.naming.Param(args, f)
		pt := b.conv(schema, sloc, model.ParamPlace(fn, f, prm.Name))
		f.Doc = model.JoinDoc(prm.Description, pt.note)
		b.setNullable(f, pt)
		f.HTTP = &model.FieldHTTP{In: in, Name: prm.Name, Style: sm.Style, Explode: sm.Explode, AllowReserved: prm.AllowReserved,
			JSON: model.MediaKind(content) == "json"}
		addField(f, pt, prm.Description)
	}

	// The path's parameters that neither declares: required strings, or
	// every call would fail.
	for _, name := range pathTemplateNames(p) {
		if _, ok := index[model.InPath+" "+name]; ok {
			continue
		}
		b.warn(loc, "the path %q has {%s}, which no parameter declares: it is a required string argument", source.ClipTo(p, 100), source.ClipValue(name))
		f := &model.Field{JSONName: argName(name, model.InPath), Required: true}
		b.naming.Param(args, f)
		sr := &openapi3.SchemaRef{Value: &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeString}}}
		pt := b.conv(sr, loc, model.ParamPlace(fn, f, name))
		b.setNullable(f, pt)
		f.HTTP = &model.FieldHTTP{In: model.InPath, Name: name, Style: "simple"}
		addField(f, pt, "")
	}

	// The request body.
	if rb := op.RequestBody; rb != nil && rb.Value != nil {
		b.requestBody(fn, rb.Value, loc.add("requestBody"), args, argName, addField)
	}
	// An optional argument that may be null, and whose null has a form on
	// the wire (a member of a JSON body, a JSON parameter), can send it.
	for _, f := range args.Fields {
		if f.Required || !f.Nullable || !f.Pointer || f.HTTP == nil {
			continue
		}
		if f.HTTP.JSON || f.HTTP.In == model.InBodyProp && model.MediaKind(hop.BodyMedia) == "json" {
			b.naming.NullFlag(args, f)
		}
	}

	b.responses(fn, op, loc.add("responses"), &dfn)

	// Security: the operation's requirements, else the document's.
	reqs := b.doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	for _, req := range reqs {
		var set []string
		usable := true
		for _, k := range sortedKeysOf(req) {
			if b.scheme(k) == nil {
				usable = false // a scheme the client cannot send
				break
			}
			set = append(set, k)
		}
		if usable {
			hop.Security = append(hop.Security, set)
		}
	}

	if len(args.Fields) > 0 {
		fn.Args = args
		b.pkg.Types = append(b.pkg.Types, args)
	}
	b.pkg.Functions = append(b.pkg.Functions, fn)
	b.docFunctions = append(b.docFunctions, dfn)
}

func (b *oaBuilder) scheme(name string) *model.SecurityScheme {
	for _, s := range b.pkg.API.Security {
		if s.Name == name {
			return s
		}
	}
	return nil
}

func sortedKeysOf[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// pickMedia chooses the media type a client sends or reads: JSON first, then
// forms, then text, then the first other one.
func pickMedia(content openapi3.Content) (string, *openapi3.MediaType) {
	keys := sortedKeysOf(content)
	for _, want := range []string{"json", "form", "multipart", "text", "binary"} {
		// application/json itself before other JSON types.
		for _, k := range keys {
			if strings.EqualFold(k, "application/json") && want == "json" {
				return k, content[k]
			}
		}
		for _, k := range keys {
			if model.MediaKind(k) == want {
				return k, content[k]
			}
		}
	}
	return "", nil
}

// requestBody adds the arguments of the request body: the members of an
// object body as arguments of their own, else one argument for the body.
func (b *oaBuilder) requestBody(fn *model.Function, rb *openapi3.RequestBody, loc oaLoc, args *model.Type, argName func(n, in string) string, addField func(*model.Field, *oaType, string)) {
	mt, media := pickMedia(rb.Content)
	if media == nil {
		return
	}
	hop := fn.HTTP
	hop.BodyMedia = mt
	hop.BodyRequired = rb.Required
	kind := model.MediaKind(mt)
	mloc := loc.add("content", mt, "schema")
	sr := media.Schema
	whole := func() {
		f := &model.Field{JSONName: argName("body", model.InBody), Required: rb.Required}
		b.naming.Body(args, f)
		var pt *oaType
		switch kind {
		case "binary":
			pt = &oaType{ref: &model.TypeRef{Kind: model.RefBytes}, schema: &runtime.Schema{Type: runtime.TypeString, Format: "byte"}}
		case "text":
			pt = &oaType{ref: &model.TypeRef{Kind: model.RefString}, schema: &runtime.Schema{Type: runtime.TypeString}}
		default:
			pt = b.conv(sr, mloc, model.BodyPlace(fn))
		}
		f.Doc = model.JoinDoc(rb.Description, pt.note)
		b.setNullable(f, pt)
		f.HTTP = &model.FieldHTTP{In: model.InBody, Name: mt}
		doc := rb.Description
		if doc == "" {
			doc = "The request body (" + mt + ")."
		}
		addField(f, pt, doc)
	}
	if kind == "binary" || kind == "text" || sr == nil || sr.Value == nil {
		whole()
		return
	}
	// The members of an object body, after merging allOf.
	var m objectMembers
	var collect func(sr *openapi3.SchemaRef, l oaLoc, depth int) bool
	collect = func(sr *openapi3.SchemaRef, l oaLoc, depth int) bool {
		if sr == nil || sr.Value == nil || depth > 32 {
			return false
		}
		if sr.Ref != "" {
			_, l = b.refKey(sr)
		}
		v := sr.Value
		if len(v.OneOf) > 0 || len(v.AnyOf) > 0 || v.Nullable || v.AdditionalProperties.Schema != nil {
			return false
		}
		if v.Type != nil && !v.Type.Is(openapi3.TypeObject) {
			return false
		}
		for i, part := range v.AllOf {
			if !collect(part, l.add("allOf", strconv.Itoa(i)), depth+1) {
				return false
			}
		}
		if len(v.Properties) > 0 || len(v.Required) > 0 { // a part may only require
			m.schemas = append(m.schemas, v)
			m.locs = append(m.locs, l)
		}
		return true
	}
	if !collect(sr, mloc, 0) || !m.hasProperties() {
		if kind == "json" {
			whole()
		} else {
			b.warn(mloc, "%s %s body must be an object with properties: the body is left out", indefinite(mt), mt)
		}
		return
	}
	type member struct {
		name string
		sr   *openapi3.SchemaRef
		loc  oaLoc
		req  bool
	}
	var members []member
	seen := map[string]bool{}
	required := map[string]bool{}
	for _, s := range m.schemas {
		for _, r := range s.Required {
			required[r] = true
		}
	}
	collide := false
	for i, s := range m.schemas {
		keys := make([]string, 0, len(s.Properties))
		for k := range s.Properties {
			keys = append(keys, k)
		}
		ploc := m.locs[i].add("properties")
		for _, k := range b.ordered(ploc, keys) {
			if seen[k] {
				continue
			}
			seen[k] = true
			if s.Properties[k] != nil && s.Properties[k].Value != nil && s.Properties[k].Value.ReadOnly {
				continue // never sent
			}
			members = append(members, member{k, s.Properties[k], ploc.add(k), required[k]})
			for _, f := range args.Fields {
				if f.JSONName == k {
					collide = true
				}
			}
		}
	}
	if collide && kind == "json" {
		whole()
		return
	}
	for _, u := range b.undeclared(m, seen) {
		members = append(members, member{u.name, anySchema(), u.loc, true})
	}
	for _, mb := range members {
		// A required member is a required argument even when the document
		// does not mark the body required (often forgotten, and never set
		// for Swagger 2.0 form parameters).
		f := &model.Field{JSONName: argName(mb.name, "body"), Required: mb.req}
		b.naming.Member(args, f)
		pt := b.conv(mb.sr, mb.loc, model.BodyMemberPlace(fn, f, mb.name))
		if mb.sr != nil && mb.sr.Value != nil && mb.sr.Ref == "" {
			f.Doc = schemaDoc(mb.sr.Value)
		}
		desc := f.Doc
		f.Doc = model.JoinDoc(f.Doc, pt.note)
		b.setNullable(f, pt)
		h := &model.FieldHTTP{In: model.InBodyProp, Name: mb.name, Style: "form", Explode: true}
		if enc := media.Encoding[mb.name]; enc != nil {
			h.ContentType = enc.ContentType
			if enc.Style != "" {
				h.Style = enc.Style
			}
			if enc.Explode != nil {
				h.Explode = *enc.Explode
			}
			h.AllowReserved = enc.AllowReserved
		}
		f.HTTP = h
		addField(f, pt, desc)
	}
}

// responses reads the documented responses: the success type is the result,
// the others become typed errors.
func (b *oaBuilder) responses(fn *model.Function, op *openapi3.Operation, loc oaLoc, dfn *runtime.Function) {
	if op.Responses == nil {
		return
	}
	codes := op.Responses.Keys()
	sort.Slice(codes, func(i, j int) bool { return statusRank(codes[i]) < statusRank(codes[j]) })
	hasSuccess := false
	for _, c := range codes {
		if strings.HasPrefix(c, "2") {
			hasSuccess = true
		}
	}
	hop := fn.HTTP
	for _, c := range codes {
		rr := op.Responses.Value(c)
		if rr == nil || rr.Value == nil {
			continue
		}
		r := &model.Response{Status: strings.ToUpper(c), Success: strings.HasPrefix(c, "2") || c == "default" && !hasSuccess}
		if c == "default" {
			r.Status = "default"
		}
		if rr.Value.Description != nil {
			r.Doc = *rr.Value.Description
		}
		if r.Success && b.streamResponse(fn, r, rr.Value.Content, loc.add(c), c, dfn) {
			hop.Responses = append(hop.Responses, r)
			continue
		}
		mt, media := pickMedia(rr.Value.Content)
		if media != nil {
			rloc := loc.add(c, "content", mt, "schema")
			switch model.MediaKind(mt) {
			case "json":
				if fn.Result != nil && r.Success {
					// a second success type: decoded into the first only if it is the same
					if media.Schema != nil && media.Schema.Ref != "" {
						n := b.ref(media.Schema)
						if fn.Result.Kind == model.RefNamed && fn.Result.Named == n.t {
							r.Type, r.Media = fn.Result, "json"
						}
					}
					break
				}
				pt := b.conv(media.Schema, rloc, model.ResponsePlace(fn, c, r.Success))
				r.Type, r.Media = pt.ref, "json"
				if r.Success {
					fn.Result = pt.ref
					ret := &runtime.Return{Name: "result", Description: r.Doc, Schema: pt.schema}
					if !pt.object {
						fn.ResultName = "result"
					}
					dfn.Return = ret
				}
			case "text":
				if r.Success && fn.Result == nil {
					r.Type, r.Media = &model.TypeRef{Kind: model.RefString}, "text"
					fn.Result, fn.ResultName = r.Type, "result"
					dfn.Return = &runtime.Return{Name: "result", Description: r.Doc, Schema: &runtime.Schema{Type: runtime.TypeString}}
				}
			case "binary":
				if r.Success && fn.Result == nil {
					r.Type, r.Media = &model.TypeRef{Kind: model.RefBytes}, "binary"
					fn.Result, fn.ResultName = r.Type, "result"
					dfn.Return = &runtime.Return{Name: "result", Description: model.JoinDoc(r.Doc, "Base64-encoded "+mt+"."), Schema: &runtime.Schema{Type: runtime.TypeString, Format: "byte"}}
				}
			}
		}
		hop.Responses = append(hop.Responses, r)
		if r.Success {
			b.responseHeaders(fn, rr.Value.Headers)
		}
	}
}

// responseHeaders adds the headers a success response declares to the
// operation's Headers: integers, numbers and booleans as such, anything else
// as its text.
func (b *oaBuilder) responseHeaders(fn *model.Function, headers openapi3.Headers) {
	hop := fn.HTTP
	for _, name := range sortedKeysOf(headers) {
		h := headers[name]
		if h == nil || h.Value == nil || strings.EqualFold(name, "content-type") {
			continue
		}
		if hop.Headers == nil {
			hop.Headers = &model.Type{Kind: model.KindStruct}
			b.naming.Headers(fn, hop.Headers)
		}
		dup := false
		for _, f := range hop.Headers.Fields {
			dup = dup || strings.EqualFold(f.HTTP.Name, name)
		}
		if dup {
			continue
		}
		kind := model.RefString
		if sr := h.Value.Schema; sr != nil && sr.Value != nil && sr.Value.Type != nil {
			switch {
			case sr.Value.Type.Is(openapi3.TypeInteger):
				kind = model.RefInt
			case sr.Value.Type.Is(openapi3.TypeNumber):
				kind = model.RefFloat
			case sr.Value.Type.Is(openapi3.TypeBoolean):
				kind = model.RefBool
			}
		}
		f := &model.Field{JSONName: name, Doc: h.Value.Description, Type: &model.TypeRef{Kind: kind}, Required: h.Value.Required,
			HTTP: &model.FieldHTTP{In: model.InHeader, Name: name}}
		hop.Headers.Fields = append(hop.Headers.Fields, f)
		b.naming.Member(hop.Headers, f)
	}
}

// streamResponse makes fn a streaming function when the success response r
// can be read as a stream (Server-Sent Events, NDJSON: model.StreamKind),
// preferred over the other media types it offers; it reports whether it did.
// Each event is a value of the media type's schema: JSON, or for SSE without
// a schema or with a plain string one, the event's data as text. A second
// streamed success response is read as the first.
func (b *oaBuilder) streamResponse(fn *model.Function, r *model.Response, content openapi3.Content, loc oaLoc, status string, dfn *runtime.Function) bool {
	var mt string
	for _, k := range sortedKeysOf(content) {
		if model.StreamKind(k) != "" && content[k] != nil {
			mt = k
			break
		}
	}
	if mt == "" {
		return false
	}
	kind := model.StreamKind(mt)
	if fn.Stream {
		r.Type, r.Media = fn.Result, model.StreamKind(fn.HTTP.StreamMedia)
		return true
	}
	if fn.Result != nil {
		return false // a success response that is not a stream came first
	}
	// The schema of each item: OpenAPI 3.2's itemSchema (for SSE, an event
	// whole), else the schema (in 3.2, of the whole stream as an array).
	media := content[mt]
	sr, sloc := media.Schema, loc.add("content", mt, "schema")
	events := false
	switch {
	case media.ItemSchema != nil:
		sr, sloc = media.ItemSchema, loc.add("content", mt, "itemSchema")
		events = kind == "sse"
	case sr != nil && sr.Value != nil && strings.HasPrefix(b.doc.OpenAPI, "3.2") && sr.Value.Type.Is(openapi3.TypeArray) && sr.Value.Items != nil:
		sr, sloc = sr.Value.Items, sloc.add("items")
		events = kind == "sse"
	case kind == "sse" && sr != nil && sr.Value != nil && isEventMap(sr.Value, 0):
		events = true // event names mapped to shapes, as OpenAI's documents do
	}
	var pt *oaType
	if kind == "sse" && !events && (sr == nil || sr.Value != nil && sr.Value.Type.Is(openapi3.TypeString) && sr.Value.Format == "" && len(sr.Value.Enum) == 0) {
		pt = &oaType{ref: &model.TypeRef{Kind: model.RefString}, schema: &runtime.Schema{Type: runtime.TypeString}}
	} else {
		pt = b.conv(sr, sloc, model.ResponsePlace(fn, status, true))
	}
	if events {
		b.eventTypes(sr, pt.ref, sloc, map[*model.Type]bool{})
	}
	fn.Stream = true
	fn.Result = pt.ref
	fn.HTTP.StreamMedia = mt
	fn.HTTP.StreamEvents = events
	r.Type, r.Media = pt.ref, kind
	if !pt.object {
		fn.ResultName = "result"
	}
	doc := r.Doc
	switch {
	case events:
		doc = model.JoinDoc(doc, "One value per event of the "+mt+" response: the event whole, its name, data, id and retry.")
	case kind == "sse":
		doc = model.JoinDoc(doc, "One value per event of the "+mt+" response.")
	default:
		doc = model.JoinDoc(doc, "One value per line of the "+mt+" response.")
	}
	dfn.Stream = map[string]*runtime.Return{"data": {Name: "result", Description: doc, Schema: pt.schema}}
	return true
}

// The members of a Server-Sent Event, as OpenAPI 3.2 models one.
var eventMembers = map[string]bool{"event": true, "data": true, "id": true, "retry": true}

// isEventSchema reports whether s is a Server-Sent Event: an object with a
// data member and no member an event does not have.
func isEventSchema(s *openapi3.Schema) bool {
	if s == nil || s.Properties["data"] == nil {
		return false
	}
	for k := range s.Properties {
		if !eventMembers[k] {
			return false
		}
	}
	return true
}

// eventNames are the names of the events an event schema stands for: the
// const or enum of its event member; nil when it names none.
func eventNames(s *openapi3.Schema) []string {
	p := s.Properties["event"]
	if p == nil || p.Value == nil {
		return nil
	}
	if c, ok := p.Value.Const.(string); ok {
		return []string{c}
	}
	var out []string
	for _, e := range p.Value.Enum {
		str, ok := e.(string)
		if !ok {
			return nil
		}
		out = append(out, str)
	}
	return out
}

// alternatives are the alternatives of a oneOf (else anyOf) schema, null
// left out as union leaves it out, and the keyword.
func alternatives(s *openapi3.Schema) ([]*openapi3.SchemaRef, []int, string) {
	key, alts := "oneOf", s.OneOf
	if len(alts) == 0 {
		key, alts = "anyOf", s.AnyOf
	}
	var out []*openapi3.SchemaRef
	var at []int
	for i, a := range alts {
		if a != nil && a.Value != nil && a.Value.Type != nil && len(*a.Value.Type) == 1 && (*a.Value.Type)[0] == openapi3.TypeNull {
			continue
		}
		out, at = append(out, a), append(at, i)
	}
	return out, at, key
}

// isEventMap reports whether s maps the names of Server-Sent Events to
// their shapes: a oneOf or anyOf whose every alternative is an event schema
// that names its events, or such a map.
func isEventMap(s *openapi3.Schema, depth int) bool {
	alts, _, _ := alternatives(s)
	if len(alts) == 0 || depth > 8 {
		return false
	}
	for _, a := range alts {
		if a == nil || a.Value == nil {
			return false
		}
		if !(isEventSchema(a.Value) && len(eventNames(a.Value)) > 0) && !isEventMap(a.Value, depth+1) {
			return false
		}
	}
	return true
}

// eventTypes prepares the types of the items of a text/event-stream
// response read whole (Operation.StreamEvents), which the runtime gives as
// {"event", "data", "id", "retry"}, data a string: a data member that is
// not text holds its value's JSON text (Field.JSONText), the type of an
// OpenAPI 3.2 contentSchema when the document gives one; a union whose
// variants each name their events is picked by the event's name (the
// discriminator "event") unless the document says otherwise. It returns
// the names of the events the type stands for, nil when it does not name
// them.
func (b *oaBuilder) eventTypes(sr *openapi3.SchemaRef, ref *model.TypeRef, loc oaLoc, seen map[*model.Type]bool) []string {
	if sr == nil || sr.Value == nil || ref == nil || ref.Kind != model.RefNamed {
		return nil
	}
	t := ref.Named
	for i := 0; t.Kind == model.KindAlias && t.Underlying != nil && t.Underlying.Kind == model.RefNamed && i < 100; i++ {
		t = t.Underlying.Named
	}
	if seen[t] {
		return nil
	}
	seen[t] = true
	s := sr.Value
	switch t.Kind {
	case model.KindStruct:
		if !isEventSchema(s) {
			return nil
		}
		for _, f := range t.Fields {
			if f.JSONName != "data" {
				continue
			}
			if p := s.Properties["data"]; p != nil && p.Value != nil && p.Value.ContentSchema != nil && model.MediaKind(p.Value.ContentMediaType) == "json" {
				pt := b.conv(p.Value.ContentSchema, loc.add("properties", "data", "contentSchema"), model.MemberPlace(t, f))
				b.setNullable(f, pt)
				if ds := b.docSchemaOf(sr); ds != nil {
					for i, m := range ds.Properties {
						if m.Name == "data" {
							ds.Properties[i].Schema = pt.schema
						}
					}
				}
			}
			if !isText(f.Type) {
				f.JSONText, t.CustomJSON = true, true
			}
		}
		return eventNames(s)
	case model.KindUnion:
		alts, at, key := alternatives(s)
		if len(alts) != len(t.Variants) {
			return nil
		}
		tags := make([][]string, len(alts))
		var all []string
		named := map[string]bool{}
		complete := true // every variant names its events, none another's
		for i, a := range alts {
			tags[i] = b.eventTypes(a, t.Variants[i].Type, loc.add(key, strconv.Itoa(at[i])), seen)
			complete = complete && len(tags[i]) > 0
			for _, n := range tags[i] {
				complete = complete && !named[n]
				named[n] = true
			}
			all = append(all, tags[i]...)
		}
		if !complete {
			return nil // the variants are tried in turn
		}
		if t.Discriminator != "" {
			return all
		}
		t.Discriminator = "event"
		ds := b.docSchemaOf(sr)
		for i, v := range t.Variants {
			v.Tags = append([]string(nil), tags[i]...)
			sort.Strings(v.Tags)
			if ds != nil && i < len(ds.OneOf) {
				ds.OneOf[i] = b.tagged(ds.OneOf[i], "event", v.Tags)
			} else if ds != nil && i < len(ds.AnyOf) {
				ds.AnyOf[i] = b.tagged(ds.AnyOf[i], "event", v.Tags)
			}
		}
		if ds != nil {
			ds.Description = model.JoinDoc(ds.Description, "The event's name (the member \"event\") tells which variant it is.")
		}
		return all
	}
	return nil
}

// isText reports whether values of r are strings.
func isText(r *model.TypeRef) bool {
	for i := 0; r != nil && r.Kind == model.RefNamed && i < 100; i++ {
		r = r.Named.Underlying
	}
	return r != nil && r.Kind == model.RefString
}

// docSchemaOf is the OpenTool schema a converted schema defines: a named
// schema's definition, or an inline one's; nil when it has none.
func (b *oaBuilder) docSchemaOf(sr *openapi3.SchemaRef) *runtime.Schema {
	if sr.Ref != "" {
		return b.ref(sr).schema
	}
	if ot := b.inline[sr.Value]; ot != nil {
		return ot.schema
	}
	return nil
}

// statusRank orders statuses: 2xx codes, 2XX, other codes, other ranges, default.
func statusRank(s string) int {
	s = strings.ToUpper(s)
	if s == "DEFAULT" {
		return 10000
	}
	if len(s) == 3 && s[1] == 'X' {
		n := int(s[0]-'0') * 100
		if s[0] == '2' {
			return 300 + n
		}
		return 5000 + n
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 9000
	}
	if n >= 200 && n < 300 {
		return n
	}
	return 1000 + n
}

// schemaDoc is the doc text of a schema: its title and description.
func schemaDoc(s *openapi3.Schema) string {
	if s == nil {
		return ""
	}
	if s.Title != "" && s.Description != "" && !strings.Contains(s.Description, s.Title) {
		return s.Title + "\n\n" + s.Description
	}
	if s.Description != "" {
		return s.Description
	}
	return s.Title
}
