// Package buildinfo says what a binary was built from, as the go command
// stamped it (runtime/debug.ReadBuildInfo): the version of its main module
// and of this module, for the -version of opentoolgen and of the commands
// package toolcli runs.
package buildinfo

import "runtime/debug"

// Module is the path of this module.
const Module = "github.com/opentoolgen/opentoolgen"

// Info is what a binary was built from.
type Info struct {
	// Main is the main module's path and Version its version (Describe).
	Main, Version string
	// OpenToolGen is the version of this module the binary holds: Version
	// when it is the main module, "" when the binary holds none of it.
	OpenToolGen string
	// Go is the version of Go that built it (go1.26.8).
	Go string
}

// Read returns the running binary's Info; ok false when it has no build
// information (a binary built without module support).
func Read() (Info, bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{}, false
	}
	return Of(bi), true
}

// Of returns the Info of bi.
func Of(bi *debug.BuildInfo) Info {
	in := Info{Main: bi.Main.Path, Version: describe(bi.Main, bi.Settings), Go: bi.GoVersion}
	if bi.Main.Path == Module {
		in.OpenToolGen = in.Version
	}
	for _, d := range bi.Deps {
		if d.Path == Module {
			in.OpenToolGen = describe(*d, nil)
		}
	}
	return in
}

// describe is the version of m: its own (v1.2.3, or the pseudo-version the go
// command stamps from the VCS, v0.0.0-20261201221500-e58afca1b2c3+dirty),
// that of its replacement, or for a module built from its source without one
// "(devel)" with the VCS revision and state when they were stamped:
// "(devel) e58afca1b2c3, modified".
func describe(m debug.Module, settings []debug.BuildSetting) string {
	v := m.Version
	if r := m.Replace; r != nil {
		if r.Version != "" && r.Version != "(devel)" { // a directory's is "(devel)"
			return v + " => " + r.Path + " " + r.Version
		}
		return v + " => " + r.Path // a directory: its source as it was
	}
	if v != "" && v != "(devel)" {
		return v
	}
	v = "(devel)"
	var rev, modified string
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev != "" {
		v += " " + rev[:min(len(rev), 12)]
		if modified == "true" {
			v += ", modified"
		}
	}
	return v
}
