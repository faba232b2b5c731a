package emit

import (
	"math"

	"github.com/dave/jennifer/jen"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// The checks of the constraints a package serves (model.Constraints), the
// same for every input kind: calls of the runtime's Check functions
// (runtime/check.go) right after a value is read.

// checkValue renders the constraint checks of a scalar just read into v:
//
//	decode.CheckMin(d, float64(v1), 1, false)
//	decode.CheckLength(d, v1, -1, 64)
//	decode.CheckFormat(d, v1, "email")
//	decode.CheckConst(d, v1, "fixed")
func checkValue(r *model.TypeRef, v *jen.Statement) jen.Code {
	c := r.Check
	if c == nil {
		return jen.Null()
	}
	s := jen.Null()
	n := 0
	add := func(code jen.Code) {
		if n > 0 {
			s.Line()
		}
		n++
		s.Add(code)
	}
	switch r.Kind {
	case model.RefInt, model.RefFloat:
		if c.Minimum != nil {
			add(decQ("CheckMin").Call(jen.Id("d"), jen.Float64().Call(v.Clone()), jen.Lit(*c.Minimum), jen.Lit(c.ExclusiveMinimum)))
		}
		if c.Maximum != nil {
			add(decQ("CheckMax").Call(jen.Id("d"), jen.Float64().Call(v.Clone()), jen.Lit(*c.Maximum), jen.Lit(c.ExclusiveMaximum)))
		}
		if m := c.MultipleOf; m != nil {
			if r.Kind == model.RefInt && *m == math.Trunc(*m) && *m < 1<<62 {
				add(decQ("CheckMultipleOfInt").Call(jen.Id("d"), jen.Int64().Call(v.Clone()), jen.Lit(int64(*m))))
			} else {
				add(decQ("CheckMultipleOf").Call(jen.Id("d"), jen.Float64().Call(v.Clone()), jen.Lit(*m)))
			}
		}
	case model.RefString, model.RefDate: // a date's text
		if c.MinLength != nil || c.MaxLength != nil {
			add(decQ("CheckLength").Call(jen.Id("d"), v.Clone(), bound(c.MinLength), bound(c.MaxLength)))
		}
		if c.PatternVar != "" {
			add(decQ("CheckPattern").Call(jen.Id("d"), v.Clone(), jen.Id(c.PatternVar)))
		}
		if c.Format != "" {
			add(decQ("CheckFormat").Call(jen.Id("d"), v.Clone(), jen.Lit(c.Format)))
		}
	}
	switch x := c.Const.(type) {
	case string, bool, int64:
		add(decQ("CheckConst").Call(jen.Id("d"), v.Clone(), jen.Lit(x)))
	case float64:
		add(decQ("CheckConst").Call(jen.Id("d"), jen.Float64().Call(v.Clone()), jen.Lit(x)))
	}
	return s
}

func bound(v *int64) jen.Code {
	if v == nil {
		return jen.Lit(-1)
	}
	return jen.Lit(int(*v))
}

// checkItems renders the checks of an array just read into target:
//
//	decode.CheckItems(d, len(target), 1, -1)
//	decode.CheckUnique(d, target)
func checkItems(r *model.TypeRef, target *jen.Statement) jen.Code {
	c := r.Check
	if c == nil {
		return jen.Null()
	}
	var s *jen.Statement
	add := func(code jen.Code) {
		if s == nil {
			s = jen.Add(code)
		} else {
			s.Line().Add(code)
		}
	}
	if c.MinItems != nil || c.MaxItems != nil {
		add(decQ("CheckItems").Call(jen.Id("d"), jen.Len(target.Clone()), bound(c.MinItems), bound(c.MaxItems)))
	}
	if c.UniqueItems {
		fn := "CheckUniqueJSON"
		if comparable(r.Elem) {
			fn = "CheckUnique"
		}
		add(decQ(fn).Call(jen.Id("d"), target.Clone()))
	}
	if s == nil {
		return jen.Null()
	}
	return s
}

// checkProperties renders the check of the number of members of an object,
// n (len(target) for a map, the members counted for a struct):
//
//	decode.CheckProperties(d, len(target), 1, -1)
func checkProperties(c *model.Constraints, n jen.Code) jen.Code {
	if c == nil || c.MinProperties == nil && c.MaxProperties == nil {
		return jen.Null()
	}
	return decQ("CheckProperties").Call(jen.Id("d"), n, bound(c.MinProperties), bound(c.MaxProperties))
}

// comparable reports whether values of r compare with == as their JSON
// values do: strings, numbers, booleans, dates, and named types over them.
func comparable(r *model.TypeRef) bool {
	switch r.Kind {
	case model.RefString, model.RefInt, model.RefFloat, model.RefBool, model.RefDate:
		return true
	case model.RefNamed:
		t := r.Named
		switch t.Kind {
		case model.KindEnum, model.KindNamed, model.KindAlias:
			return t.Underlying != nil && comparable(t.Underlying)
		}
	}
	return false
}

// emitPatterns declares the compiled patterns the decoders check.
func emitPatterns(f *jen.File, p *model.Package) {
	if len(p.Patterns) == 0 {
		return
	}
	// var pattern1 = decode.NewPattern("^[a-z]+$")
	var defs []jen.Code
	for _, pv := range p.Patterns {
		defs = append(defs, jen.Id(pv.Name).Op("=").Add(decQ("NewPattern")).Call(jen.Lit(pv.Expr)))
	}
	f.Comment("Patterns of the schemas, compiled on first use.")
	f.Var().Defs(defs...)
}
