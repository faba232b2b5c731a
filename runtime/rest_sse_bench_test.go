package runtime

import (
	"bufio"
	"io"
	goruntime "runtime"
	"strings"
	"testing"
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
				if _, err := v.next(); err != errEventTooLarge {
					b.Fatalf("error %v, want errEventTooLarge", err)
				}
			}
			b.StopTimer()
			b.ReportMetric(allocedPerOp(b)/endlessLimit, "bytes/limit")
		})
	}
	b.Run("opentool-client", func(b *testing.B) {
		b.ReportAllocs()
		startAlloc(b)
		for b.Loop() {
			rd := &sseReader{r: bufio.NewReaderSize(&endless{prefix: "data:"}, 16<<10), max: endlessLimit}
			if _, err := rd.next(); err != errEventTooLarge {
				b.Fatalf("error %v", err)
			}
		}
		b.StopTimer()
		b.ReportMetric(allocedPerOp(b)/endlessLimit, "bytes/limit")
	})
}

var _ io.Reader = (*endless)(nil)

// TestLongLines: lines longer than the reader's buffer (16 bytes here) read
// as short ones do — data joined across lines, "\r\n" split between reads,
// long ids, names and comments — and the limit holds for each kind.
func TestLongLines(t *testing.T) {
	long := strings.Repeat("0123456789", 7) // 70 bytes
	body := ": a comment longer than the buffer " + long + "\r\n" +
		"event: name-" + long + "\r\n" +
		"id: id-" + long + "\r\n" +
		"data: first-" + long + "\r\n" +
		"data:\r\n" +
		"data: " + long[:9] + "\r\n" +
		"data: last-" + long + "\r" + "\n" +
		"unknown-field-" + long + ": x\r\n" +
		"\r\n" +
		"data: " + long[:10] + "\n\n"
	for _, size := range []int{16, 17, 31, 4096} {
		rd := &sseReader{r: bufio.NewReaderSize(strings.NewReader(body), size), max: 1000}
		ev, err := rd.next()
		if err != nil {
			t.Fatal(err)
		}
		want := "first-" + long + "\n\n" + long[:9] + "\nlast-" + long
		if string(ev.data) != want || ev.name != "name-"+long || ev.id != "id-"+long || rd.lastID != "id-"+long {
			t.Errorf("buffer %d: event %q %q %q, want data %q", size, ev.name, ev.id, ev.data, want)
		}
		ev, err = rd.next()
		if err != nil || string(ev.data) != long[:10] {
			t.Errorf("buffer %d: second event %q, %v", size, ev.data, err)
		}
		if _, err := rd.next(); err != io.EOF {
			t.Errorf("buffer %d: end %v", size, err)
		}
	}
	for _, line := range []string{"data: " + long, "event: " + long, "id: " + long, ": " + long} {
		rd := &sseReader{r: bufio.NewReaderSize(strings.NewReader(line+"\n\n"), 16), max: 60}
		_, err := rd.next()
		if err != errEventTooLarge { // a comment too: no line is read whole past the limit
			t.Errorf("%.10q… over the limit: %v", line, err)
		}
	}
	// NDJSON lines.
	br := bufio.NewReaderSize(strings.NewReader(long+"\r\n"+long[:5]+"\n"+long), 16)
	for _, want := range []string{long, long[:5], long} {
		line, err := readLine(br, 70)
		if string(line) != want || err != nil && err != io.EOF {
			t.Errorf("readLine: %q, %v, want %q", line, err, want)
		}
	}
	if _, err := readLine(bufio.NewReaderSize(strings.NewReader(long+"\n"), 16), 69); err != errEventTooLarge {
		t.Errorf("a line over the limit: %v", err)
	}
}
