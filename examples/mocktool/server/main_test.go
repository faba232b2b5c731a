package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"net"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/runtime"
)

func TestStore(t *testing.T) {
	srv := httptest.NewServer(runtime.NewHandler(must(mocktool.NewTool(newStore("Hello", "World")))))
	defer srv.Close()
	c := mocktool.NewClient(runtime.NewClient(srv.URL + runtime.DefaultPrefix))
	ctx := t.Context()

	stream := func() []mocktool.Text {
		t.Helper()
		var out []mocktool.Text
		for text, err := range c.SequentiallyReadSeq(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, text)
		}
		return out
	}
	if n, err := c.Count(ctx); err != nil || n != 2 {
		t.Fatalf("Count = %d, %v; want 2", n, err)
	}
	id, err := c.Create(ctx, mocktool.CreateArgs{Text: "new"})
	if err != nil || id != 2 {
		t.Fatalf("Create = %d, %v; want 2", id, err)
	}
	if err := c.Update(ctx, mocktool.UpdateArgs{ID: 0, Text: "Hi"}); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Read(ctx, mocktool.ReadArgs{ID: 0}); err != nil || got != "Hi" {
		t.Fatalf("Read(0) = %q, %v", got, err)
	}
	if got, want := stream(), []mocktool.Text{"Hi", "World", "new"}; !slices.Equal(got, want) {
		t.Fatalf("SequentiallyRead = %q, want %q", got, want)
	}
	if err := c.Delete(ctx, mocktool.DeleteArgs{ID: 1}); err != nil {
		t.Fatal(err)
	}
	if got, want := stream(), []mocktool.Text{"Hi", "new"}; !slices.Equal(got, want) {
		t.Fatalf("SequentiallyRead after delete = %q, want %q", got, want)
	}
	// Ids are not reused.
	if id, err := c.Create(ctx, mocktool.CreateArgs{Text: "newer"}); err != nil || id != 3 {
		t.Fatalf("Create = %d, %v; want 3", id, err)
	}

	var e *runtime.Error
	for what, err := range map[string]error{
		"Read":   func() error { _, err := c.Read(ctx, mocktool.ReadArgs{ID: 1}); return err }(),
		"Update": c.Update(ctx, mocktool.UpdateArgs{ID: 1, Text: "x"}),
		"Delete": c.Delete(ctx, mocktool.DeleteArgs{ID: 1}),
	} {
		if !errors.As(err, &e) || e.Code != 404 || e.Message != "no text with id 1" {
			t.Errorf("%s of a deleted id: err = %v, want 404 no text with id 1", what, err)
		}
	}
	if err := c.Run(ctx); !errors.As(err, &e) || e.Code != 500 || e.Message != "a fatal error to break this tool" {
		t.Errorf("Run: err = %v, want 500", err)
	}
}

func TestRunFlags(t *testing.T) {
	var out bytes.Buffer
	if err := run(t.Context(), []string{"-v"}, &out, io.Discard); err != nil || out.String() != version+"\n" {
		t.Errorf("-v: %q, %v", out.String(), err)
	}
	if err := run(t.Context(), []string{"-help"}, io.Discard, io.Discard); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-help: err = %v, want flag.ErrHelp", err)
	}
	for _, args := range [][]string{{"-nope"}, {"-t", "65536"}, {"start"}} {
		var stderr bytes.Buffer
		if err := run(t.Context(), args, io.Discard, &stderr); !errors.Is(err, errUsage) || stderr.Len() == 0 {
			t.Errorf("%q: err = %v, stderr %q; want a usage error explained", args, err, stderr.String())
		}
	}
}

// With its context cancelled, run serves and returns nil at once.
func TestRunStops(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var out bytes.Buffer
	if err := run(ctx, []string{"-addr", "127.0.0.1:0", "-k", "a", "-k", "b"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if want := `serving "CRUD API for mock" 1.0.0 at http://127.0.0.1:0/opentool`; !strings.HasPrefix(out.String(), want) {
		t.Errorf("output %q, want it to start with %q", out.String(), want)
	}
}

// -toolPort replaces the port of -addr: a port in use makes run fail.
func TestRunPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	if err := run(t.Context(), []string{"-addr", "127.0.0.1:17001", "-toolPort", port}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), ln.Addr().String()) {
		t.Errorf("err = %v, want a listen error for %s", err, ln.Addr())
	}
}

// must returns v, panicking on err (a NewTool that fails is a broken test).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
