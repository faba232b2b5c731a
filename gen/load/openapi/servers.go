package openapi

import (
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opentoolgen/opentoolgen/gen/model"
)

// serverURL is the first server's URL with its variables' defaults.
func serverURL(servers openapi3.Servers) string {
	if len(servers) == 0 || servers[0] == nil {
		return ""
	}
	s := servers[0]
	u := s.URL
	for name, v := range s.Variables {
		if v != nil {
			u = strings.ReplaceAll(u, "{"+name+"}", v.Default)
		}
	}
	return u
}

// serverOf is the first of servers, its variables in the order its URL
// names them; nil when there is none.
func serverOf(servers openapi3.Servers) *model.Server {
	if len(servers) == 0 || servers[0] == nil {
		return nil
	}
	return convServer(servers[0])
}

// serversOf are the servers of the document, from the first; a server
// after a missing one is left out.
func serversOf(servers openapi3.Servers) []*model.Server {
	var out []*model.Server
	for _, s := range servers {
		if s == nil {
			break
		}
		out = append(out, convServer(s))
	}
	return out
}

// mergeVariables are the variables of servers, each name once: the first
// server's that has it, with the values any of them allow (any value when
// one of them has no enum).
func mergeVariables(servers []*model.Server) []*model.ServerVariable {
	var out []*model.ServerVariable
	byName := map[string]*model.ServerVariable{}
	for _, s := range servers {
		for _, v := range s.Variables {
			m, ok := byName[v.Name]
			if !ok {
				m = &model.ServerVariable{Name: v.Name, Default: v.Default, Enum: slices.Clone(v.Enum), Doc: v.Doc}
				byName[v.Name] = m
				out = append(out, m)
				continue
			}
			if len(m.Enum) == 0 || len(v.Enum) == 0 {
				m.Enum = nil
				continue
			}
			for _, e := range v.Enum {
				if !slices.Contains(m.Enum, e) {
					m.Enum = append(m.Enum, e)
				}
			}
		}
	}
	return out
}

// convServer is a server, its variables in the order its URL names them.
func convServer(s *openapi3.Server) *model.Server {
	out := &model.Server{URL: s.URL, Doc: s.Description}
	seen := map[string]bool{}
	rest := s.URL
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			break
		}
		name := rest[i+1 : i+j]
		rest = rest[i+j+1:]
		v := s.Variables[name]
		if v == nil || seen[name] {
			continue
		}
		seen[name] = true
		sv := &model.ServerVariable{Name: name, Default: v.Default, Doc: v.Description}
		sv.Enum = append(sv.Enum, v.Enum...)
		out.Variables = append(out.Variables, sv)
	}
	return out
}
