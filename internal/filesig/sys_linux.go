//go:build linux

package filesig

import (
	"errors"
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
)

func sys(fi fs.FileInfo, s *Sig) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.Mode = st.Mode
		s.Dev, s.Ino = uint64(st.Dev), uint64(st.Ino)
		s.ChangeNs = st.Ctim.Nano()
	}
}

// At is the signature of the file at the relative path name under the
// directory open as dir, following symbolic links (it only stats: the
// caller reads through os.Root), in one system call; the zero Sig when
// there is nothing there.
func At(dir int, name string) (Sig, error) {
	var st unix.Stat_t
	err := unix.Fstatat(dir, name, &st, 0)
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
		return Sig{}, nil
	}
	if err != nil {
		return Sig{}, &fs.PathError{Op: "fstatat", Path: name, Err: err}
	}
	return Sig{Exists: true, Mode: st.Mode, Size: st.Size, ModNs: st.Mtim.Nano(), ChangeNs: st.Ctim.Nano(), Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, nil
}
