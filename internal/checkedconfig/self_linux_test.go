package checkedconfig

import (
	"fmt"
	"os"
	"syscall"
	"testing"
)

// executableLine is the line Self must write for this test binary: its
// device, inode, size and modification time as stat(2) gives them.
func executableLine(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(exe)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return fmt.Sprintf("\nexecutable %d:%d:%d:%d\n", st.Dev, st.Ino, st.Size, st.Mtim.Nano())
}
