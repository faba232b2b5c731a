package dynlib

import (
	"errors"
	"testing"
)

func TestLibraryError(t *testing.T) {
	for _, tc := range []struct {
		err  *LibraryError
		want string
	}{
		{&LibraryError{Path: "/x/libm.so", Missing: []string{"cos"}}, `opendyn: "/x/libm.so": missing function cos`},
		{&LibraryError{Path: "libm.so", Missing: []string{"cos", "sin"}}, `opendyn: "libm.so": missing functions cos, sin`},
		{&LibraryError{Path: "/no.so", Err: errors.New("/no.so: cannot open shared object file")}, `opendyn: "/no.so": cannot open shared object file`},
		{&LibraryError{Path: "a.dll", Err: errors.New("The specified module could not be found.")}, `opendyn: "a.dll": The specified module could not be found.`},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
	cause := errors.New("cause")
	if !errors.Is(&LibraryError{Path: "p", Err: cause}, cause) {
		t.Error("LibraryError does not unwrap to its cause")
	}
}
