//go:build unix

package optdriver

import (
	"os"
	"syscall"
	"unsafe"
)

// mapFile maps the regular file f of size n read-only and returns its
// contents as a string, or ok false where mapping fails. The mapping is
// never removed: the module's names slice the string until the process
// exits. Changing the file while the process runs changes the string
// (truncating it is a SIGBUS), as with mlir-opt's mapped input buffers.
func mapFile(f *os.File, n int64) (s string, ok bool) {
	if n <= 0 || int64(int(n)) != n {
		return "", false
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(n), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return "", false
	}
	return unsafe.String(&b[0], len(b)), true
}
