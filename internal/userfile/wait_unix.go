//go:build unix

package userfile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// waitWriter waits, through the runtime's poller (so that a read deadline
// ends it), until the named pipe f has data or a writer that came and
// went. A pipe opened with O_NONBLOCK that no one has opened for writing
// reads as empty at once; poll(2) instead waits for a writer (Linux does
// not report the hang-up of a writer the reader never saw).
func waitWriter(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var perr error
	err = rc.Read(func(fd uintptr) bool {
		for {
			fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
			n, err := unix.Poll(fds, 0)
			switch {
			case errors.Is(err, unix.EINTR):
				continue
			case err != nil:
				perr = err
				return true
			}
			return n > 0
		}
	})
	if err == nil {
		err = perr
	}
	return err
}
