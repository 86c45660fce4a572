package termsafe

import (
	"syscall"
	"unsafe"
)

// hasTermios reports whether fd has a terminal's settings (TCGETS), with
// the syscall package rather than golang.org/x/sys/unix, whose
// encoding/binary needs reflect: the fast path of "parley send" asks this
// before the rest of parley is initialised (internal/quicksend).
func hasTermios(fd uintptr) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}
