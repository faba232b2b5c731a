package main

import (
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/examples/opendyn/geometry"
	"github.com/opentoolgen/opentoolgen/internal/testtool"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// Without -lib the command prints its help, -lib listed, and exits 2; a
// library that does not open makes it exit 1, naming the path.
func TestCommandNeedsLibrary(t *testing.T) {
	if code, out, _ := testtool.Run(t, command()); code != 2 || !strings.Contains(out, "-lib") {
		t.Errorf("no arguments: exit %d, want 2 and a help naming -lib:\n%s", code, out)
	}
	if code, _, errs := testtool.Run(t, command(), "start", "-t", "0"); code != 2 || !strings.Contains(errs, "missing --lib") {
		t.Errorf("start without -lib: exit %d, stderr %q; want 2 and missing --lib", code, errs)
	}
	missing := filepath.Join(t.TempDir(), "libnone.so")
	if code, _, errs := testtool.Run(t, command(), "-lib", missing, "-t", "0"); code != 1 || !strings.Contains(errs, "libnone.so") {
		t.Errorf("a missing library: exit %d, stderr %q; want 1 and its path", code, errs)
	}
}

// With a library built by gcc, the command serves it until it is stopped.
func TestCommandServes(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc to build the library:", err)
	}
	ext := ".so"
	if goruntime.GOOS == "darwin" {
		ext = ".dylib"
	}
	lib := filepath.Join(t.TempDir(), "libgeometry"+ext)
	if b, err := exec.Command("gcc", "-shared", "-fPIC", "-o", lib, filepath.Join("..", "c", "geometry.c"), "-lm").CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, b)
	}
	r := testtool.Start(t, command(), "-lib", lib)
	c := geometry.NewClient(runtime.NewClient(r.Base + runtime.DefaultPrefix))
	if d, err := c.Distance(t.Context(), geometry.DistanceArgs{X1: 0, Y1: 0, X2: 3, Y2: 4}); err != nil || d != 5 {
		t.Errorf("Distance = %v, %v; want 5", d, err)
	}
	r.Stop()
	if code := r.Wait(t); code != 0 {
		t.Errorf("exit %d after a stop, want 0:\n%s", code, r.Logs)
	}
}
