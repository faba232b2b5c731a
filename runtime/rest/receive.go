package rest

import (
	"context"
	"iter"

	"github.com/opentoolgen/opentoolgen/runtime/decode"
)

// The one-call forms of a generated client method. Most operations document
// one success response with a body (any other 2xx is then a success without
// one) and error bodies for their error statuses; their methods end in one
// call that does what the switch over the response's status in the methods
// of other operations does:
//
//	var out Pet
//	err := rest.Receive(ctx, r, "200", &out, decodePet, rest.APIErrors[Error]("4XX", "5XX"))
//	return out, err
//
// is
//
//	var out Pet
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
//
// With no result, return rest.Do(ctx, r, …); with response headers to read,
// [ReceiveResponse]; with a text or binary result, [ReceiveBody]. Several
// error bodies are several [APIErrors], tried in order; none, an
// undocumented error ([Response.Unexpected]) for every status.

// A Failure is what a generated method makes of a response whose status
// is one of the statuses an operation documents an error body for: its
// *[APIError] (see [APIErrors]).
type Failure struct {
	statuses []string
	err      func(*Response) error
}

// APIErrors returns the Failure of the statuses, as [Response.Is] reads them
// ("404", "4XX", "default"), that an operation documents the error body E
// for: a response of one of them is an *[APIError][E] ([NewAPIError]).
func APIErrors[E any](statuses ...string) Failure {
	return Failure{statuses, NewAPIError[E]}
}

// failure is the error of a response no success case took: the error of
// the first of fails that has its status ([ErrorFor] of each), else
// [Response.Unexpected].
func failure(r *Response, fails []Failure) error {
	for _, f := range fails {
		for _, s := range f.statuses {
			if r.Is(s) {
				return f.err(r)
			}
		}
	}
	return r.Unexpected()
}

// Receive sends r ([Request.Send]) and reads its response into out:
//
//   - a response whose status is ok, as [Response.Is] reads it ("200",
//     "2XX"), is decoded into out by [DecodeChecked] with decode, the
//     generated decoder of T, which checks the body when the response is
//     strict; with a nil decode (a result of no checked type: any,
//     json.RawMessage) by [Response.Decode]. An empty body leaves out alone;
//   - any other 2xx response succeeds and leaves out alone;
//   - any other response is the error of the first of fails that has its
//     status (an *[APIError]), else the *[StatusError] of
//     [Response.Unexpected].
//
// An error sending the request or reading the response is returned as Send
// returns it, out left alone. The response's body is read whole and closed
// by Send.
func Receive[T any](ctx context.Context, r *Request, ok string, out *T, decode func(*decode.Decoder, *T), fails ...Failure) error {
	_, err := ReceiveResponse(ctx, r, ok, out, decode, fails...)
	return err
}

// ReceiveResponse is [Receive] that returns the response too (nil when
// none came), for a method that reads its headers when the call succeeded:
//
//	resp, err := rest.ReceiveResponse(ctx, r, "200", &out.Body, decodePets)
//	if err == nil {
//		err = resp.HeaderValue("Link", &out.Link)
//	}
func ReceiveResponse[T any](ctx context.Context, r *Request, ok string, out *T, decode func(*decode.Decoder, *T), fails ...Failure) (*Response, error) {
	resp, err := r.Send(ctx)
	switch {
	case err != nil:
		return nil, err
	case resp.Is(ok):
		if decode == nil {
			return resp, resp.Decode(out)
		}
		return resp, DecodeChecked(resp, out, decode)
	case resp.Success():
		return resp, nil
	}
	return resp, failure(resp, fails)
}

// ReceiveBody is [Receive] for a result that is the body itself, text (a
// string) or binary ([]byte): a response whose status is ok sets out to its
// body, as it came (empty too); any other 2xx response succeeds and leaves
// out alone; any other response is the error of the first of fails that
// has its status, else the *[StatusError] of [Response.Unexpected].
func ReceiveBody[T ~string | ~[]byte](ctx context.Context, r *Request, ok string, out *T, fails ...Failure) error {
	resp, err := r.Send(ctx)
	switch {
	case err != nil:
		return err
	case resp.Is(ok):
		*out = T(resp.Body)
		return nil
	case resp.Success():
		return nil
	}
	return failure(resp, fails)
}

// Do sends r ([Request.Send]) for an operation whose response has no
// result: a 2xx response succeeds (its body is not decoded), any other is
// the error of the first of fails that has its status (an *[APIError]),
// else the *[StatusError] of [Response.Unexpected]. An error sending the
// request or reading the response is returned as Send returns it.
func Do(ctx context.Context, r *Request, fails ...Failure) error {
	resp, err := r.Send(ctx)
	switch {
	case err != nil:
		return err
	case resp.Success():
		return nil
	}
	return failure(resp, fails)
}

// GatherInto is the end of a Tool's list function: it gathers at most max
// items of seq ([Gather]) and, unless an error came, puts them in *items,
// the list of the result of the last page that the fetch of seq's pages
// keeps. On an error *items is left as the last page fetched had it:
//
//	var last ItemList
//	fetch := func(ctx context.Context) (rest.Page[Item], error) {
//		out, err := t.svc.ListItems(ctx, args)
//		last = out
//		return rest.Page[Item]{Items: out.Value, Next: rest.Text(out.NextLink)}, err
//	}
//	err := rest.GatherInto(&last.Value, rest.Links(ctx, fetch), rest.Limit(args.MaxItems, 100))
//	return last, err
//
// The items are never nil (a JSON array, never null).
func GatherInto[T any](items *[]T, seq iter.Seq2[T, error], max int) error {
	got, err := Gather(seq, max)
	if err != nil {
		return err
	}
	*items = got
	return nil
}
