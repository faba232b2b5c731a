package e2e_test

import (
	"testing"
	"time"

	ctypes "github.com/opentoolgen/opentoolgen/testdata/golden/opendyn-ctypes"
	libm "github.com/opentoolgen/opentoolgen/testdata/golden/opendyn-libm"
	"github.com/opentoolgen/opentoolgen/testdata/opendyn/e2e"
)

var (
	sinkF float64
	sinkU uint32
)

// BenchmarkCos compares libm's cos called through the generated binding
// (opened at run time) with the same function linked at build time and called
// with plain cgo, in the same run.
func BenchmarkCos(b *testing.B) {
	lib, err := libm.Open("libm.so.6")
	if err != nil {
		b.Skip("no libm.so.6 (glibc):", err)
	}
	defer lib.Close()
	b.Run("opendyn", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			v, _ := lib.Cos(0.5)
			sinkF += v
		}
	})
	b.Run("cgo-linked", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkF += e2e.Cos(0.5)
		}
	})
	b.Run("opendyn-parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			s := 0.0
			for pb.Next() {
				v, _ := lib.Cos(0.5)
				s += v
			}
			_ = s
		})
	})
	b.Run("cgo-linked-parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			s := 0.0
			for pb.Next() {
				s += e2e.Cos(0.5)
			}
			_ = s
		})
	})
}

// BenchmarkAdler32 compares adler32 of 16 bytes (a slice passed as a
// pointer) through the generated binding with the same C function linked at
// build time.
func BenchmarkAdler32(b *testing.B) {
	lib := openCTypes(b)
	data := []byte("0123456789abcdef")
	b.Run("opendyn", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			v, _ := lib.Adler32(data, int32(len(data)))
			sinkU += v
		}
	})
	b.Run("cgo-linked", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkU += e2e.Adler32(data)
		}
	})
}

// BenchmarkStrLen is a string argument: a NUL-terminated copy on the stack.
func BenchmarkStrLen(b *testing.B) {
	lib := openCTypes(b)
	b.ReportAllocs()
	for b.Loop() {
		n, _ := lib.StrLen("a short string")
		sinkU += uint32(n)
	}
}

// BenchmarkDivmod has two output pointers.
func BenchmarkDivmod(b *testing.B) {
	lib := openCTypes(b)
	b.ReportAllocs()
	for b.Loop() {
		_, q, r, _ := lib.Divmod(17, 5)
		sinkU += uint32(q + r)
	}
}

// BenchmarkTool is a call through the generated tool adapter: arguments
// decoded from JSON and validated, the result encoded.
func BenchmarkTool(b *testing.B) {
	lib := openCTypes(b)
	tool := must(ctypes.NewTool(lib.Service()))
	args := []byte(`{"a": 17, "b": 5}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tool.Call(b.Context(), "divmod", args); err != nil {
			b.Fatal(err)
		}
	}
}

// interleaved times dyn and linked in alternating chunks of calls, so that a
// change of load on a shared machine hits both alike, and reports the ratio
// of their times with each one's time per call. Each function makes n calls
// in a loop of its own, the call written in the loop as a program writes it:
// a closure called once per call (as this benchmark did before) would add a
// function call to both sides, and a frame to the linked call that a program
// calling it inline does not pay, so that the ratio read smaller than the
// generated call's real cost (1.07–1.12 here against 1.36 for the same calls
// in BenchmarkCos).
func interleaved(b *testing.B, dyn, linked func(n int)) {
	const chunk = 500
	var tDyn, tLinked time.Duration
	run := func(f func(int), into *time.Duration) {
		start := time.Now()
		f(chunk)
		*into += time.Since(start)
	}
	n := 0
	for b.Loop() {
		if n%2 == 0 {
			run(dyn, &tDyn)
			run(linked, &tLinked)
		} else {
			run(linked, &tLinked)
			run(dyn, &tDyn)
		}
		n++
	}
	calls := float64(n * chunk)
	b.ReportMetric(float64(tDyn)/float64(tLinked), "dyn/linked")
	b.ReportMetric(float64(tDyn.Nanoseconds())/calls, "dyn-ns/call")
	b.ReportMetric(float64(tLinked.Nanoseconds())/calls, "linked-ns/call")
	b.ReportMetric(0, "ns/op") // an op is two chunks: not a figure to read
}

// BenchmarkVsLinked reports the cost of a generated binding relative to the
// same C function linked at build time, measured interleaved.
func BenchmarkVsLinked(b *testing.B) {
	b.Run("cos", func(b *testing.B) {
		lib, err := libm.Open("libm.so.6")
		if err != nil {
			b.Skip("no libm.so.6 (glibc):", err)
		}
		defer lib.Close()
		interleaved(b, func(n int) {
			for range n {
				v, _ := lib.Cos(0.5)
				sinkF += v
			}
		}, func(n int) {
			for range n {
				sinkF += e2e.Cos(0.5)
			}
		})
	})
	b.Run("adler32-16B", func(b *testing.B) {
		lib := openCTypes(b)
		data := []byte("0123456789abcdef")
		interleaved(b, func(n int) {
			for range n {
				v, _ := lib.Adler32(data, int32(len(data)))
				sinkU += v
			}
		}, func(n int) {
			for range n {
				sinkU += e2e.Adler32(data)
			}
		})
	})
}
