//go:build aix || darwin || dragonfly || freebsd || netbsd || openbsd || solaris || zos

package termsafe

import "golang.org/x/sys/unix"

// hasTermios reports whether fd has a terminal's settings.
func hasTermios(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), ioctlReadTermios)
	return err == nil
}
