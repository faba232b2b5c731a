package openapi

import (
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime"
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
		ops := item.Operations()
		var keys []string
		for m := range ops {
			keys = append(keys, strings.ToLower(m))
		}
		ploc := oaLoc{file: b.root}.add("paths", p)
		// Document order, else the order of httpMethods.
		var order []string
		if n := b.node(ploc); n != nil && n.Kind == jsontree.Object {
			for _, m := range n.Members {
				if ops[strings.ToUpper(m.Key)] != nil {
					order = append(order, m.Key)
				}
			}
		}
		if len(order) != len(ops) {
			order = nil
			for _, m := range httpMethods {
				if ops[strings.ToUpper(m)] != nil {
					order = append(order, m)
				}
			}
			var extra []string
			for _, k := range keys {
				if !model.Contains(httpMethods, k) {
					extra = append(extra, k)
				}
			}
			sort.Strings(extra)
			order = append(order, extra...)
		}
		for _, m := range order {
			op := ops[strings.ToUpper(m)]
			b.operation(strings.ToUpper(m), p, item, op, ploc.add(m), &wire)
		}
	}
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
	hop := &model.Operation{Method: method, Path: p, Tags: append([]string(nil), op.Tags...)}
	switch {
	case op.Servers != nil && len(*op.Servers) > 0:
		hop.Server = serverOf(*op.Servers)
	case len(item.Servers) > 0:
		hop.Server = serverOf(item.Servers)
	}
	if hop.Server != nil {
		b.opServers = true
	}
	fn.HTTP = hop
	dfn := runtime.Function{Name: name, Description: fn.Doc, Parameters: []runtime.Parameter{}}

	args := &model.Type{Kind: model.KindStruct}
	b.naming.Args(fn, args) // taken even if the operation has no arguments
	argNames := map[string]bool{}
	argName := func(n string, in model.In) string {
		if !argNames[n] {
			argNames[n] = true
			return n
		}
		base := n + "_" + string(in)
		c := base
		for i := 2; argNames[c]; i++ {
			c = base + strconv.Itoa(i)
		}
		argNames[c] = true
		return c
	}
	addField := func(f *model.Field, pt *oaType, doc string) {
		args.Fields = append(args.Fields, f)
		dfn.Parameters = append(dfn.Parameters, runtime.Parameter{Name: f.JSONName, Description: doc, Schema: pt.schema, Required: f.Required})
	}

	// Parameters: the path item's, replaced by the operation's of the same
	// name and place.
	type param struct {
		p   *openapi3.Parameter
		loc oaLoc
	}
	var params []param
	index := map[string]int{}
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
				params[at] = param{pr.Value, pl}
				continue
			}
			index[k] = len(params)
			params = append(params, param{pr.Value, pl})
		}
	}
	for _, pp := range params {
		prm := pp.p
		in := model.In(strings.ToLower(prm.In))
		switch in {
		case model.InPath, model.InQuery, model.InHeader, model.InCookie:
		default:
			b.warn(pp.loc, "parameter in %q is not supported: left out", source.ClipValue(prm.In))
			continue
		}
		if in == model.InPath && !strings.Contains(p, "{"+prm.Name+"}") {
			// Asked for and sent nowhere: a validating server refuses the call.
			b.warn(pp.loc, "the path %q has no {%s}: the path parameter is left out", source.ClipTo(p, 100), source.ClipValue(prm.Name))
			continue
		}
		if in == model.InHeader {
			switch strings.ToLower(prm.Name) {
			case "accept", "content-type", "authorization":
				continue // the specification says these are ignored
			}
		}
		sm, err := prm.SerializationMethod()
		if err != nil {
			b.warn(pp.loc, "%v", err)
			continue
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
		f := &model.Field{JSONName: argName(prm.Name, in), Required: prm.Required || in == model.InPath}
		b.naming.Param(args, f)
		pt := b.conv(schema, sloc, model.ParamPlace(fn, f, prm.Name))
		f.Doc = model.JoinDoc(prm.Description, pt.note)
		b.setNullable(f, pt)
		f.HTTP = &model.FieldHTTP{In: in, Name: prm.Name, Style: sm.Style, Explode: sm.Explode, AllowReserved: prm.AllowReserved,
			JSON: model.MediaKind(content) == "json"}
		addField(f, pt, prm.Description)
	}

	// The path's parameters that neither declares: required strings, or
	// every call would fail.
	for _, name := range pathTemplateNames(p) {
		if _, ok := index[string(model.InPath)+" "+name]; ok {
			continue
		}
		b.warn(loc, "the path %q has {%s}, which no parameter declares: it is a required string argument", source.ClipTo(p, 100), source.ClipValue(name))
		f := &model.Field{JSONName: argName(name, model.InPath), Required: true}
		b.naming.Param(args, f)
		sr := &openapi3.SchemaRef{Value: &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeString}}}
		pt := b.conv(sr, loc, model.ParamPlace(fn, f, name))
		b.setNullable(f, pt)
		f.HTTP = &model.FieldHTTP{In: model.InPath, Name: name, Style: "simple"}
		addField(f, pt, "")
	}

	// The request body.
	if rb := op.RequestBody; rb != nil && rb.Value != nil {
		b.requestBody(fn, rb.Value, loc.add("requestBody"), args, argName, addField)
	}
	// An optional argument that may be null, and whose null has a form on
	// the wire (a member of a JSON body, a JSON parameter), can send it.
	for _, f := range args.Fields {
		if f.Required || !f.Nullable || f.Type.Kind == model.RefRaw || f.HTTP == nil { // raw JSON holds its own null
			continue
		}
		if f.HTTP.JSON || f.HTTP.In == model.InBodyProp && model.MediaKind(hop.BodyMedia) == "json" {
			b.naming.NullFlag(args, f)
		}
	}

	b.responses(fn, op, loc.add("responses"), &dfn)

	// Security: the operation's requirements, else the document's.
	reqs := b.doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
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
			hop.Security = append(hop.Security, set)
		}
	}

	if len(args.Fields) > 0 {
		fn.Args = args
		b.pkg.Types = append(b.pkg.Types, args)
	}
	b.pkg.Functions = append(b.pkg.Functions, fn)
	b.docFunctions = append(b.docFunctions, dfn)
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

// requestBody adds the arguments of the request body: the members of an
// object body as arguments of their own, else one argument for the body.
