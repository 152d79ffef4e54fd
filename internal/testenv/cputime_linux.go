//go:build linux

package testenv

import (
	"runtime"
	"syscall"
	"testing"
)

// CPUMetric starts measuring the CPU time of the calling thread; the returned
// function reports it per iteration as "cpu-ns/op". On a shared machine
// ns/op (wall time) includes the time other processes hold the CPU; the CPU
// time of the benchmark's own thread does not.
func CPUMetric(b *testing.B) func() {
	runtime.LockOSThread()
	start := threadCPUNanos()
	return func() {
		used := threadCPUNanos() - start
		runtime.UnlockOSThread()
		if b.N > 0 {
			b.ReportMetric(float64(used)/float64(b.N), "cpu-ns/op")
		}
	}
}

func threadCPUNanos() int64 {
	var ru syscall.Rusage
	const rusageThread = 1 // RUSAGE_THREAD
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
