package openapi

import (
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// The extensions that state an operation's pagination:
//
//	x-speakeasy-pagination:
//	  type: cursor | offsetLimit | url
//	  inputs: [{name: cursor, in: parameters | requestBody, type: cursor | offset | page | limit}]
//	  outputs: {results: $.data, nextCursor: $.next_cursor (or $.data[-1].id), nextUrl: $.next}
//	x-fern-pagination:            (or true: the document's x-fern-pagination)
//	  cursor: $request.cursor, next_cursor: $response.next, results: $response.data
//	  offset: $request.page, results: $response.data, step: $request.limit, has-next-page: $response.has_more
//	x-ms-pageable:
//	  nextLinkName: nextLink (null: one page), itemName: value (the default)
//
// extensionPaging returns the pagination an extension states, nil when it
// states none (x-ms-pageable with a null nextLinkName), or an error saying
// why the generator cannot follow it.
func extensionPaging(fn *model.Function, name string, v any) (*model.Paging, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errPaging("%s is not an object", name)
	}
	var pg *model.Paging
	var err error
	switch name {
	case "x-speakeasy-pagination":
		pg, err = speakeasyPaging(fn, m)
	case "x-fern-pagination":
		pg, err = fernPaging(fn, m)
	default:
		pg, err = msPaging(fn, m)
	}
	if pg == nil || err != nil {
		return nil, err
	}
	if pg.Item == nil {
		return nil, errPaging("its results are not an array of the response")
	}
	finishPaging(pg)
	return pg, nil
}

// speakeasyPaging reads x-speakeasy-pagination.
func speakeasyPaging(fn *model.Function, m map[string]any) (*model.Paging, error) {
	typ, _ := m["type"].(string)
	outputs, _ := m["outputs"].(map[string]any)
	results, _ := outputs["results"].(string)
	pg := &model.Paging{}
	var err error
	if pg.Items, pg.Item, err = resultsAt(fn, results, "$"); err != nil {
		return nil, err
	}
	inputs, _ := m["inputs"].([]any)
	input := func(kinds ...string) *model.Field {
		for _, in := range inputs {
			im, _ := in.(map[string]any)
			t, _ := im["type"].(string)
			n, _ := im["name"].(string)
			for _, k := range kinds {
				if t == k {
					return arg(fn, n)
				}
			}
		}
		return nil
	}
	switch typ {
	case "cursor":
		next, _ := outputs["nextCursor"].(string)
		if pg.Param = input("cursor"); pg.Param == nil || !isText(pg.Param.Type) {
			return nil, errPaging("its cursor input is not a string argument of the operation")
		}
		return pg, cursorAt(fn, pg, next, "$")
	case "offsetLimit":
		pg.Style = model.PageOffset
		if pg.Param = input("offset"); pg.Param == nil {
			pg.Style, pg.Param = model.PageNumber, input("page")
		}
		if pg.Param == nil || pg.Param.Type.Kind != model.RefInt {
			return nil, errPaging("its offset or page input is not an integer argument of the operation")
		}
		return pg, nil
	case "url":
		next, _ := outputs["nextUrl"].(string)
		pg.Style = model.PageNextURL
		if pg.Next = memberPath(fn.Result, jsonPath(next, "$")); pg.Next == nil || !plainText(pg.Next[len(pg.Next)-1].Type) {
			return nil, errPaging("its nextUrl %s is not a string member of the response", strconv.Quote(next))
		}
		return pg, nil
	}
	return nil, errPaging("its type %s is not cursor, offsetLimit or url", strconv.Quote(typ))
}

// fernPaging reads x-fern-pagination.
func fernPaging(fn *model.Function, m map[string]any) (*model.Paging, error) {
	str := func(k string) string { s, _ := m[k].(string); return s }
	pg := &model.Paging{}
	var err error
	if pg.Items, pg.Item, err = resultsAt(fn, str("results"), "$response"); err != nil {
		return nil, err
	}
	if hm := str("has-next-page"); hm != "" {
		pg.HasMore = memberPath(fn.Result, jsonPath(hm, "$response"))
	}
	switch {
	case str("cursor") != "":
		if pg.Param = arg(fn, jsonPath(str("cursor"), "$request")); pg.Param == nil || !isText(pg.Param.Type) {
			return nil, errPaging("its cursor %s is not a string argument of the operation", strconv.Quote(str("cursor")))
		}
		return pg, cursorAt(fn, pg, str("next_cursor"), "$response")
	case str("offset") != "":
		// Without step the offset counts pages; with it, items.
		pg.Style = model.PageNumber
		if str("step") != "" {
			pg.Style = model.PageOffset
		}
		if pg.Param = arg(fn, jsonPath(str("offset"), "$request")); pg.Param == nil || pg.Param.Type.Kind != model.RefInt {
			return nil, errPaging("its offset %s is not an integer argument of the operation", strconv.Quote(str("offset")))
		}
		return pg, nil
	}
	return nil, errPaging("it has neither cursor nor offset")
}

// msPaging reads x-ms-pageable.
func msPaging(fn *model.Function, m map[string]any) (*model.Paging, error) {
	next, ok := m["nextLinkName"].(string)
	if !ok || next == "" {
		return nil, nil // one page: no next link
	}
	item := "value"
	if s, ok := m["itemName"].(string); ok && s != "" {
		item = s
	}
	pg := &model.Paging{Style: model.PageNextURL}
	if f := member(fn.Result, item); f != nil && sliceElem(f.Type) != nil {
		pg.Items, pg.Item = []*model.Field{f}, sliceElem(f.Type)
	} else {
		return nil, errPaging("the response has no array member %s", strconv.Quote(item))
	}
	if f := member(fn.Result, next); f != nil && plainText(f.Type) {
		pg.Next = []*model.Field{f}
	} else {
		return nil, errPaging("the response has no string member %s", strconv.Quote(next))
	}
	return pg, nil
}

// resultsAt returns the path to the items a results expression names
// ("$.data", "$response.data"; "" for the guess items makes).
func resultsAt(fn *model.Function, expr, root string) ([]*model.Field, *model.TypeRef, error) {
	if expr == "" {
		fs, t := items(fn.Result, "")
		return fs, t, nil
	}
	p := jsonPath(expr, root)
	if p == "" {
		if el := sliceElem(fn.Result); el != nil {
			return nil, el, nil
		}
		return nil, nil, errPaging("its results %s is not an array", strconv.Quote(expr))
	}
	fs, t := items(fn.Result, p)
	if t == nil {
		return nil, nil, errPaging("its results %s is not an array member of the response", strconv.Quote(expr))
	}
	return fs, t, nil
}

// cursorAt sets the next cursor of pg from the expression next: a member
// of the response (PageCursor), or the member of the last item
// ("$.data[-1].id": PageAfter).
func cursorAt(fn *model.Function, pg *model.Paging, next, root string) error {
	p := jsonPath(next, root)
	if before, field, ok := strings.Cut(p, "[-1]."); ok {
		pg.Style = model.PageAfter
		fs, t := items(fn.Result, before)
		if t == nil || !sameFields(fs, pg.Items) {
			return errPaging("its next cursor %s is not a member of the last of its results", strconv.Quote(next))
		}
		if pg.ItemCursor = itemField(t, field); pg.ItemCursor == nil {
			return errPaging("its next cursor %s is not a string member of the items", strconv.Quote(next))
		}
		if pg.HasMore == nil {
			pg.HasMore = findMember(fn.Result, moreMembers)
		}
		return nil
	}
	pg.Style = model.PageCursor
	if pg.Next = memberPath(fn.Result, p); p == "" || pg.Next == nil || !cursorValue(pg.Next[len(pg.Next)-1].Type) {
		return errPaging("its next cursor %s is not a string or integer member of the response", strconv.Quote(next))
	}
	return nil
}

func sameFields(a, b []*model.Field) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// jsonPath turns "$.a.b" (root "$") or "$response.a.b" into "a.b"; a
// member in brackets (['a-b']) becomes its name. It returns "" for the root
// itself, and an expression it does not read as is (no member has it).
func jsonPath(expr, root string) string {
	p := strings.TrimPrefix(strings.TrimSpace(expr), root)
	p = strings.TrimPrefix(p, ".")
	p = strings.NewReplacer("['", ".", "']", "", `["`, ".", `"]`, "").Replace(p)
	return strings.TrimPrefix(p, ".")
}
