//go:build !(aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos)

package termsafe

import "os"

// isTerminal, where parley has no terminal ioctl to ask, takes every
// character device for a terminal: it filters output that did not need
// it rather than letting control sequences reach a terminal.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
