//go:build aix || solaris || zos

package termsafe

import "golang.org/x/sys/unix"

// ioctlReadTermios is the request that reads a tty's settings.
const ioctlReadTermios = unix.TCGETS
