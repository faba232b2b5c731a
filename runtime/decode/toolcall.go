package decode

import (
	"context"
	"encoding/json"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
)

// The cases of a generated Tool's Call: each decodes the arguments of a call
// of function into an A as [Arguments] does (an error there is the caller's
// -32602), calls f, the Service's method, with them, turns f's error into the
// caller's with [runtime.ToolError], and encodes f's result. In generated code:
//
//	case "list_pets":
//		return CallObject(ctx, t.args, name, args, decodeListPetsArgs, t.svc.ListPets)

// CallObject serves a function whose result is an object: f's result is the
// result object itself ([EncodeObject]).
func CallObject[A, R any](ctx context.Context, a *toolopt.Args, function string, args json.RawMessage, decode func(*Decoder, *A), f func(context.Context, A) (R, error)) (json.RawMessage, error) {
	var v A
	if err := Arguments(ctx, a, function, args, &v, decode); err != nil {
		return nil, err
	}
	r, err := f(ctx, v)
	if err != nil {
		return nil, runtime.ToolError(err)
	}
	return EncodeObject(r)
}

// CallResult serves a function whose result is a scalar or an array: f's
// result is the member name of the result object ([EncodeResult]).
func CallResult[A, R any](ctx context.Context, a *toolopt.Args, function string, args json.RawMessage, decode func(*Decoder, *A), f func(context.Context, A) (R, error), name string) (json.RawMessage, error) {
	var v A
	if err := Arguments(ctx, a, function, args, &v, decode); err != nil {
		return nil, err
	}
	r, err := f(ctx, v)
	if err != nil {
		return nil, runtime.ToolError(err)
	}
	return EncodeResult(name, r)
}

// CallNoResult serves a function without a result: a call that succeeds
// returns a nil result.
func CallNoResult[A any](ctx context.Context, a *toolopt.Args, function string, args json.RawMessage, decode func(*Decoder, *A), f func(context.Context, A) error) (json.RawMessage, error) {
	var v A
	if err := Arguments(ctx, a, function, args, &v, decode); err != nil {
		return nil, err
	}
	if err := f(ctx, v); err != nil {
		return nil, runtime.ToolError(err)
	}
	return nil, nil
}
