//go:build !linux

package testenv

import "testing"

// CPUMetric reports nothing where the thread's CPU time is not available.
func CPUMetric(*testing.B) func() { return func() {} }
