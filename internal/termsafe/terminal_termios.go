//go:build aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos

package termsafe

import "os"

// isTerminal asks the terminal driver for f's settings: only a tty has
// them. Being a character device is not enough: /dev/null is one.
func isTerminal(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	tty := false
	// Control rather than Fd, which would set the file to blocking mode
	// (its deadlines would stop working).
	if err := rc.Control(func(fd uintptr) { tty = hasTermios(fd) }); err != nil {
		return false
	}
	return tty
}
