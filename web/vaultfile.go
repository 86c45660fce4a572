package web

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/parleyhq/parley/internal/regfile"
	"github.com/parleyhq/parley/vault"
)

// readPage reads a vault page strictly: every folder on the way must be a
// real folder and the page a regular file, none of them a symbolic link
// (even one that stays inside the vault), hidden names refused, at most
// vault.MaxPageBytes. os.Root keeps every open inside the vault; the
// opened file must be the one lstat saw.
func readPage(root *os.Root, p string) ([]byte, error) {
	segs := strings.Split(p, "/")
	for _, seg := range segs {
		if !plainSegment(seg) {
			return nil, fmt.Errorf("%w: %q", errNotPage, p)
		}
	}
	for i := 1; i < len(segs); i++ {
		fi, err := root.Lstat(strings.Join(segs[:i], "/"))
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("%w: %s is not a folder", errNotPage, strings.Join(segs[:i], "/"))
		}
	}
	li, err := root.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !li.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s (%s)", errNotPage, p, li.Mode().Type())
	}
	// A named pipe swapped in after the lstat must not block the request
	// in open(2): regfile refuses it.
	f, fi, err := regfile.Open(root.OpenFile, p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if !os.SameFile(li, fi) {
		return nil, fmt.Errorf("%w: %s changed while it was opened", errNotPage, p)
	}
	if fi.Size() > vault.MaxPageBytes {
		return nil, &tooLargeError{Path: p, Size: fi.Size()}
	}
	data, err := io.ReadAll(io.LimitReader(f, vault.MaxPageBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > vault.MaxPageBytes { // it grew since the stat
		return nil, &tooLargeError{Path: p, Size: int64(len(data))}
	}
	return data, nil
}

// tooLargeError is a vault page over vault.MaxPageBytes, which is not
// read; it is vault.ErrTooLarge.
type tooLargeError struct {
	Path string
	// Size is the page's size in bytes as far as it was seen (at least
	// vault.MaxPageBytes+1).
	Size int64
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("%s is %d bytes, over the limit of %d", e.Path, e.Size, vault.MaxPageBytes)
}

func (e *tooLargeError) Unwrap() error { return vault.ErrTooLarge }
