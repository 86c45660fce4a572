package buildstamp

import (
	"io"
	"os"
)

// Read is the Info of this binary, with Override applied, read from the
// build record the linker stored in the executable's .go.buildinfo
// section (the record debug/buildinfo reads: a 32-byte header, then the
// Go version and the record, each prefixed by its length). ok is false
// when it cannot be read that way (an executable that cannot be opened,
// is not a little-endian 64-bit ELF file, has no section headers or no
// such section, or a record FromRecord refuses).
func Read() (Info, bool) {
	f, err := os.Open("/proc/self/exe")
	if err != nil {
		return Info{}, false
	}
	defer f.Close()
	record, ok := buildRecord(f)
	if !ok {
		return Info{}, false
	}
	i, ok := FromRecord(record)
	if !ok {
		return Info{}, false
	}
	i.SetVersion(Override)
	return i, true
}

// Limits on what buildRecord reads: far beyond any real executable's, so
// that a damaged one costs no more than a little reading.
const (
	maxSections    = 1 << 12
	maxNames       = 1 << 16
	maxRecordBytes = 1 << 20
)

// buildRecord is the build record in ELF file f.
func buildRecord(f io.ReaderAt) (string, bool) {
	data, ok := section(f, ".go.buildinfo", maxRecordBytes)
	if !ok {
		return "", false
	}
	return record(data)
}

// section is the content of the section named name in the little-endian
// 64-bit ELF file f, refused when over limit bytes.
func section(f io.ReaderAt, name string, limit int) ([]byte, bool) {
	var h [64]byte
	if _, err := f.ReadAt(h[:], 0); err != nil {
		return nil, false
	}
	// \x7fELF, 64-bit, little-endian, the current version.
	if string(h[:4]) != "\x7fELF" || h[4] != 2 || h[5] != 1 || h[6] != 1 {
		return nil, false
	}
	shoff, shentsize, shnum, shstrndx := le64(h[0x28:]), int(le16(h[0x3a:])), int(le16(h[0x3c:])), int(le16(h[0x3e:]))
	if shentsize != 64 || shnum == 0 || shnum > maxSections || shstrndx >= shnum {
		return nil, false
	}
	headers, ok := readSection(f, shoff, uint64(shnum*shentsize), maxSections*64)
	if !ok {
		return nil, false
	}
	header := func(i int) (name uint32, off, size uint64) {
		s := headers[i*shentsize:]
		return le32(s), le64(s[0x18:]), le64(s[0x20:])
	}
	_, namesOff, namesSize := header(shstrndx)
	names, ok := readSection(f, namesOff, namesSize, maxNames)
	if !ok {
		return nil, false
	}
	for i := range shnum {
		n, off, size := header(i)
		if n >= uint32(len(names)) || !hasName(names[n:], name) {
			continue
		}
		return readSection(f, off, size, limit)
	}
	return nil, false
}

// record reads the build record out of a .go.buildinfo section: after
// the magic header, the pointer size and the flags (strings held inline,
// as every linker since Go 1.18 writes them), the Go version, then the
// record.
func record(data []byte) (string, bool) {
	const headerSize, flagsInline = 32, 2
	if len(data) < headerSize || string(data[:14]) != "\xff Go buildinf:" || data[15]&flagsInline == 0 {
		return "", false
	}
	_, rest, ok := lengthPrefixed(data[headerSize:])
	if !ok {
		return "", false
	}
	mod, _, ok := lengthPrefixed(rest)
	return string(mod), ok
}

// lengthPrefixed splits b's first string (an unsigned varint length, then
// that many bytes) from what follows it.
func lengthPrefixed(b []byte) (s, rest []byte, ok bool) {
	var n uint64
	for i := 0; i < len(b) && i < 10; i++ {
		n |= uint64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			b = b[i+1:]
			if n > uint64(len(b)) {
				return nil, nil, false
			}
			return b[:n], b[n:], true
		}
	}
	return nil, nil, false
}

// readSection reads size bytes at off, refusing sections over limit.
func readSection(f io.ReaderAt, off, size uint64, limit int) ([]byte, bool) {
	if size > uint64(limit) || off > 1<<62 {
		return nil, false
	}
	b := make([]byte, size)
	if _, err := f.ReadAt(b, int64(off)); err != nil {
		return nil, false
	}
	return b, true
}

// hasName reports whether the NUL-terminated name at the start of b is name.
func hasName(b []byte, name string) bool {
	return len(b) > len(name) && string(b[:len(name)]) == name && b[len(name)] == 0
}

func le16(b []byte) uint16 { return uint16(b[0]) | uint16(b[1])<<8 }
func le32(b []byte) uint32 { return uint32(le16(b)) | uint32(le16(b[2:]))<<16 }
func le64(b []byte) uint64 { return uint64(le32(b)) | uint64(le32(b[4:]))<<32 }

// BuildID is the Go build ID (what "go tool buildid" prints) of the ELF
// executable f, /proc/self/exe for this binary's: the hash of its
// content, so two executables with one build ID are the same program. It
// reads the .note.go.buildid section: one note named "Go" (4 bytes with
// its NULs), of type 4, whose description is the ID. ok is false when it
// cannot be read (no such note, as with -ldflags=-buildid=, or a file
// Read could not read either).
func BuildID(f io.ReaderAt) (string, bool) {
	const noteType = 4
	n, ok := section(f, ".note.go.buildid", 1<<12)
	if !ok || len(n) < 16 {
		return "", false
	}
	namesz, descsz, typ := le32(n), le32(n[4:]), le32(n[8:])
	if namesz != 4 || typ != noteType || string(n[12:16]) != "Go\x00\x00" || uint64(descsz) > uint64(len(n)-16) || descsz == 0 {
		return "", false
	}
	return string(n[16 : 16+descsz]), true
}
