package emit

import (
	"fmt"
	"slices"
	"testing"

	"github.com/dave/jennifer/jen"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

func TestKeepCases(t *testing.T) {
	const (
		own = actOwn
		non = actNothing
		unx = actUnexpected
	)
	type c struct {
		status string
		action caseAction
	}
	for _, tc := range []struct {
		name  string
		cases []c
		def   caseAction
		want  []string
	}{
		{"as default", []c{{"200", own}, {"404", unx}, {"2XX", non}}, unx, []string{"200", "2XX"}},
		{"default decodes an error", []c{{"404", unx}, {"2XX", non}}, own, []string{"404", "2XX"}},
		{"before a class that does else", []c{{"404", unx}, {"4XX", own}, {"2XX", non}}, unx, []string{"404", "4XX", "2XX"}},
		{"before a class as default", []c{{"404", unx}, {"4XX", unx}, {"2XX", non}}, unx, []string{"2XX"}},
		{"class before a code", []c{{"5XX", unx}, {"503", own}, {"2XX", non}}, unx, []string{"5XX", "503", "2XX"}},
		{"other class", []c{{"404", unx}, {"5XX", own}, {"2XX", non}}, unx, []string{"5XX", "2XX"}},
		{"lower-case class", []c{{"404", unx}, {"4xx", own}}, unx, []string{"404", "4xx"}},
		{"never matches", []c{{"abc", unx}, {"4XX", own}}, unx, []string{"4XX"}},
		// An empty success case before resp.Success() doing nothing.
		{"empty success", []c{{"204", non}, {"2XX", non}}, unx, []string{"2XX"}},
		{"empty success before a success that decodes", []c{{"204", non}, {"2XX", own}, {"2XX", non}}, unx, []string{"204", "2XX", "2XX"}},
		{"empty default success", []c{{"200", own}, {"2XX", non}, {"2XX", non}}, unx, []string{"200", "2XX"}},
		{"empty class before a code", []c{{"2XX", non}, {"201", non}, {"2XX", non}}, unx, []string{"2XX"}},
		{"empty class, not covered", []c{{"2XX", non}, {"201", non}}, unx, []string{"2XX", "201"}},
		{"unexpected covered by a later class", []c{{"404", unx}, {"4XX", unx}, {"2XX", non}}, own, []string{"4XX", "2XX"}},
	} {
		var in []statusCase
		for _, x := range tc.cases {
			in = append(in, statusCase{status: x.status, action: x.action})
		}
		var got []string
		for _, x := range keepCases(in, tc.def) {
			got = append(got, x.status)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: kept %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestMergeCases(t *testing.T) {
	is := func(s string) jen.Code { return jen.Id("resp").Dot("Is").Call(jen.Lit(s)) }
	apiErr := func(typ string) []jen.Code {
		return []jen.Code{jen.Err().Op("=").Qual("rest", "NewAPIError").Types(jen.Id(typ)).Call(jen.Id("resp"))}
	}
	decode := []jen.Code{jen.Err().Op("=").Id("decode").Call()}
	cases := []statusCase{
		{"200", actOwn, is("200"), decode, "", nil, nil, false},
		{"201", actOwn, is("201"), decode, "", nil, nil, false}, // a body of its own: never merged
		{"400", actOwn, is("400"), apiErr("E"), "error E", nil, nil, false},
		{"4XX", actOwn, is("4XX"), apiErr("E"), "error E", nil, nil, false},
		{"503", actOwn, is("503"), apiErr("F"), "error F", nil, nil, false},
		{"5XX", actOwn, is("5XX"), apiErr("E"), "error E", nil, nil, false}, // not adjacent to the 4XX
		{"2XX", actNothing, jen.Id("resp").Dot("Success").Call(), nil, "nothing", nil, nil, false},
	}
	got := fmt.Sprintf("%#v", jen.Switch().Block(mergeCases(cases)...))
	want := `switch {
case resp.Is("200"):
	err = decode()
case resp.Is("201"):
	err = decode()
case resp.Is("400"), resp.Is("4XX"):
	err = rest.NewAPIError[E](resp)
case resp.Is("503"):
	err = rest.NewAPIError[F](resp)
case resp.Is("5XX"):
	err = rest.NewAPIError[E](resp)
case resp.Success():
}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDropDead(t *testing.T) {
	for _, tc := range []struct {
		in, want []string
	}{
		{[]string{"2XX", "4XX", "2XX"}, []string{"2XX", "4XX"}}, // resp.Success() after resp.Is("2XX")
		{[]string{"4XX", "404", "2XX"}, []string{"4XX", "2XX"}},
		{[]string{"404", "4XX", "2XX"}, []string{"404", "4XX", "2XX"}},
		{[]string{"200", "201", "2XX"}, []string{"200", "201", "2XX"}},
		{[]string{"4xx", "4XX", "abc", "abc"}, []string{"4xx", "abc", "abc"}}, // a status that never matches is kept
	} {
		var in []statusCase
		for _, s := range tc.in {
			in = append(in, statusCase{status: s})
		}
		var got []string
		for _, c := range dropDead(in) {
			got = append(got, c.status)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("dropDead(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFoldErrors(t *testing.T) {
	c := func(status string, action caseAction, same string) statusCase {
		return statusCase{status, action, jen.Id("resp").Dot("Is").Call(jen.Lit(status)), []jen.Code{jen.Id("body").Call(jen.Lit(status))}, same, nil, nil, false}
	}
	success := statusCase{"2XX", actNothing, jen.Id("resp").Dot("Success").Call(), nil, "nothing", nil, nil, false}
	for _, tc := range []struct {
		name  string
		cases []statusCase
		want  string
	}{
		{"errors last", []statusCase{c("200", actOwn, ""), c("4XX", actOwn, "error E"), c("5XX", actOwn, "error E")},
			"switch {\ncase resp.Is(\"200\"):\n\tbody(\"200\")\ndefault:\n\terr = rest.ErrorFor[E](resp, \"4XX\", \"5XX\")\n}"},
		{"before resp.Success()", []statusCase{c("404", actOwn, "error E"), success},
			"switch {\ncase resp.Success():\ndefault:\n\terr = rest.ErrorFor[E](resp, \"404\")\n}"},
		{"another type before", []statusCase{c("404", actOwn, "error F"), c("5XX", actOwn, "error E")},
			"switch {\ncase resp.Is(\"404\"):\n\tbody(\"404\")\ndefault:\n\terr = rest.ErrorFor[E](resp, \"5XX\")\n}"},
		{"a success status", []statusCase{c("201", actOwn, "error E"), success},
			"switch {\ncase resp.Is(\"201\"):\n\tbody(\"201\")\ncase resp.Success():\ndefault:\n\terr = resp.Unexpected()\n}"},
		{"no error last", []statusCase{c("404", actOwn, "error E"), c("200", actOwn, "")},
			"switch {\ncase resp.Is(\"404\"):\n\tbody(\"404\")\ncase resp.Is(\"200\"):\n\tbody(\"200\")\ndefault:\n\terr = resp.Unexpected()\n}"},
	} {
		kept, def := foldErrors(tc.cases)
		got := fmt.Sprintf("%#v", jen.Switch().Block(append(mergeCases(kept), def.switchDefault())...))
		if got != tc.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

// TestReceiveArgs: a method ends in rest.Receive or rest.Do exactly when
// they do what its switch does: a first case decoding the result, API
// errors of no 2xx status (adjacent ones of a type in one rest.APIErrors),
// and every 2xx taken; other shapes keep the switch (nil).
func TestReceiveArgs(t *testing.T) {
	decode := statusCase{status: "200", action: actOwn, decoder: jen.Id("decodePet")}
	decodeAll := statusCase{status: "2XX", action: actOwn, decoder: jen.Id("decodePet")}
	text := statusCase{status: "200", action: actOwn, raw: true}
	undecoded := statusCase{status: "200", action: actOwn}
	other := statusCase{status: "2XX", action: actNothing, same: "nothing"}
	apiErr := func(status, typ string) statusCase {
		return statusCase{status: status, action: actOwn, same: "error " + typ, errType: jen.Id(typ)}
	}
	unexpected := statusCase{status: "404", action: actUnexpected, same: "unexpected"}
	errorFor := failure{jen.Id("Error"), []string{"4XX", "5XX"}}
	result := &model.Function{Result: &model.TypeRef{Kind: model.RefString}, HTTP: &model.Operation{}}
	noResult := &model.Function{HTTP: &model.Operation{}}
	headers := &model.Function{Result: result.Result, HTTP: &model.Operation{Headers: &model.Type{}}}
	headersOnly := &model.Function{HTTP: &model.Operation{Headers: &model.Type{}}}
	for _, tc := range []struct {
		name  string
		fn    *model.Function
		cases []statusCase
		fail  failure
		want  string
	}{
		{"decode, other 2xx", result, []statusCase{decode, other}, failure{},
			"call(ctx, r, \"200\", &out, decodePet)"},
		{"decode every 2xx, API errors", result, []statusCase{decodeAll}, errorFor,
			"call(ctx, r, \"2XX\", &out, decodePet, rest.APIErrors[Error](\"4XX\", \"5XX\"))"},
		{"default error", result, []statusCase{decode, other}, failure{typ: jen.Id("Error")},
			"call(ctx, r, \"200\", &out, decodePet, rest.APIErrors[Error](\"default\"))"},
		{"API errors of two types", result, []statusCase{decode, apiErr("400", "E"), apiErr("404", "E"), apiErr("409", "F"), other}, errorFor,
			"call(ctx, r, \"200\", &out, decodePet,\n\trest.APIErrors[E](\"400\", \"404\"),\n\trest.APIErrors[F](\"409\"),\n\trest.APIErrors[Error](\"4XX\", \"5XX\"))"},
		{"no result", noResult, []statusCase{other}, errorFor,
			"call(ctx, r, rest.APIErrors[Error](\"4XX\", \"5XX\"))"},
		{"no result, an API error first", noResult, []statusCase{apiErr("404", "E"), other}, failure{},
			"call(ctx, r, rest.APIErrors[E](\"404\"))"},
		{"other 2xx unexpected", result, []statusCase{decode}, failure{}, ""},
		{"API error for a 2xx", result, []statusCase{decode, apiErr("201", "E"), other}, failure{}, ""},
		{"an unexpected case", noResult, []statusCase{unexpected, apiErr("4XX", "E"), other}, failure{}, ""},
		{"text result", result, []statusCase{text, other}, failure{}, "call(ctx, r, \"200\", &out)"},
		{"text result, headers", headers, []statusCase{text, other}, failure{}, ""},
		{"a result case of its own", result, []statusCase{undecoded, other}, failure{}, ""},
		{"decode not first", result, []statusCase{apiErr("404", "E"), decode, other}, failure{}, ""},
		{"no result, no case for 2xx", noResult, []statusCase{apiErr("404", "E")}, failure{}, ""},
		{"response headers", headers, []statusCase{decode, other}, failure{}, "call(ctx, r, \"200\", &out.Body, decodePet)"},
		{"response headers, no result", headersOnly, []statusCase{other}, failure{}, ""},
	} {
		out := jen.Id("out")
		if tc.fn.HTTP.Headers != nil {
			out = out.Dot("Body")
		}
		got := ""
		if args := receiveArgs(tc.fn, tc.cases, tc.fail, out); args != nil {
			got = fmt.Sprintf("%#v", jen.Id("call").Call(args...))
		}
		if got != tc.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}
