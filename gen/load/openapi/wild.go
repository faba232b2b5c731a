package openapi

import (
	"bytes"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// Documents as they are found in the wild: before kin-openapi reads the
// document, check walks the objects of the specification that it knows, in
// the source trees of the document and of the files its $refs name, so that
// problems are reported where they are (kin-openapi's errors name no place),
// and repairs the small violations whose intent is clear, with a warning: a
// number or a boolean where a string is wanted (info.version: 1.2), a $ref
// where a plain string is wanted (a description kept in a Markdown file), a
// boolean written as a string, a parameter with both schema and content.
// The repairs are made in the trees, values keeping their offsets; kin-openapi
// is given the trees as JSON.

// shape is what check knows of one kind of object of the specification: the
// members it checks.
type shape struct {
	name  string
	strs  []string          // string members
	bools []string          // boolean members
	objs  map[string]*shape // object members
	maps  map[string]*shape // members that map names to objects
	lists map[string]*shape // members that list objects
	// unused are the members that map names to objects the generator does
	// not use (links, examples, callbacks), each with the name of one such
	// object: a $ref there that names nothing is a warning, not an error.
	unused map[string]string
	param  bool // a parameter or a header: schema and content exclude each other
}

var (
	shSchema    = &shape{name: "schema", strs: []string{"title", "description", "format", "pattern"}, bools: []string{"nullable", "readOnly", "writeOnly", "deprecated", "uniqueItems"}}
	shMedia     = &shape{name: "media type"}
	shHeader    = &shape{name: "header", strs: []string{"description", "style"}, bools: []string{"required", "deprecated", "explode"}, param: true}
	shParameter = &shape{name: "parameter", strs: []string{"name", "in", "description", "style"}, bools: []string{"required", "deprecated", "allowEmptyValue", "explode", "allowReserved"}, param: true}
	shBody      = &shape{name: "request body", strs: []string{"description"}, bools: []string{"required"}}
	shResponse  = &shape{name: "response", strs: []string{"description"}}
	shOperation = &shape{name: "operation", strs: []string{"summary", "description", "operationId"}, bools: []string{"deprecated"}}
	shPathItem  = &shape{name: "path item", strs: []string{"summary", "description"}}
	shInfo      = &shape{name: "info", strs: []string{"title", "version", "description", "summary", "termsOfService"}}
	shComps     = &shape{name: "components"}
	shDocument  = &shape{name: "document"}
	shFile      = &shape{name: "document"} // a file a $ref names
	// shCallback is a callback: every member (but x-) a path item (walkCallback).
	shCallback = &shape{name: "callback"}
)

func init() {
	shSchema.objs = map[string]*shape{"items": shSchema, "not": shSchema, "additionalProperties": shSchema}
	shSchema.maps = map[string]*shape{"properties": shSchema}
	shSchema.lists = map[string]*shape{"allOf": shSchema, "anyOf": shSchema, "oneOf": shSchema, "prefixItems": shSchema}
	shMedia.objs = map[string]*shape{"schema": shSchema}
	shHeader.objs = map[string]*shape{"schema": shSchema}
	shHeader.maps = map[string]*shape{"content": shMedia}
	shParameter.objs = map[string]*shape{"schema": shSchema, "items": shSchema}
	shParameter.maps = map[string]*shape{"content": shMedia}
	shBody.maps = map[string]*shape{"content": shMedia}
	shResponse.objs = map[string]*shape{"schema": shSchema}
	shResponse.maps = map[string]*shape{"headers": shHeader, "content": shMedia}
	shResponse.unused = map[string]string{"links": "link"}
	shMedia.unused = map[string]string{"examples": "example"}
	shParameter.unused = shMedia.unused
	shHeader.unused = shMedia.unused
	shOperation.unused = map[string]string{"callbacks": "callback"}
	shComps.unused = map[string]string{"links": "link", "examples": "example", "callbacks": "callback"}
	shOperation.objs = map[string]*shape{"requestBody": shBody}
	shOperation.maps = map[string]*shape{"responses": shResponse}
	shOperation.lists = map[string]*shape{"parameters": shParameter}
	shPathItem.lists = map[string]*shape{"parameters": shParameter}
	shPathItem.objs = map[string]*shape{}
	for _, m := range []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"} {
		shPathItem.objs[m] = shOperation
	}
	shComps.maps = map[string]*shape{"schemas": shSchema, "parameters": shParameter, "requestBodies": shBody,
		"responses": shResponse, "headers": shHeader, "pathItems": shPathItem}
	shDocument.objs = map[string]*shape{"info": shInfo, "components": shComps}
	shFile.objs = map[string]*shape{"components": shComps}
	shDocument.maps = map[string]*shape{"paths": shPathItem, "webhooks": shPathItem,
		// Swagger 2.0
		"definitions": shSchema, "parameters": shParameter, "responses": shResponse}
}

// checker walks the source trees.
// walked is an object the checker has walked as a shape (a file walked
// whole: its tree without a shape). A node is one place of one file (a
// file's tree is read once), so the pair stands for the place and the shape
// without making their text.
type walked struct {
	n  *jsontree.Node
	sh *shape
}

type checker struct {
	b       *oaBuilder
	seen    map[walked]bool
	errs    []source.Diagnostic
	changed map[string]bool // files whose trees were repaired
}

// check walks the document and the files its $refs name; it returns the
// problems that make the document unreadable.
func (b *oaBuilder) check() []source.Diagnostic {
	c := &checker{b: b, seen: map[walked]bool{}, changed: map[string]bool{}}
	c.walk(b.root, "", b.src.Tree, shDocument)
	// In document order, the document's first, then each file's.
	sort.SliceStable(c.errs, func(i, j int) bool {
		a, d := c.errs[i], c.errs[j]
		if a.File != d.File {
			return a.File == b.src.Name || d.File != b.src.Name && a.File < d.File
		}
		if a.Line != d.Line {
			return a.Line < d.Line
		}
		return a.Col < d.Col
	})
	for file := range c.changed {
		if file == b.root {
			b.json = jsontree.AppendJSON(nil, b.src.Tree)
		} else {
			b.files[file] = jsontree.AppendJSON(nil, b.trees[file])
		}
	}
	return c.errs
}

// diag makes a diagnostic at ptr in file.
func (b *oaBuilder) diag(file, ptr string, off int64, warning bool, format string, args ...any) source.Diagnostic {
	d := source.Diagnostic{File: file, Path: ptr, Warning: warning, Message: fmt.Sprintf(format, args...)}
	s := b.sources[file]
	if file == b.root {
		s = b.src
	}
	if s != nil {
		d.File = s.Name
		d.Line, d.Col = s.Position(ptr, off)
	}
	return d
}

func (c *checker) fail(file, ptr, format string, args ...any) {
	c.errs = append(c.errs, c.b.diag(file, ptr, -1, false, format, args...))
}

func (c *checker) warn(file, ptr, format string, args ...any) {
	c.warnAt(file, ptr, -1, format, args...)
}

// warnAt warns at the byte offset off of the file's JSON form (-1: at ptr).
func (c *checker) warnAt(file, ptr string, off int64, format string, args ...any) {
	c.b.warnings = append(c.b.warnings, c.b.diag(file, ptr, off, true, format, args...))
}

// walk checks the object n at ptr in file as an object of shape sh.
func (c *checker) walk(file, ptr string, n *jsontree.Node, sh *shape) {
	if n == nil || n.Kind == jsontree.Null {
		return
	}
	if n.Kind != jsontree.Object {
		if sh == shSchema && n.Kind == jsontree.Bool { // JSON Schema's true and false
			return
		}
		c.fail(file, ptr, "want a %s object, got %s", sh.name, article(n))
		return
	}
	key := walked{n, sh}
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	if r := n.Get("$ref"); r != nil && r.Kind == jsontree.String {
		tfile, tptr, t := c.resolve(file, ptr, r.Str)
		if t != nil && !c.refTargetKind(file, ptr, r.Str, tfile, tptr, t, sh) {
			t = nil
		}
		if t != nil {
			c.walk(tfile, tptr, t, sh)
		}
		if sh != shSchema && sh != shPathItem { // siblings of a $ref are ignored
			return
		}
	}
	if sh == shCallback {
		c.walkCallback(file, ptr, n)
		return
	}
	if sh == shResponse && c.b.swagger {
		c.responseSchemaRef(file, ptr, n)
	}
	if sh == shSchema {
		c.requiredInProperties(file, ptr, n)
		c.mappingFiles(file, n)
		if e := n.Get("examples"); e != nil && e.Kind != jsontree.Array && e.Kind != jsontree.Null {
			// kin-openapi refuses it, at no place (Codat's documents).
			c.warnAt(file, ptr+"/examples", keyOffset(n, "examples"), "a schema's \"examples\" is %s, want an array; left out (generated code does not use examples)", article(e))
			c.remove(file, n, "examples")
		}
	}
	for _, m := range n.Members {
		mptr := ptr + jsontree.Pointer(m.Key)
		switch {
		case sh.unused[m.Key] != "":
			c.unusedRefs(file, mptr, m.Value, sh.unused[m.Key])
			if m.Key == "callbacks" && m.Value.Kind == jsontree.Object { // used: webhooks.go
				for _, e := range m.Value.Members {
					c.walk(file, mptr+jsontree.Pointer(e.Key), e.Value, shCallback)
				}
			}
		case contains(sh.strs, m.Key):
			c.str(file, mptr, m.Value)
		case contains(sh.bools, m.Key):
			c.boolean(file, mptr, m.Value)
		case sh.objs[m.Key] != nil:
			if sh == shSchema && m.Key == "additionalProperties" && m.Value.Kind == jsontree.Bool {
				continue
			}
			if sh == shSchema && m.Key == "items" && m.Value.Kind == jsontree.Array {
				c.tupleItems(file, ptr, n, m.Key)
				continue
			}
			c.walk(file, mptr, m.Value, sh.objs[m.Key])
		case sh.maps[m.Key] != nil:
			if m.Value.Kind != jsontree.Object {
				if m.Value.Kind != jsontree.Null {
					c.fail(file, mptr, "want an object, got %s", article(m.Value))
				}
				continue
			}
			for _, e := range m.Value.Members {
				if strings.HasPrefix(e.Key, "x-") && sh != shSchema {
					continue
				}
				c.walk(file, mptr+jsontree.Pointer(e.Key), e.Value, sh.maps[m.Key])
			}
		case sh.lists[m.Key] != nil:
			if m.Value.Kind != jsontree.Array {
				if m.Value.Kind != jsontree.Null {
					c.fail(file, mptr, "want an array, got %s", article(m.Value))
				}
				continue
			}
			for i, e := range m.Value.Items {
				c.walk(file, mptr+"/"+strconv.Itoa(i), e, sh.lists[m.Key])
			}
		}
	}
	if sh.param {
		if s, ct := n.Get("schema"), n.Get("content"); s != nil && ct != nil && s.Kind != jsontree.Null && ct.Kind != jsontree.Null {
			c.warnAt(file, ptr+"/content", keyOffset(n, "content"), "a %s has both \"schema\" and \"content\", which exclude each other; \"content\" is ignored", sh.name)
			c.remove(file, n, "content")
		}
	}
}

// mappingFiles reads the files that the values of the discriminator of
// the schema n in file name ("models/pets.yml#/Dog"), which kin-openapi
// reads as references: a file that cannot be read is reported at the value
// with the $refs' (refusedDiagnostics), every one at once.
func (c *checker) mappingFiles(file string, n *jsontree.Node) {
	m := n.Get("discriminator").Get("mapping")
	if m == nil || m.Kind != jsontree.Object {
		return
	}
	for _, e := range m.Members {
		if e.Value.Kind != jsontree.String || !strings.ContainsAny(e.Value.Str, "#/.") {
			continue // a schema's name
		}
		u, err := url.Parse(e.Value.Str)
		if err != nil || u.Path == "" {
			continue
		}
		if !isFileURL(u) {
			c.b.readLocal(nil, u) //nolint:errcheck // refused, reported at the value
			continue
		}
		if t := refTarget(file, u.Path); t != b0(c.b.root) {
			c.b.readLocal(nil, &url.URL{Path: t}) //nolint:errcheck // reported at the value
		}
	}
}

// refTargetKind reports whether the value t at tptr in tfile, which the
// $ref ref of the object of shape want at ptr in file names, can be read as
// one; if not, the error is at the $ref (kin-openapi reports "bad data in
// … (expecting ref to schema object)" and no place): a $ref that names
// another kind of object of the specification (a schema's that names a
// parameter, a response's that names a schema), or, for a schema, an object
// outside the specification's objects (under a schema's "definitions")
// whose "type" is neither a string nor a list of them.
func (c *checker) refTargetKind(file, ptr, ref, tfile, tptr string, t *jsontree.Node, want *shape) bool {
	root := shDocument
	if tfile != b0(c.b.root) {
		root = shFile
	}
	if sh := shapeAt(root, tptr); sh != nil && sh != want && sh != shFile { // a file may be any object
		c.fail(file, ptr+"/$ref", "$ref %q names %s %s, not %s %s", clipRef(ref), indefinite(sh.name), sh.name, indefinite(want.name), want.name)
		return false
	}
	if want != shSchema || t.Kind != jsontree.Object {
		return true // reported by walk
	}
	if ty := t.Get("type"); ty != nil && ty.Kind != jsontree.String && ty.Kind != jsontree.Array && ty.Kind != jsontree.Null {
		c.fail(file, ptr+"/$ref", "$ref %q names an object that is not a schema: its \"type\" is %s, want a string or an array of strings", clipRef(ref), article(ty))
		return false
	}
	return true
}

// shapeAt returns the shape of the object at the JSON pointer ptr of a tree
// of shape root, following the members shapes know; nil when ptr leaves
// them (an extension, a schema's "definitions", an example).
func shapeAt(root *shape, ptr string) *shape {
	sh := root
	toks := strings.Split(ptr, "/")[1:]
	for i := 0; i < len(toks); i++ {
		tok := pointerUnescaper.Replace(toks[i])
		switch {
		case sh.objs[tok] != nil:
			sh = sh.objs[tok]
		case sh.maps[tok] != nil && i+1 < len(toks):
			sh = sh.maps[tok]
			i++
		case sh.lists[tok] != nil && i+1 < len(toks):
			sh = sh.lists[tok]
			i++
		default:
			return nil
		}
	}
	return sh
}

// indefinite is the indefinite article of the word w: "an" before a vowel
// sound, else "a".
func indefinite(w string) string {
	if w != "" && strings.ContainsRune("aeiouAEIOU", rune(w[0])) && !strings.HasPrefix(w, "uni") && !strings.HasPrefix(w, "use") {
		return "an"
	}
	return "a"
}

// tupleItems repairs the schema n at ptr whose items member is an array of
// schemas: a tuple in the form of JSON Schema drafts before 2020-12, which
// OpenAPI does not allow (3.1 writes it prefixItems). In an OpenAPI 3
// document it is read as prefixItems, which the loader types (a slice of the
// items' type when they are all the same schema, else of untyped values); in
// a Swagger 2.0 document, whose conversion knows no prefixItems, it is read as
// its first item when they are all the same, else as no items schema.
func (c *checker) tupleItems(file, ptr string, n *jsontree.Node, key string) {
	i := slices.IndexFunc(n.Members, func(m jsontree.Member) bool { return m.Key == key })
	m := n.Members[i]
	mptr := ptr + jsontree.Pointer(key)
	for j, e := range m.Value.Items {
		c.walk(file, fmt.Sprintf("%s/%d", mptr, j), e, shSchema)
	}
	same := len(m.Value.Items) > 0
	var first []byte
	for j, e := range m.Value.Items {
		text := jsontree.AppendJSON(nil, e)
		if j == 0 {
			first = text
		} else if !bytes.Equal(text, first) {
			same = false
		}
	}
	switch {
	case c.b.swagger && same:
		c.warnAt(file, mptr, m.KeyOffset, "\"items\" is an array of schemas (a tuple, which the specification does not allow), all the same: read as that schema")
		n.Members[i].Value = m.Value.Items[0]
	case c.b.swagger || n.Get("prefixItems") != nil:
		c.warnAt(file, mptr, m.KeyOffset, "\"items\" is an array of schemas (a tuple, which the specification does not allow); the items are read as any JSON values")
		n.Members = slices.Delete(slices.Clone(n.Members), i, i+1)
	default:
		c.warnAt(file, mptr, m.KeyOffset, "\"items\" is an array of schemas (a tuple in the form of JSON Schema drafts before 2020-12, which OpenAPI does not allow); read as \"prefixItems\"")
		n.Members = slices.Clone(n.Members)
		n.Members[i].Key = "prefixItems"
	}
	c.changed[file] = true
}

// remove removes the member key of n.
func (c *checker) remove(file string, n *jsontree.Node, key string) {
	for i, m := range n.Members {
		if m.Key == key {
			n.Members = append(n.Members[:i:i], n.Members[i+1:]...)
			c.changed[file] = true
			return
		}
	}
}

// str checks a member that the specification wants a string.
func (c *checker) str(file, ptr string, n *jsontree.Node) {
	switch n.Kind {
	case jsontree.String, jsontree.Null:
	case jsontree.Number, jsontree.Bool:
		lit := n.Str
		if n.Kind == jsontree.Bool {
			lit = fmt.Sprint(n.Bool)
		}
		c.warn(file, ptr, "want a string, got the %s %s; read as the string %q", n.KindName(), lit, lit)
		n.Kind, n.Str = jsontree.String, lit
		c.changed[file] = true
	case jsontree.Object:
		r := n.Get("$ref")
		if r == nil || r.Kind != jsontree.String {
			c.fail(file, ptr, "want a string, got %s", article(n))
			return
		}
		// Replaced below: the $ref is kept for the diagnostics of the file
		// it names, should that be refused (refusedDiagnostics).
		c.b.replacedRefs = append(c.b.replacedRefs, replacedRef{file: file, ptr: ptr + "/$ref", ref: r})
		text, ok, why := c.refText(file, ptr, r.Str)
		if ok {
			c.warn(file, ptr, "a $ref where the specification wants a plain string; the text it names is used")
		} else {
			c.warn(file, ptr, "a $ref where the specification wants a plain string, and %s; the value is left empty", why)
		}
		*n = jsontree.Node{Kind: jsontree.String, Offset: n.Offset, End: n.End, Str: text}
		c.changed[file] = true
	default:
		c.fail(file, ptr, "want a string, got %s", article(n))
	}
}

// boolean checks a member that the specification wants a boolean.
func (c *checker) boolean(file, ptr string, n *jsontree.Node) {
	switch n.Kind {
	case jsontree.Bool, jsontree.Null:
	case jsontree.String:
		if n.Str != "true" && n.Str != "false" {
			c.fail(file, ptr, "want a boolean, got the string %q", source.ClipValue(n.Str))
			return
		}
		c.warn(file, ptr, "want a boolean, got the string %q; read as %s", n.Str, n.Str)
		*n = jsontree.Node{Kind: jsontree.Bool, Offset: n.Offset, End: n.End, Bool: n.Str == "true"}
		c.changed[file] = true
	default:
		c.fail(file, ptr, "want a boolean, got %s", article(n))
	}
}

// refText returns the string a $ref in place of a plain string names: a
// string value of a document, or the text of a file that is not JSON or
// YAML (a Markdown description).
func (c *checker) refText(file, ptr, ref string) (text string, ok bool, why string) {
	u, err := url.Parse(ref)
	if err != nil || !isFileURL(u) && (u.Scheme != "" || u.Host != "" || u.Opaque != "") {
		return "", false, "it does not name a local file"
	}
	if u.Fragment == "" && u.Path != "" {
		switch strings.ToLower(path.Ext(u.Path)) {
		case ".json", ".yaml", ".yml":
		default:
			target := refTarget(file, u.Path)
			data, err := c.b.refs.read(filepath.FromSlash(target))
			if err != nil {
				c.fail(file, ptr+"/$ref", "$ref %q: %s", clipRef(ref), err.Error())
				return "", false, "the file cannot be read"
			}
			return string(data), true, ""
		}
	}
	_, _, t := c.resolve(file, ptr+"/$ref", ref)
	if t == nil {
		return "", false, "it names nothing"
	}
	if t.Kind != jsontree.String {
		return "", false, "it names " + article(t)
	}
	return t.Str, true, ""
}

// resolve returns the value a $ref at ptr in file names, with its file and
// pointer; nil (and an error reported) when it names nothing, or when it
// names a file that is not read (reported by the loader).
func (c *checker) resolve(file, ptr, ref string) (string, string, *jsontree.Node) {
	refPtr := ptr
	if !strings.HasSuffix(ptr, "/$ref") {
		refPtr = ptr + "/$ref"
	}
	u, err := url.Parse(ref)
	if err != nil {
		c.fail(file, refPtr, "$ref %q is not a URI reference: %v", clipRef(ref), err)
		return "", "", nil
	}
	tfile := file
	if u.Path != "" || u.Scheme != "" || u.Host != "" || u.Opaque != "" {
		if !isFileURL(u) {
			return "", "", nil // refused by readLocal, reported at the $ref
		}
		tfile = refTarget(file, u.Path)
		if tfile != b0(c.b.root) {
			if _, err := c.b.readLocal(nil, &url.URL{Path: tfile}); err != nil {
				return "", "", nil
			}
		}
	}
	tree := c.b.tree(tfile)
	if tree == nil {
		return "", "", nil // not parsed: reported by readLocal
	}
	if whole := (walked{tree, nil}); tfile != b0(c.b.root) && !c.seen[whole] {
		// kin-openapi decodes a file a $ref names whole, as a document:
		// its components are checked, reached or not.
		c.seen[whole] = true
		c.walk(tfile, "", tree, shFile)
	}
	frag := u.Fragment
	if frag != "" && !strings.HasPrefix(frag, "/") {
		c.fail(file, refPtr, "$ref %q: the fragment is not a JSON pointer (want #/…)", clipRef(ref))
		return "", "", nil
	}
	t := c.b.find(tree, frag)
	if t == nil {
		// Name the longest prefix that exists: where the reader should look.
		have, missing := frag, ""
		for have != "" && c.b.find(tree, have) == nil {
			i := strings.LastIndexByte(have, '/')
			missing, have = have[i+1:], have[:i]
		}
		where := "the document"
		if have != "" {
			where = "#" + have
		}
		if tfile != file {
			where += " of " + u.Path
		}
		c.fail(file, refPtr, "$ref %q names nothing: %s has no member %q", clipRef(ref), where, pointerUnescaper.Replace(missing))
		return "", "", nil
	}
	return tfile, frag, t
}

// keyOffset returns the offset of the key of n's member key.
func keyOffset(n *jsontree.Node, key string) int64 {
	for _, m := range n.Members {
		if m.Key == key {
			return m.KeyOffset
		}
	}
	return -1
}

// b0 is the clean form of a slash path.
func b0(p string) string { return path.Clean(p) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// article names the kind of n with its article: "a string", "an object".
func article(n *jsontree.Node) string {
	switch n.Kind {
	case jsontree.Object, jsontree.Array:
		return "an " + n.KindName()
	case jsontree.Null:
		return "null"
	}
	return "a " + n.KindName()
}
