//go:build !linux

package ir

import "unsafe"

const hugePage = 2 << 20

// adviseHuge is a no-op where there is no madvise(MADV_HUGEPAGE).
func adviseHuge(unsafe.Pointer, uintptr) {}
