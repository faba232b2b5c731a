package openapi

import (
	"sort"
	"strings"

	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/gen/source"
)

// security reads the security schemes: one client option each.
func (b *oaBuilder) security() {
	if b.doc.Components == nil || len(b.doc.Components.SecuritySchemes) == 0 {
		return
	}
	names := make([]string, 0, len(b.doc.Components.SecuritySchemes))
	for n := range b.doc.Components.SecuritySchemes {
		names = append(names, n)
	}
	loc := oaLoc{file: b.root}.add("components", "securitySchemes")
	if b.swagger {
		loc = oaLoc{file: b.root}.add("securityDefinitions")
	}
	for _, n := range b.ordered(loc, names) {
		ref := b.doc.Components.SecuritySchemes[n]
		if ref == nil || ref.Value == nil {
			continue
		}
		s := ref.Value
		sc := &model.SecurityScheme{Name: n, Doc: s.Description}
		switch strings.ToLower(s.Type) {
		case "apikey":
			if t, _ := s.Extensions["x-amazon-apigateway-authtype"].(string); strings.EqualFold(t, "awsSigv4") {
				// AWS's documents declare Signature Version 4, a signature of
				// each request, as an API key in Authorization: a key sent as
				// it is would be refused.
				b.warn(loc.add(n), "AWS Signature Version 4 (x-amazon-apigateway-authtype %q) is not supported: the client does not sign requests; sign each one with WithRequestEditor (or an http.RoundTripper in WithHTTPClient)", source.ClipValue(t))
				continue
			}
			sc.Kind, sc.In, sc.Key = model.SchemeAPIKey, model.In(strings.ToLower(s.In)), s.Name
			if sc.In != model.InHeader && sc.In != model.InQuery && sc.In != model.InCookie {
				b.warn(loc.add(n), "API key in %q is not supported: the client cannot send it", source.ClipValue(s.In))
				continue
			}
		case "http":
			switch strings.ToLower(s.Scheme) {
			case "bearer":
				sc.Kind = model.SchemeBearer
			case "basic":
				sc.Kind = model.SchemeBasic
			default:
				b.warn(loc.add(n), "HTTP authentication scheme %q is not supported: the client cannot send it", source.ClipValue(s.Scheme))
				continue
			}
		case "oauth2", "openidconnect":
			sc.Kind = model.SchemeBearer // an access token obtained elsewhere
			if s.Flows != nil && s.Flows.ClientCredentials != nil && s.Flows.ClientCredentials.TokenURL != "" {
				cc := s.Flows.ClientCredentials
				flow := &model.OAuthFlow{TokenURL: cc.TokenURL}
				for scope := range cc.Scopes {
					flow.Scopes = append(flow.Scopes, scope)
				}
				sort.Strings(flow.Scopes)
				sc.ClientCredentials = flow
			}
		default:
			b.warn(loc.add(n), "security scheme type %q is not supported", source.ClipValue(s.Type))
			continue
		}
		b.naming.Option(sc)
		b.pkg.API.Security = append(b.pkg.API.Security, sc)
	}
}

func (b *oaBuilder) scheme(name string) *model.SecurityScheme {
	for _, s := range b.pkg.API.Security {
		if s.Name == name {
			return s
		}
	}
	return nil
}
