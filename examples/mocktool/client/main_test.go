package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/opentoolgen/opentoolgen/examples/internal/exampleclient"
	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// fake is a minimal text store with the reference mock tool's behaviour.
type fake struct {
	mu    sync.Mutex
	texts []mocktool.Text // by id; "" is deleted
}

func (f *fake) Count(context.Context) (mocktool.Count, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, t := range f.texts {
		if t != "" {
			n++
		}
	}
	return mocktool.Count(n), nil
}

func (f *fake) Create(_ context.Context, a mocktool.CreateArgs) (mocktool.ID, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.texts = append(f.texts, mocktool.Text(a.Text))
	return mocktool.ID(len(f.texts) - 1), nil
}

func (f *fake) lookup(id mocktool.ID) error {
	if id < 0 || int(id) >= len(f.texts) || f.texts[id] == "" {
		return runtime.NewError(404, "gone")
	}
	return nil
}

func (f *fake) Read(_ context.Context, a mocktool.ReadArgs) (mocktool.Text, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.lookup(a.ID); err != nil {
		return "", err
	}
	return f.texts[a.ID], nil
}

func (f *fake) Update(_ context.Context, a mocktool.UpdateArgs) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.lookup(a.ID); err != nil {
		return err
	}
	f.texts[a.ID] = a.Text
	return nil
}

func (f *fake) Delete(_ context.Context, a mocktool.DeleteArgs) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.lookup(a.ID); err != nil {
		return err
	}
	f.texts[a.ID] = ""
	return nil
}

func (f *fake) SequentiallyRead(_ context.Context, emit func(mocktool.Text) error) error {
	f.mu.Lock()
	texts := append([]mocktool.Text(nil), f.texts...)
	f.mu.Unlock()
	for _, t := range texts {
		if t == "" {
			continue
		}
		if err := emit(t); err != nil {
			return err
		}
	}
	return nil
}

func (f *fake) Run(context.Context) error { return errors.New("broken on purpose") }

func TestRun(t *testing.T) {
	srv := httptest.NewServer(runtime.NewHandler(must(mocktool.NewTool(&fake{texts: []mocktool.Text{"Hello", "World"}})), runtime.WithAPIKeys("secret")))
	defer srv.Close()
	url := srv.URL + runtime.DefaultPrefix

	var out bytes.Buffer
	if err := run(t.Context(), []string{"-url", url, "-apiKey", "secret"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	want := `server version: 1.0.0
count: 2
create: id 2
read 2: "Hello from Go"
update 2: ok
sequentiallyRead: "Hello"
sequentiallyRead: "World"
sequentiallyRead: "Hello again"
delete 2: ok
read 2: tool error 404: gone
run: tool error 500: broken on purpose
`
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
	if err := run(t.Context(), []string{"-url", url, "-apiKey", "wrong"}, io.Discard, io.Discard); !errors.Is(err, runtime.ErrUnauthorized) {
		t.Errorf("wrong key: err = %v, want ErrUnauthorized", err)
	}
	if err := run(t.Context(), []string{"-url"}, io.Discard, io.Discard); !errors.Is(err, exampleclient.ErrUsage) {
		t.Errorf("-url without a value: err = %v, want errUsage", err)
	}
}

func TestRunServerDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	err = run(t.Context(), []string{"-url", "http://" + ln.Addr().String() + "/opentool"}, io.Discard, io.Discard)
	if !errors.Is(err, runtime.ErrNoAccess) {
		t.Errorf("err = %v, want ErrNoAccess", err)
	}
}

// must returns v, panicking on err (a NewTool that fails is a broken test).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
