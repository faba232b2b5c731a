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
	"net/url"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/load/openapi/fastload"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// The OpenAPI loader: kin-openapi parses the document (3.0, 3.1, or Swagger 2.0
// converted by openapi2conv) and resolves its references, local files
// included; this file turns the result into the model. kin-openapi keeps
// objects in Go maps, so the order of paths, properties and components is read
// back from the source tree (document order), falling back to name order.

// Load loads an OpenAPI or Swagger document and builds its model; model.Name
// makes its Go names (see the package doc).
func Load(src *source.Source, opts model.LoadOptions) (*model.Package, []source.Diagnostic, error) {
	b := &oaBuilder{
		src:          src,
		root:         path.Clean(filepath.ToSlash(src.Name)),
		swagger:      src.Tree.Get("swagger") != nil,
		named:        map[string]*oaNamed{},
		byType:       map[*model.Type]*oaNamed{},
		found:        map[nodeKey]*jsontree.Node{},
		index:        map[*jsontree.Node]map[string]*jsontree.Node{},
		inline:       map[*openapi3.Schema]*oaType{},
		enums:        map[string]*model.Type{},
		shapes:       map[string]*oaType{},
		sharedFirst:  map[*model.Type]*model.Place{},
		sharedPlaces: map[*model.Type][]*model.Place{},
		titles:       map[*model.Type]string{},
		bodies:       map[*model.Type]bool{},
		trees:        map[string]*jsontree.Node{},
		sources:      map[string]*source.Source{},
		files:        map[string][]byte{},
		slowLoad:     opts.SlowLoad,
		refs:         &refFiles{doc: src.Name, allow: opts.AllowRefDirs, limit: source.FileLimit(opts.MaxFileBytes)},
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
	pkg := b.build()
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
	slowLoad func(doc, reason string) // model.LoadOptions.SlowLoad
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
	// enums are the types of inline enums, by what they check
	// (enumTypeKey), and shapes the types of inline objects and unions, by
	// their JSON (shapeKey): inline schemas alike (Microsoft Graph's $orderby
	// items of one entity, in every operation that lists it; its anyOf of a
	// reference and an object in every member that may be null) are one
	// type. sharedFirst is the place of each such type's first use,
	// sharedPlaces the places of the others, and sharedTypes the types used
	// more than once, in the order first shared: the model names them after
	// the shortest name of their places (model.Naming.Shared).
	enums  map[string]*model.Type
	shapes map[string]*oaType
	// componentShapes are the components' schemas (and those an allOf of
	// one wraps) by shapeSig: an inline schema alike is the component's
	// type (componentKeys, componentAlike).
	componentShapes map[string][]*componentShape
	sharedFirst     map[*model.Type]*model.Place
	sharedPlaces    map[*model.Type][]*model.Place
	sharedTypes     []*model.Type
	// titles are the titles of the inline schemas of types, which a type
	// several operations share is named after.
	titles map[*model.Type]string
	// bodies are the component structs that operations' arguments embed as
	// their JSON request body (embedBody), which have null flags.
	bodies map[*model.Type]bool
	// building are the inline schemas whose members are being converted: a
	// schema met again inside its own members is recursive, and its OpenTool
	// schema becomes an entry of the document's schemas (promoted, by
	// schema) that the recursion refers to, so the document stays finite.
	building map[*openapi3.Schema]oaLoc
	promoted map[*openapi3.Schema]string
	extra    []document.NamedSchema // the promoted schemas, in the order met

	trees    map[string]*jsontree.Node // parsed documents, by slash path
	sources  map[string]*source.Source // the other files among them
	files    map[string][]byte         // other files read for references, as JSON for kin-openapi
	texts    map[string][]byte         // and as read, by the name their diagnostics give
	json     []byte                    // the document as JSON for kin-openapi (repaired by check)
	fileErrs []source.Diagnostic       // problems of the files read for references
	refs     *refFiles                 // reads them
	refused  []refusal                 // files references name that were not read
	// replacedRefs are the $refs the checker replaced by what they name
	// (a $ref where a string is wanted), no longer in the trees.
	replacedRefs []replacedRef
	warnings     []source.Diagnostic
	// warned are the warnings given by warn, by place and message: a schema
	// converted twice (a component and a request body's members) warns once.
	warned map[[3]string]bool

	docFunctions []document.Function // the functions of the OpenTool document
	pagingOps    []pagingOp          // the operations, for pagination (paging.go)
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
	schema  *document.Schema // the definition, set once defined
	object  bool             // values are JSON objects
	defined bool
}

// oaType is what a schema converts to.
type oaType struct {
	ref      *model.TypeRef
	schema   *document.Schema // the schema in the OpenTool document
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
		if doc, ok, err := fastload.Load(l, b.trees[b.root], data, loc); ok {
			return doc, err
		}
		l = newLoader() // the fast path may have used l
		if b.slowLoad != nil {
			reason := fastload.SlowReason()
			if reason == "" {
				reason = "the fast path gave up on this document"
			}
			b.slowLoad(b.src.Name, reason)
		}
	}
	return l.LoadFromDataWithPath(b.json, loc)
}

// fastLoading turns the fast path (package fastload) on; tests turn it off to compare.
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
		if b.swagger { // at the place of the document, not of its conversion
			d.Path = b.swaggerPlace(loc.ptr)
		}
		d.Line, d.Col = b.src.Position(d.Path, -1)
	} else if b.tree(loc.file) != nil { // another file read for references
		d.Line, d.Col = b.sources[path.Clean(loc.file)].Position(loc.ptr, -1)
	}
	b.warnings = append(b.warnings, d)
}
