//go:build linux

package bench

import (
	"os"

	"golang.org/x/sys/unix"
)

// flushFS writes out what the file system holding dir has not yet
// written (syncfs), so that a step timed next does not share the disk
// with the writeback of what the generator wrote without fsync.
func flushFS(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}
