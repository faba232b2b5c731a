package source

import "testing"

// TestFileLimit: an option of 0 (or below) leaves the limit at MaxFileBytes;
// any other is the limit.
func TestFileLimit(t *testing.T) {
	for _, c := range []struct{ n, want int64 }{{0, MaxFileBytes}, {-1, MaxFileBytes}, {1024, 1024}, {MaxFileBytes + 1, MaxFileBytes + 1}} {
		if got := FileLimit(c.n); got != c.want {
			t.Errorf("FileLimit(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}
