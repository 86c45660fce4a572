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
