//go:build unix

package bench

import (
	"os"
	"syscall"
	"time"
)

// processCPU is the user+system CPU time of an ended process.
func processCPU(ps *os.ProcessState) time.Duration {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return ps.UserTime() + ps.SystemTime()
}

// selfCPU returns the CPU time (user + system) this process has used, and
// whether it is known.
func selfCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
