package livereg

import (
	"io"
	"os"
)

// MaxRegistrationBytes bounds a registration file, on write and on read
// (registry's).
const MaxRegistrationBytes = 64 << 10

// Dir is the directory of the registrations under the root.
const Dir = "registry"

// Path is the registration file of name, relative to the root.
func Path(name string) string { return Dir + "/" + name + ".json" }

// Load reads the head of name's registration under the root r as the
// registry reads the file (a regular file, at most MaxRegistrationBytes,
// never followed out of the root) when Read reads it with certainty and
// it names name; ok is false for anything else (no file, a file that
// cannot be read or that the registry would refuse): the caller then asks
// the registry, which says why.
func Load(r *os.Root, name string) (h Head, ok bool) {
	path := Path(name)
	if fi, err := r.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return Head{}, false
	}
	f, err := r.Open(path)
	if err != nil {
		return Head{}, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxRegistrationBytes+1))
	if err != nil {
		return Head{}, false
	}
	h, ok = Read(data)
	return h, ok && h.Name == name
}
