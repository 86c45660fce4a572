//go:build !linux

package filesig

import "io/fs"

// sys adds nothing where the change time and inode are not read: the size
// and modification time stand alone.
func sys(fs.FileInfo, *Sig) {}

// At is ErrNoAt here: callers stat through their os.Root and call Of.
func At(dir int, name string) (Sig, error) { return Sig{}, ErrNoAt }
