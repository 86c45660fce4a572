package transcripts

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/parleyhq/parley/internal/regfile"
)

// openRead opens a file of the store for reading. O_NONBLOCK keeps a named
// pipe planted in its place from blocking the caller in open(2) for good
// (where not even SIGINT gets it out); anything but a regular file is
// ErrMalformed.
func openRead(r *os.Root, name string) (*os.File, error) {
	return openFile(r, name, os.O_RDONLY, 0)
}

// openFile opens a file of the store through regfile (non-blocking, a
// regular file only); what is not a regular file is ErrMalformed, and so
// is a symbolic link the root refuses to follow (one leading out of it,
// or in a loop): a debate's files are never links.
func openFile(r *os.Root, name string, flag int, perm fs.FileMode) (*os.File, error) {
	f, _, err := regfile.OpenFile(r.OpenFile, name, flag, perm)
	if err != nil && !errors.Is(err, regfile.ErrNotRegular) && !errors.Is(err, fs.ErrNotExist) {
		if fi, lerr := r.Lstat(name); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			err = &regfile.NotRegularError{Name: name, Mode: fi.Mode().Type()}
		}
	}
	if errors.Is(err, regfile.ErrNotRegular) {
		return nil, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	return f, err
}

// readFile reads a whole file of the store, as openRead opens it.
func readFile(r *os.Root, name string) ([]byte, error) {
	f, err := openRead(r, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// replaced is the problem an audit reports for a debate's file that err,
// openFile's error, says is not a regular file (a pipe, a directory, a
// link): something was put in its place. ok is false for any other error.
func replaced(err error) (problem string, ok bool) {
	var nr *regfile.NotRegularError
	if !errors.As(err, &nr) {
		return "", false
	}
	return fmt.Sprintf("it is %s, not a regular file: something was put in the file's place", regfile.Kind(nr.Mode)), true
}
