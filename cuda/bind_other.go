//go:build !linux

package cuda

import "fmt"

func bind() error {
	return fmt.Errorf("%w: this package binds the CUDA driver on Linux only", ErrNoDriver)
}

func threadID() int { return 0 }
