package vault

import (
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"syscall"
	"time"
)

// readAt reads one file of the folder with openat(O_NOFOLLOW) relative to
// the open folder: a symbolic link fails (ELOOP, reported as ErrNotPage)
// and name, a single validated component, cannot leave the folder. It
// spares the lstat, the epoll registration and the extra fstat of going
// through os.Root, which is most of the cost of reading many small pages.
func (d *Dir) readAt(name string, buf []byte) ([]byte, Entry, error) {
	fd, err := syscall.Openat(int(d.f.Fd()), name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	runtime.KeepAlive(d.f)
	if err == syscall.ELOOP {
		return nil, Entry{}, notPage(fs.ModeSymlink)
	}
	if err != nil {
		return nil, Entry{}, &os.PathError{Op: "openat", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, Entry{}, &os.PathError{Op: "fstat", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, Entry{}, notPage(modeType(st.Mode))
	}
	if st.Size > MaxPageBytes {
		return nil, Entry{}, fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, st.Size, MaxPageBytes)
	}
	data := buf[:0]
	if int64(cap(data)) < st.Size+1 {
		data = make([]byte, 0, st.Size+1)
	}
	for {
		n, err := syscall.Read(fd, data[len(data):cap(data)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, Entry{}, &os.PathError{Op: "read", Path: name, Err: err}
		}
		if n == 0 {
			break
		}
		data = data[:len(data)+n]
		if int64(len(data)) == st.Size && len(data) < cap(data) {
			// All fstat saw, and a read that asked for more gave no
			// more: the end (a later append changes the file's time).
			break
		}
		if len(data) > MaxPageBytes {
			return nil, Entry{}, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, MaxPageBytes)
		}
		if len(data) == cap(data) { // the file grew since the fstat
			data = append(data, 0)[:len(data)]
		}
	}
	return data, Entry{Name: name, Size: int64(len(data)), ModTime: time.Unix(st.Mtim.Unix()), Regular: true}, nil
}

// modeType is the fs.FileMode type of a stat(2) mode.
func modeType(m uint32) fs.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}
