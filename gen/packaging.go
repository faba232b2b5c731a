package gen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/discover"
	"github.com/opentoolgen/opentoolgen/gen/emit"
	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// Packaging asks Generate for the files that install the -cmd main the way
// each ecosystem installs tools (Result.Packaging), written beside the main:
// an Opentoolfile for the OpenTool daemon, an MCPB manifest.json for MCP
// clients (Claude Desktop), a server.json for the MCP registry, whose
// packages list the MCPB bundle and the OCI image. The binaries, the .mcpb
// bundle and the OCI image are built from these files by
// cmd/opentoolgen-pack. Everything is derived from the document: its name,
// version, description, functions and the environment variables of its
// credentials.
type Packaging struct {
	// Opentoolfile writes the Opentoolfile (OpenTool daemon).
	Opentoolfile bool
	// MCPB writes manifest.json (an MCPB bundle's manifest).
	MCPB bool
	// Registry writes server.json (MCP registry); its packages are the MCPB
	// bundle when MCPB is set, the OCI image when OCI is.
	Registry bool
	// OCI writes server.json with the OCI image among its packages, which
	// cmd/opentoolgen-pack builds (labelled with RegistryName).
	OCI bool
	// RegistryName is the server's name in the MCP registry, reverse DNS
	// with one "/" (io.github.user/petstore): required by Registry and OCI.
	RegistryName string
	// Image is the OCI image's repository, without tag (ghcr.io/user/petstore);
	// default for io.github.USER/NAME: ghcr.io/USER/NAME. The tag is the
	// document's version.
	Image string
	// ReleaseURL is where the .mcpb bundle is downloaded from, without the
	// file's name; default for io.github.USER/NAME: the GitHub release
	// https://github.com/USER/NAME/releases/download/vVERSION.
	ReleaseURL string
	// RemoteURL, when set, is the URL of the server's MCP endpoint over
	// streamable HTTP (https://host/mcp): server.json's remotes.
	RemoteURL string
}

// The names of the packaging files, in the main's directory.
const (
	OpentoolfileFile = "Opentoolfile"
	ManifestFile     = "manifest.json"
	ServerJSONFile   = "server.json"
)

// RegistrySchema is the URL of the server.json schema the files follow.
const RegistrySchema = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

// MCPBManifestVersion is the MCPB manifest_version written.
const MCPBManifestVersion = "0.3"

// registryNamePattern is the registry's pattern of server names.
var registryNamePattern = regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`)

// PackagingError is a Packaging's own problem: Field is the option
// ("registry-name", "image", "release-url", "remote-url").
type PackagingError struct{ Field, Message string }

func (e *PackagingError) Error() string { return e.Field + ": " + e.Message }

// Check reports the options the files cannot be made from.
func (pk *Packaging) Check() error {
	if pk.Registry || pk.OCI {
		switch {
		case pk.RegistryName == "":
			return &PackagingError{"registry-name", "the registry and oci packaging need the server's name in the MCP registry, as io.github.USER/NAME"}
		case len(pk.RegistryName) > 200 || !registryNamePattern.MatchString(pk.RegistryName):
			return &PackagingError{"registry-name", fmt.Sprintf("got %q, want reverse DNS with one \"/\", as io.github.USER/NAME", pk.RegistryName)}
		}
	}
	if pk.OCI && pk.image() == "" {
		return &PackagingError{"image", fmt.Sprintf("the registry name %q is not io.github.USER/NAME: give the OCI image's repository (registry/owner/name)", pk.RegistryName)}
	}
	if pk.Registry && pk.MCPB && pk.ReleaseURL == "" && githubOwner(pk.RegistryName) == "" {
		return &PackagingError{"release-url", fmt.Sprintf("the registry name %q is not io.github.USER/NAME: give the URL the .mcpb bundle is downloaded from", pk.RegistryName)}
	}
	for _, u := range []struct{ field, v string }{{"release-url", pk.ReleaseURL}, {"remote-url", pk.RemoteURL}} {
		if u.v != "" && !strings.HasPrefix(u.v, "https://") && !strings.HasPrefix(u.v, "http://") {
			return &PackagingError{u.field, fmt.Sprintf("got %q, want an http:// or https:// URL", u.v)}
		}
	}
	return nil
}

// githubOwner returns USER and NAME of a registry name io.github.USER/NAME, or "".
func githubOwner(name string) (owner string) {
	ns, _, ok := strings.Cut(name, "/")
	if !ok {
		return ""
	}
	owner, ok = strings.CutPrefix(ns, "io.github.")
	if !ok || strings.Contains(owner, ".") {
		return ""
	}
	return owner
}

// image is the OCI repository, given or derived.
func (pk *Packaging) image() string {
	if pk.Image != "" {
		return pk.Image
	}
	if o := githubOwner(pk.RegistryName); o != "" {
		_, n, _ := strings.Cut(pk.RegistryName, "/")
		return strings.ToLower("ghcr.io/" + o + "/" + n)
	}
	return ""
}

// packInfo is what every packaging file says of the command.
type packInfo struct {
	name, title, version, summary, long string
	envs                                []emit.CommandEnv
	tools                               []document.Function
	args                                []packArg // flags the user gives the MCP server
}

// packArg is a flag of the main an MCP client must pass: a gateway's
// upstream.
type packArg struct {
	key, flag, title, description, def string
	required                           bool
}

// packaging returns the files pk asks for, for pkg's main.
func packaging(pkg *model.Package, pk *Packaging) ([]File, error) {
	if emit.HasC(pkg) {
		return nil, errors.New("-package: the command of an OpenDyn document links its C library with cgo, which the packages cannot cross-build; serve it with its library instead")
	}
	if err := pk.Check(); err != nil {
		return nil, err
	}
	in := newPackInfo(pkg)
	var files []File
	if pk.Opentoolfile {
		files = append(files, File{Name: OpentoolfileFile, Content: opentoolfile(in)})
	}
	if pk.MCPB {
		b, err := mcpbManifest(in)
		if err != nil {
			return nil, err
		}
		files = append(files, File{Name: ManifestFile, Content: b})
	}
	if pk.Registry || pk.OCI {
		b, err := serverJSON(in, pk)
		if err != nil {
			return nil, err
		}
		files = append(files, File{Name: ServerJSONFile, Content: b})
	}
	return files, nil
}

func newPackInfo(pkg *model.Package) *packInfo {
	c := pkg.Command
	doc := pkg.Document
	in := &packInfo{name: c.Name, title: strings.TrimSpace(doc.Info.Title), version: strings.TrimSpace(doc.Info.Version), envs: emit.CommandEnvs(pkg)}
	if in.version == "" {
		in.version = "0.0.0"
	}
	desc := strings.TrimSpace(doc.Info.Description)
	if desc == "" {
		desc = in.title
	}
	if desc == "" {
		desc = "The " + c.Name + " tool"
	}
	in.summary = summary(desc, 100)
	if in.summary != oneLine(desc) {
		in.long = desc
	}
	in.tools = doc.Functions
	if discover.Auto(doc) { // served in discovery mode (--discovery auto)
		if d, err := discover.Wrap(docTool{doc}).Load(context.Background()); err == nil {
			in.tools = d.Functions
		}
	}
	switch {
	case c.MCPUpstream:
		in.args = []packArg{{key: "command", flag: "--command", title: "MCP server command", required: true,
			description: "Command line that starts the MCP server on stdio"}}
	case pkg.API == nil && !emit.HasC(pkg): // an OpenTool gateway
		a := packArg{key: "upstream", flag: "--upstream", title: "OpenTool server URL", description: "URL of the OpenTool server the calls go to (http://host:port/opentool)"}
		if doc.Server != nil && doc.Server.URL != "" {
			a.def = doc.Server.URL
		} else {
			a.required = true
		}
		in.args = []packArg{a}
	}
	return in
}

// docTool is a document as a runtime.Tool, for the discovery document of it.
type docTool struct{ doc *document.OpenTool }

func (t docTool) Load(context.Context) (*document.OpenTool, error) { return t.doc, nil }
func (t docTool) Call(context.Context, string, json.RawMessage) (json.RawMessage, error) {
	return nil, errors.New("not callable")
}

// oneLine is s with its white space collapsed.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// summary is the first paragraph of s on one line, at most max characters:
// cut at a word with "…" when longer.
func summary(s string, max int) string {
	p, _, _ := strings.Cut(strings.TrimSpace(s), "\n\n")
	p = oneLine(p)
	if utf8.RuneCountInString(p) <= max {
		return p
	}
	r := []rune(p)[:max-1]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > max/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:.") + "…"
}

// opentoolfile is the Opentoolfile of the main: the OpenTool daemon builds
// it with go build and runs ENTRYPOINT + CMD + its own flags
// (--opentoolServerTag, Host, Port, ApiKeys). The daemon reads no quotes
// inside values, nor "#" but for comments, nor "," inside CMD's array:
// nothing from the document goes into it but the command's name.
func opentoolfile(in *packInfo) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Code generated by opentoolgen. DO NOT EDIT.\n")
	fmt.Fprintf(&b, "# The OpenTool daemon builds and runs %s from this file: in this directory,\n", in.name)
	fmt.Fprintf(&b, "#   opentool build -t %s:%s\n", in.name, in.version)
	fmt.Fprintf(&b, "#   opentool run %s:%s\n", in.name, in.version)
	fmt.Fprintf(&b, "\n# build\nARG GOFLAGS=-trimpath\nRUN go build $GOFLAGS -o build/ .\n")
	if len(in.envs) > 0 {
		fmt.Fprintf(&b, "\n# credentials, read from the environment the daemon runs in\n")
		for _, e := range in.envs {
			fmt.Fprintf(&b, "ENV %s=\n", e.Name)
		}
	}
	fmt.Fprintf(&b, "\n# run: the daemon adds --opentoolServerTag, --opentoolServerHost, --opentoolServerPort and --opentoolServerApiKeys\n")
	fmt.Fprintf(&b, "WORKDIR build\nENTRYPOINT [\"%s\"]\nCMD [\"start\"]\n", in.name)
	return b.Bytes()
}

// configKey is the user_config key of an environment variable:
// PETSTORE_API_KEY → petstore_api_key.
func configKey(env string) string { return strings.ToLower(env) }

// mcpbManifest is the MCPB manifest of the main: a binary server started
// as "server/NAME mcp" (cmd/opentoolgen-pack puts the binaries there), its
// credentials asked of the user and passed in its environment.
func mcpbManifest(in *packInfo) ([]byte, error) {
	type kv = orderedObject
	cfg := kv{}
	env := kv{}
	for _, e := range in.envs {
		key := configKey(e.Name)
		cfg = append(cfg, member{key, kv{{"type", "string"}, {"title", e.Name}, {"description", e.Usage},
			{"required", e.Required}, {"sensitive", e.Secret}}})
		env = append(env, member{e.Name, "${user_config." + key + "}"})
	}
	args := []string{"mcp"}
	for _, a := range in.args {
		o := kv{{"type", "string"}, {"title", a.title}, {"description", a.description}, {"required", a.required}}
		if a.def != "" {
			o = append(o, member{"default", a.def})
		}
		cfg = append(cfg, member{a.key, o})
		args = append(args, a.flag, "${user_config."+a.key+"}")
	}
	tools := make([]kv, 0, len(in.tools))
	for _, f := range in.tools {
		t := kv{{"name", f.Name}}
		if d := strings.TrimSpace(f.Description); d != "" {
			t = append(t, member{"description", d})
		}
		tools = append(tools, t)
	}
	m := kv{
		{"manifest_version", MCPBManifestVersion},
		{"name", in.name},
	}
	if in.title != "" {
		m = append(m, member{"display_name", in.title})
	}
	m = append(m, member{"version", in.version}, member{"description", in.summary})
	if in.long != "" {
		m = append(m, member{"long_description", in.long})
	}
	m = append(m, member{"author", kv{{"name", in.name + " authors"}}})
	m = append(m, member{"server", kv{
		{"type", "binary"},
		{"entry_point", "server/" + in.name},
		{"mcp_config", kv{
			{"command", "${__dirname}/server/" + in.name},
			{"args", args},
			{"env", env},
			{"platform_overrides", kv{{"win32", kv{{"command", "${__dirname}/server/" + in.name + ".exe"}}}}},
		}},
	}})
	m = append(m, member{"tools", tools})
	if len(cfg) > 0 {
		m = append(m, member{"user_config", cfg})
	}
	m = append(m, member{"compatibility", kv{{"platforms", []string{"darwin", "linux", "win32"}}}})
	return indentJSON(m)
}

// serverJSON is the server.json of the MCP registry.
func serverJSON(in *packInfo, pk *Packaging) ([]byte, error) {
	type kv = orderedObject
	var envs []kv
	for _, e := range in.envs {
		envs = append(envs, kv{{"name", e.Name}, {"description", e.Usage}, {"isRequired", e.Required}, {"isSecret", e.Secret}})
	}
	pkgEntry := func(typ, id string) kv {
		p := kv{{"registryType", typ}, {"identifier", id}, {"version", in.version}, {"transport", kv{{"type", "stdio"}}}}
		if len(envs) > 0 {
			p = append(p, member{"environmentVariables", envs})
		}
		return p
	}
	s := kv{{"$schema", RegistrySchema}, {"name", pk.RegistryName}}
	if in.title != "" {
		s = append(s, member{"title", summary(in.title, 100)})
	}
	s = append(s, member{"description", in.summary}, member{"version", in.version})
	var pkgs []kv
	if pk.MCPB {
		base := pk.ReleaseURL
		if base == "" {
			_, n, _ := strings.Cut(pk.RegistryName, "/")
			base = "https://github.com/" + githubOwner(pk.RegistryName) + "/" + n + "/releases/download/v" + in.version
		}
		pkgs = append(pkgs, pkgEntry("mcpb", strings.TrimRight(base, "/")+"/"+in.name+".mcpb"))
	}
	if pk.OCI {
		pkgs = append(pkgs, pkgEntry("oci", pk.image()+":"+in.version))
	}
	if len(pkgs) > 0 {
		s = append(s, member{"packages", pkgs})
	}
	if pk.RemoteURL != "" {
		s = append(s, member{"remotes", []kv{{{"type", "streamable-http"}, {"url", pk.RemoteURL}}}})
	}
	return indentJSON(s)
}

// orderedObject is a JSON object whose members keep their order.
type orderedObject []member

type member struct {
	key   string
	value any
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := marshalPlain(m.key)
		if err != nil {
			return nil, err
		}
		v, err := marshalPlain(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshalPlain is json.Marshal without HTML escaping (a description's "<"
// stays "<").
func marshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// indentJSON is v as indented JSON, ending in a newline.
func indentJSON(v any) ([]byte, error) {
	raw, err := marshalPlain(v)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
