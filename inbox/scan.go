package inbox

import (
	"io/fs"
	"os"
)

type entryKind uint8

const (
	kindUnknown entryKind = iota // the file system did not say; the open checks
	kindFile
	kindDir
	kindSymlink
	kindOther // device, FIFO, socket
)

type dirEntry struct {
	name string
	kind entryKind
	typ  fs.FileMode // the type bits the directory listed, for saying what was found
}

// listDir reads the whole of the open directory dir, from its start to its
// end. Like every directory read it is not a snapshot: an entry created or
// removed during the read may or may not be listed, while every entry that
// exists throughout the read is. The receiver's scan (see scan) is built on
// exactly that guarantee.
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
		out = append(out, dirEntry{name: de.Name(), kind: k, typ: de.Type()})
	}
	return out, nil
}
