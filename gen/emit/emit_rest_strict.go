package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// decodeResult renders the statement that decodes the JSON body of a
// success response into out, with the decoder of the result's type that a
// client with strict responses checks it with (rest.DecodeChecked), or
// without one when the result has nothing to check:
//
//	err = rest.DecodeChecked(resp, &out, decodePet)
//	err = rest.DecodeChecked(resp, &out, func(d *decode.Decoder, x *[]Pet) { … })
//	err = resp.Decode(&out)
//
// and that decoder (decodePet, or nil for resp.Decode), which rest.Receive
// takes.
func decodeResult(fn *model.Function, out *jen.Statement) (stmt, decoder jen.Code) {
	r := model.CheckedResult(fn)
	if r == nil {
		return jen.Err().Op("=").Id("resp").Dot("Decode").Call(jen.Op("&").Add(out.Clone())), jen.Nil()
	}
	decoder = variantDecoder(&model.Variant{Type: r})
	return jen.Err().Op("=").Add(restQ("DecodeChecked")).Call(jen.Id("resp"), jen.Op("&").Add(out.Clone()), decoder), decoder
}

// checksResults reports whether a function of p has a response its client
// checks with strict responses (model.CheckedResult).
func checksResults(p *model.Package) bool {
	for _, fn := range p.Functions {
		if model.CheckedResult(fn) != nil {
			return true
		}
	}
	return false
}

// strictContext renders, when checked, the statement of the Tool's Call that
// gives the Service the context toolopt.WithStrictResponses marks, which its
// REST client reads:
//
//	ctx = t.args.CallContext(ctx)
func strictContext(checked bool) jen.Code {
	if !checked {
		return jen.Null()
	}
	return jen.Id("ctx").Op("=").Id("t").Dot("args").Dot("CallContext").Call(jen.Id("ctx"))
}

// writeOnlyBits renders, for a struct with required members the document
// marks writeOnly, the call that lets a response leave them out (their bits
// in the decoder's seen set, numbered as structDecoder numbers the required
// members):
//
//	d.WriteOnly(seen[:], 1)
func writeOnlyBits(t *model.Type) jen.Code {
	var bits []jen.Code
	bit := 0
	for _, fl := range t.Fields {
		if !fl.Required {
			continue
		}
		if fl.WriteOnly {
			bits = append(bits, jen.Lit(bit))
		}
		bit++
	}
	if len(bits) == 0 {
		return jen.Null()
	}
	return jen.Id("d").Dot("WriteOnly").Call(append([]jen.Code{jen.Id("seen").Index(jen.Op(":"))}, bits...)...)
}
