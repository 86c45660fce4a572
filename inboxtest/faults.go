package inboxtest

import (
	"io/fs"
	"os"
	"sync/atomic"
	"syscall"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/durable"
)

// DirSyncFails is a file system whose directories stop syncing (EIO) once
// Armed is set, as a failing disk or a network file system may: a durable
// write through it fails at its last step, its file in place (an error
// that is Placed).
type DirSyncFails struct {
	durable.FS
	Armed atomic.Bool
}

// OpenFile opens name; a directory opened to be synced once Armed is set
// fails its Sync.
func (f *DirSyncFails) OpenFile(name string, flag int, perm fs.FileMode) (durable.File, error) {
	file, err := f.FS.OpenFile(name, flag, perm)
	if err != nil || flag != os.O_RDONLY || !f.Armed.Load() {
		return file, err
	}
	return eioOnSync{file}, nil
}

type eioOnSync struct{ durable.File }

func (eioOnSync) Sync() error { return syscall.EIO }

// PlacedError is the error of a send of m that failed once m was in its
// recipient's inbox (the directory's sync), as the file messenger says it.
func PlacedError(m *inbox.Message) error {
	return &inbox.DeliveryError{Op: "send", Agent: m.To, Path: "inbox/" + m.To + "/m.json",
		Err: &durable.PathError{Op: "sync", Path: ".", Err: syscall.EIO, Placed: true}}
}
