package ir

import (
	"syscall"
	"unsafe"
)

const hugePage = 2 << 20

// adviseHuge asks the kernel to back the n bytes at p with transparent
// huge pages (madvise MADV_HUGEPAGE, which the "madvise" THP mode needs),
// before they are first touched: a 2 MiB page takes one fault where 4 KiB
// pages take 512. The range is widened to whole huge pages; what that
// adds around a slab is the Go heap's own memory (heap arenas are 64 MiB
// aligned). Errors are ignored: the advice is only a hint.
func adviseHuge(p unsafe.Pointer, n uintptr) {
	beg := uintptr(p) &^ (hugePage - 1)
	end := (uintptr(p) + n + hugePage - 1) &^ (hugePage - 1)
	syscall.Syscall(syscall.SYS_MADVISE, beg, end-beg, 14 /* MADV_HUGEPAGE */)
}
