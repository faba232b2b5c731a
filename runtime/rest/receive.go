package rest

import (
	"context"
	"iter"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// The one-call forms of a generated client method. Most operations document
// one success response with a body, any other 2xx as a success without one,
// and an error body for their error statuses; their methods end in one call,
//
//	var out Pet
//	err := rest.Receive(ctx, r, "200", &out, decodePet, rest.APIErrors[Error]("4XX", "5XX"))
//	return out, err
//
// or, with no result, return rest.Do(ctx, r, rest.Unexpected), which does
// what the switch over the response's status in the methods of other
// operations does:
//
//	resp, err := r.Send(ctx)
//	if err != nil {
//		return out, err
//	}
//	switch {
//	case resp.Is("200"):
//		err = rest.DecodeChecked(resp, &out, decodePet)
//	case resp.Success():
//	default:
//		err = rest.ErrorFor[Error](resp, "4XX", "5XX")
//	}
//	return out, err

// A Failure makes the error of a response whose status no success case of
// a generated method takes: [Unexpected], or [APIErrors] for the statuses an
// operation documents an error body for.
type Failure func(*Response) error

// Unexpected is the Failure of an operation that documents no error body
// (for the statuses left): the *[StatusError] of [Response.Unexpected].
func Unexpected(r *Response) error { return r.Unexpected() }

// APIErrors returns the Failure of an operation that documents the error
// body E for statuses, as [Response.Is] reads them ("404", "4XX",
// "default"): the *[APIError][E] of a response of one of them ([ErrorFor]),
// the *[StatusError] of [Response.Unexpected] for any other status.
func APIErrors[E any](statuses ...string) Failure {
	return func(r *Response) error { return ErrorFor[E](r, statuses...) }
}

// Receive sends r ([Request.Send]) and reads its response into out:
//
//   - a response whose status is ok, as [Response.Is] reads it ("200",
//     "2XX"), is decoded into out by [DecodeChecked] with decode, the
//     generated decoder of T, which checks the body when the response is
//     strict; with a nil decode (a result of no checked type: any,
//     json.RawMessage) by [Response.Decode]. An empty body leaves out alone;
//   - any other 2xx response succeeds and leaves out alone;
//   - any other response is the error fail makes of it.
//
// An error sending the request or reading the response is returned as Send
// returns it, out left alone. The response's body is read whole and closed
// by Send.
func Receive[T any](ctx context.Context, r *Request, ok string, out *T, decode func(*runtime.Decoder, *T), fail Failure) error {
	resp, err := r.Send(ctx)
	switch {
	case err != nil:
		return err
	case resp.Is(ok):
		if decode == nil {
			return resp.Decode(out)
		}
		return DecodeChecked(resp, out, decode)
	case resp.Success():
		return nil
	}
	return fail(resp)
}

// Do sends r ([Request.Send]) for an operation whose response has no
// result: a 2xx response succeeds (its body is not decoded), any other is
// the error fail makes of it. An error sending the request or reading the
// response is returned as Send returns it.
func Do(ctx context.Context, r *Request, fail Failure) error {
	resp, err := r.Send(ctx)
	switch {
	case err != nil:
		return err
	case resp.Success():
		return nil
	}
	return fail(resp)
}

// GatherInto is the end of a Tool's list function: it gathers at most max
// items of seq ([Gather]) and gives them to set, which puts them into the
// result of the last page, *last, that the fetch of seq's pages keeps. It
// returns *last as it then is, or, on an error, *last without the items
// (the result of the last page fetched) and the error:
//
//	var last ItemList
//	fetch := func(ctx context.Context) (rest.Page[Item], error) {
//		out, err := t.svc.ListItems(ctx, args)
//		last = out
//		return rest.Page[Item]{Items: out.Value, Next: rest.Text(out.NextLink)}, err
//	}
//	return rest.GatherInto(&last, rest.Links(ctx, fetch), rest.Limit(args.MaxItems, 100), func(items []Item) { last.Value = items })
func GatherInto[R, T any](last *R, seq iter.Seq2[T, error], max int, set func(items []T)) (R, error) {
	items, err := Gather(seq, max)
	if err != nil {
		return *last, err
	}
	set(items)
	return *last, nil
}
