package opendyn

import (
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// outputsToResults moves the output parameters of each function out of its
// parameters and into its result: an object with the return value and the
// outputs as members.
func (l *dynLoader) outputsToResults(doc *document.OpenTool) {
	for i := range doc.Functions {
		if i >= len(l.fns) {
			break // cannot happen: the OpenTool loader took the same functions
		}
		f := &doc.Functions[i]
		df := l.fns[i]
		var params []document.Parameter
		var outs []document.Parameter
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
		obj := &document.Schema{Type: document.TypeObject}
		desc := "The results of " + f.Name + "."
		if f.Return != nil {
			s := withDescription(f.Return.Schema, f.Return.Description)
			obj.Properties = append(obj.Properties, document.NamedSchema{Name: f.Return.Name, Schema: s})
			obj.Required = append(obj.Required, f.Return.Name)
			if f.Return.Description != "" {
				desc = f.Return.Description
			}
		}
		for _, o := range outs {
			obj.Properties = append(obj.Properties, document.NamedSchema{Name: o.Name, Schema: withDescription(o.Schema, o.Description)})
			obj.Required = append(obj.Required, o.Name)
		}
		name := "result"
		if f.Return != nil {
			name = f.Return.Name
		}
		f.Return = &document.Return{Name: name, Description: desc, Schema: obj}
	}
}

// withDescription returns s with description d when it has none.
func withDescription(s *document.Schema, d string) *document.Schema {
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
