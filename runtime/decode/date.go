package decode

import (
	"errors"

	"github.com/opentoolgen/opentoolgen/runtime/civil"
)

// Date reads an RFC 3339 full-date string into *x, for generated decoders: a
// value that is not one is a violation at the decoder's position that quotes
// it and says why.
func Date(d *Decoder, x *civil.Date) {
	if s, ok := d.String(); ok {
		DateText(d, s, x)
	}
}

// DateText reads s, the string a generated decoder has just read (and checked
// against the schema's lengths and pattern), into *x as Date does.
func DateText(d *Decoder, s string, x *civil.Date) {
	v, err := civil.ParseDate(s)
	if err != nil {
		why := err.Error()
		var de *civil.DateError
		if errors.As(err, &de) {
			why = de.Reason
		}
		d.Invalid("got " + quoteValue(s) + ", want an RFC 3339 date (YYYY-MM-DD): " + why)
		return
	}
	*x = v
}
