package main

import (
	"fmt"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/opentoolgen/opentoolgen/gen"
)

// commandOptions returns what the main written into cmdDir (-cmd) needs: its
// name (cmdDir's base name, as go build names the executable) and the import
// path of the package written into out (-o), from the go.mod of the module
// that holds both.
func commandOptions(out, cmdDir string) (*gen.Command, error) {
	absOut, err := filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	absCmd, err := filepath.Abs(cmdDir)
	if err != nil {
		return nil, err
	}
	if absOut == absCmd {
		return nil, &usageError{fmt.Sprintf("-cmd %s: the main needs a directory of its own, not -o's", cmdDir)}
	}
	outRoot, modPath, err := findModule(absOut)
	if err != nil {
		return nil, err
	}
	if outRoot == "" {
		return nil, &usageError{fmt.Sprintf("-cmd: no go.mod in %s or above it: the main imports the generated package by its import path, which the enclosing module gives (run go mod init there first)", out)}
	}
	cmdRoot, _, err := findModule(absCmd)
	if err != nil {
		return nil, err
	}
	if cmdRoot != outRoot {
		where := "in no module"
		if cmdRoot != "" {
			where = "in the module of " + filepath.Join(cmdRoot, "go.mod")
		}
		return nil, &usageError{fmt.Sprintf("-cmd %s is %s, -o %s in the module of %s: they must be in one module", cmdDir, where, out, filepath.Join(outRoot, "go.mod"))}
	}
	rel, err := filepath.Rel(outRoot, absOut)
	if err != nil {
		return nil, err
	}
	importPath := modPath
	if rel != "." {
		importPath += "/" + filepath.ToSlash(rel)
	}
	return &gen.Command{Name: filepath.Base(absCmd), ImportPath: importPath}, nil
}

// findModule returns the directory of the go.mod that holds dir (which need
// not exist yet) and its module path; "" when there is none.
func findModule(dir string) (root, modPath string, err error) {
	for d := dir; ; d = filepath.Dir(d) {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			p, perr := modulePath(data)
			if perr != nil {
				return "", "", fmt.Errorf("%s: %v", filepath.Join(d, "go.mod"), perr)
			}
			return d, p, nil
		}
		if !os.IsNotExist(err) {
			return "", "", err
		}
		if filepath.Dir(d) == d {
			return "", "", nil
		}
	}
}

// modulePath returns the path of the module directive of a go.mod file.
func modulePath(data []byte) (string, error) {
	if p := modfile.ModulePath(data); p != "" {
		return p, nil
	}
	return "", fmt.Errorf("no module directive")
}

// selfModule is the module of this command, whose packages generated code
// imports.
const selfModule = "github.com/opentoolgen/opentoolgen"

// packageModules lists, for each package of this module that generated code
// may import, the other modules its build needs: those of the packages it
// imports, directly or not. A package not listed needs the standard library
// only. TestPackageModules keeps the table in step with go list.
var packageModules = map[string][]string{
	"mcpbridge":       mcpModules,
	"oauth2cred":      {"golang.org/x/oauth2"},
	"toolcli":         mcpModules,
	"toolcli/natscli": append(slices.Clone(mcpModules), natsModules...),
	"toolcli/otelcli": append(slices.Clone(mcpModules), otlpModules...),
}

// mcpModules are the modules of package mcpbridge (the official MCP Go SDK
// and what it imports).
var mcpModules = []string{
	"github.com/google/jsonschema-go",
	"github.com/modelcontextprotocol/go-sdk",
	"github.com/segmentio/asm",
	"github.com/segmentio/encoding",
	"github.com/yosida95/uritemplate/v3",
	"golang.org/x/oauth2",
	"golang.org/x/sync",
	"golang.org/x/sys",
	"golang.org/x/time",
}

// natsModules are the modules package toolcli/natscli needs for the nats and
// exec commands (through natsbridge and natsexec: the NATS client and the
// embedded server) besides those of toolcli.
var natsModules = []string{
	"github.com/antithesishq/antithesis-sdk-go",
	"github.com/klauspost/compress",
	"github.com/minio/highwayhash",
	"github.com/nats-io/jwt/v2",
	"github.com/nats-io/nats-server/v2",
	"github.com/nats-io/nats.go",
	"github.com/nats-io/nkeys",
	"github.com/nats-io/nuid",
	"golang.org/x/crypto",
}

// otlpModules are the modules package toolcli/otelcli needs besides
// mcpModules (what a main generated with -with otel links): the
// OpenTelemetry SDK, its OTLP exporters over gRPC and HTTP, the console
// exporters, and their dependencies (gRPC, protobuf).
var otlpModules = []string{
	"github.com/cenkalti/backoff/v5",
	"github.com/cespare/xxhash/v2",
	"github.com/go-logr/logr",
	"github.com/go-logr/stdr",
	"github.com/google/uuid",
	"github.com/grpc-ecosystem/grpc-gateway/v2",
	"go.opentelemetry.io/auto/sdk",
	"go.opentelemetry.io/otel",
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc",
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp",
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace",
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc",
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp",
	"go.opentelemetry.io/otel/exporters/stdout/stdoutmetric",
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace",
	"go.opentelemetry.io/otel/log",
	"go.opentelemetry.io/otel/metric",
	"go.opentelemetry.io/otel/sdk",
	"go.opentelemetry.io/otel/sdk/metric",
	"go.opentelemetry.io/otel/trace",
	"go.opentelemetry.io/proto/otlp",
	"golang.org/x/net",
	"golang.org/x/text",
	"google.golang.org/genproto/googleapis/api",
	"google.golang.org/genproto/googleapis/rpc",
	"google.golang.org/grpc",
	"google.golang.org/protobuf",
}

// nextCommand returns the command that lets the module holding dir (-o) build
// the generated files, when its go.mod lacks a requirement they need, such as
// the MCP SDK that a -cmd main needs through package toolcli (go build would
// only say "go mod tidy", which also fetches what the tests of every
// dependency need); "" when nothing is missing, or dir is in no module or in
// this one. The command is a go get of the packages of this module that need
// the missing modules, at the version go.mod requires (as go get -tool
// installed the command), so that no version changes; with a cd first when
// the working directory is outside the module.
func nextCommand(dir string, files []gen.File) (string, error) {
	imported := map[string]bool{} // packages of this module, relative to it ("" for its root)
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Content, parser.ImportsOnly)
		if err != nil {
			continue // generated code parses; should it not, go build says why
		}
		for _, is := range af.Imports {
			p, _ := strconv.Unquote(is.Path.Value)
			if p == selfModule || strings.HasPrefix(p, selfModule+"/") {
				imported[strings.TrimPrefix(strings.TrimPrefix(p, selfModule), "/")] = true
			}
		}
	}
	if len(imported) == 0 {
		return "", nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	root, modPath, err := findModule(abs)
	if err != nil || root == "" || modPath == selfModule {
		return "", err
	}
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	required := requirements(data)
	version, ok := required[selfModule]
	var get []string // the packages to go get
	var cmds []string
	if !ok {
		// The packages that need other modules, or else one package: go
		// get requires this module for it, and so for every package.
		for p := range imported {
			if len(packageModules[p]) > 0 {
				get = append(get, p)
			}
		}
		if len(get) == 0 {
			get = append(get, slices.Sorted(maps.Keys(imported))[0])
		}
		version = buildVersion()
		if version == "" {
			// A command built in a clone: the clone is where it was built.
			version = "v0.0.0"
			cmds = append(cmds, fmt.Sprintf("go mod edit -require=%s@v0.0.0 -replace=%s=%s", selfModule, selfModule, cloneDir()))
		}
	} else {
		for p := range imported {
			for _, m := range packageModules[p] {
				if _, ok := required[m]; !ok {
					get = append(get, p)
					break
				}
			}
		}
	}
	if len(get) == 0 {
		return "", nil
	}
	slices.Sort(get)
	args := make([]string, len(get))
	for i, p := range get {
		args[i] = selfModule
		if p != "" {
			args[i] += "/" + p
		}
		args[i] += "@" + version
	}
	cmds = append(cmds, "go get "+strings.Join(args, " "))
	if wd, err := os.Getwd(); err == nil && !within(root, wd) {
		to := root
		if rel, err := filepath.Rel(wd, root); err == nil {
			to = rel
		}
		cmds = append([]string{"cd " + to}, cmds...)
	}
	return strings.Join(cmds, " && "), nil
}

// requirements returns the modules a go.mod file requires, with their
// versions (none when it cannot be parsed).
func requirements(data []byte) map[string]string {
	req := map[string]string{}
	f, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		return req
	}
	for _, r := range f.Require {
		req[r.Mod.Path] = r.Mod.Version
	}
	return req
}

// buildVersion returns the version of this module the command was built
// from ("v1.2.0" for go install …@v1.2.0 or go tool), or "" when it was built
// in a clone of it ("(devel)") or as a replaced v0.0.0.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	m := &bi.Main
	if m.Path != selfModule { // go tool: the command is a dependency of the build
		m = nil
		for _, d := range bi.Deps {
			if d.Path == selfModule {
				m = d
			}
		}
	}
	if m == nil || m.Replace != nil || m.Version == "" || m.Version == "(devel)" || m.Version == "v0.0.0" {
		return ""
	}
	return m.Version
}

// within reports whether dir is root or inside it.
func within(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// cloneDir returns the directory of the clone this command was built in, from
// the path of its source (absent with -trimpath: then a placeholder).
func cloneDir() string {
	_, file, _, ok := goruntime.Caller(0)
	if ok && filepath.IsAbs(file) {
		root := filepath.Dir(filepath.Dir(filepath.Dir(file)))
		if _, p, err := findModule(root); err == nil && p == selfModule {
			return root
		}
	}
	return "PATH/TO/CLONE"
}
