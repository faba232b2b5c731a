package jsontree

import (
	"sort"
	"strings"
)

// DefsRef returns the reference to $defs entry name: a URI fragment holding a
// JSON pointer, so "~" and "/" are escaped as ~0 and ~1 and then every byte that
// a URI fragment cannot hold as is ("%", " ", "#", non-ASCII, …) is
// percent-encoded.
func DefsRef(name string) string {
	const hex = "0123456789ABCDEF"
	p := Pointer(name)[1:]
	b := []byte("#/$defs/")
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			strings.IndexByte("-._~!$&'()*+,;=:@/?", c) >= 0:
			b = append(b, c)
		default:
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return string(b)
}

// EachName calls f with every name in names and with those the calls add to
// names in turn (a schema converter marks the references it rewrites), a
// round at a time in name order; it returns the names it saw.
func EachName(names map[string]bool, f func(name string)) map[string]bool {
	done := map[string]bool{}
	for {
		var next []string
		for n := range names {
			if !done[n] {
				next = append(next, n)
			}
		}
		if len(next) == 0 {
			return done
		}
		sort.Strings(next)
		for _, n := range next {
			done[n] = true
			f(n)
		}
	}
}
