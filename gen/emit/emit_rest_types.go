package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// The pieces of the type emitter that only OpenAPI models use: formats
// (time, bytes, raw JSON) and unions.

func oaGoType(r *model.TypeRef) *jen.Statement {
	switch r.Kind {
	case model.RefTime:
		return jen.Qual(timePath, "Time")
	case model.RefBytes:
		return jen.Index().Byte()
	}
	return jen.Qual(jsonPath, "RawMessage")
}

// oaDecodeValue decodes a value of a format kind: decode.Time(d, &target).
func oaDecodeValue(r *model.TypeRef, target *jen.Statement) []jen.Code {
	return []jen.Code{oaDecoder(r).Call(jen.Id("d"), addr(target.Clone()))}
}

// oaDecoder is the runtime's decoder of a time, bytes or raw value:
// decode.Time, DecodeBytes or DecodeRaw.
func oaDecoder(r *model.TypeRef) *jen.Statement {
	switch r.Kind {
	case model.RefTime:
		return decQ("Time")
	case model.RefBytes:
		return decQ("Bytes")
	}
	return decQ("Raw")
}

// aliasTarget returns the type an alias chain ends at when that is not a named
// type (type T = time.Time), or nil.
func aliasTarget(t *model.Type) *model.TypeRef {
	for i := 0; t.Kind == model.KindAlias && t.Underlying != nil && i < 100; i++ {
		if t.Underlying.Kind != model.RefNamed {
			return t.Underlying
		}
		t = t.Underlying.Named
	}
	return nil
}

// indexable returns target ready to be indexed: (*x)[k], not *x[k].
func indexable(target *jen.Statement) *jen.Statement {
	if strings.HasPrefix(fmt.Sprintf("%#v", target), "*") {
		return jen.Parens(target.Clone())
	}
	return target.Clone()
}

func variantType(v *model.Variant) *jen.Statement {
	if v.Pointer {
		return jen.Op("*").Add(goType(v.Type))
	}
	return goType(v.Type)
}

// emitUnion declares a union: a struct with one field per variant and its
// JSON methods.
func emitUnion(f *jen.File, t *model.Type) {
	var fields []jen.Code
	for _, v := range t.Variants {
		fields = append(fields, jen.Id(v.Name).Add(variantType(v)))
	}
	doc := t.Doc
	if doc == "" {
		doc = t.Origin
	}
	doc = model.JoinDoc(doc, "Set exactly one field; the value is that variant.")
	f.Add(docComment(t.Name, doc, t.Origin).Type().Id(t.Name).Struct(fields...))
	f.Line()

	// func (x T) MarshalJSON() ([]byte, error) {
	//	switch {
	//	case x.A != nil:
	//		return json.Marshal(x.A)
	//	}
	//	return []byte("null"), nil
	// }
	var cases []jen.Code
	var zero []jen.Code
	for _, v := range t.Variants {
		cases = append(cases, jen.Case(jen.Id("x").Dot(v.Name).Op("!=").Nil()).Block(
			jen.Return(jen.Qual(jsonPath, "Marshal").Call(jen.Id("x").Dot(v.Name))),
		))
		zero = append(zero, jen.Id("x").Dot(v.Name).Op("==").Nil())
	}
	f.Comment("MarshalJSON encodes the variant that is set; null when none is.")
	f.Func().Params(jen.Id("x").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		switchOrNull(cases),
		jen.Return(jen.Index().Byte().Call(jen.Lit("null")), jen.Nil()),
	)
	f.Line()
	f.Comment("UnmarshalJSON decodes the variant the value is.")
	f.Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Return(decQ("Unmarshal").Call(jen.Id("data"), jen.Id("x"), jen.Id(t.Decoder))),
	)
	f.Line()
	isZero := jen.True()
	if len(zero) > 0 {
		isZero = jen.Null()
		for i, z := range zero {
			if i > 0 {
				isZero.Op("&&")
			}
			isZero.Add(z)
		}
	}
	f.Comment("IsZero reports whether no variant is set.")
	f.Func().Params(jen.Id("x").Id(t.Name)).Id("IsZero").Params().Bool().Block(jen.Return(isZero))
	f.Line()
}

func switchOrNull(cases []jen.Code) jen.Code {
	if len(cases) == 0 {
		return jen.Null()
	}
	return jen.Switch().Block(cases...)
}

// variantDecoder is the decode function of a variant: a generated decoder,
// or a literal for types without one.
func variantDecoder(v *model.Variant) jen.Code {
	if v.Type.Kind == model.RefNamed && aliasTarget(v.Type.Named) == nil {
		if d := decoderOf(v.Type.Named); d != "" {
			return jen.Id(d)
		}
	}
	// func(d *decode.Decoder, x *T) { … }
	return jen.Func().Params(jen.Id("d").Op("*").Add(decQ("Decoder")), jen.Id("x").Op("*").Add(goType(v.Type))).Block(
		decodeValue(v.Type, jen.Op("*").Id("x"), "", 1)...,
	)
}

// unionDecoder decodes a union: by its discriminator, or as the first variant
// that accepts the value.
func unionDecoder(t *model.Type) []jen.Code {
	body := []jen.Code{
		jen.Id("raw").Op(":=").Id("d").Dot("Raw").Call(),
		jen.If(jen.Id("raw").Op("==").Nil()).Block(jen.Return()),
		jen.Op("*").Id("x").Op("=").Id(t.Name).Values(),
	}
	assign := func(v *model.Variant, local string) jen.Code {
		if v.Pointer {
			return jen.Id("x").Dot(v.Name).Op("=").Op("&").Id(local)
		}
		return jen.Id("x").Dot(v.Name).Op("=").Id(local)
	}
	if t.Discriminator != "" {
		return append(body, taggedUnionDecoder(t, assign)...)
	}
	// if decode.VariantPtr(d, raw, &x.A, decodeA, false) { return }
	// or, for a variant held by value:
	// {
	//	var v A
	//	if decode.Variant(d, raw, &v, decodeA, false) { x.A = v; return }
	// }
	var names []string
	for _, v := range t.Variants {
		if v.Pointer {
			body = append(body, jen.If(decQ("VariantPtr").Call(jen.Id("d"), jen.Id("raw"), jen.Op("&").Id("x").Dot(v.Name), variantDecoder(v), jen.False())).Block(jen.Return()))
			names = append(names, v.Name)
			continue
		}
		body = append(body, jen.Block(
			jen.Var().Id("v").Add(goType(v.Type)),
			jen.If(decQ("Variant").Call(jen.Id("d"), jen.Id("raw"), jen.Op("&").Id("v"), variantDecoder(v), jen.False())).Block(assign(v, "v"), jen.Return()),
		))
		names = append(names, v.Name)
	}
	body = append(body, jen.Id("d").Dot("Invalid").Call(jen.Lit("got a value that is none of the variants "+strings.Join(names, ", "))))
	return body
}
