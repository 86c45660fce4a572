package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/clip"
)

// Dir is one folder of the vault opened for fast, repeated access to the
// pages directly in it (the consensus records): listing, lstat and reads of
// single names, each a single system call relative to the open folder.
// Names with a '/' or starting with '.' are refused. Close it when done.
type Dir struct {
	path string
	r    *os.Root
	f    *os.File // the folder itself, for openat
}

// Entry is a file of a Dir as lstat sees it.
type Entry struct {
	Name    string
	Size    int64
	ModTime time.Time
	// Regular is false for symbolic links, folders and devices; such an
	// entry is never read as a page.
	Regular bool
}

// OpenDir opens the folder at a slash path relative to the vault, creating
// it (0700) when create is set. A missing folder without create yields an
// error satisfying errors.Is(err, fs.ErrNotExist).
func (v *Vault) OpenDir(p string, create bool) (*Dir, error) {
	if err := validRead(p); err != nil {
		return nil, err
	}
	if create {
		if err := v.root.MkdirAll(p, DirPerm); err != nil {
			return nil, &PageError{Op: "mkdir", Path: p, Err: v.explainDir(p, err)}
		}
	}
	r, err := v.root.OpenRoot(p)
	if err != nil {
		return nil, &PageError{Op: "open", Path: p, Err: v.explainDir(p, err)}
	}
	f, err := r.Open(".")
	if err != nil {
		r.Close()
		return nil, &PageError{Op: "open", Path: p, Err: err}
	}
	return &Dir{path: p, r: r, f: f}, nil
}

// explainDir is err, the failure to open or make the folder at slash path
// p, said as what it is when the way to p is blocked: a folder on it that
// is a symbolic link out of the vault (which os.Root refuses as a path
// that "escapes from parent"), an error wrapping ErrOutside naming the
// link and its target; or a file where a folder must be (mkdir's "file
// exists"), an error wrapping ErrNotFolder naming it.
func (v *Vault) explainDir(p string, err error) error {
	base, berr := filepath.EvalSymlinks(v.dir)
	if berr != nil {
		return err
	}
	at := ""
	for _, seg := range strings.Split(p, "/") {
		at = path.Join(at, seg)
		full := filepath.Join(v.dir, filepath.FromSlash(at))
		fi, lerr := os.Lstat(full)
		if lerr != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, terr := filepath.EvalSymlinks(full)
			if terr != nil {
				return err
			}
			if rel, rerr := filepath.Rel(base, target); rerr != nil || !filepath.IsLocal(rel) {
				return fmt.Errorf("%w: %s is a link to %s; move that folder into the vault %s, or name the vault it is in", ErrOutside, at, target, v.dir)
			}
			if fi, lerr = os.Stat(full); lerr != nil {
				return err
			}
		}
		if !fi.IsDir() {
			return fmt.Errorf("%w: %s in the vault %s is a file; rename or move it, and parley makes the folder", ErrNotFolder, at, v.dir)
		}
	}
	return err
}

// Close releases the folder.
func (d *Dir) Close() error { return errors.Join(d.f.Close(), d.r.Close()) }

// Path is the folder's slash path relative to the vault.
func (d *Dir) Path() string { return d.path }

// Stat lstats the folder itself; its modification time changes whenever a
// file is created, renamed or removed in it.
func (d *Dir) Stat() (fs.FileInfo, error) { return d.r.Lstat(".") }

// Names lists the names of the Markdown files in the folder (ending in
// ".md", not starting with '.', so staging files are never listed),
// unsorted, without lstat.
func (d *Dir) Names() ([]string, error) {
	names, _, err := d.List()
	return names, err
}

// List lists the folder once: the names of its Markdown files, as Names
// does, and the names of the folders in it (not starting with '.'; a
// symbolic link is no folder). Only the few names that do not end in
// ".md" are lstat'ed, so it costs what Names costs.
func (d *Dir) List() (pages, folders []string, err error) {
	f, err := d.r.Open(".")
	if err != nil {
		return nil, nil, &PageError{Op: "list", Path: d.path, Err: err}
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, nil, &PageError{Op: "list", Path: d.path, Err: err}
	}
	pages = names[:0]
	for _, n := range names {
		switch {
		case strings.HasPrefix(n, "."):
		case strings.HasSuffix(n, ".md"):
			pages = append(pages, n)
		default:
			if info, err := d.r.Lstat(n); err == nil && info.IsDir() {
				folders = append(folders, n)
			}
		}
	}
	return pages, folders, nil
}

// Lstat describes one file of the folder without following a link.
func (d *Dir) Lstat(name string) (Entry, error) {
	if err := validName(name); err != nil {
		return Entry{}, err
	}
	info, err := d.r.Lstat(name)
	if err != nil {
		return Entry{}, err
	}
	return Entry{Name: name, Size: info.Size(), ModTime: info.ModTime(), Regular: info.Mode().IsRegular()}, nil
}

// ReadFile reads one page of the folder: a regular file, not a symbolic
// link (ErrNotPage), at most MaxPageBytes (ErrTooLarge). It returns the
// bytes and the entry as read.
func (d *Dir) ReadFile(name string) ([]byte, Entry, error) {
	return d.ReadFileInto(name, nil)
}

// ReadFileInto is ReadFile into buf's storage when it is large enough
// (a new slice otherwise): a caller that reads many pages one after
// another and keeps none of their bytes passes the slice it got back
// last time.
func (d *Dir) ReadFileInto(name string, buf []byte) ([]byte, Entry, error) {
	if err := validName(name); err != nil {
		return nil, Entry{}, err
	}
	data, e, err := d.readAt(name, buf)
	if err != nil {
		return nil, Entry{}, &PageError{Op: "read", Path: d.path + "/" + name, Err: err}
	}
	return data, e, nil
}

func validName(name string) error {
	if name == "" || strings.ContainsAny(name, "/\\\x00") || strings.HasPrefix(name, ".") {
		return fmt.Errorf("%w: %q", ErrInvalidPath, clip.Runes(name, 81))
	}
	return nil
}

// IsNotExist reports whether err says a page or folder does not exist.
func IsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
