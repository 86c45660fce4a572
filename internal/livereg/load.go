package livereg

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// MaxRegistrationBytes bounds a registration file, on write and on read
// (registry's).
const MaxRegistrationBytes = 64 << 10

// Dir is the directory of the registrations under the root.
const Dir = "registry"

// Path is the registration file of name, relative to the root.
func Path(name string) string { return Dir + "/" + name + ".json" }

// ErrNotRegular is ReadFile's error for something other than a regular
// file at a registration's place (a directory, a link, a FIFO): never a
// registration, and never followed.
var ErrNotRegular = errors.New("not a regular file")

// ReadFile reads name's registration file under the root r as the
// registry reads it: a regular file (ErrNotRegular otherwise, never
// followed out of the root), of which at most MaxRegistrationBytes+1
// bytes are read, enough to tell one over the limit. fi is the file's
// Lstat, nil when that failed (then err is Lstat's: fs.ErrNotExist when
// there is no registration).
func ReadFile(r *os.Root, name string) (data []byte, fi fs.FileInfo, err error) {
	path := Path(name)
	if fi, err = r.Lstat(path); err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fi, ErrNotRegular
	}
	f, err := r.Open(path)
	if err != nil {
		return nil, fi, err
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, MaxRegistrationBytes+1))
	return data, fi, err
}

// Load reads the head of name's registration under the root r (ReadFile)
// when Read reads it with certainty and it names name; ok is false for
// anything else (no file, a file that cannot be read or that the
// registry would refuse): the caller then asks the registry, which says
// why.
func Load(r *os.Root, name string) (h Head, ok bool) {
	data, _, err := ReadFile(r, name)
	if err != nil {
		return Head{}, false
	}
	h, ok = Read(data)
	return h, ok && h.Name == name
}
