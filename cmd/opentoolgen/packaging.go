package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/opentoolgen/opentoolgen/gen"
)

// packageOptions is -package: the files beside the -cmd main that install
// it (gen.Packaging): opentoolfile, mcpb, registry, oci, or all. A
// comma-separated list, the flag repeatable.
type packageOptions struct {
	p   gen.Packaging
	set bool
}

// packageNames are the values of -package, in the order the help gives them.
var packageNames = []string{"opentoolfile", "mcpb", "registry", "oci", "all"}

func (po *packageOptions) String() string {
	var on []string
	for _, x := range []struct {
		name string
		on   bool
	}{{"opentoolfile", po.p.Opentoolfile}, {"mcpb", po.p.MCPB}, {"registry", po.p.Registry}, {"oci", po.p.OCI}} {
		if x.on {
			on = append(on, x.name)
		}
	}
	return strings.Join(on, ",")
}

func (po *packageOptions) Set(v string) error {
	for _, name := range strings.Split(v, ",") {
		switch name = strings.ToLower(strings.TrimSpace(name)); name {
		case "opentoolfile", "opentool":
			po.p.Opentoolfile = true
		case "mcpb":
			po.p.MCPB = true
		case "registry", "server.json":
			po.p.Registry = true
		case "oci", "image", "docker":
			po.p.OCI = true
		case "all":
			po.p.Opentoolfile, po.p.MCPB, po.p.Registry, po.p.OCI = true, true, true, true
		case "":
			return fmt.Errorf("an empty name in %q: want opentoolfile, mcpb, registry, oci or all", v)
		default:
			msg := fmt.Sprintf("unknown %q", name)
			best, bestD := "", len(name)/3+2
			for _, cand := range packageNames {
				if d := editDistance(name, cand); d < bestD {
					best, bestD = cand, d
				}
			}
			if best != "" {
				msg += " (did you mean " + best + "?)"
			}
			// -package of oapi-codegen and ogen names the Go package.
			msg += " (-pkg names the generated Go package)"
			return fmt.Errorf("%s: want opentoolfile (the OpenTool daemon), mcpb (MCPB manifest.json), registry (MCP registry server.json), oci (an OCI image in server.json), or all", msg)
		}
	}
	po.set = true
	return nil
}

// packageFlags registers -package and its options on fs.
func packageFlags(fs *flag.FlagSet, po *packageOptions) {
	fs.Var(po, "package", "also write beside the -cmd main the files that install it: `LIST` of opentoolfile, mcpb (manifest.json), registry (server.json), oci, or all; opentoolgen-pack builds the binaries, the .mcpb and the image from them")
	fs.StringVar(&po.p.RegistryName, "registry-name", "", "the server's `NAME` in the MCP registry for -package registry and oci (io.github.USER/NAME), the OCI image's label")
	fs.StringVar(&po.p.Image, "image", "", "the OCI image's `REPOSITORY` in server.json, without tag (default for io.github.USER/NAME: ghcr.io/USER/NAME)")
	fs.StringVar(&po.p.ReleaseURL, "release-url", "", "the `URL` the .mcpb bundle is downloaded from, without its file name (default for io.github.USER/NAME: its GitHub release vVERSION)")
	fs.StringVar(&po.p.RemoteURL, "remote-url", "", "the `URL` of the server's MCP endpoint over streamable HTTP, for server.json's remotes")
}

// checkPackageFlags reports -package without -cmd, its options without it,
// and options gen.Packaging refuses, as usage errors.
func checkPackageFlags(fs *flag.FlagSet, o *options) error {
	if !o.pack.set {
		var only []string
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "registry-name", "image", "release-url", "remote-url":
				only = append(only, "-"+f.Name)
			}
		})
		if len(only) > 0 {
			verb := " needs"
			if len(only) > 1 {
				verb = " need"
			}
			return &usageError{strings.Join(only, " and ") + verb + " -package LIST"}
		}
		return nil
	}
	if o.cmd == "" {
		return &usageError{"-package " + o.pack.String() + " needs -cmd DIR: the files install the generated main"}
	}
	var pe *gen.PackagingError
	if err := o.pack.p.Check(); errors.As(err, &pe) {
		return &usageError{"-" + pe.Field + ": " + pe.Message}
	}
	return nil
}
