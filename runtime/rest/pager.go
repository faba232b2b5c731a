package rest

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/url"
	"reflect"
	"strconv"
	"strings"
)

// Pagination. A generated client gives a list operation F the method
// FAll(ctx, args) iter.Seq2[Item, error], which walks the pages with one of
// the pagers below: Cursors (a cursor or token the response gives and the
// next request sends back, Stripe's starting_after after the last item's
// id), Links (the URL of the next page, in a Link header with rel="next" or
// in the body), PageNumbers and Offsets (counters). Each page is an ordinary
// call of F, so the client's retries, rate-limit waits, interceptors,
// credentials and timeouts apply to each page as to any call.
//
// The pagers fetch lazily (a page when the loop needs its first item), stop
// when the loop breaks, check the context before each page, and end with an
// error rather than loop forever: a cursor or link the API gave before
// ([ErrPageRepeated]), a page of counters that repeats the page before it,
// an empty page that says more follow with nothing to go on, or more than
// [MaxEmptyPages] empty pages in a row.

// MaxEmptyPages is how many empty pages in a row a pager follows while the
// API says more follow; one more ends the iteration with an error.
const MaxEmptyPages = 8

// ErrPageRepeated is the error (matched with errors.Is) that ends an
// iteration when the API gives a cursor or next link it gave before, or the
// same page again: following it would loop forever.
var ErrPageRepeated = errors.New("the API repeated a page")

// Page is one page a pager's fetch function read.
type Page[T any] struct {
	// Items are the page's items, in order.
	Items []T
	// Next is where the next page is: the cursor to send back (Cursors),
	// the URL of the next page when the body gives it (Links; a Link
	// header is read otherwise). "" means the API gave none.
	Next string
	// HasMore is what the response says of more pages (has_more), nil when
	// it says nothing.
	HasMore *bool
}

// Text returns the text of a cursor read from a response: a string, an
// integer, or a pointer to one ("" for nil and for any other type).
func Text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case *string:
		if x != nil {
			return *x
		}
	case int64:
		return strconv.FormatInt(x, 10)
	case *int64:
		if x != nil {
			return strconv.FormatInt(*x, 10)
		}
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case *int32:
		if x != nil {
			return strconv.FormatInt(int64(*x), 10)
		}
	}
	return ""
}

// Bool returns a response's has_more as Page.HasMore wants it: v (a bool or
// a *bool) as a pointer, nil when v is a nil pointer.
func Bool(v any) *bool {
	switch x := v.(type) {
	case bool:
		return &x
	case *bool:
		return x
	}
	return nil
}

// Ptr returns a pointer to v (for an optional argument a pager sets).
func Ptr[T any](v T) *T { return &v }

// Cursors walks the pages of a cursor API: fetch is called with "" for the
// first page (the arguments as the caller gave them), then with each
// page's Next. It ends after a page whose Next is "" or whose HasMore is
// false; a page that says more follow without a cursor, or a cursor given
// before, ends it with an error.
func Cursors[T any](ctx context.Context, fetch func(ctx context.Context, cursor string) (Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		seen := map[string]bool{}
		cursor, empty := "", 0
		for n := 1; ; n++ {
			p, err := fetchPage(ctx, n, func(ctx context.Context) (Page[T], error) { return fetch(ctx, cursor) })
			if !yieldPage(p, err, yield) {
				return
			}
			if p.HasMore != nil && !*p.HasMore {
				return
			}
			if p.Next == "" {
				if p.HasMore != nil {
					yieldErr(yield, fmt.Errorf("page %d: the API says more pages follow but gives no cursor (an empty page?)", n))
				}
				return
			}
			if seen[p.Next] {
				yieldErr(yield, fmt.Errorf("page %d: the cursor %s: %w", n, strconv.Quote(clip(p.Next, 64)), ErrPageRepeated))
				return
			}
			seen[p.Next] = true
			if empty, err = countEmpty(empty, len(p.Items), n); err != nil {
				yieldErr(yield, err)
				return
			}
			cursor = p.Next
		}
	}
}

// PageNumbers walks the pages of a page-numbered API: fetch is called with
// first, first+1, … It ends after an empty page or a page whose HasMore is
// false; a page equal to the one before (an API that ignores the page
// parameter) ends it with ErrPageRepeated.
func PageNumbers[T any](ctx context.Context, first int64, fetch func(ctx context.Context, page int64) (Page[T], error)) iter.Seq2[T, error] {
	return counters(ctx, first, func(int) int64 { return 1 }, fetch)
}

// Offsets walks the pages of an offset API: fetch is called with first,
// then first plus the number of items read so far. It ends as PageNumbers
// does.
func Offsets[T any](ctx context.Context, first int64, fetch func(ctx context.Context, offset int64) (Page[T], error)) iter.Seq2[T, error] {
	return counters(ctx, first, func(items int) int64 { return int64(items) }, fetch)
}

func counters[T any](ctx context.Context, first int64, step func(items int) int64, fetch func(ctx context.Context, n int64) (Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		at := first
		var prev []T
		for n := 1; ; n++ {
			p, err := fetchPage(ctx, n, func(ctx context.Context) (Page[T], error) { return fetch(ctx, at) })
			if err == nil && len(p.Items) > 0 && samePage(prev, p.Items) {
				err = fmt.Errorf("page %d is the page before again (does the API ignore the parameter?): %w", n, ErrPageRepeated)
			}
			if !yieldPage(p, err, yield) || len(p.Items) == 0 || p.HasMore != nil && !*p.HasMore {
				return
			}
			prev = p.Items
			at += step(len(p.Items))
		}
	}
}

// samePage reports whether two pages hold the same items; the first items
// are compared first, so different pages cost one comparison.
func samePage[T any](a, b []T) bool {
	if len(a) != len(b) || len(a) == 0 || !reflect.DeepEqual(a[0], b[0]) {
		return false
	}
	return reflect.DeepEqual(a, b)
}

// Links walks the pages of an API that gives the URL of the next page: in
// the response's Link header (rel="next"), or in the body (Page.Next, which
// wins). fetch is called with the caller's arguments each time; the
// request for every page after the first goes to the next page's URL
// instead of the one the arguments make (the client's query credentials
// are added to it). A link to another origin than the request's, or one
// given before, ends the iteration with an error.
func Links[T any](ctx context.Context, fetch func(ctx context.Context) (Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		seen := map[string]bool{}
		st := &linkState{}
		ctx := context.WithValue(ctx, linkKey{}, st)
		empty := 0
		for n := 1; ; n++ {
			st.header, st.base = "", ""
			p, err := fetchPage(ctx, n, fetch)
			if !yieldPage(p, err, yield) || p.HasMore != nil && !*p.HasMore {
				return
			}
			next := p.Next
			if next == "" {
				next = nextLink(st.header)
			}
			if next == "" {
				return
			}
			u, err := resolveLink(st.base, next)
			if err == nil && seen[u] {
				err = fmt.Errorf("the link %s: %w", strconv.Quote(redactQuery(u)), ErrPageRepeated)
			}
			if err == nil {
				empty, err = countEmpty(empty, len(p.Items), n)
			}
			if err != nil {
				yieldErr(yield, fmt.Errorf("page %d: %w", n, err))
				return
			}
			seen[u] = true
			st.next = u
		}
	}
}

// fetchPage fetches page n, unless ctx is done.
func fetchPage[T any](ctx context.Context, n int, fetch func(ctx context.Context) (Page[T], error)) (Page[T], error) {
	if err := ctx.Err(); err != nil {
		return Page[T]{}, fmt.Errorf("page %d: %w", n, err)
	}
	return fetch(ctx)
}

// yieldPage yields the items of p, or err; it returns false when the
// iteration is over (an error, or the loop broke).
func yieldPage[T any](p Page[T], err error, yield func(T, error) bool) bool {
	if err != nil {
		yieldErr(yield, err)
		return false
	}
	for _, it := range p.Items {
		if !yield(it, nil) {
			return false
		}
	}
	return true
}

func yieldErr[T any](yield func(T, error) bool, err error) {
	var zero T
	yield(zero, err)
}

// countEmpty counts the empty pages in a row (items on page n), and fails
// past MaxEmptyPages.
func countEmpty(empty, items, n int) (int, error) {
	if items > 0 {
		return 0, nil
	}
	empty++
	if empty > MaxEmptyPages {
		return empty, fmt.Errorf("page %d: %d empty pages in a row, and the API says more follow", n, empty)
	}
	return empty, nil
}

// linkState is what Links and the requests of its pages share through the
// context: the URL of the next page, which the next request sends to; the
// URL of the request and its Link header, which Send records.
type linkState struct {
	next   string // the URL the next request goes to; "" for the first page
	base   string // the URL the last request went to
	header string // the Link header of its response
}

type linkKey struct{}

// pageURL returns the URL a request goes to: u, or the next page's URL when
// the request is one of Links's pages; it records the URL for resolving
// the next link. creds are the request's credentials: those in the query
// are added to a next page's URL that lacks them.
func pageURL(ctx context.Context, u string, creds []Credential) (string, error) {
	st, _ := ctx.Value(linkKey{}).(*linkState)
	if st == nil {
		return u, nil
	}
	if st.next == "" {
		st.base = u
		return u, nil
	}
	if !sameOrigin(u, st.next) {
		return "", fmt.Errorf("the next page's link %s is on another origin than the API's: not followed", strconv.Quote(redactQuery(st.next)))
	}
	next, err := url.Parse(st.next)
	if err != nil {
		return "", err
	}
	q := next.Query()
	added := false
	for _, cr := range creds {
		if cr.kind == "apiKey" && cr.in == "query" && !q.Has(cr.name) {
			q.Set(cr.name, cr.value)
			added = true
		}
	}
	if added {
		next.RawQuery = q.Encode()
	}
	st.base = st.next
	return next.String(), nil
}

// notePage records the Link header of a response of one of Links's pages.
func notePage(ctx context.Context, resp *Response) {
	if st, _ := ctx.Value(linkKey{}).(*linkState); st != nil {
		st.header = strings.Join(resp.Header.Values("Link"), ", ")
	}
}

// sameOrigin reports whether a and b have the same scheme, host and port.
func sameOrigin(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && strings.EqualFold(ua.Scheme, ub.Scheme) && strings.EqualFold(ua.Host, ub.Host)
}

// resolveLink resolves a next link against the URL of the request that
// gave it.
func resolveLink(base, link string) (string, error) {
	l, err := url.Parse(link)
	if err != nil {
		return "", fmt.Errorf("the next page's link %s: %w", strconv.Quote(clip(link, 64)), err)
	}
	if base == "" {
		return l.String(), nil
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	return b.ResolveReference(l).String(), nil
}

// nextLink returns the target of the rel="next" link of a Link header
// (RFC 8288), "" when it has none.
func nextLink(header string) string {
	for header != "" {
		header = strings.TrimLeft(header, " ,")
		if !strings.HasPrefix(header, "<") {
			return ""
		}
		end := strings.IndexByte(header, '>')
		if end < 0 {
			return ""
		}
		target := header[1:end]
		header = header[end+1:]
		// The parameters, up to the next link (a comma outside quotes).
		params, rest := header, ""
		inQuote := false
		for i := 0; i < len(header); i++ {
			switch header[i] {
			case '"':
				inQuote = !inQuote
			case ',':
				if !inQuote {
					params, rest = header[:i], header[i+1:]
					i = len(header)
				}
			}
		}
		header = rest
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if !ok || !strings.EqualFold(strings.TrimSpace(k), "rel") {
				continue
			}
			for _, rel := range strings.Fields(strings.Trim(strings.TrimSpace(v), `"`)) {
				if strings.EqualFold(rel, "next") {
					return target
				}
			}
		}
	}
	return ""
}

// redactQuery drops the query of a URL for a message (it may carry keys).
func redactQuery(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		return u[:i]
	}
	return u
}

// Gather returns the items of seq, at most max of them (a tool's
// max_items): the iteration stops at the max-th item, so no page after
// its page is fetched. The items gathered before an error are returned
// with it. The slice is never nil (a JSON array, never null).
func Gather[T any](seq iter.Seq2[T, error], max int) ([]T, error) {
	items := []T{}
	if max <= 0 {
		return items, nil
	}
	for it, err := range seq {
		if err != nil {
			return items, err
		}
		items = append(items, it)
		if len(items) >= max {
			break
		}
	}
	return items, nil
}

// Take returns the first n items of seq (none when n <= 0) and its error,
// if one comes first; the iteration of seq stops at the n-th item, so no
// page after its page is fetched.
func Take[T any](seq iter.Seq2[T, error], n int) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		if n <= 0 {
			return
		}
		i := 0
		for it, err := range seq {
			if !yield(it, err) || err != nil {
				return
			}
			if i++; i >= n {
				return
			}
		}
	}
}

// Limit is the bound of a Tool's list function on the items it gathers:
// the max_items argument when the caller gave it (max), else def.
func Limit(max *int64, def int) int {
	if max == nil {
		return def
	}
	return int(*max)
}

// TakeAtMost is [Take] of the max_items argument of an iterator: the
// first *max items of seq, or all of them when max is nil.
func TakeAtMost[T any](seq iter.Seq2[T, error], max *int64) iter.Seq2[T, error] {
	if max == nil {
		return seq
	}
	return Take(seq, int(*max))
}
