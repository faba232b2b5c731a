package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// pack builds what the packaging files in the main's directory describe.
func pack(args []string, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	abs, err := filepath.Abs(o.dir)
	if err != nil {
		return err
	}
	name := filepath.Base(abs) // as go build names the binary
	manifest, err := readOptional(filepath.Join(o.dir, "manifest.json"))
	if err != nil {
		return err
	}
	server, err := readOptional(filepath.Join(o.dir, "server.json"))
	if err != nil {
		return err
	}
	bins := map[platform]string{}
	for _, p := range o.platforms {
		exe := filepath.Join(o.out, "bin", p.String(), name)
		if p.os == "windows" {
			exe += ".exe"
		}
		if err := build(o.dir, exe, p); err != nil {
			return err
		}
		bins[p] = exe
		fmt.Fprintln(stderr, "built", exe)
	}
	var bundleSum string
	if manifest != nil {
		bundle := filepath.Join(o.out, name+".mcpb")
		if bundleSum, err = writeBundle(bundle, name, manifest, o.platforms, bins); err != nil {
			return err
		}
		fmt.Fprintln(stderr, "packed", bundle)
	}
	if server == nil {
		return nil
	}
	s, err := parseServer(server)
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(o.dir, "server.json"), err)
	}
	if bundleSum != "" {
		out, err := s.withSHA256(server, bundleSum)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(o.out, "server.json"), out, 0o644); err != nil {
			return err
		}
		fmt.Fprintln(stderr, "wrote", filepath.Join(o.out, "server.json"))
	}
	if s.image == "" {
		return nil
	}
	return writeImages(o, name, s, bins, stderr)
}

// readOptional reads path, nil when it does not exist.
func readOptional(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// build builds the main in dir for p, statically.
func build(dir, exe string, p platform) error {
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		return err
	}
	out, err := filepath.Abs(exe)
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.os, "GOARCH="+p.arch)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build for %s/%s: %v\n%s", p.os, p.arch, err, b)
	}
	return nil
}

// launcher is server/NAME of a bundle on macOS and Linux: it starts the
// binary of the machine's platform.
const launcher = `#!/bin/sh
# Starts the binary of this machine's platform (written by opentoolgen-pack).
case "$(uname -s)-$(uname -m)" in
Darwin-arm64) p=darwin-arm64 ;;
Darwin-x86_64) p=darwin-amd64 ;;
Linux-aarch64 | Linux-arm64) p=linux-arm64 ;;
Linux-x86_64) p=linux-amd64 ;;
*) p=none ;;
esac
d=$(dirname "$0")
if [ ! -x "$d/$p/NAME" ]; then
	echo "NAME: this bundle has no binary for $(uname -s) $(uname -m)" >&2
	exit 1
fi
exec "$d/$p/NAME" "$@"
`

// writeBundle writes the MCPB bundle: manifest.json, with
// compatibility.platforms the operating systems built, and server/.
func writeBundle(path, name string, manifest []byte, platforms []platform, bins map[platform]string) (sum string, err error) {
	var m map[string]any
	if err := json.Unmarshal(manifest, &m); err != nil {
		return "", fmt.Errorf("manifest.json: %w", err)
	}
	type entry struct {
		name string
		file string // on disk, or "" for data
		data []byte
	}
	var entries []entry
	oses := map[string]bool{}
	var win string
	for _, p := range platforms {
		switch p.os {
		case "windows":
			if win == "" || p.arch == "amd64" { // amd64: Windows on arm64 runs it too
				win = bins[p]
			}
		default:
			entries = append(entries, entry{name: "server/" + p.String() + "/" + name, file: bins[p]})
			oses[p.os] = true
		}
	}
	if len(oses) > 0 {
		entries = append(entries, entry{name: "server/" + name, data: []byte(strings.ReplaceAll(launcher, "NAME", name))})
	}
	if win != "" {
		entries = append(entries, entry{name: "server/" + name + ".exe", file: win})
		oses["win32"] = true
	}
	var list []string
	for _, os := range []string{"darwin", "linux", "win32"} {
		if oses[os] {
			list = append(list, os)
		}
	}
	compat, _ := m["compatibility"].(map[string]any)
	if compat == nil {
		compat = map[string]any{}
	}
	compat["platforms"] = list
	m["compatibility"] = compat
	mb, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return "", err
	}
	entries = append([]entry{{name: "manifest.json", data: append(mb, '\n')}}, entries...)

	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		data := e.data
		if e.file != "" {
			if data, err = os.ReadFile(e.file); err != nil {
				return "", err
			}
		}
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		mode := os.FileMode(0o755)
		if e.name == "manifest.json" {
			mode = 0o644
		}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return "", err
		}
		if _, err := w.Write(data); err != nil {
			return "", err
		}
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return "", err
	}
	h := sha256.Sum256(buf.Bytes())
	return hex.EncodeToString(h[:]), nil
}

// serverInfo is what the OCI image needs of server.json.
type serverInfo struct {
	name, version string
	image         string // the oci package's identifier (REPOSITORY:TAG), or ""
}

func parseServer(b []byte) (*serverInfo, error) {
	var s struct {
		Name     string `json:"name"`
		Version  string `json:"version"`
		Packages []struct {
			RegistryType string `json:"registryType"`
			Identifier   string `json:"identifier"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	si := &serverInfo{name: s.Name, version: s.Version}
	for _, p := range s.Packages {
		if p.RegistryType == "oci" {
			si.image = p.Identifier
		}
	}
	if si.image != "" && si.name == "" {
		return nil, errors.New("an oci package but no name: the image's label io.modelcontextprotocol.server.name is the name")
	}
	return si, nil
}

// withSHA256 returns server.json with the fileSha256 of its mcpb packages.
func (s *serverInfo) withSHA256(server []byte, sum string) ([]byte, error) {
	var m map[string]any
	if err := json.Unmarshal(server, &m); err != nil {
		return nil, err
	}
	pkgs, _ := m["packages"].([]any)
	for _, p := range pkgs {
		if pm, ok := p.(map[string]any); ok && pm["registryType"] == "mcpb" {
			pm["fileSha256"] = sum
		}
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
