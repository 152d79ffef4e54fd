//go:build !unix

package optdriver

import "os"

// mapFile is not available here: the input is read.
func mapFile(f *os.File, n int64) (string, bool) { return "", false }
