package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestOf(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "e58afca1b2c3d4e5f60718293a4b5c6d7e8f9012"}, {Key: "vcs.modified", Value: "true"}}
	for _, tc := range []struct {
		name string
		bi   debug.BuildInfo
		want Info
	}{
		{"opentoolgen from a checkout, no VCS stamp",
			debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: Module, Version: "(devel)"}},
			Info{Main: Module, Version: "(devel)", OpenToolGen: "(devel)", Go: "go1.26.8"}},
		{"opentoolgen from a checkout, with its revision",
			debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: Module, Version: "(devel)"}, Settings: vcs},
			Info{Main: Module, Version: "(devel) e58afca1b2c3, modified", OpenToolGen: "(devel) e58afca1b2c3, modified", Go: "go1.26.8"}},
		{"opentoolgen installed at a version",
			debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: Module, Version: "v0.4.0"}, Settings: vcs},
			Info{Main: Module, Version: "v0.4.0", OpenToolGen: "v0.4.0", Go: "go1.26.8"}},
		{"a server of another module, opentoolgen a dependency",
			debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "example.com/spotify", Version: "v1.2.3"},
				Deps: []*debug.Module{{Path: "golang.org/x/oauth2", Version: "v0.30.0"}, {Path: Module, Version: "v0.0.0-20261201221500-e58afca1b2c3"}}},
			Info{Main: "example.com/spotify", Version: "v1.2.3", OpenToolGen: "v0.0.0-20261201221500-e58afca1b2c3", Go: "go1.26.8"}},
		{"opentoolgen replaced by a directory",
			debug.BuildInfo{Main: debug.Module{Path: "example.com/agent", Version: "(devel)"},
				Deps: []*debug.Module{{Path: Module, Version: "v0.0.0", Replace: &debug.Module{Path: "/src/opentoolgen", Version: "(devel)"}}}},
			Info{Main: "example.com/agent", Version: "(devel)", OpenToolGen: "v0.0.0 => /src/opentoolgen"}},
		{"opentoolgen replaced by another module",
			debug.BuildInfo{Main: debug.Module{Path: "example.com/agent", Version: "v1.0.0"},
				Deps: []*debug.Module{{Path: Module, Version: "v0.4.0", Replace: &debug.Module{Path: "example.com/fork", Version: "v0.4.1"}}}},
			Info{Main: "example.com/agent", Version: "v1.0.0", OpenToolGen: "v0.4.0 => example.com/fork v0.4.1"}},
	} {
		got := Of(&tc.bi)
		if got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
