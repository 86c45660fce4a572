package inbox

type entryKind uint8

const (
	kindUnknown entryKind = iota // the file system did not say; check with lstat
	kindFile
	kindDir
	kindSymlink
	kindOther // device, FIFO, socket
)

func (k entryKind) String() string {
	switch k {
	case kindFile:
		return "regular file"
	case kindDir:
		return "directory"
	case kindSymlink:
		return "symbolic link"
	case kindOther:
		return "special file"
	}
	return "unknown"
}

type dirEntry struct {
	name string
	kind entryKind
}
