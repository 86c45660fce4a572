//go:build unix

package registry

import (
	"context"
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// flock takes an exclusive flock on f, retrying until ctx is done.
func flock(ctx context.Context, f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	wait := 200 * time.Microsecond
	for {
		var ferr error
		if err := rc.Control(func(fd uintptr) {
			ferr = unix.Flock(int(fd), unix.LOCK_EX|unix.LOCK_NB)
		}); err != nil {
			return err
		}
		if ferr == nil {
			return nil
		}
		if !errors.Is(ferr, unix.EWOULDBLOCK) && !errors.Is(ferr, unix.EINTR) {
			return ferr
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = min(wait*2, 10*time.Millisecond)
	}
}

// pidAlive reports whether a process with this id runs on this host. A
// process of another user (EPERM) counts as alive.
func pidAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}
