package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackageFlag writes the packaging files beside the -cmd main, and
// refuses -package without -cmd and the registry without a name.
func TestPackageFlag(t *testing.T) {
	mod := t.TempDir()
	put(t, filepath.Join(mod, "go.mod"), "module example.com/agent\n\ngo 1.26\n")
	put(t, filepath.Join(mod, "petstore.yaml"), string(readRoot(t, "testdata/golden/openapi-petstore/petstore.yaml")))
	opentoolgen(t, mod, "-o", "petstore", "-cmd", "cmd/petstore", "-package", "all", "-registry-name", "io.github.user/petstore", "petstore.yaml").want(t, 0)
	for file, want := range map[string]string{
		"Opentoolfile":  `ENTRYPOINT ["petstore"]`,
		"manifest.json": `"sensitive": true`,
		"server.json":   `"identifier": "ghcr.io/user/petstore:1.2.0"`,
	} {
		b, err := os.ReadFile(filepath.Join(mod, "cmd", "petstore", file))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %q:\n%s", file, want, b)
		}
	}
	opentoolgen(t, mod, "-check", "-o", "petstore", "-cmd", "cmd/petstore", "-package", "all", "-registry-name", "io.github.user/petstore", "petstore.yaml").want(t, 0)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-package", "mcpb"}, "-package mcpb needs -cmd DIR"},
		{[]string{"-cmd", "cmd/p", "-package", "registry"}, "-registry-name: the registry and oci packaging need the server's name"},
		{[]string{"-cmd", "cmd/p", "-package", "oci", "-registry-name", "petstore"}, `-registry-name: got "petstore", want reverse DNS with one "/"`},
		{[]string{"-cmd", "cmd/p", "-package", "mbcp"}, `unknown "mbcp" (did you mean mcpb?)`},
		{[]string{"-registry-name", "io.github.u/p"}, "-registry-name needs -package LIST"},
	} {
		r := opentoolgen(t, mod, append(append([]string{"-o", "p"}, c.args...), "petstore.yaml")...)
		r.want(t, 2)
		if !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: stderr lacks %q:\n%s", c.args, c.want, r.stderr)
		}
	}
}
