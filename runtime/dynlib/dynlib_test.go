//go:build unix && cgo

package dynlib_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/opentoolgen/opentoolgen/runtime/dynlib"
	"github.com/opentoolgen/opentoolgen/runtime/dynlib/internal/ctest"
)

// buildLib compiles testdata/lib.c into a shared library of its own (each test
// loads a fresh copy) and returns its path.
func buildLib(t testing.TB) string {
	t.Helper()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s): %v", cc, err)
	}
	out := filepath.Join(t.TempDir(), "libdyntest.so")
	if b, err := exec.Command(cc, "-shared", "-fPIC", "-Wall", "-Werror", "-o", out, filepath.Join("testdata", "lib.c")).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cc, err, b)
	}
	return out
}

var symbols = []dynlib.Symbol{{Name: "add"}, {Name: "sub"}, {Name: "wait"}, {Name: "release"}, {Name: "waiting"}, {Name: "checked"}, {Name: "set_watch"}}

const (
	iAdd = iota
	iSub
	iWait
	iRelease
	iWaiting
	iChecked
	iSetWatch
)

func open(t testing.TB) *dynlib.Library {
	t.Helper()
	l, err := dynlib.Open(buildLib(t), symbols)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// call calls the i-th symbol of l, an int f(int, int), as a generated method
// does, through a guarded trampoline; ok is false when l is not open.
func call(l *dynlib.Library, i int, a, b int32) (r int32, ok bool) {
	g, fn := l.Func(i)
	return ctest.GuardedIntIntInt(g, fn, a, b)
}

// callAcquired calls the i-th symbol of l as a generated method does for a
// function that returns a pointer: under Acquire and Release.
func callAcquired(l *dynlib.Library, i int, a, b int32) (r int32, ok bool) {
	fn, ok := l.Acquire(i)
	if !ok {
		return 0, false
	}
	r = ctest.CallIntIntInt(fn, a, b)
	l.Release()
	return r, true
}

// TestOpen: the symbols are looked up, by index, and called.
func TestOpen(t *testing.T) {
	path := buildLib(t)
	l, err := dynlib.Open(path, symbols)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.Path() != path {
		t.Errorf("Path() = %q, want %q", l.Path(), path)
	}
	if r, ok := call(l, iAdd, 2, 3); r != 5 || !ok {
		t.Errorf("add(2, 3) = %d, %v; want 5, true", r, ok)
	}
	if r, ok := callAcquired(l, iSub, 2, 3); r != -1 || !ok {
		t.Errorf("sub(2, 3) = %d, %v; want -1, true", r, ok)
	}
	for _, i := range []int{-1, len(symbols)} {
		if addr, ok := l.Acquire(i); ok || addr != 0 {
			t.Errorf("Acquire(%d) = %#x, %v; want 0, false (not a symbol's index)", i, addr, ok)
		}
		if r, ok := call(l, i, 1, 2); ok || r != 0 {
			t.Errorf("a guarded call of symbol %d = %d, %v; want 0, false (not a symbol's index)", i, r, ok)
		}
	}
	// No symbols at all: the library is opened all the same.
	l2, err := dynlib.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := l2.Acquire(0); ok {
		t.Error("Acquire(0) of a library opened without symbols succeeded")
	}
	if err := l2.Close(); err != nil {
		t.Error(err)
	}
	// The first library is still open (dlopen counts references).
	if r, ok := call(l, iAdd, 40, 2); r != 42 || !ok {
		t.Errorf("add(40, 2) after the second library's Close = %d, %v", r, ok)
	}
}

// TestMissing: every missing symbol is named, in the order given, and the
// library is not opened.
func TestMissing(t *testing.T) {
	path := buildLib(t)
	syms := []dynlib.Symbol{{Name: "add"}, {Name: "nope"}, {Name: "sub"}, {Name: "also_nope", Stdcall32: "also_nope@8"}, {Name: "add\x00"}}
	l, err := dynlib.Open(path, syms)
	if l != nil {
		t.Errorf("Open returned a library with an error")
	}
	var le *dynlib.LibraryError
	if !errors.As(err, &le) {
		t.Fatalf("got %v, want a *LibraryError", err)
	}
	if diff := cmp.Diff([]string{"nope", "also_nope", "add\x00"}, le.Missing); diff != "" {
		t.Errorf("Missing (-want +got):\n%s", diff)
	}
	if le.Path != path || le.Err != nil {
		t.Errorf("Path %q, Err %v; want %q, nil", le.Path, le.Err, path)
	}
	if want := "missing functions nope, also_nope, add"; !strings.Contains(err.Error(), want) {
		t.Errorf("Error() = %q, want it to contain %q", err, want)
	}
	_, err = dynlib.Open(path, []dynlib.Symbol{{Name: "nope"}})
	if want := `opendyn: "` + path + `": missing function nope`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestOpenErrors: an empty path is refused (dlopen would open the program),
// a library that cannot be loaded is reported with the loader's reason.
func TestOpenErrors(t *testing.T) {
	var le *dynlib.LibraryError
	_, err := dynlib.Open("", symbols)
	if !errors.As(err, &le) || !errors.Is(err, dynlib.ErrEmptyLibraryPath) || le.Path != "" || le.Missing != nil {
		t.Errorf(`Open(""): got %#v, want a LibraryError wrapping ErrEmptyLibraryPath`, err)
	}

	nowhere := filepath.Join(t.TempDir(), "nowhere.so")
	_, err = dynlib.Open(nowhere, symbols)
	if !errors.As(err, &le) || le.Err == nil || le.Path != nowhere || le.Missing != nil {
		t.Fatalf("Open(%s): got %#v, want a LibraryError with the loader's reason", nowhere, err)
	}
	if goruntime.GOOS == "linux" && !strings.Contains(err.Error(), "No such file") {
		t.Errorf("Open(%s): %v, want dlerror's reason (No such file)", nowhere, err)
	}

	notLib := filepath.Join("testdata", "lib.c")
	if _, err := dynlib.Open(notLib, symbols); !errors.As(err, &le) || le.Err == nil {
		t.Errorf("Open(%s), a C file: got %v, want a LibraryError with the loader's reason", notLib, err)
	}

	_, err = dynlib.Open("lib\x00.so", symbols)
	if want := `opendyn: "lib\x00.so": the path contains a NUL byte`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestClose: after Close (twice is fine) Acquire fails; a zero or nil
// Library is not open.
func TestClose(t *testing.T) {
	l := open(t)
	path := l.Path()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	for i := range symbols {
		if addr, ok := l.Acquire(i); ok || addr != 0 {
			t.Errorf("Acquire(%d) after Close = %#x, %v; want 0, false", i, addr, ok)
		}
	}
	if r, ok := call(l, iAdd, 1, 2); ok || r != 0 {
		t.Errorf("a guarded call after Close = %d, %v; want 0, false", r, ok)
	}
	if l.Path() != path {
		t.Errorf("Path() after Close = %q, want %q", l.Path(), path)
	}
	var zero dynlib.Library
	var null *dynlib.Library
	for _, l := range []*dynlib.Library{&zero, null} {
		if _, ok := l.Acquire(0); ok {
			t.Errorf("Acquire of %#v succeeded", l)
		}
		if _, ok := call(l, 0, 1, 2); ok {
			t.Errorf("a guarded call of %#v succeeded", l)
		}
		if err := l.Close(); err != nil {
			t.Errorf("Close of %#v: %v", l, err)
		}
		if l.Path() != "" {
			t.Errorf("Path of %#v: %q", l, l.Path())
		}
	}
}

// callers are the two ways a generated method calls a function.
var callers = map[string]func(l *dynlib.Library, i int, a, b int32) (int32, bool){
	"guarded": call, "acquired": callAcquired,
}

// TestCloseWaits: Close waits for the call in progress (guarded, or under
// Acquire) before it unloads the library; the calls that start while it
// waits, and after, fail.
func TestCloseWaits(t *testing.T) {
	for name, call := range callers {
		t.Run(name, func(t *testing.T) { testCloseWaits(t, call) })
	}
}

func testCloseWaits(t *testing.T, call func(l *dynlib.Library, i int, a, b int32) (int32, bool)) {
	l := open(t)
	// The addresses of release and waiting, taken before Close begins: while
	// Close waits for the lock, Acquire waits too.
	release, ok1 := l.Acquire(iRelease)
	if ok1 {
		l.Release()
	}
	waiting, ok2 := l.Acquire(iWaiting)
	if ok2 {
		l.Release()
	}
	if !ok1 || !ok2 {
		t.Fatal("Acquire failed")
	}

	called := make(chan int32)
	go func() {
		r, _ := call(l, iWait, 0, 0) // returns once release is called
		called <- r
	}()
	// The C side tells nothing: poll its waiting flag, with a deadline.
	for deadline := time.Now().Add(10 * time.Second); ctest.CallIntIntInt(waiting, 0, 0) == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the call of wait did not begin")
		}
		time.Sleep(time.Millisecond)
	}
	closed := make(chan error)
	go func() { closed <- l.Close() }()
	select {
	case err := <-closed:
		t.Fatalf("Close returned (%v) while a call was in progress", err)
	case <-time.After(100 * time.Millisecond):
		// Not a wait for an event: the call stays in progress until
		// release, and a Close that did not wait for it would return within
		// this window.
	}
	// The library is still loaded: release, looked up before, can be called.
	ctest.CallIntIntInt(release, 0, 0)
	if r := <-called; r != 1 {
		t.Fatalf("wait returned %d, want 1 (released)", r)
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if _, ok := call(l, iAdd, 1, 2); ok {
		t.Error("a call after Close succeeded")
	}
}

// TestCloseUnderCalls: Close while many goroutines call the library, both
// ways, with the process-wide barrier and with the fence of platforms that
// lack one (run with -race): each call either runs or fails, the calls that
// fail once fail from then on, and no call of the library runs after it is
// unloaded. The library proves the last: its destructor, which dlclose runs,
// records whether a call was in progress, and each call whether the destructor
// had run (a call after the unmapping would crash the test).
func TestCloseUnderCalls(t *testing.T) {
	path := buildLib(t)
	for _, fenced := range []bool{false, true} {
		name := map[bool]string{false: "barrier", true: "fence"}[fenced]
		t.Run(name, func(t *testing.T) {
			for range 8 {
				closeUnderCalls(t, path, fenced)
				if t.Failed() {
					return
				}
			}
		})
	}
}

// closeUnderCalls is one round of TestCloseUnderCalls.
func closeUnderCalls(t *testing.T, path string, fenced bool) {
	open := dynlib.Open
	if fenced {
		open = dynlib.OpenFenced
	}
	l, err := open(path, symbols)
	if err != nil {
		t.Fatal(err)
	}
	if !fenced && dynlib.Fenced(l) {
		l.Close()
		t.Skip("no process-wide barrier on this system: the calls fence")
	}
	setWatch, ok := l.Acquire(iSetWatch)
	if !ok {
		t.Fatal("Acquire failed")
	}
	ctest.Watch(setWatch)
	l.Release()

	const goroutines, warm = 8, 200
	var wg, warmed sync.WaitGroup
	var closed atomic.Bool
	warmed.Add(goroutines)
	for g := range goroutines {
		call := call
		if g%4 == 3 {
			call = callAcquired
		}
		wg.Go(func() {
			for i := 0; ; i++ {
				if i == warm {
					warmed.Done()
				}
				wasClosed := closed.Load()
				r, ok := call(l, iChecked, int32(g), int32(i))
				switch {
				case ok && r != int32(g+i):
					t.Errorf("checked(%d, %d) = %d", g, i, r)
				case ok && wasClosed:
					t.Errorf("goroutine %d: a call after Close returned succeeded", g)
				case !ok:
					if _, ok := call(l, iChecked, 1, 2); ok {
						t.Errorf("goroutine %d: a call succeeded after one failed", g)
					}
					if i < warm {
						warmed.Done()
					}
					return
				}
			}
		})
	}
	warmed.Wait() // every goroutine is calling
	if err := l.Close(); err != nil {
		t.Error(err)
	}
	closed.Store(true)
	wg.Wait()
	w := ctest.ReadWatch()
	if !w.Unloaded {
		t.Fatal("the library's destructor did not run: dlclose did not unload it, the test proves nothing")
	}
	if w.Late != 0 || w.BusyAtUnload != 0 || w.InFlight != 0 {
		t.Errorf("calls after the library was unloaded: %d began after its destructor, %d ran during it, %d in progress now", w.Late, w.BusyAtUnload, w.InFlight)
	}
	if w.Calls < goroutines*warm {
		t.Errorf("%d calls of checked, want at least %d", w.Calls, goroutines*warm)
	}
}

// BenchmarkAcquireRelease is the cost a generated method pays for the
// library's lock, besides the cgo call.
func BenchmarkAcquireRelease(b *testing.B) {
	l := open(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := l.Acquire(iAdd); !ok {
			b.Fatal("not open")
		}
		l.Release()
	}
}
