package emit

import (
	"slices"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// The iterator method of a list operation (model.Paging): one of the
// runtime's pagers (rest.Cursors, Links, PageNumbers, Offsets) over the
// operation's own method, so that each page is an ordinary call.

// emitPagingMethod renders the iterator of a list operation, for a cursor:
//
//	func (c *Client) ListItemsAll(ctx context.Context, args ListItemsArgs) iter.Seq2[Item, error] {
//		return rest.Cursors(ctx, func(ctx context.Context, cursor string) (rest.Page[Item], error) {
//			a := args
//			if cursor != "" {
//				a.Cursor = rest.Ptr(string(cursor))
//			}
//			out, err := c.ListItems(ctx, a)
//			p := rest.Page[Item]{Items: out.Data}
//			p.Next = rest.Text(out.NextCursor)
//			return p, err
//		})
//	}
func emitPagingMethod(f *jen.File, fn *model.Function) {
	pg := fn.HTTP.Paging
	params := []jen.Code{jen.Id("ctx").Qual(contextPath, "Context")}
	if fn.Args != nil {
		params = append(params, jen.Id("args").Id(fn.Args.Name))
	}
	body, pager := pagerCode(fn, jen.Id("c").Dot(fn.GoName), false)
	switch m := pg.MaxItems; {
	case m != nil && isInt64Ptr(m):
		// return rest.TakeAtMost(rest.Cursors(ctx, fetch), args.MaxItems)
		body = append(body, jen.Return(restQ("TakeAtMost").Call(pager, jen.Id("args").Dot(m.Name))))
	case m != nil && m.Pointer:
		// if args.MaxItems != nil {
		//	return rest.Take(rest.Cursors(ctx, fetch), int(*args.MaxItems))
		// }
		body = append(body, jen.If(jen.Id("args").Dot(m.Name).Op("!=").Nil()).Block(
			jen.Return(restQ("Take").Call(pager, jen.Int().Call(jen.Op("*").Id("args").Dot(m.Name))))),
			jen.Return(pager))
	default:
		body = append(body, jen.Return(pager))
	}
	f.Add(funcDoc(pg.Method, fn.Name, pagingDoc(fn))).Func().Params(jen.Id("c").Op("*").Id("Client")).Id(pg.Method).Params(params...).
		Qual(iterPath, "Seq2").Types(goType(pg.Item), jen.Error()).Block(body...)
	f.Line()
}

// pagerCode returns the statements that declare the fetch function of a
// list operation's pages, which calls method (c.F, or t.svc.F), and the
// pager over it (rest.Cursors(ctx, fetch)). keepLast makes fetch keep the
// result of the last page in last.
func pagerCode(fn *model.Function, method *jen.Statement, keepLast bool) ([]jen.Code, jen.Code) {
	pg := fn.HTTP.Paging
	item := goType(pg.Item)
	page := restQ("Page").Types(item.Clone())
	call := []jen.Code{jen.Id("ctx")}
	fetch := []jen.Code{}
	switch {
	case fn.Args != nil && pg.Param != nil:
		// a copy, so that the sequence can be ranged over again
		fetch = append(fetch, jen.Id("a").Op(":=").Id("args"))
		call = append(call, jen.Id("a"))
	case fn.Args != nil:
		call = append(call, jen.Id("args"))
	}
	var pager jen.Code
	var before []jen.Code
	fetchParams := []jen.Code{jen.Id("ctx").Qual(contextPath, "Context")}
	switch pg.Style {
	case model.PageCursor, model.PageAfter:
		fetchParams = append(fetchParams, jen.Id("cursor").String())
		fetch = append(fetch, jen.If(jen.Id("cursor").Op("!=").Lit("")).Block(setParam(pg.Param, jen.Id("cursor"))))
		pager = restQ("Cursors").Call(jen.Id("ctx"), jen.Id("fetch"))
	case model.PageLink, model.PageNextURL:
		pager = restQ("Links").Call(jen.Id("ctx"), jen.Id("fetch"))
	default:
		fetchParams = append(fetchParams, jen.Id("n").Int64())
		fetch = append(fetch, setParam(pg.Param, jen.Id("n")))
		before = firstCounter(pg)
		fn := "PageNumbers"
		if pg.Style == model.PageOffset {
			fn = "Offsets"
		}
		pager = restQ(fn).Call(jen.Id("ctx"), jen.Id("first"), jen.Id("fetch"))
	}
	fetch = append(fetch, jen.List(jen.Id("out"), jen.Err()).Op(":=").Add(method).Call(call...))
	if keepLast {
		fetch = append(fetch, jen.Id("last").Op("=").Id("out"))
	}
	if lit := pageLiteral(pg, page); lit != nil {
		// return rest.Page[Item]{Items: out.Data, Next: rest.Text(out.NextCursor)}, err
		fetch = append(fetch, jen.Return(lit, jen.Err()))
		return append(before,
			jen.Id("fetch").Op(":=").Func().Params(fetchParams...).Params(page.Clone(), jen.Error()).Block(fetch...)), pager
	}
	fetch = append(fetch,
		jen.Var().Id("p").Add(page.Clone()),
		pathDo(pg.Items, true, func(v *jen.Statement) jen.Code { return jen.Id("p").Dot("Items").Op("=").Add(v) }),
	)
	if len(pg.Next) > 0 {
		fetch = append(fetch, pathDo(pg.Next, false, func(v *jen.Statement) jen.Code {
			return jen.Id("p").Dot("Next").Op("=").Add(restQ("Text")).Call(v)
		}))
	}
	if pg.ItemCursor != nil {
		// if len(p.Items) > 0 { p.Next = rest.Text(p.Items[len(p.Items)-1].ID) }
		last := jen.Id("p").Dot("Items").Index(jen.Len(jen.Id("p").Dot("Items")).Op("-").Lit(1)).Dot(pg.ItemCursor.Name)
		fetch = append(fetch, jen.If(jen.Len(jen.Id("p").Dot("Items")).Op(">").Lit(0)).Block(
			jen.Id("p").Dot("Next").Op("=").Add(restQ("Text")).Call(last)))
	}
	if len(pg.HasMore) > 0 {
		fetch = append(fetch, pathDo(pg.HasMore, false, func(v *jen.Statement) jen.Code {
			return jen.Id("p").Dot("HasMore").Op("=").Add(restQ("Bool")).Call(v)
		}))
	}
	fetch = append(fetch, jen.Return(jen.Id("p"), jen.Err()))
	return append(before,
		jen.Id("fetch").Op(":=").Func().Params(fetchParams...).Params(page.Clone(), jen.Error()).Block(fetch...)), pager
}

// emitGather renders the Tool's method that serves a list function: it
// gathers the items of its pages, at most max_items, into the result of
// the last page (the items, for a result that is the array):
//
//	func (t *Tool) gatherListEvents(ctx context.Context, args ListEventsArgs) (ListEventsResult, error) {
//		limit := 100
//		if args.MaxItems != nil {
//			limit = int(*args.MaxItems)
//		}
//		var last ListEventsResult
//		fetch := … // keeps each page's result in last
//		err := rest.GatherInto(&last.Data, rest.Cursors(ctx, fetch), limit)
//		return last, err
//	}
//
// (with rest.Gather and nil checks when the items are behind pointers).
func emitGather(f *jen.File, fn *model.Function) {
	pg := fn.HTTP.Paging
	var body []jen.Code
	// rest.Limit(args.MaxItems, 100), or limit: the bound on the items
	var limit jen.Code = jen.Id("limit")
	switch m := pg.MaxItems; {
	case m != nil && isInt64Ptr(m):
		limit = restQ("Limit").Call(jen.Id("args").Dot(m.Name), jen.Lit(int(pg.MaxItemsDefault)))
	case m != nil && m.Pointer:
		body = append(body, jen.Id("limit").Op(":=").Lit(int(pg.MaxItemsDefault)),
			jen.If(jen.Id("args").Dot(m.Name).Op("!=").Nil()).Block(
				jen.Id("limit").Op("=").Int().Call(jen.Op("*").Id("args").Dot(m.Name))))
	case m != nil:
		limit = jen.Int().Call(jen.Id("args").Dot(m.Name))
	default:
		limit = jen.Lit(int(pg.MaxItemsDefault))
	}
	body = append(body, jen.Var().Id("last").Add(goType(fn.Result)))
	decl, pager := pagerCode(fn, jen.Id("t").Dot("svc").Dot(fn.GoName), true)
	body = append(body, decl...)
	if pathDirect(pg.Items) {
		// err := rest.GatherInto(&last.Data, rest.Cursors(ctx, fetch), limit)
		// return last, err
		// (*[]Item)(&last) when the items are of a named slice type
		// (type Blocks []Block): GatherInto takes a *[]T.
		dst := jen.Op("&").Add(pathExpr(pg.Items))
		if namedItems(fn) != nil {
			dst = jen.Parens(jen.Op("*").Index().Add(goType(pg.Item))).Call(dst)
		}
		body = append(body,
			jen.Err().Op(":=").Add(restQ("GatherInto")).Call(dst, pager, limit),
			jen.Return(jen.Id("last"), jen.Err()),
		)
	} else {
		// items, err := rest.Gather(rest.Cursors(ctx, fetch), limit)
		// if err != nil {
		//	return last, err
		// }
		// if last.Page != nil {
		//	last.Page.Data = items
		// }
		// return last, nil
		body = append(body,
			jen.List(jen.Id("items"), jen.Err()).Op(":=").Add(restQ("Gather")).Call(pager, limit),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("last"), jen.Err())),
			pathSet(pg.Items, jen.Id("items"), namedItems(fn)),
			jen.Return(jen.Id("last"), jen.Nil()),
		)
	}
	doc := pg.Gather + " serves " + fn.Name + ": it gathers at most max_items (default " +
		strconv.FormatInt(pg.MaxItemsDefault, 10) + ") items of its pages into the last page's result."
	params := []jen.Code{jen.Id("ctx").Qual(contextPath, "Context")}
	if fn.Args != nil {
		params = append(params, jen.Id("args").Id(fn.Args.Name))
	}
	f.Add(comment(doc)).Func().Params(jen.Id("t").Op("*").Id("Tool")).Id(pg.Gather).Params(params...).
		Params(goType(fn.Result), jen.Error()).Block(body...)
	f.Line()
}

// pathDirect reports whether the items at path are a field of last, or of
// structs in it, reached through no pointer (or last itself): then
// rest.GatherInto sets them through &last.Data (pathExpr).
func pathDirect(path []*model.Field) bool {
	return !slices.ContainsFunc(path, func(f *model.Field) bool { return f.Pointer })
}

// namedItems returns the named slice type (type Blocks []Block, through
// aliases) of the items of a list function (its result, or the field at the
// end of the items' path), nil when they are a plain []Item: rest.Gather
// returns, and GatherInto takes, a []Item, which a value of a named slice
// type is assigned from but a pointer to it is not.
func namedItems(fn *model.Function) *model.TypeRef {
	pg := fn.HTTP.Paging
	t := fn.Result
	if len(pg.Items) > 0 {
		t = pg.Items[len(pg.Items)-1].Type
	}
	for t != nil && t.Kind == model.RefNamed && t.Named.Kind == model.KindAlias {
		t = t.Named.Underlying
	}
	if t == nil || t.Kind != model.RefNamed {
		return nil
	}
	return t
}

// pathExpr is the items at path from last: last.Page.Data, or last.
func pathExpr(path []*model.Field) *jen.Statement {
	e := jen.Id("last")
	for _, f := range path {
		e = e.Dot(f.Name)
	}
	return e
}

// isInt64Ptr reports whether the field f is an *int64 (rest.Limit and
// TakeAtMost read it).
func isInt64Ptr(f *model.Field) bool {
	t := f.Type
	return f.Pointer && t.Kind == model.RefInt && !t.Unsigned && (t.Bits == 0 || t.Bits == 64)
}

// pathSet sets the items at path from last to v, when the structs on the
// way are there; named is the items' named slice type (namedItems), nil
// for a plain slice:
//
//	if last.Page != nil {
//		last.Page.Data = items
//	}
func pathSet(path []*model.Field, v *jen.Statement, named *model.TypeRef) jen.Code {
	if len(path) == 0 {
		return jen.Id("last").Op("=").Add(v)
	}
	expr := func(n int) *jen.Statement {
		e := jen.Id("last")
		for _, f := range path[:n] {
			e = e.Dot(f.Name)
		}
		return e
	}
	var conds []jen.Code
	for i, f := range path[:len(path)-1] {
		if f.Pointer {
			conds = append(conds, expr(i+1).Op("!=").Nil())
		}
	}
	if path[len(path)-1].Pointer {
		v = jen.Op("&").Add(v)
		if named != nil {
			// (*Blocks)(&items)
			v = jen.Parens(jen.Op("*").Add(goType(named))).Call(v)
		}
	}
	set := expr(len(path)).Op("=").Add(v)
	if len(conds) == 0 {
		return set
	}
	cond := conds[0]
	for _, c := range conds[1:] {
		cond = jen.Add(cond).Op("&&").Add(c)
	}
	return jen.If(cond).Block(set)
}

// toolCallee is what the Tool calls to serve fn: t.gatherF for a list
// function, else t.svc.F.
func toolCallee(fn *model.Function) *jen.Statement {
	if fn.HTTP != nil && fn.HTTP.Paging != nil {
		return jen.Id("t").Dot(fn.HTTP.Paging.Gather)
	}
	return jen.Id("t").Dot("svc").Dot(fn.GoName)
}

// pagingDoc is the doc of the iterator method.
func pagingDoc(fn *model.Function) string {
	pg := fn.HTTP.Paging
	how := map[model.PagingStyle]string{
		model.PageCursor:  "sends back the cursor each page gives",
		model.PageAfter:   "asks for the items after the last one read",
		model.PageLink:    "follows the Link header's rel=\"next\"",
		model.PageNextURL: "follows the next page's URL each page gives",
		model.PageNumber:  "counts the pages up",
		model.PageOffset:  "moves the offset past the items read",
	}[pg.Style]
	return pg.Method + " returns the items of every page of " + fn.GoName + ", in order (see Client):\n" +
		"it " + how + " (recognised from " + pg.Source + ").\n"
}

// setParam sets the argument f of the copy a to v (a string cursor or an
// int64 counter), converted to its type:
//
//	a.Cursor = rest.Ptr(string(cursor))
func setParam(f *model.Field, v *jen.Statement) jen.Code {
	val := v
	if t := f.Type; !(t.Kind == model.RefString || t.Kind == model.RefInt && !t.Unsigned && (t.Bits == 0 || t.Bits == 64)) {
		val = goType(t).Call(v)
	}
	if f.Pointer {
		val = restQ("Ptr").Call(val)
	}
	return jen.Id("a").Dot(f.Name).Op("=").Add(val)
}

// firstCounter declares the first page or offset: the argument's value when
// the caller set it, else the first page (or offset 0).
//
//	first := int64(1)
//	if args.Page != nil {
//		first = int64(*args.Page)
//	}
func firstCounter(pg *model.Paging) []jen.Code {
	f := pg.Param
	if !f.Pointer {
		return []jen.Code{jen.Id("first").Op(":=").Int64().Call(jen.Id("args").Dot(f.Name))}
	}
	return []jen.Code{jen.Id("first").Op(":=").Int64().Call(jen.Lit(int(pg.FirstPage))),
		jen.If(jen.Id("args").Dot(f.Name).Op("!=").Nil()).Block(
			jen.Id("first").Op("=").Int64().Call(jen.Op("*").Id("args").Dot(f.Name)))}
}

// pageLiteral renders the page a fetch function returns as one composite
// literal, when no value on the paths of its items, next page and has_more
// needs a guard against a nil pointer and no item gives the cursor; nil
// otherwise:
//
//	rest.Page[Item]{Items: out.Data, Next: rest.Text(out.NextCursor), HasMore: rest.Bool(out.HasMore)}
func pageLiteral(pg *model.Paging, page *jen.Statement) jen.Code {
	if pg.ItemCursor != nil || guarded(pg.Items, true) || guarded(pg.Next, false) || guarded(pg.HasMore, false) {
		return nil
	}
	var fields []jen.Code
	add := func(name string, path []*model.Field, deref bool, wrap func(jen.Code) jen.Code) {
		if name != "Items" && len(path) == 0 {
			return
		}
		var v jen.Code
		pathDo(path, deref, func(s *jen.Statement) jen.Code { v = s; return nil })
		fields = append(fields, jen.Id(name).Op(":").Add(wrap(v)))
	}
	add("Items", pg.Items, true, func(v jen.Code) jen.Code { return v })
	add("Next", pg.Next, false, func(v jen.Code) jen.Code { return restQ("Text").Call(v) })
	add("HasMore", pg.HasMore, false, func(v jen.Code) jen.Code { return restQ("Bool").Call(v) })
	return page.Clone().Values(fields...)
}

// guarded reports whether the value at path needs a guard against a nil
// pointer on the way (pathDo).
func guarded(path []*model.Field, deref bool) bool {
	for i, f := range path {
		if f.Pointer && (i < len(path)-1 || deref) {
			return true
		}
	}
	return false
}

// pathDo renders do with the value at path from out, guarded against the
// nil pointers on the way; deref says whether a pointer at the end is
// dereferenced (items) or given as is (rest.Text and rest.Bool read
// pointers):
//
//	if out.Meta != nil {
//		p.Next = rest.Text(out.Meta.NextCursor)
//	}
func pathDo(path []*model.Field, deref bool, do func(v *jen.Statement) jen.Code) jen.Code {
	expr := func(n int) *jen.Statement {
		e := jen.Id("out")
		for _, f := range path[:n] {
			e = e.Dot(f.Name)
		}
		return e
	}
	var conds []jen.Code
	for i, f := range path {
		if f.Pointer && (i < len(path)-1 || deref) {
			conds = append(conds, expr(i+1).Op("!=").Nil())
		}
	}
	v := expr(len(path))
	if deref && len(path) > 0 && path[len(path)-1].Pointer {
		v = jen.Op("*").Add(v)
	}
	if len(conds) == 0 {
		return do(v)
	}
	cond := conds[0]
	for _, c := range conds[1:] {
		cond = jen.Add(cond).Op("&&").Add(c)
	}
	return jen.If(cond).Block(do(v))
}

// hasPaging reports whether an operation of p is a list operation, with an
// iterator method.
func hasPaging(p *model.Package) bool {
	for _, fn := range p.Functions {
		if fn.HTTP != nil && fn.HTTP.Paging != nil {
			return true
		}
	}
	return false
}
