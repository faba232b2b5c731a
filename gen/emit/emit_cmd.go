package emit

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// Import paths of what a generated main uses besides the runtime.
const (
	toolcliPath = "github.com/opentoolgen/opentoolgen/toolcli"
	natscliPath = "github.com/opentoolgen/opentoolgen/toolcli/natscli"
	otelcliPath = "github.com/opentoolgen/opentoolgen/toolcli/otelcli"
	flagPath    = "flag"
	osPath      = "os"
)

// CommandFile is the name of the generated main's file.
const CommandFile = "main.gen.go"

// The main of an OpenAPI package:
//
//	func main() {
//		var server string
//		cmd := &toolcli.Command{
//			Name:     "petstore",
//			Document: petstore.Document(),
//			Flags: func(fs *flag.FlagSet) {
//				fs.StringVar(&server, "base-url", petstore.DefaultBaseURL, "Base URL of the REST API")
//				fs.StringVar(&server, "server", petstore.DefaultBaseURL, "Deprecated: use --base-url")
//			},
//			Env: []toolcli.Env{{Name: "PETSTORE_API_KEY", Required: true, Usage: `API key of the security scheme "api_key" (header X-API-Key)`}},
//			NewTool: func(_ context.Context, opts ...toolopt.Option) (runtime.Tool, error) {
//				var copts []petstore.ClientOption
//				if v := os.Getenv("PETSTORE_API_KEY"); v != "" {
//					copts = append(copts, petstore.WithAPIKey(v))
//				}
//				c, err := petstore.NewClient(server, copts...)
//				if err != nil {
//					return nil, err
//				}
//				return petstore.NewTool(c, opts...)
//			},
//		}
//		cmd.Main()
//	}
func emitCommand(p *model.Package) *jen.File {
	c := p.Command
	f := jen.NewFile("main")
	f.HeaderComment(headerLine)
	if p.Source != "" {
		f.HeaderComment("Source: " + sanitizeLine(p.Source))
	}
	if hasC(p) {
		// Without cgo the package has no Library to open.
		f.HeaderComment("//go:build cgo")
	}
	importRuntime(f)
	f.ImportAlias(c.ImportPath, c.Import)
	f.NoFormat = true
	for _, l := range docLines(commandDoc(p)) {
		if l == "" {
			f.PackageComment("//")
		} else {
			f.PackageComment("// " + l)
		}
	}
	var m commandMain
	switch {
	case hasHTTP(p):
		m.restBackend(p)
	case hasC(p):
		m.libraryBackend(p)
	case p.Command.MCPUpstream:
		m.mcpBackend(p)
	default:
		m.gatewayBackend(p)
	}
	pkg := func(name string) *jen.Statement { return jen.Qual(c.ImportPath, name) }

	// Name, Document, Flags, Required, Env, MCP, NewTool, Ready, Commands,
	// Telemetry: in this order, each on a line.
	field := func(name string, v jen.Code) jen.Code { return jen.Line().Id(name).Op(":").Add(v) }
	fields := []jen.Code{
		field("Name", jen.Lit(c.Name)),
		field("Document", pkg("Document").Call()),
		field("Flags", jen.Func().Params(jen.Id("fs").Op("*").Qual(flagPath, "FlagSet")).Block(m.flags...)),
	}
	if len(m.required) > 0 {
		var lits []jen.Code
		for _, r := range m.required {
			lits = append(lits, jen.Lit(r))
		}
		fields = append(fields, field("Required", jen.Index().String().Values(lits...)))
	}
	if len(m.env) > 0 {
		fields = append(fields, field("Env", jen.Index().Qual(toolcliPath, "Env").Values(multiline(m.env)...)))
	}
	ctx := "_"
	if m.ctx {
		ctx = "ctx"
	}
	fields = append(fields, field("NewTool", jen.Func().Params(jen.Id(ctx).Qual(contextPath, "Context"), jen.Id("opts").Op("...").Add(optQ("Option"))).
		Params(rt("Tool"), jen.Error()).Block(m.body...)))
	if len(m.ready) > 0 {
		fields = append(fields, field("Ready", jen.Func().Params(jen.Id("ctx").Qual(contextPath, "Context")).Error().Block(m.ready...)))
	}
	// The fronts and exporters beyond OpenTool HTTP and MCP, linked only
	// when asked (-with): a binary holds what it serves.
	if c.NATS {
		fields = append(fields, field("Commands", jen.Qual(natscliPath, "Commands").Call()))
	}
	if c.OTel {
		fields = append(fields, field("Telemetry", jen.Qual(otelcliPath, "Telemetry")))
	}
	fields = append(fields, jen.Line())
	var mainBody []jen.Code
	if len(m.vars) > 0 {
		mainBody = append(mainBody, jen.Var().List(m.vars...).String())
	}
	mainBody = append(mainBody,
		jen.Id("cmd").Op(":=").Op("&").Qual(toolcliPath, "Command").Values(fields...),
		jen.Id("cmd").Dot("Main").Call(),
	)
	f.Func().Id("main").Params().Block(mainBody...)
	return f
}

// commandMain is what a generated main's backend adds to it: the locals its
// flags set, the body of Flags, the required flags, the Env entries, the
// body of NewTool and that of Ready (none: ready once it serves).
type commandMain struct {
	ctx         bool // NewTool uses its context
	vars, flags []jen.Code
	required    []string
	env, body   []jen.Code
	ready       []jen.Code
}

// strVar adds a string flag name that sets the local local.
func (m *commandMain) strVar(local, name string, def jen.Code, usage string) {
	m.vars = append(m.vars, jen.Id(local))
	m.flags = append(m.flags, jen.Id("fs").Dot("StringVar").Call(jen.Op("&").Id(local), jen.Lit(name), def, jen.Lit(usage)))
}

// envEntry adds an environment variable the help lists; required says the
// document requires it (the command warns at start when it is not set).
func (m *commandMain) envEntry(name, usage string, required bool) {
	d := jen.Dict{jen.Id("Name"): jen.Lit(name), jen.Id("Usage"): jen.Lit(usage)}
	if required {
		d[jen.Id("Required")] = jen.True()
	}
	m.env = append(m.env, jen.Values(d))
}

// requiredSchemes are the security schemes the document requires: those
// every alternative of some operation's security has, so that the
// operation cannot be called without their credentials. An operation that
// accepts one of several schemes requires none of them alone, and one that
// may be called without credentials (an empty alternative) none at all.
func requiredSchemes(p *model.Package) map[string]bool {
	out := map[string]bool{}
	for _, fn := range p.Functions {
		if fn.HTTP == nil || len(fn.HTTP.Security) == 0 {
			continue
		}
		for _, s := range fn.HTTP.Security[0] {
			all := true
			for _, set := range fn.HTTP.Security[1:] {
				if !slices.Contains(set, s) {
					all = false
					break
				}
			}
			if all {
				out[s] = true
			}
		}
	}
	return out
}

// restBackend serves the REST client of the API at --base-url, with the
// credentials of the environment.
func (m *commandMain) restBackend(p *model.Package) {
	c := p.Command
	pkg := func(name string) *jen.Statement { return jen.Qual(c.ImportPath, name) }
	// --base-url, and --server as its deprecated alias: the MCP Inspector
	// takes --server itself (a server of its --config file), so that
	// `npx @modelcontextprotocol/inspector ./petstore mcp --server URL`
	// never reached the command.
	def, usage := pkg("DefaultBaseURL"), "Base URL of the REST API"
	if p.API.Server != nil {
		// "": the document's servers, the operations' own ones too
		def, usage = jen.Lit(""), "Base URL of the REST API for every operation (default: the document's servers, "+p.API.BaseURL+")"
	}
	m.strVar("server", "base-url", def, usage)
	m.flags = append(m.flags, jen.Id("fs").Dot("StringVar").Call(jen.Op("&").Id("server"), jen.Lit("server"), def.Clone(), jen.Lit("Deprecated: use --base-url")))
	// var copts []petstore.ClientOption
	// if v := os.Getenv("PETSTORE_API_KEY"); v != "" { copts = append(copts, petstore.WithAPIKey(v)) }
	m.body = append(m.body, jen.Var().Id("copts").Index().Add(pkg("ClientOption")))
	envs := CommandEnvs(p)
	for i, s := range p.API.Security {
		name := c.Env[i]
		m.envEntry(name, envs[i].Usage, envs[i].Required)
		var add jen.Code
		if s.Kind == "basic" {
			add = jen.List(jen.Id("user"), jen.Id("password"), jen.Id("_")).Op(":=").Qual(stringsPath, "Cut").Call(jen.Id("v"), jen.Lit(":")).Line().
				Id("copts").Op("=").Append(jen.Id("copts"), pkg(s.Option).Call(jen.Id("user"), jen.Id("password")))
		} else {
			add = jen.Id("copts").Op("=").Append(jen.Id("copts"), pkg(s.Option).Call(jen.Id("v")))
		}
		m.body = append(m.body, jen.If(jen.Id("v").Op(":=").Qual(osPath, "Getenv").Call(jen.Lit(name)), jen.Id("v").Op("!=").Lit("")).Block(add))
	}
	// c, err := petstore.NewClient(server, copts...)
	// if err != nil { return nil, err }
	// return petstore.NewTool(c, opts...)
	m.body = append(m.body,
		jen.List(jen.Id("c"), jen.Err()).Op(":=").Add(pkg("NewClient")).Call(jen.Id("server"), jen.Id("copts").Op("...")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(pkg("NewTool").Call(jen.Id("c"), jen.Id("opts").Op("..."))))
}

// libraryBackend serves the library at --library.
func (m *commandMain) libraryBackend(p *model.Package) {
	pkg := func(name string) *jen.Statement { return jen.Qual(p.Command.ImportPath, name) }
	m.strVar("library", "library", jen.Lit(""), "Path of the dynamic library (.so, .dylib or .dll)")
	m.required = append(m.required, "library")
	// lib, err := geometry.Open(library)
	// if err != nil { return nil, err }
	// tool, err := geometry.NewTool(lib.Service(), opts...)
	// if err != nil { lib.Close(); return nil, err }
	// return tool, nil
	m.body = append(m.body,
		jen.List(jen.Id("lib"), jen.Err()).Op(":=").Add(pkg("Open")).Call(jen.Id("library")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.List(jen.Id("tool"), jen.Err()).Op(":=").Add(pkg("NewTool")).Call(jen.Id("lib").Dot("Service").Call(), jen.Id("opts").Op("...")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Id("lib").Dot("Close").Call(), jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id("tool"), jen.Nil()),
	)
}

// gatewayBackend serves the typed client of the OpenTool server at
// --upstream: a gateway that checks the arguments.
func (m *commandMain) gatewayBackend(p *model.Package) {
	c := p.Command
	pkg := func(name string) *jen.Statement { return jen.Qual(c.ImportPath, name) }
	def, usage := "", "URL of the OpenTool server the calls go to (http://host:port/opentool)"
	if p.Document != nil && p.Document.Server != nil && p.Document.Server.URL != "" {
		def = p.Document.Server.URL
	} else {
		m.required = append(m.required, "upstream")
	}
	m.strVar("upstream", "upstream", jen.Lit(def), usage)
	m.strVar("upstreamKey", "upstream-key", jen.Lit(""), "API key of the upstream server (default: $"+c.UpstreamKeyEnv+")")
	m.envEntry(c.UpstreamKeyEnv, CommandEnvs(p)[0].Usage, false)
	// if upstreamKey == "" { upstreamKey = os.Getenv("WEATHER_UPSTREAM_KEY") }
	// return weather.NewTool(weather.NewClient(runtime.NewClient(upstream, runtime.WithAPIKey(upstreamKey))), opts...)
	m.body = append(m.body,
		jen.If(jen.Id("upstreamKey").Op("==").Lit("")).Block(jen.Id("upstreamKey").Op("=").Qual(osPath, "Getenv").Call(jen.Lit(c.UpstreamKeyEnv))),
		jen.Return(pkg("NewTool").Call(
			pkg("NewClient").Call(rt("NewClient").Call(jen.Id("upstream"), rt("WithAPIKey").Call(jen.Id("upstreamKey")))),
			jen.Id("opts").Op("..."))),
	)
	// A gateway is ready while its upstream answers (/readyz, for a load
	// balancer): NewTool has read the key by then.
	// _, err := runtime.NewClient(upstream, runtime.WithAPIKey(upstreamKey)).Version(ctx)
	// return err
	m.ready = append(m.ready,
		jen.List(jen.Id("_"), jen.Err()).Op(":=").Add(rt("NewClient")).Call(jen.Id("upstream"), rt("WithAPIKey").Call(jen.Id("upstreamKey"))).Dot("Version").Call(jen.Id("ctx")),
		jen.Return(jen.Err()),
	)
}

// multiline puts each element of a composite literal on a line of its own.
func multiline(elems []jen.Code) []jen.Code {
	out := make([]jen.Code, 0, len(elems)+1)
	for _, e := range elems {
		out = append(out, jen.Line().Add(e))
	}
	return append(out, jen.Line())
}

// commandDoc is the package comment of p's main.
func commandDoc(p *model.Package) string {
	c := p.Command
	what := "the tool of package " + c.Import
	if t := strings.TrimSpace(p.Title); t != "" {
		what += " (" + strconv.Quote(t)
		if p.Version != "" {
			what += " " + p.Version
		}
		what += ")"
	}
	doc := "Command " + c.Name + " serves " + what + " as an OpenTool server and an MCP server"
	switch {
	case hasHTTP(p):
		doc += ": each function calls the REST API at --server, with the credentials of the environment variables the help lists."
	case hasC(p):
		doc += ": each function calls the dynamic library at --library."
	default:
		doc += ", a gateway: each call's arguments are checked, then it is forwarded to the OpenTool server at --upstream."
	}
	doc += "\n\n" + c.Name + " start serves OpenTool HTTP at /opentool and MCP at /mcp; " + c.Name +
		" mcp serves MCP over standard input and output"
	if c.NATS {
		doc += "; " + c.Name + " nats serves a NATS micro service and " + c.Name + " exec the tool executor on NATS (package toolcli/natscli)"
	}
	return doc + ". Run \"" + c.Name + " -h\" for the options (package toolcli)."
}

// credentialUsage is the help of a security scheme's environment variable.
func credentialUsage(s *model.SecurityScheme) string {
	scheme := "the security scheme " + strconv.Quote(s.Name)
	switch s.Kind {
	case model.SchemeBasic:
		return "user:password of " + scheme + " (HTTP basic)"
	case model.SchemeBearer:
		return "Token of " + scheme + " (Authorization: Bearer)"
	default:
		return "API key of " + scheme + " (" + string(s.In) + " " + s.Key + ")"
	}
}

// mcpBackend serves the typed client of the MCP server the listing is of,
// started with --command or at --upstream (toolcli.MCPGateway): a gateway
// that checks the arguments.
func (m *commandMain) mcpBackend(p *model.Package) {
	pkg := func(name string) *jen.Statement { return jen.Qual(p.Command.ImportPath, name) }
	m.ctx = true
	m.strVar("command", "command", jen.Lit(""), `Command line that starts the MCP server on stdio, as: --command "npx -y @modelcontextprotocol/server-everything"`)
	m.strVar("upstream", "upstream", jen.Lit(""), "URL of the MCP server over streamable HTTP (instead of --command)")
	// return toolcli.MCPGateway(ctx, command, upstream, func(c runtime.Caller) (runtime.Tool, error) {
	//	return mcptools.NewTool(mcptools.NewClient(c), opts...)
	// })
	m.body = append(m.body, jen.Return(jen.Qual(toolcliPath, "MCPGateway").Call(jen.Id("ctx"), jen.Id("command"), jen.Id("upstream"),
		jen.Func().Params(jen.Id("c").Add(rt("Caller"))).Params(rt("Tool"), jen.Error()).Block(
			jen.Return(pkg("NewTool").Call(pkg("NewClient").Call(jen.Id("c")), jen.Id("opts").Op("..."))),
		))))
}

// CommandEnv is an environment variable a generated main reads: what its
// help lists, and what packaging (gen's Packaging) asks the user for.
type CommandEnv struct {
	Name, Usage string
	// Secret says the value is a credential.
	Secret bool
	// Required says every alternative of some operation's security needs
	// it (requiredSchemes): the main warns at start when it is unset.
	Required bool
}

// CommandEnvs returns the environment variables p's main reads, in the
// order its help lists them: the credential of each security scheme of an
// OpenAPI package, the upstream's API key of an OpenTool gateway; none for
// the others.
func CommandEnvs(p *model.Package) []CommandEnv {
	c := p.Command
	switch {
	case hasHTTP(p):
		out := make([]CommandEnv, len(p.API.Security))
		required := requiredSchemes(p)
		for i, s := range p.API.Security {
			out[i] = CommandEnv{Name: c.Env[i], Usage: credentialUsage(s), Secret: true, Required: required[s.Name]}
		}
		return out
	case hasC(p), c.MCPUpstream:
		return nil
	default:
		return []CommandEnv{{Name: c.UpstreamKeyEnv, Usage: "API key of the upstream server, when --upstream-key is not given", Secret: true}}
	}
}

// HasC reports whether p has C functions (OpenDyn): its main links cgo.
func HasC(p *model.Package) bool { return hasC(p) }
