//go:build !linux

package inbox

import (
	"io/fs"
	"os"
)

// listDir returns the entries of the open directory dir. Outside Linux the
// listing is not guaranteed to be a snapshot (see scan_linux.go); the
// watcher's events, which arrive in order, still order one sender's
// messages.
func listDir(dir *os.File) ([]dirEntry, error) {
	if _, err := dir.Seek(0, 0); err != nil {
		return nil, err
	}
	des, err := dir.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	out := make([]dirEntry, 0, len(des))
	for _, de := range des {
		k := kindOther
		switch t := de.Type(); {
		case t.IsRegular():
			k = kindFile
		case t.IsDir():
			k = kindDir
		case t&fs.ModeSymlink != 0:
			k = kindSymlink
		}
		out = append(out, dirEntry{name: de.Name(), kind: k})
	}
	return out, nil
}
