package decode

import (
	"context"
	"encoding/json"

	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
)

// Arguments is how a generated Tool decodes the arguments of a call of
// function: completed as a's options say, with the call values on ctx
// ([toolopt.Args.Apply]), decoded and checked into *v by fn ([Value]), and violations
// about arguments read from the environment reported without their values
// ([toolopt.Args.Redact]).
func Arguments[T any](ctx context.Context, a *toolopt.Args, function string, args json.RawMessage, v *T, fn func(*Decoder, *T)) error {
	full, err := a.Apply(ctx, function, args)
	if err != nil {
		return err
	}
	if err := Value(full, v, fn); err != nil {
		return a.Redact(function, err)
	}
	return nil
}

// Response is [Value] for a response body that a REST client checks
// against its document (package runtime/rest's strict responses): a member
// the document marks writeOnly may be absent even when it is required
// ([Decoder.WriteOnly]), as OpenAPI says of such members.
func Response[T any](raw []byte, v *T, fn func(*Decoder, *T)) error {
	return decode(raw, v, fn, true)
}

// WriteOnly marks as seen, when the value read is a response
// ([Response]), the required members of bits (bit i of seen[i/64]):
// those the document marks writeOnly, which a response may leave out. Called
// by generated decoders before [Decoder.Required]; it does nothing for
// arguments.
func (d *Decoder) WriteOnly(seen []uint64, bits ...int) {
	if !d.response {
		return
	}
	for _, i := range bits {
		if i/64 < len(seen) {
			seen[i/64] |= 1 << (i % 64)
		}
	}
}
