//go:build !linux

package cuda

import "fmt"

// LibraryEnv is the variable that names the driver library on Linux.
const LibraryEnv = "LAYOUTOPT_LIBCUDA"

func bind() error {
	return fmt.Errorf("%w: this package binds the CUDA driver on Linux only", ErrNoDriver)
}

func threadID() int { return 0 }
