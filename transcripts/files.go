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
// regular file only); what is not a regular file is ErrMalformed.
func openFile(r *os.Root, name string, flag int, perm fs.FileMode) (*os.File, error) {
	f, _, err := regfile.OpenFile(r.OpenFile, name, flag, perm)
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
