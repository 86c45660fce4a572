package transcripts

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// openRead opens a file of the store for reading. O_NONBLOCK keeps a named
// pipe planted in its place from blocking the caller in open(2) for good
// (where not even SIGINT gets it out); anything but a regular file is
// ErrMalformed.
func openRead(r *os.Root, name string) (*os.File, error) {
	f, err := r.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if err := checkRegular(f, name); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
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

func checkRegular(f *os.File, name string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%w: %s is a %v, not a regular file", ErrMalformed, name, fi.Mode().Type())
	}
	return nil
}
