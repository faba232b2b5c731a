package emit

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// The options that give an OpenAPI package's client its credentials.

// emitSecurityOptions renders the options that set credentials:
// WithCredential, and per security scheme its option (WithAPIKey…) and the
// option of its OAuth 2 client credentials flow.
func emitSecurityOptions(f *jen.File, api *model.API) {
	if len(api.Security) > 0 {
		emitOption(f, "WithCredential", []string{
			"WithCredential sets the credential of the security scheme named scheme, for",
			"example a token source: WithCredential(name, rest.TokenCredential(src)).",
			"rest.WithCredentials gives a call credentials of its own."},
			[]jen.Code{jen.Id("scheme").String(), jen.Id("cred").Add(restQ("Credential"))},
			jen.Id("c").Dot("SetCredential").Call(jen.Id("scheme"), jen.Id("cred")))
	}
	for _, s := range api.Security {
		var doc []string
		var params []jen.Code
		var cred jen.Code
		switch s.Kind {
		case model.SchemeAPIKey:
			doc = []string{s.Option + " sets the API key of the security scheme " + strconv.Quote(s.Name) + ", sent in the " + string(s.In) + " " + strconv.Quote(s.Key) + "."}
			params = []jen.Code{jen.Id("key").String()}
			cred = restQ("APIKeyCredential").Call(jen.Lit(string(s.In)), jen.Lit(s.Key), jen.Id("key"))
		case model.SchemeBasic:
			doc = []string{s.Option + " sets the user and password of the security scheme " + strconv.Quote(s.Name) + " (HTTP basic)."}
			params = []jen.Code{jen.Id("user"), jen.Id("password").String()}
			cred = restQ("BasicCredential").Call(jen.Id("user"), jen.Id("password"))
		default:
			doc = []string{s.Option + " sets the token of the security scheme " + strconv.Quote(s.Name) + ", sent as", `"Authorization: Bearer <token>".`}
			params = []jen.Code{jen.Id("token").String()}
			cred = restQ("BearerCredential").Call(jen.Id("token"))
		}
		if lines := docLines(s.Doc); len(lines) > 0 {
			doc = append(doc, "//")
			doc = append(doc, lines...)
		}
		emitOption(f, s.Option, doc, params, jen.Id("c").Dot("SetCredential").Call(jen.Lit(s.Name), cred))
		if cc := s.ClientCredentials; cc != nil {
			emitClientCredentials(f, s, cc)
		}
	}
}

// emitClientCredentials renders the option of a scheme's OAuth 2 client
// credentials flow:
//
//	// WithPetstoreAuthClientCredentials gets the tokens of … from https://…/token …
//	func WithPetstoreAuthClientCredentials(ctx context.Context, clientID, clientSecret string, scopes ...string) ClientOption {
//		return func(c *rest.Client) {
//			c.SetCredential("petstore_auth", rest.TokenCredential(oauth2cred.ClientCredentials(ctx, clientcredentials.Config{
//				ClientID: clientID, ClientSecret: clientSecret, TokenURL: "https://…/token", Scopes: scopes,
//			})))
//		}
//	}
func emitClientCredentials(f *jen.File, s *model.SecurityScheme, cc *model.OAuthFlow) {
	scopes := "the document lists none"
	if len(cc.Scopes) > 0 {
		q := make([]string, len(cc.Scopes))
		for i, sc := range cc.Scopes {
			q[i] = strconv.Quote(sc)
		}
		scopes = "the document lists " + strings.Join(q, ", ")
	}
	doc := []string{
		s.FlowOption + " authenticates the security scheme " + strconv.Quote(s.Name),
		"with tokens of OAuth 2's client credentials flow from " + cc.TokenURL + ",",
		"for the scopes given (" + scopes + "),",
		"fetched again when they expire, each within the context of the call that",
		"needs it. ctx gives the token requests their HTTP client (oauth2.HTTPClient)",
		"and ends them when it ends: it should live as long as the client.",
	}
	ccPath := "golang.org/x/oauth2/clientcredentials"
	f.Add(commentLines(doc).Func().Id(s.FlowOption).Params(
		jen.Id("ctx").Qual(contextPath, "Context"), jen.List(jen.Id("clientID"), jen.Id("clientSecret")).String(), jen.Id("scopes").Op("...").String(),
	).Id("ClientOption").Block(
		jen.Return(jen.Func().Params(jen.Id("c").Op("*").Add(restQ("Client"))).Block(
			jen.Id("c").Dot("SetCredential").Call(jen.Lit(s.Name), restQ("TokenCredential").Call(
				jen.Qual(oauth2credPath, "ClientCredentials").Call(jen.Id("ctx"), jen.Qual(ccPath, "Config").Values(jen.Dict{
					jen.Id("ClientID"):     jen.Id("clientID"),
					jen.Id("ClientSecret"): jen.Id("clientSecret"),
					jen.Id("TokenURL"):     jen.Lit(cc.TokenURL),
					jen.Id("Scopes"):       jen.Id("scopes"),
				})),
			)),
		)),
	))
	f.Line()
}
