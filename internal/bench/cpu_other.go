//go:build !unix

package bench

import (
	"os"
	"time"
)

// processCPU is the user+system CPU time of an ended process.
func processCPU(ps *os.ProcessState) time.Duration { return ps.UserTime() + ps.SystemTime() }
