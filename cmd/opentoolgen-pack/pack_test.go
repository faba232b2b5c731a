package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/opentoolgen/opentoolgen/gen"
)

// registryName is the name the test's server.json gives the petstore.
const registryName = "io.github.opentoolgen/petstore"

// packed is the quick start's petstore, generated with -package all in a
// throw-away module and packed for linux/amd64: its main's directory and
// the output directory.
func packed(t *testing.T) (mainDir, dist string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the build of the petstore")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOWORK", "off")
	write := func(path string, data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(mod, "go.mod"), []byte("module example.com/agent\n\ngo 1.26\n\nrequire github.com/opentoolgen/opentoolgen v0.0.0\n\nreplace github.com/opentoolgen/opentoolgen => "+root+"\n"))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(mod, "go.sum"), sum)
	doc, err := os.ReadFile(filepath.Join(root, "testdata", "golden", "openapi-petstore", "petstore.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := gen.Generate("petstore.yaml", doc, gen.Options{Package: "petstore",
		Command:   &gen.Command{Name: "petstore", ImportPath: "example.com/agent/petstore"},
		Packaging: &gen.Packaging{Opentoolfile: true, MCPB: true, Registry: true, OCI: true, RegistryName: registryName}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		write(filepath.Join(mod, "petstore", f.Name), f.Content)
	}
	mainDir = filepath.Join(mod, "cmd", "petstore")
	write(filepath.Join(mainDir, res.Command.Name), res.Command.Content)
	for _, f := range res.Packaging {
		write(filepath.Join(mainDir, f.Name), f.Content)
	}
	dist = filepath.Join(mod, "dist")
	var stderr bytes.Buffer
	if code := run([]string{"-o", dist, "-platforms", "linux/amd64", mainDir}, &stderr); code != 0 {
		t.Fatalf("opentoolgen-pack: exit %d\n%s", code, stderr.String())
	}
	return mainDir, dist
}

// TestPack packs the petstore and checks each thing built: the OCI image's
// config and layer, the .mcpb bundle started as its manifest says
// answering tools/list, the sum in server.json.
func TestPack(t *testing.T) {
	mainDir, dist := packed(t)
	bin, err := os.ReadFile(filepath.Join(dist, "bin", "linux-amd64", "petstore"))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("oci", func(t *testing.T) {
		idx, err := layout.ImageIndexFromPath(filepath.Join(dist, "oci"))
		if err != nil {
			t.Fatal(err)
		}
		im, err := idx.IndexManifest()
		if err != nil {
			t.Fatal(err)
		}
		if len(im.Manifests) != 1 || im.Manifests[0].Platform == nil || im.Manifests[0].Platform.Architecture != "amd64" {
			t.Fatalf("index manifests: %+v, want one of linux/amd64", im.Manifests)
		}
		img, err := idx.Image(im.Manifests[0].Digest)
		if err != nil {
			t.Fatal(err)
		}
		checkImage(t, img, bin)
		timg, err := tarball.ImageFromPath(filepath.Join(dist, "petstore-oci.tar"), nil)
		if err != nil {
			t.Fatal(err)
		}
		checkImage(t, timg, bin)
	})
	t.Run("mcpb", func(t *testing.T) {
		bundle, err := os.ReadFile(filepath.Join(dist, "petstore.mcpb"))
		if err != nil {
			t.Fatal(err)
		}
		dir := unzip(t, bundle)
		var m struct {
			Server struct {
				EntryPoint string `json:"entry_point"`
				MCPConfig  struct {
					Command string            `json:"command"`
					Args    []string          `json:"args"`
					Env     map[string]string `json:"env"`
				} `json:"mcp_config"`
			} `json:"server"`
			Tools         []struct{ Name string } `json:"tools"`
			Compatibility struct{ Platforms []string }
		}
		readJSON(t, filepath.Join(dir, "manifest.json"), &m)
		if !slices.Equal(m.Compatibility.Platforms, []string{"linux"}) {
			t.Errorf("compatibility.platforms: got %v, want [linux] (the one platform built)", m.Compatibility.Platforms)
		}
		// Started as an MCPB host starts it: ${__dirname} the bundle's
		// directory, each ${user_config.KEY} the value the user gave (none).
		subst := strings.NewReplacer("${__dirname}", dir).Replace
		cmd := exec.Command(subst(m.Server.MCPConfig.Command))
		for _, a := range m.Server.MCPConfig.Args {
			cmd.Args = append(cmd.Args, subst(a))
		}
		cmd.Env = os.Environ()
		for k, v := range m.Server.MCPConfig.Env {
			if !strings.HasPrefix(v, "${user_config.") {
				t.Errorf("env %s: got %q, want a user_config value", k, v)
			}
			cmd.Env = append(cmd.Env, k+"=")
		}
		if got := filepath.Join(dir, m.Server.EntryPoint); got != cmd.Path {
			t.Errorf("entry_point %s is not the command %s", got, cmd.Path)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		client := mcp.NewClient(&mcp.Implementation{Name: "mcpb-host", Version: "0"}, nil)
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		lt, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got, want []string
		for _, tl := range lt.Tools {
			got = append(got, tl.Name)
		}
		for _, tl := range m.Tools {
			want = append(want, tl.Name)
		}
		slices.Sort(got)
		slices.Sort(want)
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("tools/list: got %v, want the manifest's tools %v", got, want)
		}
		h := sha256.Sum256(bundle)
		var s struct {
			Packages []struct{ RegistryType, FileSha256 string }
		}
		readJSON(t, filepath.Join(dist, "server.json"), &s)
		if len(s.Packages) != 2 || s.Packages[0].RegistryType != "mcpb" || s.Packages[0].FileSha256 != hex.EncodeToString(h[:]) {
			t.Errorf("dist/server.json packages: %+v, want the mcpb one with the bundle's sha256 %x", s.Packages, h)
		}
	})
	if os.Getenv("OPENTOOLGEN_NPM") == "" {
		return
	}
	// Opt-in: the ecosystems' own validators (npm and the Go proxy).
	t.Run("validators", func(t *testing.T) {
		validateManifest(t, filepath.Join(mainDir, "manifest.json"))
		dir := unzip(t, must(os.ReadFile(filepath.Join(dist, "petstore.mcpb"))))
		validateManifest(t, filepath.Join(dir, "manifest.json"))
		schema := registrySchema(t)
		for _, p := range []string{filepath.Join(mainDir, "server.json"), filepath.Join(dist, "server.json")} {
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(must(os.ReadFile(p))))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(inst); err != nil {
				t.Errorf("%s against the registry's schema: %v", p, err)
			}
		}
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// validateManifest runs npx @anthropic-ai/mcpb validate on the manifest.
func validateManifest(t *testing.T, path string) {
	t.Helper()
	out, err := exec.Command("npx", "-y", "@anthropic-ai/mcpb", "validate", path).CombinedOutput()
	if err != nil {
		t.Errorf("mcpb validate %s: %v\n%s", path, err, out)
	}
	t.Logf("mcpb validate %s:\n%s", path, out)
}

// registryVersion is the registry's module whose embedded schemas include
// 2025-12-11.
const registryVersion = "github.com/modelcontextprotocol/registry@v1.8.9"

// registrySchema is the server.json schema 2025-12-11 the registry's own
// validator embeds, from its module (downloaded into the module cache at
// test time; nothing of it is committed).
func registrySchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", registryVersion)
	cmd.Env = append(os.Environ(), "GOPROXY=", "GOFLAGS=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v", registryVersion, err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(must(os.ReadFile(filepath.Join(m.Dir, "internal", "validators", "schemas", "2025-12-11.json")))))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(gen.RegistrySchema, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(gen.RegistrySchema)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkImage checks the config of the petstore's image and that its layer
// holds the binary.
func checkImage(t *testing.T, img v1.Image, bin []byte) {
	t.Helper()
	cfg, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Config
	if !slices.Equal(c.Entrypoint, []string{"/petstore"}) || !slices.Equal(c.Cmd, []string{"mcp"}) {
		t.Errorf("entrypoint %v, cmd %v: want [/petstore] [mcp]", c.Entrypoint, c.Cmd)
	}
	if c.User == "" || c.User == "0" || strings.HasPrefix(c.User, "0:") || c.User == "root" {
		t.Errorf("user %q: want a non-root user", c.User)
	}
	if got := c.Labels[ServerNameLabel]; got != registryName {
		t.Errorf("label %s: got %q, want %q", ServerNameLabel, got, registryName)
	}
	if cfg.OS != "linux" || cfg.Architecture != "amd64" {
		t.Errorf("platform %s/%s, want linux/amd64", cfg.OS, cfg.Architecture)
	}
	layers, err := img.Layers()
	if err != nil || len(layers) != 1 {
		t.Fatalf("layers: %v, %v; want one", layers, err)
	}
	rc, err := layers[0].Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	tr := tar.NewReader(rc)
	found := map[string]bool{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		found[h.Name] = true
		if h.Name == "petstore" {
			data, _ := io.ReadAll(tr)
			if !bytes.Equal(data, bin) || h.Mode&0o111 == 0 {
				t.Errorf("the layer's petstore (mode %o, %d bytes) is not the executable built (%d bytes)", h.Mode, len(data), len(bin))
			}
		}
	}
	if !found["petstore"] {
		t.Errorf("the layer lacks petstore: %v", found)
	}
}

// unzip extracts the bundle into a temporary directory, as an MCPB host
// installs it (file modes kept).
func unzip(t *testing.T, bundle []byte) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(bundle), int64(len(bundle)))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range zr.File {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, f.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
