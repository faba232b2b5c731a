// Package opendyn is the loader of OpenDyn documents: it checks the C side of
// a document (cTypes, inputs and outputs, buffer sizes), rewrites it as its
// equivalent OpenTool document, checks that with the OpenTool loader and
// hands both, as the document says them, to model.FromOpenDyn, which builds
// the model and decides every name.
package opendyn

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	otload "github.com/opentoolgen/opentoolgen/gen/load/opentool"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// The OpenDyn loader. An OpenDyn document is an OpenTool document whose
// schemas carry C types ("cType"), whose parameters say whether they are
// inputs or output pointers ("isIn"), plus a calling convention and status
// codes. The loader checks the OpenDyn members itself, then hands the rest,
// rewritten as the OpenTool document it is equivalent to (same JSON paths), to
// the OpenTool loader, so schemas are checked by the same code and reported
// with the same words. Output parameters then leave the parameters and join
// the return value in a result object; model.FromOpenDyn builds the model of
// that document and of the C side of each function as read here (document
// names, C types, shapes, sizes), and makes the Go and C names.

// dynLoader checks the OpenDyn members of a document and rewrites it as an
// OpenTool document. It works on a copy of the tree; paths are the same in
// both, so problems found by the OpenTool loader keep their place.
type dynLoader struct {
	src   *source.Source
	diags []source.Diagnostic
	root  *jsontree.Node // the copy being rewritten

	stdcall bool
	codes   []model.DynCode
	fns     []*dynFunc // one per element of "functions" (nil for a non-object)
	// named holds the cType of each named schema that has one.
	named map[string]*dynCType
	// uses records, for each named schema used as a C value, the first C type
	// it was used as, to report a second, different one.
	uses map[string]*dynCType
}

// diag records a problem (a warning, or an error) at the JSON pointer path.
func (l *dynLoader) diag(warning bool, path, format string, args ...any) {
	line, col := l.src.Position(path, -1)
	l.diags = append(l.diags, source.Diagnostic{File: l.src.Name, Line: line, Col: col, Path: path,
		Message: fmt.Sprintf(format, args...), Warning: warning})
}

func (l *dynLoader) errorf(path, format string, args ...any) { l.diag(false, path, format, args...) }
func (l *dynLoader) warnf(path, format string, args ...any)  { l.diag(true, path, format, args...) }

// Load loads an OpenDyn document and builds its model.
func Load(src *source.Source, _ model.LoadOptions) (*model.Package, []source.Diagnostic, error) {
	l := &dynLoader{src: src, named: map[string]*dynCType{}, uses: map[string]*dynCType{}}
	l.root = cloneTree(src.Tree)
	l.document()

	// The rewritten tree itself: not written out and parsed again. OpenDyn's
	// own members are out of it; they are suggested for a misspelt member.
	doc, problems, err := otload.LoadTreeMembers(l.root, otload.Members{
		Document: []string{"opendyn", "code"}, Info: []string{"callingConvention"},
		Parameter: []string{"isIn"}, Schema: []string{"cType"},
	})
	for _, p := range problems {
		l.problem(p)
	}
	if err != nil {
		var de *otload.DocumentError
		if errors.As(err, &de) {
			for _, p := range de.Problems {
				l.problem(p)
			}
		} else {
			l.errorf("", "%v", err)
		}
	}
	slices.SortStableFunc(l.diags, func(a, b source.Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	var errs, warnings []source.Diagnostic
	for _, d := range source.Dedup(l.diags) {
		if d.Warning {
			warnings = append(warnings, d)
		} else {
			errs = append(errs, d)
		}
	}
	if len(errs) > 0 {
		return nil, warnings, &source.Error{Diagnostics: errs}
	}
	l.outputsToResults(doc)
	fns := make([]*model.CFunction, len(doc.Functions))
	for i := range fns {
		if i < len(l.fns) { // else the model says the functions differ
			fns[i] = l.fns[i].cFunction(doc.Functions[i].Name)
		}
	}
	lib := &model.DynLibrary{Stdcall: l.stdcall, Codes: l.codes}
	pkg, err := model.FromOpenDyn(doc, filepath.Base(src.Name), lib, fns)
	if err != nil {
		return nil, warnings, &source.Error{Diagnostics: []source.Diagnostic{{File: src.Name, Message: err.Error()}}}
	}
	return pkg, warnings, nil
}

// problem records a problem the OpenTool loader found in the rewritten document.
func (l *dynLoader) problem(p otload.Problem) {
	path := p.Path
	if path == "/opentool" || strings.HasPrefix(path, "/opentool/") {
		path = "/opendyn" + path[len("/opentool"):]
	}
	l.diag(p.Warning, path, "%s", p.Message)
}
