package termsafe

import "os"

// IsTerminal reports whether w is a terminal: an *os.File open on a tty
// (a console, a terminal emulator's pseudo-terminal). A pipe, a file or a
// character device that is no terminal, such as /dev/null (what cron, CI,
// nohup and a closed standard input give), is not one. It costs one
// system call and never changes the file (its blocking mode included).
func IsTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok || f == nil {
		return false
	}
	return isTerminal(f)
}
