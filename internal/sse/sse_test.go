package sse

import (
	"bufio"
	"io"
	goruntime "runtime"
	"strings"
	"testing"
)

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

// BenchmarkEndlessLine reads an event stream whose data line never ends, with
// a limit of 1 MiB per event, until the reader refuses it: B/op over the
// limit (bytes/limit) is what such an upstream costs the OpenTool client.
func BenchmarkEndlessLine(b *testing.B) {
	b.Run("opentool-client", func(b *testing.B) {
		b.ReportAllocs()
		var m goruntime.MemStats
		goruntime.ReadMemStats(&m)
		for b.Loop() {
			rd := &Reader{R: bufio.NewReaderSize(&endless{prefix: "data:"}, 16<<10), Max: endlessLimit}
			if _, err := rd.Next(); err != ErrTooLarge {
				b.Fatalf("error %v", err)
			}
		}
		b.StopTimer()
		b.ReportMetric(allocedPerOp(b, m.TotalAlloc)/endlessLimit, "bytes/limit")
	})
}

// allocedPerOp is what each op allocated since start, in bytes.
func allocedPerOp(b *testing.B, start uint64) float64 {
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return float64(m.TotalAlloc-start) / float64(b.N)
}

// TestLongLines: event-stream lines longer than the reader's buffer (16 bytes here) read
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
		rd := &Reader{R: bufio.NewReaderSize(strings.NewReader(body), size), Max: 1000}
		ev, err := rd.Next()
		if err != nil {
			t.Fatal(err)
		}
		want := "first-" + long + "\n\n" + long[:9] + "\nlast-" + long
		if string(ev.Data) != want || ev.Name != "name-"+long || ev.ID != "id-"+long || rd.LastID != "id-"+long {
			t.Errorf("buffer %d: event %q %q %q, want data %q", size, ev.Name, ev.ID, ev.Data, want)
		}
		ev, err = rd.Next()
		if err != nil || string(ev.Data) != long[:10] {
			t.Errorf("buffer %d: second event %q, %v", size, ev.Data, err)
		}
		if _, err := rd.Next(); err != io.EOF {
			t.Errorf("buffer %d: end %v", size, err)
		}
	}
	for _, line := range []string{"data: " + long, "event: " + long, "id: " + long, ": " + long} {
		rd := &Reader{R: bufio.NewReaderSize(strings.NewReader(line+"\n\n"), 16), Max: 60}
		_, err := rd.Next()
		if err != ErrTooLarge { // a comment too: no line is read whole past the limit
			t.Errorf("%.10q… over the limit: %v", line, err)
		}
	}
}
