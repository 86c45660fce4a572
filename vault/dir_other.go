//go:build !linux

package vault

// readAt reads one file of the folder through os.Root (see dir_linux.go
// for the fast path).
func (d *Dir) readAt(name string, _ []byte) ([]byte, Entry, error) {
	data, info, err := readFile(d.r, name, true)
	if err != nil {
		return nil, Entry{}, err
	}
	return data, Entry{Name: name, Size: info.Size(), ModTime: info.ModTime(), Regular: true}, nil
}
