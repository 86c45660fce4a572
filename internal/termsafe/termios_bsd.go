//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package termsafe

import "golang.org/x/sys/unix"

// ioctlReadTermios is the request that reads a tty's settings.
const ioctlReadTermios = unix.TIOCGETA
