package opendyn

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// dynFunc is a function as read.
type dynFunc struct {
	name   string
	params []*dynParam // nil entries for parameters that are not objects
	ret    *dynParam   // nil when the function returns nothing (or void)
	// retName is the name of the return value, "" when there is none.
	retName string
}

// document checks the OpenDyn members of the document and of its functions.
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

// callingConvention reads and removes info.callingConvention: "cdecl" or
// "stdcall", other spellings of them with a warning.
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

// readCodes reads the status codes object v: integer codes and their text.
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

// function reads the OpenDyn side of function object f: its parameters,
// return value and result names.
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
