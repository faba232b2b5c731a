package openapi

import (
	"fmt"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// Pagination: which operations list items page by page, and how the next
// page is asked for (model.Paging). The document says it in one of three
// extensions (x-speakeasy-pagination, x-fern-pagination, x-ms-pageable),
// or by a Link response header, or by its names: a cursor member of the
// response sent back in a parameter (next_cursor → cursor, nextPageToken →
// pageToken), starting_after with has_more (Stripe), page or offset
// counters, a nextLink member. The items are the array the response is,
// or its one array member (or the one of its array members named data,
// items, results…). Anything ambiguous gets no iterator: two styles at once,
// two candidate arrays, a cursor of a type that cannot be sent back. An
// extension the loader cannot follow is warned about; a guess that fails
// is silent.

// pagingOp is an operation whose pagination is decided once every type is
// built.
type pagingOp struct {
	fn   *model.Function
	op   *openapi3.Operation
	loc  oaLoc
	dfn  int         // the index of its function in docFunctions
	args *model.Type // its argument struct, named even when it has no fields
}

// The bound on the items a list function gathers as a tool (max_items):
// its default and its largest value.
const (
	maxItemsName    = "max_items"
	maxItemsDefault = 100
	maxItemsCap     = 1000
)

// The names the heuristics know, in the order they are preferred.
var (
	cursorParams  = []string{"cursor", "page_token", "pageToken", "next_token", "nextToken", "continuation_token", "continuationToken", "after", "marker", "continue"}
	cursorMembers = []string{"next_cursor", "nextCursor", "next_page_token", "nextPageToken", "next_token", "nextToken", "continuation_token", "continuationToken", "next_marker", "nextMarker", "last_id", "continue", "cursor"}
	cursorHolders = []string{"meta", "metadata", "pagination", "paging", "page_info", "pageInfo", "response_metadata", "links", "cursor"}
	moreMembers   = []string{"has_more", "hasMore", "has_next_page", "hasNextPage", "has_next", "hasNext"}
	linkMembers   = []string{"@odata.nextLink", "nextLink", "next_link", "next_page_url", "nextPageUrl", "next_url", "nextUrl"}
	pageParams    = []string{"page", "page_number", "pageNumber"}
	offsetParams  = []string{"offset", "skip"}
	itemsMembers  = []string{"data", "items", "results", "value", "values", "entries", "records", "elements", "list", "nodes"}
)

// pagination decides the pagination of the operations collected.
func (b *oaBuilder) pagination() {
	for _, po := range b.pagingOps {
		fn := po.fn
		if fn.Stream || fn.Result == nil {
			continue
		}
		pg := b.pagingOf(po)
		if pg == nil || pg.Item == nil {
			continue
		}
		fn.HTTP.Paging = pg
		b.naming.Paging(fn)
		b.maxItems(po, pg)
	}
}

// maxItems adds the argument max_items to a list function, which bounds
// the items the Tool adapter gathers across pages (Paging.MaxItems); it
// travels in no request. A function that has an argument of that name
// already gathers the default bound.
func (b *oaBuilder) maxItems(po pagingOp, pg *model.Paging) {
	fn := po.fn
	pg.MaxItemsDefault = maxItemsDefault
	if fn.Args == nil {
		fn.Args = po.args
		b.pkg.Types = append(b.pkg.Types, fn.Args)
	}
	for _, f := range model.ArgFields(fn.Args) {
		if f.JSONName == maxItemsName {
			return
		}
	}
	doc := fmt.Sprintf("The most items to gather across pages (default %d, at most %d).", maxItemsDefault, maxItemsCap)
	lo, hi := 1.0, float64(maxItemsCap)
	sr := &openapi3.SchemaRef{Value: &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeInteger}, Min: &lo, Max: &hi, Default: maxItemsDefault}}
	f := &model.Field{JSONName: maxItemsName, Doc: doc + " The Tool gathers them; the client's iterator stops after them (absent: every page). No request carries it."}
	b.naming.Param(fn.Args, f)
	pt := b.conv(sr, po.loc, model.ParamPlace(fn, f, maxItemsName))
	f.Type = pt.ref
	fn.Args.Fields = append(fn.Args.Fields, f)
	pg.MaxItems = f
	dfn := &b.docFunctions[po.dfn]
	dfn.Parameters = append(dfn.Parameters, document.Parameter{Name: maxItemsName, Description: doc, Schema: pt.schema})
}

// pagingOf returns the pagination of one operation, nil for none.
func (b *oaBuilder) pagingOf(po pagingOp) *model.Paging {
	ext := po.op.Extensions
	for _, name := range []string{"x-speakeasy-pagination", "x-fern-pagination", "x-ms-pageable"} {
		v, ok := ext[name]
		if !ok {
			continue
		}
		if name == "x-fern-pagination" && v == true {
			v = b.doc.Extensions[name] // the document's, which the operation takes
		}
		pg, err := extensionPaging(po.fn, name, v)
		if err != nil {
			b.warn(po.loc.add(name), "%s: no iterator is generated", err)
			return nil
		}
		if pg != nil {
			pg.Source = "its " + name + " extension"
		}
		return pg
	}
	if po.fn.HTTP.Method == "GET" && linkHeader(po.op) {
		pg := &model.Paging{Style: model.PageLink, Source: "its Link response header"}
		if pg.Items, pg.Item = items(po.fn.Result, ""); pg.Item == nil {
			return nil
		}
		return pg
	}
	return guessPaging(po.fn)
}

// linkHeader reports whether a success response of op declares a Link
// header.
func linkHeader(op *openapi3.Operation) bool {
	if op.Responses == nil {
		return false
	}
	for code, rr := range op.Responses.Map() {
		if !strings.HasPrefix(code, "2") || rr == nil || rr.Value == nil {
			continue
		}
		for h := range rr.Value.Headers {
			if strings.EqualFold(h, "link") {
				return true
			}
		}
	}
	return false
}

// guessPaging recognises pagination by the names of the parameters and of
// the response's members: exactly one style must match.
func guessPaging(fn *model.Function) *model.Paging {
	var found []*model.Paging
	// starting_after (Stripe), or after with no cursor member: the last
	// item's id, while has_more.
	after := arg(fn, "starting_after")
	if after == nil && findMember(fn.Result, cursorMembers) == nil {
		after = arg(fn, "after")
	}
	if p := after; p != nil && isText(p.Type) {
		if hm := findMember(fn.Result, moreMembers); hm != nil {
			pg := &model.Paging{Style: model.PageAfter, Param: p, HasMore: hm}
			if pg.Items, pg.Item = items(fn.Result, ""); pg.Item != nil {
				if pg.ItemCursor = itemField(pg.Item, "id"); pg.ItemCursor != nil {
					found = append(found, pg)
				}
			}
		}
	}
	if p := arg(fn, cursorParams...); p != nil && isText(p.Type) && len(found) == 0 {
		if next := findMember(fn.Result, cursorMembers); next != nil && cursorValue(next[len(next)-1].Type) {
			found = append(found, &model.Paging{Style: model.PageCursor, Param: p, Next: next})
		}
	}
	if fn.HTTP.Method == "GET" {
		if next := findMember(fn.Result, linkMembers); next != nil && plainText(next[len(next)-1].Type) {
			found = append(found, &model.Paging{Style: model.PageNextURL, Next: next})
		}
	}
	if p := arg(fn, pageParams...); p != nil && p.Type.Kind == model.RefInt {
		found = append(found, &model.Paging{Style: model.PageNumber, Param: p})
	}
	if p := arg(fn, offsetParams...); p != nil && p.Type.Kind == model.RefInt {
		found = append(found, &model.Paging{Style: model.PageOffset, Param: p})
	}
	if len(found) != 1 {
		return nil // none, or ambiguous
	}
	pg := found[0]
	pg.Source = "the names of its parameters and response members"
	if pg.Item == nil {
		pg.Items, pg.Item = items(fn.Result, "")
	}
	if pg.HasMore == nil {
		pg.HasMore = findMember(fn.Result, moreMembers)
	}
	finishPaging(pg)
	return pg
}

// finishPaging decides what follows from the style: the first page.
func finishPaging(pg *model.Paging) {
	if pg.Style == model.PageNumber {
		pg.FirstPage = 1
		if c := pg.Param.Type.Check; c != nil && c.Minimum != nil && *c.Minimum == 0 {
			pg.FirstPage = 0
		}
	}
	if len(pg.HasMore) > 0 && pg.HasMore[len(pg.HasMore)-1].Type.Kind != model.RefBool {
		pg.HasMore = nil
	}
}

// arg returns the argument of fn sent as a query parameter or a member of
// the body whose name is the first of names it has, nil for none.
func arg(fn *model.Function, names ...string) *model.Field {
	if fn.Args == nil {
		return nil
	}
	for _, n := range names {
		for _, f := range model.ArgFields(fn.Args) {
			if f.HTTP != nil && (f.HTTP.In == model.InQuery || f.HTTP.In == model.InBodyProp) && f.HTTP.Name == n && !f.HTTP.JSON {
				return f
			}
		}
	}
	return nil
}

// plainText reports whether values of t are plain strings (not of a named
// type), which rest.Text reads.
func plainText(t *model.TypeRef) bool { return t != nil && t.Kind == model.RefString }

// cursorValue reports whether a next cursor of type t can be sent back as
// text (rest.Text): a string or an integer.
func cursorValue(t *model.TypeRef) bool {
	return t != nil && (t.Kind == model.RefString || t.Kind == model.RefInt && (t.Bits == 0 || t.Bits == 64 || t.Bits == 32) && !t.Unsigned)
}

// structFields returns the fields of the struct t is (through aliases),
// nil when it is not one.
func structFields(t *model.TypeRef) []*model.Field {
	for i := 0; t != nil && t.Kind == model.RefNamed && i < 8; i++ {
		switch t.Named.Kind {
		case model.KindStruct:
			return t.Named.Fields
		case model.KindAlias:
			t = t.Named.Underlying
		default:
			return nil
		}
	}
	return nil
}

// sliceElem returns the element of the slice t is (through named types),
// nil when it is not one.
func sliceElem(t *model.TypeRef) *model.TypeRef {
	for i := 0; t != nil && i < 8; i++ {
		switch {
		case t.Kind == model.RefSlice:
			return t.Elem
		case t.Kind == model.RefNamed && (t.Named.Kind == model.KindAlias || t.Named.Kind == model.KindNamed):
			t = t.Named.Underlying
		default:
			return nil
		}
	}
	return nil
}

// member returns the field of t's struct with the JSON name n.
func member(t *model.TypeRef, n string) *model.Field {
	for _, f := range structFields(t) {
		if f.JSONName == n {
			return f
		}
	}
	return nil
}

// findMember returns the path to the member of the result named one of
// names, at its top level or in one of its members named as cursorHolders
// say: the first name found at the top, else the only one found below.
func findMember(res *model.TypeRef, names []string) []*model.Field {
	for _, n := range names {
		if f := member(res, n); f != nil {
			return []*model.Field{f}
		}
	}
	var found []*model.Field
	for _, h := range cursorHolders {
		hf := member(res, h)
		if hf == nil {
			continue
		}
		for _, n := range names {
			if f := member(hf.Type, n); f != nil {
				found = append(found, hf, f)
				break
			}
		}
	}
	if len(found) != 2 {
		return nil
	}
	return found
}

// items returns the path to the items of a result and their type: the
// result itself when it is an array, the member at path (JSON names
// separated by dots) when path is set, else its only array member or the
// only one named as itemsMembers say. The type is nil when there is none.
func items(res *model.TypeRef, path string) ([]*model.Field, *model.TypeRef) {
	if path != "" {
		fs := memberPath(res, path)
		if fs == nil {
			return nil, nil
		}
		return fs, sliceElem(fs[len(fs)-1].Type)
	}
	if el := sliceElem(res); el != nil {
		return nil, el
	}
	var arrays []*model.Field
	for _, f := range structFields(res) {
		if sliceElem(f.Type) != nil {
			arrays = append(arrays, f)
		}
	}
	if len(arrays) == 1 {
		return arrays, sliceElem(arrays[0].Type)
	}
	for _, n := range itemsMembers {
		for _, f := range arrays {
			if f.JSONName == n {
				return []*model.Field{f}, sliceElem(f.Type)
			}
		}
	}
	return nil, nil
}

// memberPath returns the fields of the path "a.b" from res, nil when a
// member is missing.
func memberPath(res *model.TypeRef, path string) []*model.Field {
	var out []*model.Field
	t := res
	for _, n := range strings.Split(path, ".") {
		f := member(t, n)
		if f == nil {
			return nil
		}
		out = append(out, f)
		t = f.Type
	}
	return out
}

// itemField returns the string field n of the item type.
func itemField(item *model.TypeRef, n string) *model.Field {
	if f := member(item, n); f != nil && plainText(f.Type) {
		return f
	}
	return nil
}

// errPaging is an extension the loader cannot follow.
func errPaging(format string, args ...any) error { return fmt.Errorf(format, args...) }
