// Package filesig tells from stat alone whether a file may have changed
// since it was read: its signature (size, modification and change times,
// inode) and the racy margin within which a signature proves nothing.
//
// It imports only the standard library; every parley package that keeps
// what it read from a file in memory may import it.
package filesig

import (
	"errors"
	"io/fs"
	"time"
)

// ErrNoAt: At is not available on this system (only on Linux).
var ErrNoAt = errors.New("filesig: At is not available on this system")

// CoarseMargin is how close a file's modification time may be to the
// moment it was looked at before its size and time stop proving it
// unchanged: a second write within the file system's timestamp granularity
// can leave both alike. It is CoarseMargin on a file system whose
// timestamps are whole milliseconds or coarser (FAT, HFS+, some network
// file systems) and FineMargin where they carry nanoseconds (ext4, XFS,
// Btrfs, tmpfs, APFS: a kernel clock tick is at most 10 ms).
const (
	CoarseMargin = 2 * time.Second
	FineMargin   = 20 * time.Millisecond
)

// Margin is the racy margin of a file system, told by one of its
// modification times (a coarse one is a whole number of milliseconds; a
// fine one is so by chance once in a million).
func Margin(modNs int64) time.Duration {
	if modNs%int64(time.Millisecond) != 0 {
		return FineMargin
	}
	return CoarseMargin
}

// Sig identifies a state of a file: a write changes its size or its
// modification and change times (the change time cannot be set back by
// touch), a replacement its inode. The zero Sig is a file that is not
// there. Compare signatures made the same way (Of, or At).
type Sig struct {
	Exists          bool
	Mode            uint32 // the type and permission bits
	Size            int64
	ModNs, ChangeNs int64
	Dev, Ino        uint64
}

// Of is the signature of the file fi describes.
func Of(fi fs.FileInfo) Sig {
	s := Sig{Exists: true, Mode: uint32(fi.Mode()), Size: fi.Size(), ModNs: fi.ModTime().UnixNano()}
	sys(fi, &s)
	return s
}

// Settled reports whether the file, looked at (stat'ed) at at, was older
// than the racy margin then: a later write changes its signature. A file
// that is not there is settled.
func (s Sig) Settled(at time.Time) bool {
	if !s.Exists {
		return true
	}
	last := max(s.ModNs, s.ChangeNs)
	return at.UnixNano()-last >= int64(Margin(s.ModNs))
}
