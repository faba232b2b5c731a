// Package e2e_test exercises the generated OpenDyn packages of
// testdata/golden against C libraries it compiles from testdata/opendyn with
// gcc (or $CC): typed calls of every C type, the served tool called with the
// generated client, missing functions, Close, and calls from many goroutines.
// gen's TestOpenDynEndToEnd runs it with -race; OPENDYN_CFLAGS adds flags to
// the C compiler (the ASan run sets -fsanitize=address).
package e2e_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/dynlib"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
	ctypes "github.com/opentoolgen/opentoolgen/testdata/golden/opendyn-ctypes"
	example "github.com/opentoolgen/opentoolgen/testdata/golden/opendyn-example"
	missing "github.com/opentoolgen/opentoolgen/testdata/golden/opendyn-missing"
	"github.com/opentoolgen/opentoolgen/testdata/opendyn/e2e"
)

// libs are the paths of the compiled libraries, by name.
var libs = map[string]string{}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "opendyn-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	ext := ".so"
	if goruntime.GOOS == "darwin" {
		ext = ".dylib"
	}
	for _, name := range []string{"example", "ctypes"} {
		out := filepath.Join(dir, "lib"+name+ext)
		args := []string{"-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-o", out, filepath.Join("..", name+".c")}
		args = append(args, strings.Fields(os.Getenv("OPENDYN_CFLAGS"))...)
		cmd := exec.Command(cc, args...)
		cmd.Env = compilerEnv()
		if b, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "%s %s: %v\n%s", cc, strings.Join(args, " "), err, b)
			return 1
		}
		libs[name] = out
	}
	code := m.Run()
	if os.Getenv("OPENDYN_LEAKCHECK") != "" {
		leaks, loaded := e2e.LeakCheck()
		switch {
		case !loaded:
			fmt.Fprintln(os.Stderr, "OPENDYN_LEAKCHECK is set but LeakSanitizer is not loaded (preload libasan)")
			return 1
		case leaks:
			return 1 // LeakSanitizer has printed them
		}
	}
	return code
}

// compilerEnv is the environment of the C compiler: this process's, without
// the sanitizer runtime the ASan run preloads into it.
func compilerEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "LD_PRELOAD=") {
			env = append(env, kv)
		}
	}
	return env
}

func openCTypes(t testing.TB) *ctypes.Library {
	t.Helper()
	lib, err := ctypes.Open(libs["ctypes"])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	return lib
}

// TestExample calls upstream's example document's functions directly.
func TestExample(t *testing.T) {
	lib, err := example.Open(libs["example"])
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	if r, err := lib.Add(2, 3); r != 5 || err != nil {
		t.Errorf("Add(2, 3) = %v, %v; want 5", r, err)
	}
	if r, err := lib.Add(math.MaxInt32, 1); r != math.MinInt32 || err != nil {
		t.Errorf("Add(MaxInt32, 1) = %v, %v; want MinInt32 (C int arithmetic)", r, err)
	}
	if r, err := lib.Multiply(1.5, 4.25); r != 6.375 || err != nil {
		t.Errorf("Multiply(1.5, 4.25) = %v, %v; want 6.375", r, err)
	}
}

// serve serves tool on a loopback listener and returns its base URL.
func serve(t *testing.T, tool runtime.Tool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runtime.ServeListener(ctx, ln, tool) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("ServeListener: %v", err)
		}
	})
	return "http://" + ln.Addr().String() + "/opentool"
}

// TestExampleServed serves the example library with the generated NewTool
// and calls it with the generated client.
func TestExampleServed(t *testing.T) {
	lib, err := example.Open(libs["example"])
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	c := example.NewClient(runtime.NewClient(serve(t, must(example.NewTool(lib.Service())))))
	ctx := context.Background()
	if r, err := c.Add(ctx, example.AddArgs{A: 40, B: 2}); r != 42 || err != nil {
		t.Errorf("Add = %v, %v; want 42", r, err)
	}
	if r, err := c.Multiply(ctx, example.MultiplyArgs{A: 0.5, B: 3}); r != 1.5 || err != nil {
		t.Errorf("Multiply = %v, %v; want 1.5", r, err)
	}
	// The document the server gives is the equivalent OpenTool document.
	doc, err := runtime.NewClient(serve(t, must(example.NewTool(lib.Service())))).Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Info.Title != "dynamic library example" || len(doc.Functions) != 2 || doc.Functions[1].Parameters[0].Schema.Type != "number" {
		t.Errorf("Load: got %+v", doc)
	}
	// An int out of the range of C int is an invalid argument.
	_, err = c.Add(ctx, example.AddArgs{A: 1, B: 2})
	if err != nil {
		t.Fatal(err)
	}
	raw := json.RawMessage(`{"a": 2147483648, "b": 1}`)
	_, err = must(example.NewTool(lib.Service())).Call(ctx, "add", raw)
	var re *runtime.Error
	if !errors.As(err, &re) || re.Code != runtime.CodeInvalidParams || !strings.Contains(re.Message, "/a") {
		t.Errorf("add with a = 2^31: got %v, want -32602 naming /a", err)
	}
}

// TestCTypes calls a function of every C type, as input, output and return.
func TestCTypes(t *testing.T) {
	lib := openCTypes(t)
	check := func(name string, got, next any, err error, want, wantNext any) {
		t.Helper()
		if err != nil || got != want || next != wantNext {
			t.Errorf("%s = %v, %v, %v; want %v, %v", name, got, next, err, want, wantNext)
		}
	}
	{
		v, n, err := lib.TBool(true)
		check("TBool", v, n, err, true, false)
	}
	{
		v, n, err := lib.TChar(-128)
		check("TChar", v, n, err, int8(-128), int8(-127))
	}
	{
		v, n, err := lib.TUnsignedChar(254)
		check("TUnsignedChar", v, n, err, uint8(254), uint8(255))
	}
	{
		v, n, err := lib.TShort(math.MinInt16)
		check("TShort", v, n, err, int16(math.MinInt16), int16(math.MinInt16+1))
	}
	{
		v, n, err := lib.TUnsignedShort(math.MaxUint16 - 1)
		check("TUnsignedShort", v, n, err, uint16(math.MaxUint16-1), uint16(math.MaxUint16))
	}
	{
		v, n, err := lib.TInt(math.MinInt32)
		check("TInt", v, n, err, int32(math.MinInt32), int32(math.MinInt32+1))
	}
	{
		v, n, err := lib.TUnsignedInt(math.MaxUint32 - 1)
		check("TUnsignedInt", v, n, err, uint32(math.MaxUint32-1), uint32(math.MaxUint32))
	}
	{
		v, n, err := lib.TLong(1 << 40)
		if longBits == 32 {
			var re *runtime.Error
			if !errors.As(err, &re) || re.Code != runtime.CodeInvalidParams {
				t.Errorf("TLong(1<<40) with a 32-bit long: got %v, want -32602", err)
			}
		} else {
			check("TLong", v, n, err, int64(1<<40), int64(1<<40+1))
		}
	}
	{
		v, n, err := lib.TLong(-5)
		check("TLong", v, n, err, int64(-5), int64(-4))
	}
	{
		v, n, err := lib.TUnsignedLong(1<<32 - 2)
		check("TUnsignedLong", v, n, err, uint64(1<<32-2), uint64(1<<32-1))
	}
	{
		v, n, err := lib.TLongLong(math.MinInt64)
		check("TLongLong", v, n, err, int64(math.MinInt64), int64(math.MinInt64+1))
	}
	{
		v, n, err := lib.TUnsignedLongLong(math.MaxUint64 - 1)
		check("TUnsignedLongLong", v, n, err, uint64(math.MaxUint64-1), uint64(math.MaxUint64))
	}
	{
		v, n, err := lib.TFloat(0.25)
		check("TFloat", v, n, err, float32(0.25), float32(1.75))
	}
	{
		v, n, err := lib.TDouble(1e300)
		check("TDouble", v, n, err, 1e300, 1e300+1.5)
	}
	if v, err := lib.Half(3); v != 1.5 || err != nil {
		t.Errorf("Half(3) = %v, %v; want 1.5 (a float passed as a float)", v, err)
	}
	if v, err := lib.Mix(1, 2, 3, 4, 5, 0.5, 0.25, true); v != 16.75 || err != nil {
		t.Errorf("Mix = %v, %v; want 16.75", v, err)
	}
}

// longBits is the width of C long on this platform.
var longBits = func() int {
	if goruntime.GOOS == "windows" || strings.HasSuffix(goruntime.GOARCH, "32") || goruntime.GOARCH == "386" || goruntime.GOARCH == "arm" {
		return 32
	}
	return 64
}()

func TestPointers(t *testing.T) {
	lib := openCTypes(t)
	x := int32(41)
	if err := lib.Inc(&x); err != nil || x != 42 {
		t.Errorf("Inc(&41): x = %d, %v; want 42", x, err)
	}
	var re *runtime.Error
	if err := lib.Inc(nil); !errors.As(err, &re) || re.Code != runtime.CodeInvalidParams {
		t.Errorf("Inc(nil) = %v, want -32602 (a required pointer)", err)
	}
	y := int64(-1)
	if err := lib.IncLong(&y); err != nil || y != 0 {
		t.Errorf("IncLong(&-1): y = %d, %v; want 0", y, err)
	}
	d := 1.0
	if v, err := lib.IsNull(&d); v != 0 || err != nil {
		t.Errorf("IsNull(&d) = %v, %v; want 0", v, err)
	}
	if v, err := lib.IsNull(nil); v != 1 || err != nil {
		t.Errorf("IsNull(nil) = %v, %v; want 1 (NULL)", v, err)
	}
	if v, err := lib.Answer(); v != 42 || err != nil {
		t.Errorf("Answer() = %v, %v; want 42", v, err)
	}
	if v, err := lib.NoAnswer(); v != 0 || err != nil {
		t.Errorf("NoAnswer() = %v, %v; want 0 (NULL)", v, err)
	}
}

func TestStrings(t *testing.T) {
	lib := openCTypes(t)
	for _, s := range []string{"", "a", "héllo", strings.Repeat("x", 63), strings.Repeat("y", 64), strings.Repeat("z", 10000)} {
		if n, err := lib.StrLen(s); int(n) != len(s) || err != nil {
			t.Errorf("StrLen(%d bytes) = %v, %v", len(s), n, err)
		}
	}
	var re *runtime.Error
	if _, err := lib.StrLen("a\x00b"); !errors.As(err, &re) || re.Code != runtime.CodeInvalidParams || !strings.Contains(err.Error(), "NUL") {
		t.Errorf("StrLen with a NUL = %v, want -32602 naming the NUL", err)
	}
	s := "four"
	if n, err := lib.MaybeLen(&s); n != 4 || err != nil {
		t.Errorf("MaybeLen(&four) = %v, %v", n, err)
	}
	if n, err := lib.MaybeLen(nil); n != -1 || err != nil {
		t.Errorf("MaybeLen(nil) = %v, %v; want -1 (NULL)", n, err)
	}
	if g, err := lib.Greeting(); g != "héllo, wörld" || err != nil {
		t.Errorf("Greeting() = %q, %v", g, err)
	}
	if g, err := lib.NoString(); g != "" || err != nil {
		t.Errorf("NoString() = %q, %v; want \"\" (NULL)", g, err)
	}
	if u, err := lib.Upper("shout it out loud"); u != "SHOUT IT OUT LO" || err != nil {
		t.Errorf("Upper = %q, %v; want the 15 bytes the buffer holds", u, err)
	}
	if n, err := lib.UbytesLen("unsigned"); n != 8 || err != nil {
		t.Errorf("UbytesLen = %v, %v", n, err)
	}
}

func TestArrays(t *testing.T) {
	lib := openCTypes(t)
	if s, err := lib.Sum([]float64{1, 2, 3.5}, 3); s != 6.5 || err != nil {
		t.Errorf("Sum = %v, %v", s, err)
	}
	if s, err := lib.Sum(nil, 0); s != 0 || err != nil {
		t.Errorf("Sum(nil) = %v, %v", s, err)
	}
	if s, err := lib.SumLongs([]int64{1, -2, 40}, 3); s != 39 || err != nil {
		t.Errorf("SumLongs = %v, %v", s, err)
	}
	xs := []int32{1, 2, 3}
	if err := lib.Scale(xs, 3, 10); err != nil || xs[0] != 10 || xs[2] != 30 {
		t.Errorf("Scale: xs = %v, %v; want the function's writes", xs, err)
	}
	if sq, err := lib.Squares(); err != nil || len(sq) != 8 || sq[7] != 49 {
		t.Errorf("Squares() = %v, %v", sq, err)
	}
	if f, err := lib.Flags(); err != nil || fmt.Sprint(f) != "[false true false true]" {
		t.Errorf("Flags() = %v, %v", f, err)
	}
	if c, err := lib.Checksum([]uint8("abc"), 3); c != (97*31+98)*31+99 || err != nil {
		t.Errorf("Checksum = %v, %v", c, err)
	}
	if c, err := lib.CountTrue([]bool{true, false, true, true}, 4); c != 3 || err != nil {
		t.Errorf("CountTrue = %v, %v", c, err)
	}
	if c, err := lib.Adler32([]uint8("Wikipedia"), 9); c != 0x11E60398 || err != nil {
		t.Errorf("Adler32(Wikipedia) = %#x, %v; want 0x11E60398", c, err)
	}
}

func TestOutputsAndCodes(t *testing.T) {
	lib := openCTypes(t)
	st, q, r, err := lib.Divmod(17, 5)
	if st != 0 || q != 3 || r != 2 || err != nil {
		t.Errorf("Divmod(17, 5) = %v, %v, %v, %v", st, q, r, err)
	}
	st, _, _, err = lib.Divmod(1, 0)
	if text, ok := ctypes.CodeText(int64(st)); st != 1 || err != nil || text != "division by zero" || !ok {
		t.Errorf("Divmod(1, 0) = %v (%q), %v; want 1, division by zero", st, text, err)
	}
	if w, err := lib.ModeWeight(ctypes.Mode2); w != 20 || err != nil {
		t.Errorf("ModeWeight(2) = %v, %v", w, err)
	}
}

// TestServedCTypes calls the ctypes library through the served tool and the
// generated client, outputs (a result object) and validation included.
func TestServedCTypes(t *testing.T) {
	lib := openCTypes(t)
	tool := must(ctypes.NewTool(lib.Service()))
	c := ctypes.NewClient(runtime.NewClient(serve(t, tool)))
	ctx := context.Background()
	r, err := c.Divmod(ctx, ctypes.DivmodArgs{A: 17, B: 5})
	if err != nil || r != (ctypes.DivmodResult{Status: 0, Quot: 3, Rem: 2}) {
		t.Errorf("Divmod = %+v, %v", r, err)
	}
	if u, err := c.Upper(ctx, ctypes.UpperArgs{S: "go"}); err != nil || u.Out != "GO" {
		t.Errorf("Upper = %+v, %v", u, err)
	}
	if n, err := c.MaybeLen(ctx, ctypes.MaybeLenArgs{}); n != -1 || err != nil {
		t.Errorf("MaybeLen() = %v, %v; want -1 (absent is NULL)", n, err)
	}
	if v, err := c.Offset(ctx, ctypes.OffsetArgs{X: 5}); v != 5 || err != nil {
		t.Errorf("Offset(5) = %v, %v; want 5 (absent is 0)", v, err)
	}
	delta := int32(2)
	if v, err := c.Offset(ctx, ctypes.OffsetArgs{X: 5, Delta: &delta}); v != 7 || err != nil {
		t.Errorf("Offset(5, 2) = %v, %v; want 7", v, err)
	}
	if v, err := c.IsNull(ctx, ctypes.IsNullArgs{}); v != 1 || err != nil {
		t.Errorf("IsNull() = %v, %v; want 1", v, err)
	}
	if err := c.Inc(ctx, ctypes.IncArgs{X: 1}); err != nil {
		t.Errorf("Inc = %v", err)
	}
	if s, err := c.SumLongs(ctx, ctypes.SumLongsArgs{Xs: []int64{1, 2}, N: 2}); s != 3 || err != nil {
		t.Errorf("SumLongs = %v, %v", s, err)
	}
	if r, err := c.TUnsignedLongLong(ctx, ctypes.TUnsignedLongLongArgs{X: math.MaxUint64 - 1}); r.Next != math.MaxUint64 || err != nil {
		t.Errorf("TUnsignedLongLong = %+v, %v", r, err)
	}
	if r, err := c.TChar(ctx, ctypes.TCharArgs{X: -1}); r.Value != -1 || r.Next != 0 || err != nil {
		t.Errorf("TChar = %+v, %v", r, err)
	}
	// Arguments out of the range of their C type, every violation at once.
	for _, tc := range []struct{ fn, args, want string }{
		{"t_char", `{"x": 128}`, "/x: got 128, want an integer from -128 to 127"},
		{"t_unsigned_char", `{"x": -1}`, "/x: got -1, want an integer from 0 to 255"},
		{"t_short", `{"x": 32768}`, "/x: got 32768, want an integer from -32768 to 32767"},
		{"t_unsigned_short", `{"x": 65536}`, "/x: got 65536, want an integer from 0 to 65535"},
		{"t_int", `{"x": -2147483649}`, "/x: got -2147483649, want an integer from -2147483648 to 2147483647"},
		{"t_unsigned_int", `{"x": 4294967296}`, "/x: got 4294967296, want an integer from 0 to 4294967295"},
		{"t_unsigned_long_long", `{"x": -1}`, "/x: got -1"},
		{"mix", `{"c": 200, "s": 1, "i": 1, "l": 1, "ll": 1, "f": 1, "d": 1}`, "/c: got 200, want an integer from -128 to 127; /b: missing"},
		{"mode_weight", `{"mode": 3}`, "/mode"},
		{"str_len", `{"s": "a\u0000b"}`, "/s: contains a NUL byte"},
		{"checksum", `{"data": [1, 256], "n": 2}`, "/data/1: got 256, want an integer from 0 to 255"},
	} {
		_, err := tool.Call(ctx, tc.fn, json.RawMessage(tc.args))
		var re *runtime.Error
		if !errors.As(err, &re) || re.Code != runtime.CodeInvalidParams || !strings.Contains(re.Message, tc.want) {
			t.Errorf("%s(%s): got %v, want -32602 with %q", tc.fn, tc.args, err, tc.want)
		}
	}
	// The document has no C types, and the outputs are in the result.
	doc := ctypes.Document()
	b, _ := json.Marshal(doc)
	if strings.Contains(string(b), "cType") || strings.Contains(string(b), "isIn") {
		t.Errorf("Document() carries C types: %s", b)
	}
	for _, f := range doc.Functions {
		if f.Name == "divmod" && (len(f.Parameters) != 2 || f.Return.Schema.Type != "object" || len(f.Return.Schema.Properties) != 3) {
			t.Errorf("divmod in Document(): %+v", f)
		}
	}
	if len(declare.Plain(ctypes.Document())) != len(doc.Functions) {
		t.Errorf("Declarations: %d, want %d", len(declare.Plain(ctypes.Document())), len(doc.Functions))
	}
}

// TestMissing opens a library that lacks functions the document describes:
// one error names the path and every missing function.
func TestMissing(t *testing.T) {
	_, err := missing.Open(libs["example"])
	var le *dynlib.LibraryError
	if !errors.As(err, &le) || fmt.Sprint(le.Missing) != "[subtract divide]" || le.Path != libs["example"] {
		t.Fatalf("Open: got %v, want a LibraryError missing subtract and divide", err)
	}
	want := fmt.Sprintf("opendyn: %q: missing functions subtract, divide", libs["example"])
	if err.Error() != want {
		t.Errorf("Open: got %q, want %q", err, want)
	}
	// The same library opens for a document without them.
	lib, err := example.Open(libs["example"])
	if err != nil {
		t.Fatal(err)
	}
	lib.Close()
	// A library that does not exist.
	nowhere := filepath.Join(t.TempDir(), "libnowhere.so")
	_, err = missing.Open(nowhere)
	if !errors.As(err, &le) || le.Err == nil || !strings.Contains(err.Error(), nowhere) {
		t.Errorf("Open(%s): got %v, want a LibraryError with the loader's reason", nowhere, err)
	}
	if _, err := missing.Open("bad\x00path"); err == nil {
		t.Error("Open with a NUL in the path succeeded")
	}
}

// TestClose: calls after Close fail with ErrLibraryClosed, Close twice is
// fine, and Close waits for the calls in progress (run with -race).
func TestClose(t *testing.T) {
	lib, err := ctypes.Open(libs["ctypes"])
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if _, err := lib.Adler32([]uint8("data"), 4); err != nil {
					if !errors.Is(err, dynlib.ErrLibraryClosed) {
						t.Errorf("Adler32 during Close: %v", err)
					}
					return
				}
			}
		}()
	}
	if err := lib.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if err := lib.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, _, err := lib.TInt(1); !errors.Is(err, dynlib.ErrLibraryClosed) {
		t.Errorf("TInt after Close: %v, want ErrLibraryClosed", err)
	}
	_, err = must(ctypes.NewTool(lib.Service())).Call(context.Background(), "tick", nil)
	if err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("tool call after Close: %v", err)
	}
	// A Library that Open did not return is not open either.
	var zero ctypes.Library
	if _, err := zero.Greeting(); !errors.Is(err, dynlib.ErrLibraryClosed) {
		t.Errorf("Greeting of a zero Library: %v, want ErrLibraryClosed", err)
	}
	if err := zero.Close(); err != nil {
		t.Errorf("Close of a zero Library: %v", err)
	}
}

// TestConcurrent calls the library from many goroutines at once.
func TestConcurrent(t *testing.T) {
	lib := openCTypes(t)
	before, _ := lib.TickCount()
	const goroutines, calls = 32, 200
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]int32, 4)
			for i := range calls {
				if err := lib.Tick(); err != nil {
					t.Error(err)
					return
				}
				n := int32(g*calls + i)
				if v, next, err := lib.TInt(n); v != n || next != n+1 || err != nil {
					t.Errorf("TInt(%d) = %d, %d, %v", n, v, next, err)
					return
				}
				s := fmt.Sprint(g, "-", i)
				if l, err := lib.StrLen(s); int(l) != len(s) || err != nil {
					t.Errorf("StrLen(%q) = %d, %v", s, l, err)
					return
				}
				for k := range buf {
					buf[k] = int32(k)
				}
				if err := lib.Scale(buf, 4, 3); err != nil || buf[3] != 9 {
					t.Errorf("Scale = %v, %v", buf, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if after, _ := lib.TickCount(); after-before != goroutines*calls {
		t.Errorf("ticks: %d, want %d", after-before, goroutines*calls)
	}
}

// TestOpenEmptyPath: an empty path is refused before dlopen, which would open
// the program itself and then report its functions as missing.
func TestOpenEmptyPath(t *testing.T) {
	_, err := missing.Open("")
	var le *dynlib.LibraryError
	if !errors.As(err, &le) || !errors.Is(err, dynlib.ErrEmptyLibraryPath) || len(le.Missing) != 0 {
		t.Fatalf(`Open(""): got %v, want a LibraryError wrapping ErrEmptyLibraryPath`, err)
	}
	if !strings.Contains(err.Error(), "empty path") {
		t.Errorf(`Open(""): %q does not say the path is empty`, err)
	}
}

// TestNonFiniteResult: a C double result of ±Inf or NaN, which JSON cannot
// carry, is a clear error of the served tool naming the function, not an
// opaque encoding failure; the Go binding itself returns the value as it is.
func TestNonFiniteResult(t *testing.T) {
	lib, err := example.Open(libs["example"])
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	if r, err := lib.Multiply(math.MaxFloat32, 10); !math.IsInf(float64(r), 1) || err != nil {
		t.Fatalf("lib.Multiply(MaxFloat32, 10) = %v, %v; want +Inf, nil", r, err)
	}
	c := example.NewClient(runtime.NewClient(serve(t, must(example.NewTool(lib.Service())))))
	_, err = c.Multiply(context.Background(), example.MultiplyArgs{A: math.MaxFloat32, B: 10})
	var re *runtime.Error
	if !errors.As(err, &re) || re.Code != runtime.CodeInternalError {
		t.Fatalf("Multiply(MaxFloat32, 10) over HTTP: got %v, want a call error with code %d", err, runtime.CodeInternalError)
	}
	for _, want := range []string{"multiply", "+Inf"} {
		if !strings.Contains(re.Message, want) {
			t.Errorf("Multiply(MaxFloat32, 10): message %q does not contain %q", re.Message, want)
		}
	}
	if strings.Contains(re.Message, "unsupported value") {
		t.Errorf("Multiply(MaxFloat32, 10): message %q is encoding/json's", re.Message)
	}
}

// must returns v, panicking on err (a NewTool that fails is a broken test).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestLibraryToolOptions: NewTool's options work for a library as for every
// kind: a fixed argument and a subset of functions.
func TestLibraryToolOptions(t *testing.T) {
	lib, err := example.Open(libs["example"])
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	tool, err := example.NewTool(lib.Service(), toolopt.WithFunctions("add"), toolopt.WithFixed("add", map[string]any{"b": 100}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	raw, err := tool.Call(ctx, "add", json.RawMessage(`{"a": 1, "b": 2}`))
	if err != nil || !strings.Contains(string(raw), "101") {
		t.Errorf("add with b fixed at 100: %s, %v", raw, err)
	}
	var re *runtime.Error
	if _, err := tool.Call(ctx, "multiply", json.RawMessage(`{"a": 1, "b": 2}`)); !errors.As(err, &re) || re.Code != runtime.CodeMethodNotFound {
		t.Errorf("multiply, not served: got %v, want method not found", err)
	}
	if d := tool.Document(); len(d.Functions) != 1 || len(d.Functions[0].Parameters) != 1 {
		t.Errorf("served document: %+v", d.Functions)
	}
}
