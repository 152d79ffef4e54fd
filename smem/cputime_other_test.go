//go:build !linux

package smem

import "testing"

// cpuMetric reports nothing where the thread's CPU time is not available.
func cpuMetric(*testing.B) func() { return func() {} }
