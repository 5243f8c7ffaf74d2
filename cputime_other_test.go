//go:build !linux

package compact

import "time"

// cpuTimer measures wall time where thread CPU time is not available.
func cpuTimer() func() float64 {
	start := time.Now()
	return func() float64 { return float64(time.Since(start)) }
}
