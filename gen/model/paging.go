package model

// Pagination and idempotency of OpenAPI operations (Operation.Paging,
// Operation.Idempotency).

// PagingStyle is how a list operation gives its next page.
type PagingStyle string

// The styles of pagination.
const (
	// PageCursor: a member of the response (next_cursor, nextPageToken) is
	// sent back in a parameter (cursor, pageToken).
	PageCursor PagingStyle = "cursor"
	// PageAfter: the id of the last item is sent back (Stripe's
	// starting_after), while the response's has_more is true.
	PageAfter PagingStyle = "after"
	// PageLink: the response's Link header gives the next page's URL
	// (rel="next", as GitHub's).
	PageLink PagingStyle = "link"
	// PageNextURL: a member of the response gives the next page's URL
	// (Azure's nextLink, OData's @odata.nextLink).
	PageNextURL PagingStyle = "nexturl"
	// PageNumber: a page parameter counts up from the first page.
	PageNumber PagingStyle = "page"
	// PageOffset: an offset parameter grows by the items read.
	PageOffset PagingStyle = "offset"
)

// Paging says how the pages of a list operation follow one another; the
// Client then has the method Method, which returns the items of every page
// as an iterator.
type Paging struct {
	Style PagingStyle
	// Method is the Go name of the iterator method (ListIssuesAll).
	Method string
	// Source says what told the loader the operation pages, for the
	// method's doc ("x-speakeasy-pagination", "its Link header").
	Source string
	// Item is the type of each item.
	Item *TypeRef
	// Items is the path from the result to its array of items (fields of
	// structs); empty when the result is the array.
	Items []*Field
	// Param is the argument that takes the cursor, page or offset; nil for
	// PageLink and PageNextURL.
	Param *Field
	// Next is the path from the result to the next cursor (PageCursor) or
	// the next page's URL (PageNextURL); empty otherwise.
	Next []*Field
	// HasMore is the path to the response's boolean that says more pages
	// follow (has_more); empty when there is none.
	HasMore []*Field
	// ItemCursor is, for PageAfter, the item's field whose value is sent
	// back (its id).
	ItemCursor *Field
	// MaxItems is the argument that bounds the items the Tool adapter
	// gathers across pages (max_items), nil when the function had an
	// argument of that name already: it gathers MaxItemsDefault then.
	MaxItems        *Field
	MaxItemsDefault int64
	// Gather is the Tool's unexported method that gathers the items of
	// the pages (gatherF).
	Gather string
	// FirstPage is the number of the first page (PageNumber): 1, or 0 when
	// the parameter's minimum is 0.
	FirstPage int64
}
