//go:build linux

package compact

import (
	"runtime"
	"syscall"
	"unsafe"
)

// cpuTimer starts a timer of the calling thread's CPU time (the goroutine
// is locked to its thread until the returned function is called), which
// returns the elapsed CPU time in nanoseconds. Work the runtime does on
// other threads (GC workers) is not counted.
func cpuTimer() func() float64 {
	runtime.LockOSThread()
	start := threadCPU()
	return func() float64 {
		d := threadCPU() - start
		runtime.UnlockOSThread()
		return float64(d)
	}
}

// threadCPU reads CLOCK_THREAD_CPUTIME_ID, in nanoseconds.
func threadCPU() int64 {
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return ts.Nano()
}
