package opendyn

import (
	"strconv"

	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// maxOutputBuffer bounds the buffers of output strings (bytes) and arrays
// (8 times their elements): each call has its own.
const maxOutputBuffer = 1 << 24

// dynParam is a parameter as read.
type dynParam struct {
	name     string
	ct       *dynCType
	shape    model.CShape
	out      bool
	required bool
	size     int
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
	case document.TypeString:
		if ct.name != "char" && ct.name != "unsigned char" {
			return mismatch()
		}
		if !ct.pointer {
			l.errorf(ct.path+"/isPointer", "got a single %s for a string, want isPointer true (char*)", ct.name)
			return false
		}
		dp.shape = model.CString
	case document.TypeArray:
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
	case document.TypeObject:
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
	if e == nil || e.Kind != jsontree.Array || cTypeClass(ct.name) != document.TypeInteger {
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
	if prev.name != ct.name && !(cTypeClass(ct.name) == document.TypeBoolean && cTypeClass(prev.name) == document.TypeBoolean) {
		pl, pc := l.src.Position(prev.path, -1)
		l.errorf(ct.path, "the schema %q is used as C type %s here and as %s at %d:%d; want one C type per schema (its Go type has one width)",
			source.ClipValue(named), ct.name, prev.name, pl, pc)
	}
}
