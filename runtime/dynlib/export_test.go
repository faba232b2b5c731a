package dynlib

// OpenFenced is Open with the library's guard fenced, as where there is no
// process-wide barrier: each call fences, Close issues no barrier.
func OpenFenced(path string, symbols []Symbol) (*Library, error) {
	l, err := Open(path, symbols)
	if err == nil {
		l.g.fence = 1
	}
	return l, err
}

// Fenced reports whether the calls of l fence (no process-wide barrier).
func Fenced(l *Library) bool { return l.g.fence != 0 }
