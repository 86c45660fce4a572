//go:build linux

package inbox

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// listDir returns the entries of the open directory dir in one getdents(2)
// call, growing the buffer and starting over until everything fits. Linux
// serves one getdents call under the directory's lock, which link and
// rename take exclusively, so the listing is a snapshot: if it shows a
// message, it shows every message linked in before that one. That is what
// keeps one sender's messages in order when a scan (rather than the
// watcher) discovers them.
func listDir(dir *os.File) ([]dirEntry, error) {
	size := 64 << 10
	for {
		if _, err := dir.Seek(0, 0); err != nil {
			return nil, err
		}
		buf := make([]byte, size)
		rc, err := dir.SyscallConn()
		if err != nil {
			return nil, err
		}
		var n int
		var gerr error
		if err := rc.Read(func(fd uintptr) bool {
			for {
				n, gerr = unix.Getdents(int(fd), buf)
				if gerr != unix.EINTR {
					return true
				}
			}
		}); err != nil {
			return nil, err
		}
		if gerr != nil {
			return nil, gerr
		}
		// A full buffer may mean more entries remain: read again, whole,
		// with a larger one. A short read means we have them all.
		if n > size-(1<<10) && size < 64<<20 {
			size *= 4
			continue
		}
		return parseDirents(buf[:n]), nil
	}
}

func parseDirents(buf []byte) []dirEntry {
	var out []dirEntry
	for len(buf) >= 19 {
		// struct linux_dirent64 { u64 ino; s64 off; u16 reclen; u8 type; char name[]; }
		reclen := int(*(*uint16)(unsafe.Pointer(&buf[16])))
		if reclen < 19 || reclen > len(buf) {
			break
		}
		typ := buf[18]
		name := buf[19:reclen]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if s := string(name); s != "." && s != ".." {
			out = append(out, dirEntry{name: s, kind: direntKind(typ)})
		}
		buf = buf[reclen:]
	}
	return out
}

func direntKind(t uint8) entryKind {
	switch t {
	case unix.DT_REG:
		return kindFile
	case unix.DT_DIR:
		return kindDir
	case unix.DT_LNK:
		return kindSymlink
	case unix.DT_UNKNOWN:
		return kindUnknown
	}
	return kindOther
}
