package main

import (
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/internal/testtool"
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

// The command is toolcli's, its default port 17001.
func TestCommandLine(t *testing.T) {
	testtool.CheckCommandLine(t, command(), version, 17001)
}

// The command serves the tool until it is stopped, and exits 0.
func TestCommandServes(t *testing.T) {
	r := testtool.Start(t, command(), "-k", "key")
	c := mocktool.NewClient(runtime.NewClient(r.Base+runtime.DefaultPrefix, runtime.WithAPIKey("key")))
	ctx := t.Context()
	if got, err := c.Count(ctx); err != nil || got != mocktool.Count(2) {
		t.Errorf("call = %v, %v; want %v", got, err, mocktool.Count(2))
	}
	if v, err := runtime.NewClient(r.Base+runtime.DefaultPrefix, runtime.WithAPIKey("key")).Version(ctx); err != nil || v.Version != version {
		t.Errorf("version = %q, %v; want %q", v, err, version)
	}
	if !strings.Contains(r.Logs.String(), "name=mocktool") {
		t.Errorf("logs do not name the command:\n%s", r.Logs)
	}
	r.Stop()
	if code := r.Wait(t); code != 0 {
		t.Errorf("exit %d after a stop, want 0:\n%s", code, r.Logs)
	}
}

// must returns v, panicking on err (a NewTool that fails is a broken test).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
