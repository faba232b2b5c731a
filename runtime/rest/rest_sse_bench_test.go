package rest

import (
	"bufio"
	"io"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/internal/sse"
)

var benchAlloc0 uint64

func startAlloc(*testing.B) {
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	benchAlloc0 = m.TotalAlloc
}

// allocedPerOp is what each op allocated since startAlloc, in bytes.
func allocedPerOp(b *testing.B) float64 {
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return float64(m.TotalAlloc-benchAlloc0) / float64(b.N)
}

// endless is a body that sends prefix and then 'a' for ever.
type endless struct {
	prefix string
	off    int
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	if e.off < len(e.prefix) {
		n = copy(p, e.prefix[e.off:])
		e.off += n
	}
	for i := n; i < len(p); i++ {
		p[i] = 'a'
	}
	return len(p), nil
}

const endlessLimit = 1 << 20

// BenchmarkEndlessLine reads a stream whose line never ends, with a limit of
// 1 MiB per event, until the reader refuses it: B/op over the limit
// (bytes/limit) is what such an upstream costs, per format and field.
func BenchmarkEndlessLine(b *testing.B) {
	for _, tc := range []struct{ name, format, prefix string }{
		{"sse-data", StreamSSE, "data: "},
		{"sse-event-name", StreamSSE, "event: "},
		{"sse-comment", StreamSSE, ": "},
		{"ndjson", StreamNDJSON, ""},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			startAlloc(b)
			for b.Loop() {
				v := newValueReader(&endless{prefix: tc.prefix}, tc.format, endlessLimit)
				if _, err := v.next(); err != sse.ErrTooLarge {
					b.Fatalf("error %v, want errEventTooLarge", err)
				}
			}
			b.StopTimer()
			b.ReportMetric(allocedPerOp(b)/endlessLimit, "bytes/limit")
		})
	}
}

var _ io.Reader = (*endless)(nil)

// TestLongNDJSONLines: NDJSON lines longer than the reader's buffer (16
// bytes here) read as short ones do, and the limit holds.
func TestLongNDJSONLines(t *testing.T) {
	long := strings.Repeat("0123456789", 7) // 70 bytes
	// NDJSON lines.
	br := bufio.NewReaderSize(strings.NewReader(long+"\r\n"+long[:5]+"\n"+long), 16)
	for _, want := range []string{long, long[:5], long} {
		line, err := readLine(br, 70)
		if string(line) != want || err != nil && err != io.EOF {
			t.Errorf("readLine: %q, %v, want %q", line, err, want)
		}
	}
	if _, err := readLine(bufio.NewReaderSize(strings.NewReader(long+"\n"), 16), 69); err != sse.ErrTooLarge {
		t.Errorf("a line over the limit: %v", err)
	}
}
