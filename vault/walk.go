package vault

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"strings"
)

// WalkNames calls found with the slash path (relative to the vault) of
// every file under the folder under ("." for the whole vault), in no
// order, and reads no file: hidden folders and files (.obsidian, .trash)
// are left out, symbolic links are not followed, a folder that cannot be
// read is passed over, and a folder for which skip (if not nil) returns
// true is neither listed nor entered. An under that is gone holds
// nothing. Each folder is listed once, unsorted, by its directory
// entries' types (no lstat per file), so a folder of many files costs one
// listing. It stops with ctx's error when ctx ends.
func (v *Vault) WalkNames(ctx context.Context, under string, skip func(dir string) bool, found func(p string)) error {
	start := "."
	if under != "." {
		if err := validRead(under); err != nil {
			return err
		}
		start = path.Clean(under)
	}
	var walk func(dir string) error
	walk = func(dir string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if skip != nil && skip(dir) {
			return nil
		}
		f, err := v.root.Open(dir)
		if err != nil {
			if dir == start && !errors.Is(err, fs.ErrNotExist) {
				return &PageError{Op: "list", Path: dir, Err: err}
			}
			return nil
		}
		entries, err := f.ReadDir(-1)
		f.Close()
		if err != nil && len(entries) == 0 {
			return nil // an unreadable folder holds nothing we can see
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			p := path.Join(dir, e.Name())
			switch {
			case e.IsDir():
				if err := walk(p); err != nil {
					return err
				}
			case e.Type()&fs.ModeSymlink == 0:
				found(p)
			}
		}
		return nil
	}
	return walk(start)
}
