//go:build !linux

package agent

import (
	"errors"
	"syscall"
)

// processGone reports whether process pid has ended (or, reparented, is
// a zombie its new parent has not yet reaped: it then shows as running).
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
