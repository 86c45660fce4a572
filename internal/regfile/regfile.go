// Package regfile opens the files parley reads on its own (config.json, the
// lookup cache, gate.jsonl, vault pages, a debate's files): read-only with
// O_NONBLOCK, and refused unless they are regular files. A named pipe
// planted in such a file's place would otherwise block the reader in
// open(2) for good, waiting for a writer, where not even a signal gets it
// out; with O_NONBLOCK it opens at once and the fstat refuses it.
//
// Paths the user names on the command line (--context, "gate FILE") may be
// pipes and are not opened through this package.
package regfile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is what Open's error wraps when the name is something
// other than a regular file (a named pipe, a directory, a device, a
// socket).
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError is Open's error for something that is not a regular
// file; errors.Is(err, ErrNotRegular) holds.
type NotRegularError struct {
	Name string
	Mode fs.FileMode // the type bits of what was found
}

func (e *NotRegularError) Error() string {
	return e.Name + " is " + Kind(e.Mode) + ", " + ErrNotRegular.Error()
}

func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// OpenFunc opens a file: os.OpenFile, or the OpenFile method of an
// *os.Root, which keeps the name inside the root.
type OpenFunc func(name string, flag int, perm fs.FileMode) (*os.File, error)

// Open opens name for reading through open, with O_NONBLOCK, and returns it
// with its FileInfo if it is a regular file. Anything else is closed again
// and fails with a *NotRegularError; the open's own errors (fs.ErrNotExist,
// a symbolic link os.Root refuses) are returned as they are.
func Open(open OpenFunc, name string) (*os.File, fs.FileInfo, error) {
	return OpenFile(open, name, os.O_RDONLY, 0)
}

// OpenFile is Open with other flags (O_WRONLY|O_APPEND for a log, O_CREATE
// with perm): for writing, O_NONBLOCK makes a named pipe with no reader
// fail at once (ENXIO) instead of blocking until something reads it.
func OpenFile(open OpenFunc, name string, flag int, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	f, err := open(name, flag|syscall.O_NONBLOCK, perm)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Name: name, Mode: fi.Mode().Type()}
	}
	return f, fi, nil
}

// Kind names what a file mode's type is, with its article ("a named
// pipe", "a directory"), for saying what was found where a file should be.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0:
		return "a block device"
	case m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	}
	return "a special file"
}
