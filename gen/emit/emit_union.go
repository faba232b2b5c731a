package emit

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// tagCase is one case of a discriminated union's decoder: the discriminator
// values that pick the same variants, and those variants (several when they
// share the values), in document order.
type tagCase struct {
	tags  []string
	cands []*model.Variant
}

// tagCases groups the discriminator values of t's variants by the variants
// they pick: a case per set of variants, in the order of the variants and
// their values.
func tagCases(t *model.Type) []tagCase {
	var cases []tagCase
	done := map[string]bool{}
	pick := func(tag string) []*model.Variant {
		var vs []*model.Variant
		for _, v := range t.Variants {
			if slices.Contains(v.Tags, tag) {
				vs = append(vs, v)
			}
		}
		return vs
	}
	for _, v := range t.Variants {
		for _, tag := range v.Tags {
			if done[tag] {
				continue
			}
			cands := pick(tag)
			c := tagCase{cands: cands}
			// The values of this variant's that pick the same variants.
			for _, other := range v.Tags {
				if !done[other] && slices.Equal(pick(other), cands) {
					done[other] = true
					c.tags = append(c.tags, other)
				}
			}
			cases = append(cases, c)
		}
	}
	return cases
}

// taggedUnionDecoder decodes a union by its discriminator: a value names a
// variant, or several that share it, which are tried in document order.
func taggedUnionDecoder(t *model.Type, assign func(v *model.Variant, local string) jen.Code) []jen.Code {
	// switch tag := decode.UnionTag(raw, "kind"); tag {
	// case "a":
	//	var v A
	//	if decode.Variant(d, raw, &v, decodeA, true) { x.A = &v }
	// case "b":
	//	var v1 B
	//	var v2 C
	//	switch decode.Shared(d, raw, "kind", tag, decode.Try("B", &v1, decodeB), decode.Try("C", &v2, decodeC)) {
	//	case 0:
	//		x.B = &v1
	//	case 1:
	//		x.C = &v2
	//	}
	// default:
	//	d.Invalid(…)
	// }
	var cases []jen.Code
	var all []string
	shared := false
	for _, c := range tagCases(t) {
		var tags []jen.Code
		for _, tag := range c.tags {
			tags = append(tags, jen.Lit(tag))
			all = append(all, strconv.Quote(tag))
		}
		if len(c.cands) == 1 {
			v := c.cands[0]
			cases = append(cases, jen.Case(tags...).Block(
				jen.Var().Id("v").Add(goType(v.Type)),
				jen.If(decQ("Variant").Call(jen.Id("d"), jen.Id("raw"), jen.Op("&").Id("v"), variantDecoder(v), jen.True())).Block(assign(v, "v")),
			))
			continue
		}
		shared = true
		var stmts, tries, picks []jen.Code
		for i, v := range c.cands {
			local := "v" + strconv.Itoa(i+1)
			stmts = append(stmts, jen.Var().Id(local).Add(goType(v.Type)))
			tries = append(tries, decQ("Try").Call(jen.Lit(v.Name), jen.Op("&").Id(local), variantDecoder(v)))
			picks = append(picks, jen.Case(jen.Lit(i)).Block(assign(v, local)))
		}
		args := append([]jen.Code{jen.Id("d"), jen.Id("raw"), jen.Lit(t.Discriminator), jen.Id("tag")}, tries...)
		stmts = append(stmts, jen.Switch(decQ("Shared").Call(args...)).Block(picks...))
		cases = append(cases, jen.Case(tags...).Block(stmts...))
	}
	sort.Strings(all)
	cases = append(cases, jen.Default().Block(
		jen.Id("d").Dot("Invalid").Call(jen.Lit("got a value whose "+strconv.Quote(t.Discriminator)+" names no variant, want one of "+strings.Join(all, ", "))),
	))
	tag := decQ("UnionTag").Call(jen.Id("raw"), jen.Lit(t.Discriminator))
	if shared {
		return []jen.Code{jen.Switch(jen.Id("tag").Op(":=").Add(tag), jen.Id("tag")).Block(cases...)}
	}
	return []jen.Code{jen.Switch(tag).Block(cases...)}
}
