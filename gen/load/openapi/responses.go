package openapi

import (
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// responses reads the documented responses: the success type is the result,
// the others become typed errors.
func (b *oaBuilder) responses(fn *model.Function, op *openapi3.Operation, loc oaLoc, dfn *document.Function) {
	if op.Responses == nil {
		return
	}
	codes := op.Responses.Keys()
	sort.Slice(codes, func(i, j int) bool { return statusRank(codes[i]) < statusRank(codes[j]) })
	hasSuccess := false
	for _, c := range codes {
		if strings.HasPrefix(c, "2") {
			hasSuccess = true
		}
	}
	hop := fn.HTTP
	for _, c := range codes {
		rr := op.Responses.Value(c)
		if rr == nil || rr.Value == nil {
			continue
		}
		r := &model.Response{Status: strings.ToUpper(c), Success: strings.HasPrefix(c, "2") || c == "default" && !hasSuccess}
		if c == "default" {
			r.Status = "default"
		}
		if rr.Value.Description != nil {
			r.Doc = *rr.Value.Description
		}
		if r.Success && b.streamResponse(fn, r, rr.Value.Content, loc.add(c), c, dfn) {
			hop.Responses = append(hop.Responses, r)
			continue
		}
		mt, media := pickMedia(rr.Value.Content)
		if media != nil {
			rloc := loc.add(c, "content", mt, "schema")
			switch model.MediaKind(mt) {
			case "json":
				if fn.Result != nil && r.Success {
					// a second success type: decoded into the first only if it is the same
					if media.Schema != nil && media.Schema.Ref != "" {
						n := b.ref(media.Schema)
						if fn.Result.Kind == model.RefNamed && fn.Result.Named == n.t {
							r.Type, r.Media = fn.Result, "json"
						}
					}
					break
				}
				pt := b.conv(media.Schema, rloc, model.ResponsePlace(fn, c, r.Success).Via(componentName(rr.Ref)))
				r.Type, r.Media = pt.ref, "json"
				if r.Success {
					fn.Result = pt.ref
					ret := &document.Return{Name: "result", Description: r.Doc, Schema: pt.schema}
					if !pt.object {
						fn.ResultName = "result"
					}
					dfn.Return = ret
				}
			case "text":
				if r.Success && fn.Result == nil {
					r.Type, r.Media = &model.TypeRef{Kind: model.RefString}, "text"
					fn.Result, fn.ResultName = r.Type, "result"
					dfn.Return = &document.Return{Name: "result", Description: r.Doc, Schema: &document.Schema{Type: document.TypeString}}
				}
			case "binary":
				if r.Success && fn.Result == nil {
					r.Type, r.Media = &model.TypeRef{Kind: model.RefBytes}, "binary"
					fn.Result, fn.ResultName = r.Type, "result"
					dfn.Return = &document.Return{Name: "result", Description: model.JoinDoc(r.Doc, "Base64-encoded "+mt+"."), Schema: &document.Schema{Type: document.TypeString, Format: "byte"}}
				}
			}
		}
		hop.Responses = append(hop.Responses, r)
		if r.Success {
			b.responseHeaders(fn, rr.Value.Headers)
		}
	}
}

// componentName is the name of the component a $ref names (its pointer's
// last token: #/components/responses/NotFound → NotFound), "" for no $ref.
func componentName(ref string) string {
	_, ptr, ok := strings.Cut(ref, "#")
	if !ok || ptr == "" {
		return ""
	}
	tok := ptr[strings.LastIndex(ptr, "/")+1:]
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
}

// responseHeaders adds the headers a success response declares to the
// operation's Headers: integers, numbers and booleans as such, anything else
// as its text.
func (b *oaBuilder) responseHeaders(fn *model.Function, headers openapi3.Headers) {
	hop := fn.HTTP
	for _, name := range sortedKeysOf(headers) {
		h := headers[name]
		if h == nil || h.Value == nil || strings.EqualFold(name, "content-type") {
			continue
		}
		if hop.Headers == nil {
			hop.Headers = &model.Type{Kind: model.KindStruct}
			b.naming.Headers(fn, hop.Headers)
		}
		dup := false
		for _, f := range hop.Headers.Fields {
			dup = dup || strings.EqualFold(f.HTTP.Name, name)
		}
		if dup {
			continue
		}
		kind := model.RefString
		if sr := h.Value.Schema; sr != nil && sr.Value != nil && sr.Value.Type != nil {
			switch {
			case sr.Value.Type.Is(openapi3.TypeInteger):
				kind = model.RefInt
			case sr.Value.Type.Is(openapi3.TypeNumber):
				kind = model.RefFloat
			case sr.Value.Type.Is(openapi3.TypeBoolean):
				kind = model.RefBool
			}
		}
		f := &model.Field{JSONName: name, Doc: h.Value.Description, Type: &model.TypeRef{Kind: kind}, Required: h.Value.Required,
			HTTP: &model.FieldHTTP{In: model.InHeader, Name: name}}
		hop.Headers.Fields = append(hop.Headers.Fields, f)
		b.naming.Member(hop.Headers, f)
	}
}

// isText reports whether values of r are strings.
func isText(r *model.TypeRef) bool {
	for i := 0; r != nil && r.Kind == model.RefNamed && i < 100; i++ {
		r = r.Named.Underlying
	}
	return r != nil && r.Kind == model.RefString
}

// docSchemaOf is the OpenTool schema a converted schema defines: a named
// schema's definition, or an inline one's; nil when it has none.
func (b *oaBuilder) docSchemaOf(sr *openapi3.SchemaRef) *document.Schema {
	if sr.Ref != "" {
		return b.ref(sr).schema
	}
	if ot := b.inline[sr.Value]; ot != nil {
		return ot.schema
	}
	return nil
}

// statusRank orders statuses: 2xx codes, 2XX, other codes, other ranges, default.
func statusRank(s string) int {
	s = strings.ToUpper(s)
	if s == "DEFAULT" {
		return 10000
	}
	if len(s) == 3 && s[1] == 'X' {
		n := int(s[0]-'0') * 100
		if s[0] == '2' {
			return 300 + n
		}
		return 5000 + n
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 9000
	}
	if n >= 200 && n < 300 {
		return n
	}
	return 1000 + n
}

// schemaDoc is the doc text of a schema: its title and description.
func schemaDoc(s *openapi3.Schema) string {
	if s == nil {
		return ""
	}
	if s.Title != "" && s.Description != "" && !strings.Contains(s.Description, s.Title) {
		return s.Title + "\n\n" + s.Description
	}
	if s.Description != "" {
		return s.Description
	}
	return s.Title
}
