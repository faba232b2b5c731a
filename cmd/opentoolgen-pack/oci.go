package main

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// ServerNameLabel is the label the MCP registry checks an image's
// ownership by: the server's name in server.json.
const ServerNameLabel = "io.modelcontextprotocol.server.name"

// nonRoot is the image's user: distroless's nonroot.
const nonRoot = "65532:65532"

// writeImages writes the OCI image layout of the linux binaries built into
// o.out/oci and the linux/amd64 image as the tarball o.out/NAME-oci.tar.
func writeImages(o *options, cmdName string, s *serverInfo, bins map[platform]string, stderr io.Writer) error {
	ca, err := readOptional(o.caCerts)
	if err != nil {
		return err
	}
	if ca == nil {
		fmt.Fprintf(stderr, "note: no %s: the image holds no CA certificates (HTTPS calls will fail); give -ca-certs FILE\n", o.caCerts)
	}
	idx := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	var amd64 v1.Image
	for _, p := range o.platforms {
		if p.os != "linux" {
			continue
		}
		img, err := image(cmdName, s, p, bins[p], ca)
		if err != nil {
			return err
		}
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{Add: img,
			Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: p.os, Architecture: p.arch}}})
		if p.arch == "amd64" {
			amd64 = img
		}
	}
	dir := filepath.Join(o.out, "oci")
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if _, err := layout.Write(dir, idx); err != nil {
		return fmt.Errorf("writing the OCI layout %s: %w", dir, err)
	}
	fmt.Fprintln(stderr, "wrote", dir)
	if amd64 == nil {
		return nil
	}
	tag, err := name.NewTag(s.image)
	if err != nil {
		return fmt.Errorf("server.json: the oci package's identifier: %w", err)
	}
	file := filepath.Join(o.out, cmdName+"-oci.tar")
	if err := tarball.WriteToFile(file, tag, amd64); err != nil {
		return err
	}
	fmt.Fprintln(stderr, "wrote", file)
	return nil
}

// image is the image of the binary exe for p: one layer with /NAME and the
// CA certificates on an empty base.
func image(cmdName string, s *serverInfo, p platform, exe string, ca []byte) (v1.Image, error) {
	bin, err := os.ReadFile(exe)
	if err != nil {
		return nil, err
	}
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	add := func(name string, mode int64, data []byte) error {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: mode, Size: int64(len(data)), Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	dirs := []string{}
	if ca != nil {
		dirs = []string{"etc/", "etc/ssl/", "etc/ssl/certs/"}
	}
	for _, d := range dirs {
		if err := tw.WriteHeader(&tar.Header{Name: d, Mode: 0o755, Typeflag: tar.TypeDir, Format: tar.FormatPAX}); err != nil {
			return nil, err
		}
	}
	if ca != nil {
		if err := add("etc/ssl/certs/ca-certificates.crt", 0o644, ca); err != nil {
			return nil, err
		}
	}
	if err := add(cmdName, 0o755, bin); err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	data := tb.Bytes()
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil },
		tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	base := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	img, err := mutate.AppendLayers(base, layer)
	if err != nil {
		return nil, err
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture = p.os, p.arch
	cfg.Config.Entrypoint = []string{"/" + cmdName}
	cfg.Config.Cmd = []string{"mcp"}
	cfg.Config.User = nonRoot
	cfg.Config.WorkingDir = "/"
	cfg.Config.Labels = map[string]string{
		ServerNameLabel:                  s.name,
		"org.opencontainers.image.title": cmdName,
	}
	if s.version != "" {
		cfg.Config.Labels["org.opencontainers.image.version"] = s.version
	}
	return mutate.ConfigFile(img, cfg)
}
