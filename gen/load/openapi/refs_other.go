//go:build !unix

package openapi

import "os"

// openFlags open a referenced file for reading.
const openFlags = os.O_RDONLY
