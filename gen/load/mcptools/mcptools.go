// Package mcptools is the loader of saved MCP tools/list results: the tools an
// MCP server lists, converted into an OpenTool document by the code mcpbridge
// converts them with at run time (internal/mcpschema), then read as an
// OpenTool document is (gen/load/opentool, model.FromOpenTool). The package
// generated from it is that of the equivalent OpenTool document, so its types
// are those mcpbridge serves the server with, and its typed client decodes
// what mcpbridge.Tool.Call answers.
//
// The input is the result of tools/list as a client receives it:
//
//	{"tools": [{"name": "…", "description": "…", "inputSchema": {…}, "outputSchema": {…}}, …]}
//
// or the whole JSON-RPC response, as client logs hold it:
//
//	{"jsonrpc": "2.0", "id": 1, "result": {"tools": […]}}
//
// The server's name, title and version give the document's title and
// version: from "_meta": {"io.modelcontextprotocol/serverInfo": {…}}, where
// servers of protocol 2026-07-28 put them in every result, or from a
// "serverInfo" beside "tools", as the initialize result has it; without them
// the title is "MCP server" and the version "". "instructions" beside "tools"
// (also from the initialize result) is the document's description. A
// "nextCursor" means the listing has more pages: a warning, as only the tools
// of this one are read. Other members are ignored.
//
// Each tool's title (else its annotations' title), annotations
// (readOnlyHint, destructiveHint, idempotentHint, openWorldHint) and
// execution.taskSupport are kept in the generated document
// (document.Function's Title, Hints and Execution): the generated Tool is a
// runtime.HintTool with the listing's annotations, and mcpbridge serves the
// titles and annotations again.
package mcptools

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"

	otload "github.com/opentoolgen/opentoolgen/gen/load/opentool"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/internal/mcpschema"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// MetaServerInfo is the member of a result's "_meta" that holds the server's
// name, title and version (protocol 2026-07-28, SEP-2575).
const MetaServerInfo = "io.modelcontextprotocol/serverInfo"

// Listing returns the object of the document root that holds "tools" (root
// itself, or the "result" of a JSON-RPC response) and its JSON pointer; nil
// when there is none.
func Listing(root *jsontree.Node) (*jsontree.Node, string) {
	if root.Get("tools") != nil {
		return root, ""
	}
	if r := root.Get("result"); r.Get("tools") != nil {
		return r, "/result"
	}
	return nil, ""
}

// loader collects the problems of one document.
type loader struct {
	src   *source.Source
	diags []source.Diagnostic
}

func (l *loader) add(path string, offset int64, warning bool, format string, args ...any) {
	line, col := l.src.Position(path, offset)
	l.diags = append(l.diags, source.Diagnostic{File: l.src.Name, Line: line, Col: col, Path: path,
		Message: fmt.Sprintf(format, args...), Warning: warning})
}

// Load loads the tools/list result src and builds its model.
func Load(src *source.Source, _ model.LoadOptions) (*model.Package, []source.Diagnostic, error) {
	l := &loader{src: src}
	listing, base := Listing(src.Tree)
	if listing == nil {
		l.add("", src.Tree.Offset, false, `got %s, want a tools/list result: an object with a "tools" member, or a JSON-RPC response with one in its "result"`, describe(src.Tree))
		return nil, nil, &source.Error{Diagnostics: l.diags}
	}
	info := l.info(listing, base)
	if c := listing.Get("nextCursor"); c != nil && c.Kind != jsontree.Null {
		l.add(base+"/nextCursor", c.Offset, true, "the server has more tools than this page lists: only these are read (save every page's tools in one list)")
	}
	conv := mcpschema.Convert(info, listing.Get("tools"), base+"/tools", mcpschema.Options{Strict: true})
	for _, p := range conv.Problems {
		l.add(p.Path, p.Offset, p.Warning, "%s", p.Message)
	}
	errs, warnings := split(l.diags)
	if len(errs) > 0 {
		return nil, warnings, &source.Error{Diagnostics: errs}
	}

	// The OpenTool path: the converted document read as an OpenTool
	// document is, which it is by construction (mcpschema repairs what the
	// OpenTool loader rejects); an error here is the converter's.
	data, err := json.Marshal(conv.Document)
	if err != nil {
		return nil, warnings, fmt.Errorf("opentoolgen: internal error: the converted document: %w", err)
	}
	tree, err := jsontree.Parse(data)
	if err != nil {
		return nil, warnings, fmt.Errorf("opentoolgen: internal error: the converted document: %w", err)
	}
	doc, _, err := otload.LoadTree(tree)
	if err != nil {
		var de *otload.DocumentError
		if !errors.As(err, &de) {
			return nil, warnings, err
		}
		l.diags = nil
		for _, p := range de.Problems {
			path, off := conv.Place(p.Path)
			l.add(path, off, false, "internal error: the converted OpenTool document has a problem at %s: %s", jsontree.ShortPointer(p.Path), p.Message)
		}
		errs, _ := split(l.diags)
		return nil, warnings, &source.Error{Diagnostics: errs}
	}
	// What the OpenTool model does not carry, from the listing.
	for i := range doc.Functions {
		cf := &conv.Document.Functions[i]
		if cf.Name != doc.Functions[i].Name {
			return nil, warnings, fmt.Errorf("opentoolgen: internal error: the converted document's function %d is %s, not %s", i, cf.Name, doc.Functions[i].Name)
		}
		doc.Functions[i].Title, doc.Functions[i].Hints, doc.Functions[i].Execution = cf.Title, cf.Hints, cf.Execution
	}
	pkg := model.FromOpenTool(doc, filepath.Base(src.Name))
	pkg.Kind = model.PackageMCP
	return pkg, warnings, nil
}

// info reads the optional "serverInfo" and "instructions" of the listing.
func (l *loader) info(listing *jsontree.Node, base string) document.Info {
	var info document.Info
	str := func(obj *jsontree.Node, path, key string) string {
		v := obj.Get(key)
		switch {
		case v == nil || v.Kind == jsontree.Null:
			return ""
		case v.Kind != jsontree.String:
			l.add(path+"/"+key, v.Offset, false, "got %s, want a string", describe(v))
			return ""
		}
		return v.Str
	}
	si, p := listing.Get("serverInfo"), base+"/serverInfo"
	if si == nil {
		si, p = listing.Get("_meta").Get(MetaServerInfo), base+jsontree.Pointer("_meta", MetaServerInfo)
	}
	if si != nil && si.Kind != jsontree.Null {
		if si.Kind != jsontree.Object {
			l.add(p, si.Offset, false, "got %s, want an object (name, title, version)", describe(si))
		} else {
			name, title := str(si, p, "name"), str(si, p, "title")
			info.Title, info.Version = cmp.Or(title, name), str(si, p, "version")
		}
	}
	info.Description = str(listing, base, "instructions")
	return info
}

func describe(v *jsontree.Node) string {
	if v.Kind == jsontree.Object {
		return `an object without "tools"`
	}
	return mcpschema.Describe(v)
}

// split returns the errors and the warnings of ds, each in document order
// without repeats.
func split(ds []source.Diagnostic) (errs, warnings []source.Diagnostic) {
	ds = source.Dedup(ds)
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].Line != ds[j].Line {
			return ds[i].Line < ds[j].Line
		}
		return ds[i].Col < ds[j].Col
	})
	for _, d := range ds {
		if d.Warning {
			warnings = append(warnings, d)
		} else {
			errs = append(errs, d)
		}
	}
	return errs, warnings
}
