//go:build unix

package openapi

import (
	"os"
	"syscall"
)

// openFlags open a referenced file without waiting: a named pipe swapped in
// after the check does not block the generator.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
