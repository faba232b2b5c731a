package openapi

import (
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace", "query"}

// operations builds one function per operation, in document order.
func (b *oaBuilder) operations() {
	if b.doc.Paths == nil {
		return
	}
	paths := b.ordered(oaLoc{file: b.root}.add("paths"), b.doc.Paths.Keys())
	var wire unique // function names on the wire
	for _, p := range paths {
		item := b.doc.Paths.Value(p)
		if item == nil {
			continue
		}
		ploc := oaLoc{file: b.root}.add("paths", p)
		for _, po := range b.pathOperations(item, ploc) {
			b.operation(po.method, p, item, po.op, po.loc, &wire)
		}
	}
}

// pathOp is an operation of a path item: its method as sent and its place.
type pathOp struct {
	method string
	op     *openapi3.Operation
	loc    oaLoc
}

// pathOperations returns the operations of a path item in document order
// (OpenAPI 3.2's additionalOperations where the document has them), else in
// the order of httpMethods, then the other methods sorted. A fixed field's
// method is sent in upper case, an additional operation's as written (HTTP
// methods are case-sensitive).
func (b *oaBuilder) pathOperations(item *openapi3.PathItem, ploc oaLoc) []pathOp {
	ops := item.Operations()
	var order []pathOp
	if n := b.node(ploc); n != nil && n.Kind == jsontree.Object {
		for _, m := range n.Members {
			if m.Key == "additionalOperations" && m.Value != nil && m.Value.Kind == jsontree.Object {
				for _, am := range m.Value.Members {
					if op := item.AdditionalOperations[am.Key]; op != nil && ops[am.Key] == op {
						order = append(order, pathOp{am.Key, op, ploc.add("additionalOperations", am.Key)})
					}
				}
				continue
			}
			if model.Contains(httpMethods, m.Key) && ops[strings.ToUpper(m.Key)] != nil {
				order = append(order, pathOp{strings.ToUpper(m.Key), ops[strings.ToUpper(m.Key)], ploc.add(m.Key)})
			}
		}
	}
	if len(order) == len(ops) {
		return order
	}
	order = order[:0]
	for _, m := range httpMethods {
		if op := ops[strings.ToUpper(m)]; op != nil {
			order = append(order, pathOp{strings.ToUpper(m), op, ploc.add(m)})
		}
	}
	var extra []string
	for k := range ops {
		if !model.Contains(httpMethods, strings.ToLower(k)) || item.AdditionalOperations[k] != nil && ops[k] == item.AdditionalOperations[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	for _, k := range extra {
		loc := ploc.add(strings.ToLower(k))
		if item.AdditionalOperations[k] != nil {
			loc = ploc.add("additionalOperations", k)
		}
		order = append(order, pathOp{k, ops[k], loc})
	}
	return order
}

// wireName is an operation's function name: the operationId with every
// character but letters, digits, _ and - replaced (LLM function names allow
// no others), or one derived from method and path.
func wireName(opID, method, p string) string {
	src := opID
	if src == "" {
		src = strings.ToLower(method) + "_" + p
	}
	var b strings.Builder
	under := false
	for _, r := range src {
		ok := r < 128 && (model.IsLetterOrDigit(r) || r == '-') || r == '_'
		if !ok {
			if !under && b.Len() > 0 {
				b.WriteByte('_')
				under = true
			}
			continue
		}
		b.WriteRune(r)
		under = r == '_'
	}
	s := strings.Trim(b.String(), "_")
	if opID != "" && s != opID && len(s) < 3 {
		return wireName("", method, p) // too little of the operationId survived
	}
	if s == "" {
		s = strings.ToLower(method)
	}
	if len(s) > 60 {
		s = s[:60]
	}
	return s
}

// operation builds the function of one operation.
func (b *oaBuilder) operation(method, p string, item *openapi3.PathItem, op *openapi3.Operation, loc oaLoc, wire *unique) {
	name := wire.name(wireName(op.OperationID, method, p))
	fn := b.opFunction(name, op)
	hop := opHTTP(method, p, item, op)
	if hop.Server != nil {
		b.opServers = true
	}
	fn.HTTP = hop
	dfn := document.Function{Name: name, Description: fn.Doc, Parameters: []document.Parameter{}, Tags: hop.Tags, HTTP: &document.FunctionHTTP{Method: method, Path: p}}

	a := &opArgs{args: &model.Type{Kind: model.KindStruct}, dfn: &dfn, names: map[string]bool{}}
	b.naming.Args(fn, a.args) // taken even if the operation has no arguments
	declared := b.parameters(fn, p, item, op, loc, a)
	b.undeclaredPathParams(fn, p, loc, declared, a)
	if rb := op.RequestBody; rb != nil && rb.Value != nil {
		b.requestBody(fn, rb.Value, loc.add("requestBody"), a)
	}
	b.nullFlags(a.args, hop)

	b.responses(fn, op, loc.add("responses"), &dfn)
	hop.Security = b.opSecurity(op)

	if len(a.args.Fields) > 0 {
		fn.Args = a.args
		b.pkg.Types = append(b.pkg.Types, a.args)
	}
	hop.Idempotency = b.idempotencyHeader(fn, op)
	dfn.Examples = opExamples(item, op, a.args)
	b.pagingOps = append(b.pagingOps, pagingOp{fn, op, loc, len(b.docFunctions), a.args})
	b.pkg.Functions = append(b.pkg.Functions, fn)
	b.docFunctions = append(b.docFunctions, dfn)
}

// opFunction starts the function of operation op, called name on the wire:
// its Go name and its doc.
func (b *oaBuilder) opFunction(name string, op *openapi3.Operation) *model.Function {
	fn := &model.Function{Name: name}
	if op.OperationID != "" {
		b.naming.Method(fn, op.OperationID)
	} else {
		b.naming.Method(fn, name)
	}
	fn.Doc = op.Summary
	if op.Description != "" && op.Description != op.Summary {
		fn.Doc = model.JoinDoc(fn.Doc, op.Description)
	}
	if op.Deprecated {
		fn.Doc = model.JoinDoc(fn.Doc, "Deprecated: the document marks this operation as deprecated.")
	}
	return fn
}

// opHTTP starts the HTTP side of operation op: method, path, tags and the
// server of the operation or else of its path item.
func opHTTP(method, p string, item *openapi3.PathItem, op *openapi3.Operation) *model.Operation {
	hop := &model.Operation{Method: method, Path: p, Tags: append([]string(nil), op.Tags...)}
	switch {
	case op.Servers != nil && len(*op.Servers) > 0:
		hop.Server = serverOf(*op.Servers)
	case len(item.Servers) > 0:
		hop.Server = serverOf(item.Servers)
	}
	return hop
}

// opArgs collects the arguments of one operation: the fields of its argument
// struct and the parameters of its declaration, each name taken once.
type opArgs struct {
	args  *model.Type
	dfn   *document.Function
	names map[string]bool // JSON names taken
}

// name takes the JSON name n for an argument sent in in: n itself, else n_in,
// n_in2, ….
func (a *opArgs) name(n string, in model.In) string {
	if !a.names[n] {
		a.names[n] = true
		return n
	}
	base := n + "_" + string(in)
	c := base
	for i := 2; a.names[c]; i++ {
		c = base + strconv.Itoa(i)
	}
	a.names[c] = true
	return c
}

// add adds field f, of type pt, with the declaration's parameter described
// by doc.
func (a *opArgs) add(f *model.Field, pt *oaType, doc string) {
	a.args.Fields = append(a.args.Fields, f)
	a.dfn.Parameters = append(a.dfn.Parameters, document.Parameter{Name: f.JSONName, Description: doc, Schema: pt.schema, Required: f.Required})
}

// opParam is a parameter of an operation and where it is.
type opParam struct {
	p   *openapi3.Parameter
	loc oaLoc
}

// opParams returns the parameters of operation op: the path item's, replaced
// by the operation's of the same name and place. index maps "in name" to
// their place in params.
func opParams(item *openapi3.PathItem, op *openapi3.Operation, loc oaLoc) (params []opParam, index map[string]int) {
	index = map[string]int{}
	for i, list := range []openapi3.Parameters{item.Parameters, op.Parameters} {
		base := loc.add("parameters")
		if i == 0 {
			base = oaLoc{file: loc.file, ptr: loc.ptr[:strings.LastIndexByte(loc.ptr, '/')]}.add("parameters")
		}
		for j, pr := range list {
			if pr == nil || pr.Value == nil {
				continue
			}
			pl := base.add(strconv.Itoa(j))
			k := pr.Value.In + " " + pr.Value.Name
			if at, ok := index[k]; ok {
				params[at] = opParam{pr.Value, pl}
				continue
			}
			index[k] = len(params)
			params = append(params, opParam{pr.Value, pl})
		}
	}
	return params, index
}

// parameters adds the arguments of the parameters of operation op on path p,
// and returns the "in name" of every parameter declared.
func (b *oaBuilder) parameters(fn *model.Function, p string, item *openapi3.PathItem, op *openapi3.Operation, loc oaLoc, a *opArgs) map[string]int {
	params, index := opParams(item, op, loc)
	for _, pp := range params {
		b.parameter(fn, p, pp, a)
	}
	return index
}

// parameter adds the argument of parameter pp, unless it cannot be sent.
func (b *oaBuilder) parameter(fn *model.Function, p string, pp opParam, a *opArgs) {
	prm := pp.p
	in := model.In(strings.ToLower(prm.In))
	switch in {
	case model.InPath, model.InQuery, model.InHeader, model.InCookie:
	case model.InQueryString:
		b.querystringParam(fn, pp, a)
		return
	default:
		b.warn(pp.loc, "parameter in %q is not supported: left out", source.ClipValue(prm.In))
		return
	}
	if strings.TrimSpace(prm.Name) == "" {
		// No name to send it by, nor to name its argument.
		b.warn(pp.loc.add("name"), "the %s parameter has an empty name: left out", in)
		return
	}
	if in == model.InPath && !strings.Contains(p, "{"+prm.Name+"}") {
		// Asked for and sent nowhere: a validating server refuses the call.
		b.warn(pp.loc, "the path %q has no {%s}: the path parameter is left out", source.ClipTo(p, 100), source.ClipValue(prm.Name))
		return
	}
	if in == model.InHeader {
		switch strings.ToLower(prm.Name) {
		case "accept", "content-type", "authorization":
			return // the specification says these are ignored
		}
	}
	sm, err := prm.SerializationMethod()
	if err != nil {
		b.warn(pp.loc, "%v", err)
		return
	}
	schema := prm.Schema
	sloc := pp.loc.add("schema")
	content := ""
	if schema == nil {
		// A parameter with content: its schema; a JSON media type's
		// value is sent as its JSON text.
		for _, mt := range sortedKeysOf(prm.Content) {
			if c := prm.Content[mt]; c != nil && c.Schema != nil {
				schema, sloc, content = c.Schema, pp.loc.add("content", mt, "schema"), mt
				break
			}
		}
	}
	f := &model.Field{JSONName: a.name(prm.Name, in), Required: prm.Required || in == model.InPath}
	b.naming.Param(a.args, f)
	pt := b.conv(schema, sloc, model.ParamPlace(fn, f, prm.Name))
	f.Doc = model.JoinDoc(prm.Description, pt.note)
	b.setNullable(f, pt)
	f.HTTP = &model.FieldHTTP{In: in, Name: prm.Name, Style: sm.Style, Explode: sm.Explode, AllowReserved: prm.AllowReserved,
		JSON: model.MediaKind(content) == "json"}
	a.add(f, pt, prm.Description)
}

// undeclaredPathParams adds the path's parameters that no parameter
// declares (declared maps "in name"): required strings, or every call would
// fail.
func (b *oaBuilder) undeclaredPathParams(fn *model.Function, p string, loc oaLoc, declared map[string]int, a *opArgs) {
	for _, name := range pathTemplateNames(p) {
		if _, ok := declared[string(model.InPath)+" "+name]; ok {
			continue
		}
		b.warn(loc, "the path %q has {%s}, which no parameter declares: it is a required string argument", source.ClipTo(p, 100), source.ClipValue(name))
		f := &model.Field{JSONName: a.name(name, model.InPath), Required: true}
		b.naming.Param(a.args, f)
		sr := &openapi3.SchemaRef{Value: &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeString}}}
		pt := b.conv(sr, loc, model.ParamPlace(fn, f, name))
		b.setNullable(f, pt)
		f.HTTP = &model.FieldHTTP{In: model.InPath, Name: name, Style: "simple"}
		a.add(f, pt, "")
	}
}

// nullFlags gives a null flag to every optional argument that may be null
// and whose null has a form on the wire (a member of a JSON body, a JSON
// parameter), so that it can send it.
func (b *oaBuilder) nullFlags(args *model.Type, hop *model.Operation) {
	for _, f := range args.Fields {
		if f.Required || !f.Nullable || f.Type.Kind == model.RefRaw || f.HTTP == nil { // raw JSON holds its own null
			continue
		}
		if f.HTTP.JSON || f.HTTP.In == model.InBodyProp && model.MediaKind(hop.BodyMedia) == "json" {
			b.naming.NullFlag(args, f)
		}
	}
}

// opSecurity returns the security requirements of operation op (else the
// document's) that the client can meet: those of known schemes only.
func (b *oaBuilder) opSecurity(op *openapi3.Operation) [][]string {
	reqs := b.doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	var out [][]string
	for _, req := range reqs {
		var set []string
		usable := true
		for _, k := range sortedKeysOf(req) {
			if b.scheme(k) == nil {
				usable = false // a scheme the client cannot send
				break
			}
			set = append(set, k)
		}
		if usable {
			out = append(out, set)
		}
	}
	return out
}

func sortedKeysOf[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// pickMedia chooses the media type a client sends or reads: JSON first, then
// forms, then text, then the first other one.
func pickMedia(content openapi3.Content) (string, *openapi3.MediaType) {
	keys := sortedKeysOf(content)
	for _, want := range []string{"json", "form", "multipart", "text", "binary"} {
		// application/json itself before other JSON types.
		for _, k := range keys {
			if strings.EqualFold(k, "application/json") && want == "json" {
				return k, content[k]
			}
		}
		for _, k := range keys {
			if model.MediaKind(k) == want {
				return k, content[k]
			}
		}
	}
	return "", nil
}
