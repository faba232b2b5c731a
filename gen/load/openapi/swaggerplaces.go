package openapi

import (
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// swaggerPlace returns the place in a Swagger 2.0 document of ptr, a place in
// the OpenAPI 3 document openapi2conv converted it to, so that a warning
// about the converted document names and points at what its author wrote, as
// its errors do (the checker reads the document itself):
//
//	/components/schemas/X/…                 /definitions/X/… (a formData parameter: /parameters/X/…)
//	/components/parameters/X/schema/…       /parameters/X/… (a parameter's schema is the parameter)
//	/components/requestBodies/X/content/M/schema/…  /parameters/X/schema/…
//	/components/responses/X/content/M/schema/…      /responses/X/schema/…
//	/components/securitySchemes/X/…         /securityDefinitions/X
//	/servers/…                              /host, else /basePath
//	/paths/P[/M]/parameters/I/schema/…      /paths/P[/M]/parameters/J/… (J counts body and formData parameters too)
//	/paths/P/M/requestBody/content/M/schema/…       the body parameter's schema, …/parameters/J/schema/…
//	/paths/P/M/requestBody/…/schema/properties/N/…  the formData parameter N, …/parameters/J/…
//	/paths/P/M/responses/C/content/M/schema/…       /paths/P/M/responses/C/schema/…
//
// A parameter or response that is a $ref keeps the place of the $ref, as in
// an OpenAPI 3 document. What has no counterpart keeps its converted place,
// whose nearest ancestor in the document gives the position.
func (b *oaBuilder) swaggerPlace(ptr string) string {
	root := b.src.Tree
	tok := strings.Split(ptr, "/")[1:]
	if len(tok) == 0 || ptr == "" {
		return ptr
	}
	join := func(parts ...string) string {
		var sb strings.Builder
		for _, p := range parts {
			if p != "" {
				sb.WriteByte('/')
				sb.WriteString(p)
			}
		}
		return sb.String()
	}
	rest := func(t []string) string { return strings.Join(t, "/") }
	switch tok[0] {
	case "components":
		if len(tok) < 3 {
			return ptr
		}
		name, more := tok[2], tok[3:]
		switch tok[1] {
		case "schemas":
			if b.find(root, "/definitions/"+name) == nil && b.find(root, "/parameters/"+name) != nil {
				return join("parameters", name, rest(more)) // a formData parameter
			}
			return join("definitions", name, rest(more))
		case "parameters":
			return join("parameters", name, paramRest(more))
		case "requestBodies":
			return join("parameters", name, bodyRest(more))
		case "responses":
			return join("responses", name, responseRest(more))
		case "securitySchemes":
			return join("securityDefinitions", name)
		}
	case "servers":
		if root.Get("host") == nil && root.Get("basePath") != nil {
			return "/basePath"
		}
		return "/host"
	case "paths":
		if len(tok) < 3 {
			return ptr
		}
		item := join("paths", tok[1])
		if tok[2] == "parameters" && len(tok) > 3 {
			return b.swaggerParam(item+"/parameters", tok[3], tok[4:])
		}
		if len(tok) < 4 {
			return ptr
		}
		op := join("paths", tok[1], tok[2])
		more := tok[4:]
		switch tok[3] {
		case "parameters":
			if len(more) > 0 {
				return b.swaggerParam(op+"/parameters", more[0], more[1:])
			}
		case "requestBody":
			return b.swaggerBody(item, op, more)
		case "responses":
			if len(more) > 0 {
				return join("paths", tok[1], tok[2], "responses", more[0], responseRest(more[1:]))
			}
		}
	}
	return ptr
}

// swaggerParam maps the converted parameter at index i of the list at list
// (a path item's or an operation's parameters), and the place more in it:
// the list in the document also holds the body and formData parameters,
// which the conversion moved to the request body.
func (b *oaBuilder) swaggerParam(list, i string, more []string) string {
	want, err := strconv.Atoi(i)
	n := b.find(b.src.Tree, list)
	if err != nil || n == nil || n.Kind != jsontree.Array {
		return list + "/" + strings.Join(append([]string{i}, more...), "/")
	}
	seen := 0
	for j, p := range n.Items {
		if in := b.paramIn(p); in == "body" || in == "formData" {
			continue
		}
		if seen == want {
			place := list + "/" + strconv.Itoa(j)
			if pr := paramRest(more); pr != "" {
				place += "/" + pr
			}
			return place
		}
		seen++
	}
	return list
}

// swaggerBody maps the place more in the request body of the operation at
// op (of the path item at item) to its body or formData parameter.
func (b *oaBuilder) swaggerBody(item, op string, more []string) string {
	form := ""
	if len(more) > 4 && more[0] == "content" && more[2] == "schema" && more[3] == "properties" {
		form = pointerUnescaper.Replace(more[4])
	}
	for _, list := range []string{op + "/parameters", item + "/parameters"} {
		n := b.find(b.src.Tree, list)
		if n == nil || n.Kind != jsontree.Array {
			continue
		}
		for j, p := range n.Items {
			in := b.paramIn(p)
			place := list + "/" + strconv.Itoa(j)
			switch {
			case in == "body" && form == "":
				if br := bodyRest(more); br != "" {
					return place + "/" + br
				}
				return place
			case in == "formData" && (form == "" || b.paramName(p) == form):
				if form != "" && len(more) > 5 {
					return place + "/" + strings.Join(more[5:], "/")
				}
				return place
			}
		}
	}
	return op
}

// paramIn is the "in" of the parameter p of the document, following a local
// $ref.
func (b *oaBuilder) paramIn(p *jsontree.Node) string { return b.paramMember(p, "in") }

func (b *oaBuilder) paramName(p *jsontree.Node) string { return b.paramMember(p, "name") }

func (b *oaBuilder) paramMember(p *jsontree.Node, member string) string {
	if r := p.Get("$ref"); r != nil && r.Kind == jsontree.String {
		if t, ok := strings.CutPrefix(r.Str, "#"); ok {
			p = b.find(b.src.Tree, t)
		}
	}
	if v := p.Get(member); v != nil && v.Kind == jsontree.String {
		return v.Str
	}
	return ""
}

// paramRest maps the place t in a converted parameter: its schema is the
// Swagger parameter itself.
func paramRest(t []string) string {
	if len(t) > 0 && t[0] == "schema" {
		t = t[1:]
	}
	return strings.Join(t, "/")
}

// bodyRest maps the place t in a converted request body (content/M/schema/…)
// to the body parameter's (schema/…).
func bodyRest(t []string) string {
	if len(t) > 2 && t[0] == "content" && t[2] == "schema" {
		return strings.Join(t[2:], "/")
	}
	return ""
}

// responseRest maps the place t in a converted response: content/M/schema/…
// is schema/…, headers/H/schema/… is headers/H/….
func responseRest(t []string) string {
	switch {
	case len(t) > 2 && t[0] == "content" && t[2] == "schema":
		return strings.Join(t[2:], "/")
	case len(t) > 2 && t[0] == "headers" && t[2] == "schema":
		return strings.Join(append(t[:2:2], t[3:]...), "/")
	}
	return strings.Join(t, "/")
}
