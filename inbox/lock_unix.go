//go:build unix

package inbox

import (
	"os"

	"golang.org/x/sys/unix"
)

// openNoFollow opens name inside the open directory dir for reading,
// refusing a symbolic link in its place (ELOOP) and never blocking on a
// FIFO or device.
func openNoFollow(dir *os.File, name string) (*os.File, error) {
	rc, err := dir.SyscallConn()
	if err != nil {
		return nil, err
	}
	var fd int
	var oerr error
	if err := rc.Control(func(dfd uintptr) {
		for {
			fd, oerr = unix.Openat(int(dfd), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
			if oerr != unix.EINTR {
				return
			}
		}
	}); err != nil {
		return nil, err
	}
	if oerr != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: oerr}
	}
	return os.NewFile(uintptr(fd), name), nil
}
