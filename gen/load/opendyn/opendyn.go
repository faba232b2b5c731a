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
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	otload "github.com/opentoolgen/opentoolgen/gen/load/opentool"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime"
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

// maxOutputBuffer bounds the buffers of output strings (bytes) and arrays
// (8 times their elements): each call has its own.
const maxOutputBuffer = 1 << 24

// The C types of the OpenDyn specification.
var cTypeNames = []string{
	"void", "bool", "char", "unsigned char", "short", "unsigned short", "int", "unsigned int",
	"long", "unsigned long", "long long", "unsigned long long", "float", "double",
}

// cTypeSynonyms are other spellings of the C types, read with a warning.
var cTypeSynonyms = map[string]string{
	"_Bool":                  "bool",
	"signed char":            "char",
	"short int":              "short",
	"signed short":           "short",
	"signed short int":       "short",
	"unsigned short int":     "unsigned short",
	"signed":                 "int",
	"signed int":             "int",
	"unsigned":               "unsigned int",
	"long int":               "long",
	"signed long":            "long",
	"signed long int":        "long",
	"unsigned long int":      "unsigned long",
	"long long int":          "long long",
	"signed long long":       "long long",
	"signed long long int":   "long long",
	"unsigned long long int": "unsigned long long",
}

// cTypeClass is the schema type of values of a C type: "integer", "number",
// "boolean", or "void".
func cTypeClass(name string) string {
	switch name {
	case "void":
		return "void"
	case "bool":
		return runtime.TypeBoolean
	case "float", "double":
		return runtime.TypeNumber
	}
	return runtime.TypeInteger
}

// wantForSchemaType says which C types carry values of a schema type.
func wantForSchemaType(st string) string {
	switch st {
	case runtime.TypeInteger:
		return "a C integer type (char, short, int, long, long long, or one of them unsigned)"
	case runtime.TypeNumber:
		return "float or double"
	case runtime.TypeBoolean:
		return "bool"
	case runtime.TypeString:
		return "char or unsigned char with isPointer true (char*)"
	}
	return "a C type"
}

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

// dynCType is a cType object as read.
type dynCType struct {
	name    string
	pointer bool
	path    string // of the cType object
}

// dynParam is a parameter as read.
type dynParam struct {
	name     string
	ct       *dynCType
	shape    model.CShape
	out      bool
	required bool
	size     int
}

// dynFunc is a function as read.
type dynFunc struct {
	name   string
	params []*dynParam // nil entries for parameters that are not objects
	ret    *dynParam   // nil when the function returns nothing (or void)
	// retName is the name of the return value, "" when there is none.
	retName string
}

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

// ---- the document -------------------------------------------------------------

func (l *dynLoader) document() {
	root := l.root
	if root.Kind != jsontree.Object {
		return // the OpenTool loader says so
	}
	for i := range root.Members {
		if root.Members[i].Key == "opendyn" {
			root.Members[i].Key = "opentool"
		}
	}
	if info := root.Get("info"); info != nil && info.Kind == jsontree.Object {
		l.callingConvention(info, "/info")
	}
	if code := root.Get("code"); code != nil {
		l.readCodes(code, "/code")
		deleteMember(root, "code")
	}
	// Named schemas first: parameters refer to them.
	if schemas := root.Get("schemas"); schemas != nil && schemas.Kind == jsontree.Object {
		for _, m := range schemas.Members {
			p := "/schemas" + jsontree.Pointer(m.Key)
			if ct, _ := l.schemaCType(m.Value, p); ct != nil {
				l.named[m.Key] = ct
			}
			l.fixSchema(m.Value, p)
		}
	}
	if fns := root.Get("functions"); fns != nil && fns.Kind == jsontree.Array {
		for i, f := range fns.Items {
			p := "/functions" + jsontree.Pointer(strconv.Itoa(i))
			if f.Kind != jsontree.Object {
				l.fns = append(l.fns, nil)
				continue
			}
			l.fns = append(l.fns, l.function(f, p))
		}
	}
}

func (l *dynLoader) callingConvention(info *jsontree.Node, path string) {
	p := path + "/callingConvention"
	v := info.Get("callingConvention")
	deleteMember(info, "callingConvention")
	switch {
	case v == nil || v.Kind == jsontree.Null:
		l.warnf(p, `missing, want "cdecl" or "stdcall"; reading it as "cdecl"`)
	case v.Kind != jsontree.String:
		l.errorf(p, `got %s, want "cdecl" or "stdcall"`, describe(v))
	case v.Str == "cdecl":
	case v.Str == "stdcall":
		l.stdcall = true
	case strings.EqualFold(strings.TrimSpace(v.Str), "cdecl"), strings.EqualFold(strings.TrimSpace(v.Str), "__cdecl"):
		l.warnf(p, `got %q, want "cdecl"; reading it as "cdecl"`, source.ClipValue(v.Str))
	case strings.EqualFold(strings.TrimSpace(v.Str), "stdcall"), strings.EqualFold(strings.TrimSpace(v.Str), "__stdcall"):
		l.warnf(p, `got %q, want "stdcall"; reading it as "stdcall"`, source.ClipValue(v.Str))
		l.stdcall = true
	default:
		l.errorf(p, `got %q, want "cdecl" or "stdcall"`, source.ClipValue(v.Str))
	}
}

func (l *dynLoader) readCodes(v *jsontree.Node, path string) {
	switch v.Kind {
	case jsontree.Null:
		return
	case jsontree.Object:
	default:
		l.errorf(path, "got %s, want an object mapping status codes to their text", describe(v))
		return
	}
	for _, m := range v.Members {
		p := path + jsontree.Pointer(m.Key)
		if m.Value.Kind != jsontree.String {
			l.errorf(p, "got %s, want a string", describe(m.Value))
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(m.Key), 0, 64)
		if err != nil {
			l.warnf(p, "ignored: got the code %q, want an integer (the value a function returns)", source.ClipValue(m.Key))
			continue
		}
		l.codes = append(l.codes, model.DynCode{Code: n, Text: m.Value.Str})
	}
}

func (l *dynLoader) function(f *jsontree.Node, path string) *dynFunc {
	fn := &dynFunc{}
	if n := f.Get("name"); n != nil && n.Kind == jsontree.String {
		fn.name = n.Str
	}
	if ps := f.Get("parameters"); ps != nil && ps.Kind == jsontree.Array {
		for i, it := range ps.Items {
			p := path + "/parameters" + jsontree.Pointer(strconv.Itoa(i))
			if it.Kind != jsontree.Object {
				fn.params = append(fn.params, nil)
				continue
			}
			fn.params = append(fn.params, l.parameter(it, p))
		}
	}
	if r := f.Get("return"); r != nil && r.Kind == jsontree.Object {
		p := path + "/return"
		if n := r.Get("name"); n != nil && n.Kind == jsontree.String {
			fn.retName = n.Str
		}
		if v := r.Get("isIn"); v != nil {
			l.warnf(p+"/isIn", "ignored: a return value has no isIn (it is always an output)")
			deleteMember(r, "isIn")
		}
		fn.ret = l.returnValue(r, p)
		if fn.ret == nil { // void
			deleteMember(f, "return")
			fn.retName = ""
		}
	}
	// A result object carries the return value and the outputs by name.
	seen := map[string]bool{}
	if fn.retName != "" {
		seen[fn.retName] = true
	}
	for i, p := range fn.params {
		if p == nil || !p.out {
			continue
		}
		if seen[p.name] {
			l.errorf(fmt.Sprintf("%s/parameters/%d/name", path, i),
				"got %q, the name of the return value; want another name: the result object carries both", p.name)
		}
		seen[p.name] = true
	}
	return fn
}

// parameter reads a parameter object and rewrites it as an OpenTool one.
func (l *dynLoader) parameter(obj *jsontree.Node, path string) *dynParam {
	dp, in, inPath := l.paramHead(obj, path)
	schema := obj.Get("schema")
	if schema == nil || schema.Kind != jsontree.Object {
		return nil // the OpenTool loader says so
	}
	sp := path + "/schema"
	dp.out = !l.cTypeIsIn(schema, sp, in, inPath)
	ct, resolved, st, named := l.paramCType(schema, sp)
	if ct == nil {
		return nil
	}
	c := *ct // a named schema's cType is shared
	ct = &c
	dp.ct = ct
	if dp.out && !ct.pointer {
		l.warnf(ct.path, "an output parameter is a pointer (isIn false); reading isPointer as true")
		ct.pointer = true
	}
	if !l.classify(dp, resolved, st, ct) {
		return nil
	}
	if dp.out && !l.outputBuffer(dp, resolved, sp) {
		return nil
	}
	if named != "" {
		l.use(named, ct)
	}
	return dp
}

// paramHead reads the name of parameter obj, its required member (true by
// default in OpenDyn, false in OpenTool: said in the rewritten document) and
// its isIn, removed from the document: in, and inPath the place of isIn when
// the parameter has one.
func (l *dynLoader) paramHead(obj *jsontree.Node, path string) (dp *dynParam, in bool, inPath string) {
	dp = &dynParam{required: true}
	if n := obj.Get("name"); n != nil && n.Kind == jsontree.String {
		dp.name = n.Str
	}
	switch v := obj.Get("required"); {
	case v == nil || v.Kind == jsontree.Null:
		setMember(obj, "required", &jsontree.Node{Kind: jsontree.Bool, Bool: true, Offset: obj.Offset})
	case v.Kind == jsontree.Bool:
		dp.required = v.Bool
	}
	// isIn: on the parameter, as the specification says, or inside cType, as
	// upstream's example has it (cTypeIsIn).
	in = true
	switch v := obj.Get("isIn"); {
	case v == nil || v.Kind == jsontree.Null:
	case v.Kind != jsontree.Bool:
		l.errorf(path+"/isIn", "got %s, want a boolean", describe(v))
	default:
		in, inPath = v.Bool, path+"/isIn"
	}
	deleteMember(obj, "isIn")
	return dp, in, inPath
}

// cTypeIsIn reads the isIn that upstream's example puts in the cType of the
// parameter's schema (at sp): the parameter's in, given by the parameter's
// own isIn (at inPath, "" when it has none) or else by this one.
func (l *dynLoader) cTypeIsIn(schema *jsontree.Node, sp string, in bool, inPath string) bool {
	ct := schema.Get("cType")
	if ct == nil || ct.Kind != jsontree.Object {
		return in
	}
	v := ct.Get("isIn")
	if v == nil || v.Kind == jsontree.Null {
		return in
	}
	vp := sp + "/cType/isIn"
	switch {
	case v.Kind != jsontree.Bool:
		l.errorf(vp, "got %s, want a boolean (and isIn belongs to the parameter)", describe(v))
	case inPath != "" && v.Bool != in:
		l.errorf(vp, "got %t, but the parameter's isIn is %t: want one isIn, on the parameter", v.Bool, in)
	case inPath != "":
		l.warnf(vp, "ignored: isIn belongs to the parameter, which has it")
	default:
		l.warnf(vp, "isIn belongs to the parameter, not to its cType; reading it as the parameter's")
		return v.Bool
	}
	return in
}

// paramCType reads the C type of a parameter's schema (at sp), removed with
// the other OpenDyn members: its own cType, else its named schema's, else
// the one its type implies. It returns the resolved schema, its type and
// the name of the named schema it refers to; a nil C type when the
// parameter cannot be read (reported, here or by the OpenTool loader).
func (l *dynLoader) paramCType(schema *jsontree.Node, sp string) (ct *dynCType, resolved *jsontree.Node, st, named string) {
	ct, bad := l.schemaCType(schema, sp)
	l.fixSchema(schema, sp)
	if bad {
		return nil, nil, "", ""
	}
	resolved, named = l.resolve(schema)
	if ct == nil && named != "" {
		ct = l.named[named]
	} else if ct != nil && named != "" && l.named[named] != nil && !sameCType(ct, l.named[named]) {
		l.errorf(ct.path, "got %s, but the schema %q has the C type %s: want one of them",
			ct, source.ClipValue(named), l.named[named])
		return nil, nil, "", ""
	}
	if resolved == nil {
		return nil, nil, "", "" // a dangling reference: the OpenTool loader says so
	}
	st = stringMember(resolved, "type")
	if ct == nil {
		ct = l.inferCType(st, sp)
	}
	return ct, resolved, st, named
}

// outputBuffer sets the size of the buffer of output parameter dp, from
// maxLength (strings) or maxItems (arrays) of its schema s (at sp); false
// when it has none or too large a one (reported).
func (l *dynLoader) outputBuffer(dp *dynParam, s *jsontree.Node, sp string) bool {
	switch dp.shape {
	case model.CString:
		n, ok := l.count(s, "maxLength")
		if !ok {
			l.errorf(sp, "a char* output needs the size of its buffer: want maxLength, the most bytes the function writes before the NUL")
			return false
		}
		if n >= maxOutputBuffer {
			l.errorf(sp+"/maxLength", "got %d, want less than %d: each call has a buffer of maxLength+1 bytes", n, maxOutputBuffer)
			return false
		}
		dp.size = n + 1
	case model.CSlice:
		n, ok := l.count(s, "maxItems")
		if !ok || n == 0 {
			l.errorf(sp, "an array output needs the size of its buffer: want maxItems (at least 1), the number of elements the function writes")
			return false
		}
		if n > maxOutputBuffer/8 {
			l.errorf(sp+"/maxItems", "got %d, want at most %d: each call has a buffer of maxItems elements", n, maxOutputBuffer/8)
			return false
		}
		dp.size = n
	}
	return true
}

// returnValue reads a return object; nil for a void return.
func (l *dynLoader) returnValue(obj *jsontree.Node, path string) *dynParam {
	schema := obj.Get("schema")
	if schema == nil || schema.Kind != jsontree.Object {
		return &dynParam{} // the OpenTool loader says what is wrong
	}
	sp := path + "/schema"
	if v := schema.Get("cType").Get("isIn"); v != nil {
		l.warnf(sp+"/cType/isIn", "ignored: a return value has no isIn (it is always an output)")
	}
	ct, bad := l.schemaCType(schema, sp)
	l.fixSchema(schema, sp)
	if bad {
		return &dynParam{}
	}
	resolved, named := l.resolve(schema)
	if ct == nil && named != "" {
		ct = l.named[named]
	}
	if ct != nil && ct.name == "void" && !ct.pointer {
		l.warnf(ct.path, "the C function returns void; reading it as no return value")
		return nil
	}
	dp := &dynParam{required: true}
	if resolved == nil {
		return dp
	}
	st := stringMember(resolved, "type")
	if ct == nil {
		if ct = l.inferCType(st, sp); ct == nil {
			return dp
		}
	}
	dp.ct = ct
	if !l.classify(dp, resolved, st, ct) {
		dp.ct = nil
		return dp
	}
	if dp.shape == model.CSlice {
		l.errorf(ct.path, "got a returned pointer to an array, whose length the caller cannot know; want an output parameter with maxItems")
		dp.ct = nil
	}
	if named != "" {
		l.use(named, ct)
	}
	return dp
}

// classify decides how a value of C type ct described by the (resolved)
// schema s of type st crosses between Go and C, reporting a mismatch.
func (l *dynLoader) classify(dp *dynParam, s *jsontree.Node, st string, ct *dynCType) bool {
	if st == "" {
		return false // the OpenTool loader reports the missing or wrong type
	}
	class := cTypeClass(ct.name)
	if ct.name == "void" {
		if ct.pointer {
			l.errorf(ct.path, "got void*, which no JSON value can carry; want a typed pointer")
		} else {
			l.errorf(ct.path, "got void, want the C type of a value")
		}
		return false
	}
	mismatch := func() bool {
		what := ct.String()
		l.errorf(ct.path+"/type", "got C type %s for a value of schema type %s, want %s", what, st, wantForSchemaType(st))
		return false
	}
	switch st {
	case runtime.TypeString:
		if ct.name != "char" && ct.name != "unsigned char" {
			return mismatch()
		}
		if !ct.pointer {
			l.errorf(ct.path+"/isPointer", "got a single %s for a string, want isPointer true (char*)", ct.name)
			return false
		}
		dp.shape = model.CString
	case runtime.TypeArray:
		if !ct.pointer {
			l.errorf(ct.path+"/isPointer", "got a single %s for an array, want isPointer true (a pointer to the first element)", ct.name)
			return false
		}
		items, named := l.resolve(s.Get("items"))
		if items == nil {
			return false
		}
		it := stringMember(items, "type")
		if it == "" {
			return false
		}
		if it != class {
			l.errorf(ct.path+"/type", "got C type %s for elements of schema type %s, want %s", ct.name, it, wantForSchemaType(it))
			return false
		}
		l.checkEnum(items, ct)
		if named != "" {
			l.use(named, &dynCType{name: ct.name, path: ct.path})
		}
		dp.shape = model.CSlice
	case runtime.TypeObject:
		l.errorf(ct.path, "got an object, which would be a C struct; OpenDyn has none: want scalars, strings and arrays")
		return false
	default:
		if class != st {
			return mismatch()
		}
		l.checkEnum(s, ct)
		if ct.pointer {
			dp.shape = model.CPointer
		} else {
			dp.shape = model.CScalar
		}
	}
	return true
}

// checkEnum reports enum values a C integer type cannot hold.
func (l *dynLoader) checkEnum(s *jsontree.Node, ct *dynCType) {
	e := s.Get("enum")
	if e == nil || e.Kind != jsontree.Array || cTypeClass(ct.name) != runtime.TypeInteger {
		return
	}
	bits, unsigned := model.CIntRange(ct.name)
	for _, v := range e.Items {
		if v.Kind != jsontree.Number {
			continue
		}
		ok := false
		if unsigned {
			n, err := strconv.ParseUint(v.Str, 10, bits)
			ok = err == nil && (bits == 64 || n < 1<<bits)
		} else {
			_, err := strconv.ParseInt(v.Str, 10, bits)
			ok = err == nil
		}
		if !ok {
			l.errorf(ct.path+"/type", "got C type %s, which cannot hold the enum value %s", ct.name, source.ClipValue(v.Str))
			return
		}
	}
}

// use records that the named schema carries values of C type ct, reporting a
// use of the same schema as another C type: its Go type has one width.
func (l *dynLoader) use(named string, ct *dynCType) {
	prev := l.uses[named]
	if prev == nil {
		l.uses[named] = ct
		return
	}
	if prev.name != ct.name && !(cTypeClass(ct.name) == runtime.TypeBoolean && cTypeClass(prev.name) == runtime.TypeBoolean) {
		pl, pc := l.src.Position(prev.path, -1)
		l.errorf(ct.path, "the schema %q is used as C type %s here and as %s at %d:%d; want one C type per schema (its Go type has one width)",
			source.ClipValue(named), ct.name, prev.name, pl, pc)
	}
}

// inferCType returns the C type of a value without cType when only one can
// carry it (char* for strings, bool for booleans), with a warning.
func (l *dynLoader) inferCType(st, schemaPath string) *dynCType {
	p := schemaPath + "/cType"
	switch st {
	case runtime.TypeString:
		l.warnf(p, "missing; reading it as char* (the C type of strings)")
		return &dynCType{name: "char", pointer: true, path: p}
	case runtime.TypeBoolean:
		l.warnf(p, "missing; reading it as bool")
		return &dynCType{name: "bool", path: p}
	case "":
		return nil
	}
	l.errorf(p, "missing, want the C type of the value: %s", wantForSchemaType(st))
	return nil
}

// schemaCType reads and removes the cType member of a schema object. bad is
// set when there is one and it is wrong (and reported).
func (l *dynLoader) schemaCType(schema *jsontree.Node, path string) (ct *dynCType, bad bool) {
	v := schema.Get("cType")
	if v == nil {
		return nil, false
	}
	deleteMember(schema, "cType")
	p := path + "/cType"
	if v.Kind == jsontree.Null {
		return nil, false
	}
	ct = l.readCType(v, p)
	return ct, ct == nil
}

// readCType reads a cType object; nil when it is wrong (and reported).
func (l *dynLoader) readCType(v *jsontree.Node, p string) *dynCType {
	if v.Kind != jsontree.Object {
		l.errorf(p, "got %s, want a cType object {\"type\": …, \"isPointer\": …}", describe(v))
		return nil
	}
	ct := &dynCType{path: p}
	t := v.Get("type")
	switch {
	case t == nil || t.Kind == jsontree.Null:
		l.errorf(p+"/type", "missing, want one of %s", strings.Join(cTypeNames, ", "))
		return nil
	case t.Kind != jsontree.String:
		l.errorf(p+"/type", "got %s, want one of %s", describe(t), strings.Join(cTypeNames, ", "))
		return nil
	}
	name, stars, ok := parseCType(t.Str)
	switch {
	case !ok:
		l.errorf(p+"/type", "got %q, want one of %s", source.ClipValue(t.Str), strings.Join(cTypeNames, ", "))
		return nil
	case stars > 1:
		l.errorf(p+"/type", "got %q, a pointer to a pointer; want a C type with at most one *", source.ClipValue(t.Str))
		return nil
	}
	ct.name = name
	if name != t.Str {
		if stars == 1 {
			l.warnf(p+"/type", "got %q, want %q with isPointer true; reading it so", source.ClipValue(t.Str), name)
		} else {
			l.warnf(p+"/type", "got %q, want %q; reading it so", source.ClipValue(t.Str), name)
		}
	}
	switch ip := v.Get("isPointer"); {
	case ip == nil || ip.Kind == jsontree.Null:
		ct.pointer = stars == 1
	case ip.Kind != jsontree.Bool:
		l.errorf(p+"/isPointer", "got %s, want a boolean", describe(ip))
	case stars == 1 && !ip.Bool:
		l.errorf(p+"/isPointer", "got false, but the type %q is a pointer: want one of them", source.ClipValue(t.Str))
	default:
		ct.pointer = ip.Bool || stars == 1
	}
	for _, m := range v.Members {
		switch m.Key {
		case "type", "isPointer", "isIn":
		default:
			l.warnf(p+jsontree.Pointer(m.Key), "%s", otload.UnknownMember(m.Key, []string{"type", "isPointer", "isIn"}))
		}
	}
	return ct
}

// parseCType reads a C type name: one of the OpenDyn list or a synonym, with
// "const" and trailing stars allowed. It returns the canonical name and the
// number of stars.
func parseCType(s string) (name string, stars int, ok bool) {
	s = strings.TrimSpace(s)
	for strings.HasSuffix(s, "*") {
		stars++
		s = strings.TrimSpace(s[:len(s)-1])
	}
	fields := strings.Fields(s)
	var kept []string
	for _, f := range fields {
		if f != "const" {
			kept = append(kept, f)
		}
	}
	s = strings.Join(kept, " ")
	if slices.Contains(cTypeNames, s) {
		return s, stars, true
	}
	if c, ok := cTypeSynonyms[s]; ok {
		return c, stars, true
	}
	return "", 0, false
}

func sameCType(a, b *dynCType) bool { return a.name == b.name && a.pointer == b.pointer }

func (c *dynCType) String() string {
	if c.pointer {
		return c.name + "*"
	}
	return c.name
}

// fixSchema reads C type names used as schema types ("type": "double") as the
// schema type they stand for, with a warning, and removes cType members where
// they mean nothing, also with a warning; in s and the schemas inside it.
func (l *dynLoader) fixSchema(s *jsontree.Node, path string) {
	// The path grows as a stack and becomes a string only in a warning: a
	// string per nested schema would cost the square of the depth.
	p := []byte(path)
	l.fixAt(s, &p)
}

func (l *dynLoader) fixAt(s *jsontree.Node, path *[]byte) {
	if s == nil || s.Kind != jsontree.Object {
		return
	}
	if t := s.Get("type"); t != nil && t.Kind == jsontree.String && !isSchemaTypeName(t.Str) {
		if name, stars, ok := parseCType(t.Str); ok {
			st := cTypeClass(name)
			switch {
			case (name == "char" || name == "unsigned char") && stars == 1:
				st = runtime.TypeString
			case stars > 0 || name == "char" || st == "void":
				st = ""
			}
			if st != "" {
				l.warnf(string(*path)+"/type", "got %q, a C type, want one of boolean, integer, number, string, array, object; reading it as %q", source.ClipValue(t.Str), st)
				t.Str = st
			}
		}
	}
	for _, m := range s.Members {
		n := len(*path)
		*path = jsontree.AppendToken(*path, m.Key)
		switch m.Key {
		case "properties":
			if m.Value.Kind == jsontree.Object {
				for _, pm := range m.Value.Members {
					k := len(*path)
					*path = jsontree.AppendToken(*path, pm.Key)
					l.nested(pm.Value, path)
					*path = (*path)[:k]
				}
			}
		case "items", "additionalProperties":
			l.nested(m.Value, path)
		}
		*path = (*path)[:n]
	}
}

// nested fixes a schema inside another one, where cType means nothing.
func (l *dynLoader) nested(s *jsontree.Node, path *[]byte) {
	if s == nil || s.Kind != jsontree.Object {
		return
	}
	if s.Get("cType") != nil {
		l.warnf(string(*path)+"/cType", "ignored: a C type belongs to a parameter's or return value's schema (for an array, the element type with isPointer true)")
		deleteMember(s, "cType")
	}
	l.fixAt(s, path)
}

func isSchemaTypeName(t string) bool {
	switch t {
	case runtime.TypeBoolean, runtime.TypeInteger, runtime.TypeNumber, runtime.TypeString, runtime.TypeArray, runtime.TypeObject:
		return true
	}
	return false
}

// resolve follows a schema's $ref chain through the document's schemas. It
// returns the schema it ends at (nil if a reference dangles or loops) and the
// name of the first named schema reached ("" when s is no reference).
func (l *dynLoader) resolve(s *jsontree.Node) (*jsontree.Node, string) {
	first := ""
	for range 64 {
		if s == nil || s.Kind != jsontree.Object {
			return nil, first
		}
		ref := s.Get("$ref")
		if ref == nil {
			return s, first
		}
		if ref.Kind != jsontree.String {
			return nil, first
		}
		name, ok := runtime.RefName(ref.Str)
		if !ok {
			return nil, first
		}
		if first == "" {
			first = name
		}
		s = l.root.Get("schemas").Get(name)
	}
	return nil, first
}

// count reads a non-negative integer member of a schema.
func (l *dynLoader) count(s *jsontree.Node, key string) (int, bool) {
	v := s.Get(key)
	if v == nil || v.Kind != jsontree.Number {
		return 0, false
	}
	n, err := strconv.ParseInt(v.Str, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt32 {
		return 0, false
	}
	return int(n), true
}

func stringMember(n *jsontree.Node, key string) string {
	if v := n.Get(key); v != nil && v.Kind == jsontree.String {
		return v.Str
	}
	return ""
}

// describe says what v is, for "got …" in messages.
func describe(v *jsontree.Node) string {
	switch v.Kind {
	case jsontree.Null:
		return "null"
	case jsontree.Bool:
		return "boolean " + strconv.FormatBool(v.Bool)
	case jsontree.Number:
		return "number " + source.ClipValue(v.Str)
	case jsontree.String:
		return "string " + strconv.Quote(source.ClipValue(v.Str))
	case jsontree.Array:
		return "an array"
	}
	return "an object"
}

// ---- from the document to the model -------------------------------------------

// outputsToResults moves the output parameters of each function out of its
// parameters and into its result: an object with the return value and the
// outputs as members.
func (l *dynLoader) outputsToResults(doc *runtime.OpenTool) {
	for i := range doc.Functions {
		if i >= len(l.fns) {
			break // cannot happen: the OpenTool loader took the same functions
		}
		f := &doc.Functions[i]
		df := l.fns[i]
		var params []runtime.Parameter
		var outs []runtime.Parameter
		for j, p := range f.Parameters {
			if df != nil && j < len(df.params) && df.params[j] != nil && df.params[j].out {
				outs = append(outs, p)
			} else {
				params = append(params, p)
			}
		}
		if len(outs) == 0 {
			continue
		}
		f.Parameters = params
		obj := &runtime.Schema{Type: runtime.TypeObject}
		desc := "The results of " + f.Name + "."
		if f.Return != nil {
			s := withDescription(f.Return.Schema, f.Return.Description)
			obj.Properties = append(obj.Properties, runtime.NamedSchema{Name: f.Return.Name, Schema: s})
			obj.Required = append(obj.Required, f.Return.Name)
			if f.Return.Description != "" {
				desc = f.Return.Description
			}
		}
		for _, o := range outs {
			obj.Properties = append(obj.Properties, runtime.NamedSchema{Name: o.Name, Schema: withDescription(o.Schema, o.Description)})
			obj.Required = append(obj.Required, o.Name)
		}
		name := "result"
		if f.Return != nil {
			name = f.Return.Name
		}
		f.Return = &runtime.Return{Name: name, Description: desc, Schema: obj}
	}
}

// withDescription returns s with description d when it has none.
func withDescription(s *runtime.Schema, d string) *runtime.Schema {
	if s == nil || s.Description != "" || d == "" {
		return s
	}
	c := *s
	c.Description = d
	return &c
}

// cFunction is the C side of the function as read, for model.FromOpenDyn:
// nil when it was not read, nil parameters and zero C types where the
// document has problems the loader reported.
func (f *dynFunc) cFunction(symbol string) *model.CFunction {
	if f == nil {
		return nil
	}
	cf := &model.CFunction{Symbol: symbol}
	for _, p := range f.params {
		if p == nil {
			cf.Params = append(cf.Params, nil)
			continue
		}
		cf.Params = append(cf.Params, &model.CParam{Name: p.name, C: p.ct.cType(), Shape: p.shape,
			Out: p.out, Required: p.required || p.out, Size: p.size})
	}
	if f.ret != nil {
		cf.Return = &model.CReturn{Name: f.retName, C: f.ret.ct.cType(), Shape: f.ret.shape}
	}
	return cf
}

// cType is the model's C type of a cType as read; the zero CType for none.
func (c *dynCType) cType() model.CType {
	if c == nil {
		return model.CType{}
	}
	return model.CType{Name: c.name, Pointer: c.pointer}
}

// ---- the tree -----------------------------------------------------------------

func cloneTree(n *jsontree.Node) *jsontree.Node {
	if n == nil {
		return nil
	}
	c := *n
	if n.Items != nil {
		c.Items = make([]*jsontree.Node, len(n.Items))
		for i, it := range n.Items {
			c.Items[i] = cloneTree(it)
		}
	}
	if n.Members != nil {
		c.Members = make([]jsontree.Member, len(n.Members))
		for i, m := range n.Members {
			c.Members[i] = jsontree.Member{Key: m.Key, KeyOffset: m.KeyOffset, Value: cloneTree(m.Value)}
		}
	}
	return &c
}

func deleteMember(obj *jsontree.Node, key string) {
	obj.Members = slices.DeleteFunc(obj.Members, func(m jsontree.Member) bool { return m.Key == key })
}

func setMember(obj *jsontree.Node, key string, v *jsontree.Node) {
	for i := range obj.Members {
		if obj.Members[i].Key == key {
			obj.Members[i].Value = v
			return
		}
	}
	obj.Members = append(obj.Members, jsontree.Member{Key: key, KeyOffset: v.Offset, Value: v})
}
