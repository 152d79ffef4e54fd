//go:build !linux

package linear

import "testing"

// cpuMetric reports nothing where the thread's CPU time is not available.
func cpuMetric(*testing.B) func() { return func() {} }
