// Package durable is parley's one way to put a state file on disk: a staging
// file in the same directory, written and fsynced, renamed (or linked) into
// place, and the directory fsynced. A reader therefore sees either the old
// file, the new file, or no file; never a torn one.
//
// Every operation goes through the small FS interface so that tests can
// inject ENOSPC, EACCES or a crash between steps (see FaultFS).
package durable

import (
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
)

// File is the part of *os.File that a durable write needs.
type File interface {
	io.Writer
	Sync() error
	Close() error
}

// FS is the seam through which state files are written. Names are slash
// separated and relative to the FS; implementations must not follow a
// symbolic link out of their root.
type FS interface {
	OpenFile(name string, flag int, perm fs.FileMode) (File, error)
	Rename(oldname, newname string) error
	Link(oldname, newname string) error
	Remove(name string) error
}

// Root adapts an *os.Root, which keeps every name inside the root directory
// and refuses symbolic links that lead out of it.
func Root(r *os.Root) FS { return rootFS{r} }

type rootFS struct{ r *os.Root }

func (f rootFS) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	return f.r.OpenFile(name, flag, perm)
}
func (f rootFS) Rename(oldname, newname string) error { return f.r.Rename(oldname, newname) }
func (f rootFS) Link(oldname, newname string) error   { return f.r.Link(oldname, newname) }
func (f rootFS) Remove(name string) error             { return f.r.Remove(name) }

// Prefix narrows fsys to its directory dir: every name is taken relative to
// dir. It adds no system call; a FaultFS under it still sees the full names.
// (Over an *os.Root, Root of r.OpenRoot(dir) does the same job with one
// open directory and no path walk per call.)
func Prefix(fsys FS, dir string) FS { return prefixFS{fsys, dir} }

type prefixFS struct {
	fs  FS
	dir string
}

func (f prefixFS) name(n string) string { return path.Join(f.dir, n) }

func (f prefixFS) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	return f.fs.OpenFile(f.name(name), flag, perm)
}
func (f prefixFS) Rename(oldname, newname string) error {
	return f.fs.Rename(f.name(oldname), f.name(newname))
}
func (f prefixFS) Link(oldname, newname string) error {
	return f.fs.Link(f.name(oldname), f.name(newname))
}
func (f prefixFS) Remove(name string) error { return f.fs.Remove(f.name(name)) }

// StagingName returns a fresh staging name beside name: it starts with a dot
// and ends in ".tmp", so that no reader of "*.json" ever picks it up. Its
// 48 random bits come from the runtime's generator (ChaCha8, seeded by the
// system for each process): the name need only be one no other writer
// picks, and the file is created exclusively all the same. The package
// imports nothing that reflects (internal/quicksend).
func StagingName(name string) string {
	dir, base := path.Split(name)
	return dir + "." + base + "." + Hex(rand.Uint64(), 12) + ".tmp"
}

// Hex is the low n hexadecimal digits of x (n ≤ 16), lower case, zeros in
// front: encoding/hex of random bytes, for the packages that must not
// import it.
func Hex(x uint64, n int) string {
	const digits = "0123456789abcdef"
	var b [16]byte
	for i := n - 1; i >= 0; i-- {
		b[i] = digits[x&0xf]
		x >>= 4
	}
	return string(b[:n])
}

// WriteFile atomically replaces name with data. On error nothing is left
// behind (the staging file is removed and name keeps its previous
// content), but for an error that is Placed: the directory's sync failed
// once name held data.
func WriteFile(fsys FS, name string, data []byte, perm fs.FileMode) error {
	return write(fsys, name, data, perm, false)
}

// CreateFile atomically creates name with data; it never replaces an
// existing file and then returns an error satisfying errors.Is(err,
// fs.ErrExist). It is the race-free way to claim a name: of two concurrent
// callers exactly one succeeds, and the file is complete when it appears.
// On error nothing is left behind, but for an error that is Placed (see
// WriteFile).
func CreateFile(fsys FS, name string, data []byte, perm fs.FileMode) error {
	return write(fsys, name, data, perm, true)
}

func write(fsys FS, name string, data []byte, perm fs.FileMode, exclusive bool) (err error) {
	tmp := StagingName(name)
	f, err := fsys.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return &PathError{Op: "create", Path: tmp, Err: err}
	}
	defer func() {
		if err != nil {
			_ = fsys.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		f.Close()
		return &PathError{Op: "write", Path: tmp, Err: err}
	}
	if err = f.Sync(); err != nil {
		f.Close()
		return &PathError{Op: "sync", Path: tmp, Err: err}
	}
	if err = f.Close(); err != nil {
		return &PathError{Op: "close", Path: tmp, Err: err}
	}
	if exclusive {
		if err = fsys.Link(tmp, name); err != nil {
			return &PathError{Op: "link", Path: name, Err: err}
		}
		// The staging name is only a second link to the same file now; a
		// failure to remove it leaves a dot-file that gc prunes.
		_ = fsys.Remove(tmp)
	} else if err = fsys.Rename(tmp, name); err != nil {
		return &PathError{Op: "rename", Path: name, Err: err}
	}
	if err = SyncDir(fsys, path.Dir(name)); err != nil {
		var pe *PathError
		if errors.As(err, &pe) {
			pe.Placed = true
		}
	}
	return err
}

// SyncDir fsyncs a directory so that a rename or link in it survives a
// crash.
func SyncDir(fsys FS, dir string) error {
	d, err := fsys.OpenFile(dir, os.O_RDONLY, 0)
	if err != nil {
		return &PathError{Op: "open", Path: dir, Err: err}
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return &PathError{Op: "sync", Path: dir, Err: err}
	}
	return nil
}

// PathError records a failed step of a durable write.
type PathError struct {
	Op   string // create, write, sync, close, link, rename, open
	Path string
	Err  error
	// Placed says the file was already in place under its name when the
	// step failed (the directory's sync, after the rename or link): a
	// reader may have it, though a crash before the directory is synced
	// could still undo it.
	Placed bool
}

func (e *PathError) Error() string { return e.Op + " " + e.Path + ": " + ErrorString(e.Err) }
func (e *PathError) Unwrap() error { return e.Err }

// IsExist reports whether err says that the target name already exists.
func IsExist(err error) bool { return errors.Is(err, fs.ErrExist) }

// OpenRoot opens the directory dir as an os.Root, creating it (and its
// parents, 0700) when it is missing: the messenger root that the inbox and
// the registry share, whichever opens it first.
func OpenRoot(dir string) (*os.Root, error) {
	r, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, Wrap("create messenger root", err)
		}
		r, err = os.OpenRoot(dir)
	}
	if err != nil {
		return nil, Wrap("open messenger root", err)
	}
	return r, nil
}

// Wrap is fmt.Errorf("%s: %w", what, err), for the packages that must not
// import fmt (internal/quicksend).
func Wrap(what string, err error) error { return &wrapError{what, err} }

type wrapError struct {
	what string
	err  error
}

func (e *wrapError) Error() string { return e.what + ": " + ErrorString(e.err) }
func (e *wrapError) Unwrap() error { return e.err }

// ErrorString is err's message as fmt's %v writes it ("<nil>" for none).
func ErrorString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
