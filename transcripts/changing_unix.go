//go:build unix

package transcripts

import (
	"io/fs"
	"syscall"
	"time"
)

// inodeAndCtime is a file's inode number and inode change time, which a
// rewrite in place (same size, mtime set back) still moves.
func inodeAndCtime(fi fs.FileInfo) (int64, time.Time) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, time.Time{}
	}
	return int64(st.Ino), time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))
}
