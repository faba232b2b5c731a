package opendyn_test

// End to end: the library built with gcc, called through the generated
// bindings directly, and served with the generated NewTool to the generated
// client over a loopback listener.

import (
	"context"
	"errors"
	"math"
	"net"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/opentoolgen/opentoolgen/examples/opendyn/geometry"
	opentool "github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
)

// build compiles c/geometry.c into a shared library in a temporary directory.
func build(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc to build the library:", err)
	}
	ext := ".so"
	if runtime.GOOS == "darwin" {
		ext = ".dylib"
	}
	out := filepath.Join(t.TempDir(), "libgeometry"+ext)
	if b, err := exec.Command("gcc", "-shared", "-fPIC", "-o", out, filepath.Join("c", "geometry.c"), "-lm").CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, b)
	}
	return out
}

func TestGeometry(t *testing.T) {
	lib, err := geometry.Open(build(t))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()

	if a, err := lib.CircleArea(2); math.Abs(a-4*math.Pi) > 1e-12 || err != nil {
		t.Errorf("CircleArea(2) = %v, %v", a, err)
	}
	v := []float64{3, 4}
	if n, err := lib.Normalize(v, 2); n != 5 || v[0] != 0.6 || v[1] != 0.8 || err != nil {
		t.Errorf("Normalize: %v, %v, %v", n, v, err)
	}

	// Served, and called with the generated client.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- opentool.ServeListener(ctx, ln, must(geometry.NewTool(lib.Service()))) }()
	defer func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("ServeListener: %v", err)
		}
	}()
	c := geometry.NewClient(opentool.NewClient("http://" + ln.Addr().String() + opentool.DefaultPrefix))
	if d, err := c.Distance(ctx, geometry.DistanceArgs{X1: 0, Y1: 0, X2: 3, Y2: 4}); d != 5 || err != nil {
		t.Errorf("Distance = %v, %v", d, err)
	}
	r, err := c.Describe(ctx, geometry.DescribeArgs{Radius: 1})
	if err != nil || r.Status != 0 || r.Text != "a circle of radius 1 has an area of 3.142" {
		t.Errorf("Describe(1) = %+v, %v", r, err)
	}
	r, err = c.Describe(ctx, geometry.DescribeArgs{Radius: -1})
	if text, _ := geometry.CodeText(int64(r.Status)); err != nil || text != "negative radius" {
		t.Errorf("Describe(-1) = %+v (%s), %v", r, text, err)
	}
	if v, err := c.Version(ctx); v != "geometry 1.0" || err != nil {
		t.Errorf("Version = %q, %v", v, err)
	}
	if len(declare.Plain(geometry.Document())) != 5 {
		t.Errorf("Declarations: %d, want 5", len(declare.Plain(geometry.Document())))
	}
}

// must returns v, panicking on err (a NewTool that fails is a broken test).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
