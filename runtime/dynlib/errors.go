package dynlib

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// The errors of the libraries that generated OpenDyn bindings open, and of
// their results.

// ErrLibraryClosed is the error of a call to a generated OpenDyn library after
// its Close (or of a Library that Open did not return).
var ErrLibraryClosed = errors.New("opendyn: the library is not open (closed, or not opened with Open)")

// LibraryError is the error of opening a dynamic library for a generated OpenDyn
// binding: the library could not be loaded (Err), or it lacks functions the
// document describes (Missing, every one of them).
type LibraryError struct {
	Path    string   // as given to Open
	Missing []string // symbols described by the document and not found, in document order
	Err     error    // why the library could not be loaded; nil when only symbols are missing
}

func (e *LibraryError) Error() string {
	var b strings.Builder
	b.WriteString("opendyn: ")
	b.WriteString(strconv.Quote(e.Path))
	if e.Err != nil {
		b.WriteString(": ")
		// dlerror's messages start with the path again.
		b.WriteString(strings.TrimPrefix(e.Err.Error(), e.Path+": "))
		return b.String()
	}
	if len(e.Missing) == 1 {
		b.WriteString(": missing function ")
	} else {
		b.WriteString(": missing functions ")
	}
	for i, m := range e.Missing {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(m)
	}
	return b.String()
}

// Unwrap returns the reason the library could not be loaded.
func (e *LibraryError) Unwrap() error { return e.Err }

// ErrEmptyLibraryPath is the reason (in a [LibraryError]) that Open refuses an
// empty path: dlopen would open the program itself instead of a library.
var ErrEmptyLibraryPath = errors.New("empty path: give the file of the library to open")

// CheckFinite returns nil when every value is a finite number, else the
// -32603 *Error that names function and its result member: JSON has no
// infinities or NaN, so a C float or double result that is one cannot be
// answered. Generated OpenDyn Tool adapters call it for float results.
func CheckFinite[F ~float32 | ~float64](function, member string, values ...F) error {
	for _, v := range values {
		f := float64(v)
		if !math.IsInf(f, 0) && !math.IsNaN(f) {
			continue
		}
		return runtime.InternalError(fmt.Sprintf("%s returned %s as %s, which JSON cannot carry: want a finite number",
			function, strconv.FormatFloat(f, 'g', -1, 64), quote(member)))
	}
	return nil
}

// quote is s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
