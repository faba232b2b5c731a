package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOverlayFlag runs the command with two overlays: the files are
// generated from the patched document (the header names the overlays),
// -check passes on them and fails when an overlay changes, and a broken
// overlay is an error at its line, with the excerpt.
func TestOverlayFlag(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"shop.yaml", "rename.yaml", "copy.yaml"} {
		data, err := os.ReadFile(filepath.Join("../../gen/overlay/testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		put(t, filepath.Join(dir, name), string(data))
	}
	args := []string{"-o", "out", "-overlay", "rename.yaml", "-overlay", "copy.yaml", "shop.yaml"}
	r := opentoolgen(t, dir, args...)
	r.want(t, 0)
	if want := `copy.yaml:14:13: warning: /actions/3/target: target "$.paths['/nothing']" selects nothing in shop.yaml: the action does nothing`; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks the warning %q:\n%s", want, r.stderr)
	}
	client, err := os.ReadFile(filepath.Join(dir, "out", "client.gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"// Source: shop.yaml with overlays rename.yaml, copy.yaml\n", "func (c *Client) Items(", "func (c *Client) CreateItem("} {
		if !strings.Contains(string(client), want) {
			t.Errorf("client.gen.go lacks %q", want)
		}
	}
	if strings.Contains(string(client), "AdminReset") {
		t.Error("client.gen.go has the operation the overlay removes")
	}
	check := opentoolgen(t, dir, append([]string{"-check"}, args...)...)
	check.want(t, 0)
	put(t, filepath.Join(dir, "copy.yaml"), strings.Replace(readFile(t, filepath.Join(dir, "copy.yaml")), "what the shop sells", "what we sell", 1))
	stale := opentoolgen(t, dir, append([]string{"-check"}, args...)...)
	stale.want(t, 1)
	if !strings.Contains(stale.stderr, "stale") {
		t.Errorf("-check after the overlay changed:\n%s", stale.stderr)
	}
	put(t, filepath.Join(dir, "bad.yaml"), "overlay: 1.0.0\ninfo: {title: t, version: \"1\"}\nactions:\n  - target: $.info\n    update: renamed\n")
	bad := opentoolgen(t, dir, "-o", "bad", "-overlay", "bad.yaml", "shop.yaml")
	bad.want(t, 1)
	want := `bad.yaml:5:13: /actions/0/update: action with target "$.info": got a string, want an object: the target selects an object, which an update merges its members into
    3 | actions:
    4 |   - target: $.info
  > 5 |     update: renamed
      |             ^
`
	if !strings.HasPrefix(bad.stderr, want) {
		t.Errorf("stderr:\n%s\nwant\n%s", bad.stderr, want)
	}
	missing := opentoolgen(t, dir, "-o", "bad", "-overlay", "none.yaml", "shop.yaml")
	missing.want(t, 1)
	if !strings.Contains(missing.stderr, "-overlay: open none.yaml") {
		t.Errorf("stderr: %s", missing.stderr)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
