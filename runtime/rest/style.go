package rest

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Style is how a parameter's value is serialised, in OpenAPI's words: a style
// (Simple, Label, Matrix, Form, SpaceDelimited, PipeDelimited, DeepObject),
// Explode or NoExplode, and AllowReserved. [Request.Path], [Request.Query],
// [Request.Header], [Request.Cookie] and [Request.FormField] take the ones a
// parameter needs after its value; what is not given is OpenAPI's default
// for the parameter's place, so the common call has none:
//
//	r.Path("petId", args.PetID)                      // simple
//	r.Query("limit", args.Limit)                     // form, exploded
//	r.Query("ids", args.IDs, rest.NoExplode)         // ids=1,2,3
//	r.Query("tags", args.Tags, rest.PipeDelimited)   // tags=a|b
//	r.Path("color", args.Color, rest.Label, rest.Explode)
//
// The default style is Simple for path and header parameters and Form for
// query and cookie parameters and form fields; the default explode is true for
// Form and false for the others. Styles combine with | as well
// (rest.Matrix|rest.Explode). A call that gives two styles, Explode with
// NoExplode, a style its place does not have (Label in a query), or
// AllowReserved outside a query or a form body fails the request with an
// error naming the parameter.
type Style uint16

// The styles, and the flags that modify them.
const (
	// Simple is style simple (path, header): blue, blue,black and R,100,G,200
	// (R=100,G=200 exploded).
	Simple Style = 1 << iota
	// Label is style label (path): .blue, .blue.black exploded.
	Label
	// Matrix is style matrix (path): ;color=blue, ;color=blue;color=black exploded.
	Matrix
	// Form is style form (query, cookie, form body): color=blue,
	// color=blue&color=black exploded.
	Form
	// SpaceDelimited is style spaceDelimited (query): color=blue%20black.
	SpaceDelimited
	// PipeDelimited is style pipeDelimited (query): color=blue|black.
	PipeDelimited
	// DeepObject is style deepObject (query): color[R]=100&color[G]=200. It
	// ignores Explode and NoExplode.
	DeepObject
	// Explode sends the elements of an array or the members of an object as
	// separate values (explode: true).
	Explode
	// NoExplode sends an array or an object as one value (explode: false).
	NoExplode
	// AllowReserved sends the reserved characters of RFC 3986 that do not
	// delimit query parameters (:/?[]@!$'()*,;) as they are, in a query or a
	// form body (allowReserved: true).
	AllowReserved
)

const (
	allStyles   = Simple | Label | Matrix | Form | SpaceDelimited | PipeDelimited | DeepObject
	explodeBits = Explode | NoExplode
)

var styleNames = [...]string{"Simple", "Label", "Matrix", "Form", "SpaceDelimited", "PipeDelimited", "DeepObject", "Explode", "NoExplode", "AllowReserved"}

// String returns the names of the constants s holds, joined with |
// ("Label|Explode").
func (s Style) String() string {
	if s == 0 {
		return "Style(0)"
	}
	var names []string
	for i, n := range styleNames {
		if s&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	if rest := s &^ (1<<len(styleNames) - 1); rest != 0 {
		names = append(names, fmt.Sprintf("Style(%#x)", uint16(rest)))
	}
	return strings.Join(names, "|")
}

// A place is where a parameter travels: its default style and the styles and
// flags it accepts.
type place struct {
	name    string // in errors: "path parameter"
	def     Style
	accepts Style
}

var (
	pathPlace   = place{"path parameter", Simple, Simple | Label | Matrix | explodeBits}
	queryPlace  = place{"query parameter", Form, Form | SpaceDelimited | PipeDelimited | DeepObject | explodeBits | AllowReserved}
	headerPlace = place{"header", Simple, Simple | explodeBits}
	cookiePlace = place{"cookie", Form, Form | explodeBits}
)

// serialization is a parameter's serialisation once the place's defaults
// apply: one style, explode and allowReserved.
type serialization struct {
	style         Style
	explode       bool
	allowReserved bool
}

// serializationOf resolves the styles given for the parameter name at pl;
// its error names the parameter.
func (pl place) serializationOf(name string, opts []Style) (serialization, error) {
	s, err := pl.resolve(opts)
	if err != nil {
		err = fmt.Errorf("%s %s: %w", pl.name, strconv.Quote(name), err)
	}
	return s, err
}

func (pl place) resolve(opts []Style) (serialization, error) {
	var all Style
	for _, o := range opts {
		all |= o
	}
	if bad := all &^ pl.accepts; bad != 0 {
		return serialization{}, fmt.Errorf("%v does not apply to a %s", bad, pl.name)
	}
	s := serialization{style: all & allStyles, allowReserved: all&AllowReserved != 0}
	switch {
	case s.style == 0:
		s.style = pl.def
	case bits.OnesCount16(uint16(s.style)) > 1:
		return serialization{}, fmt.Errorf("more than one style: %v", s.style)
	}
	switch all & explodeBits {
	case explodeBits:
		return serialization{}, fmt.Errorf("both Explode and NoExplode")
	case Explode:
		s.explode = true
	case NoExplode:
	default:
		s.explode = s.style == Form
	}
	return s, nil
}
