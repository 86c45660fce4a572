//go:build unix

package consensus

import "golang.org/x/sys/unix"

// writable reports whether this process may create files in dir: not on a
// read-only file system, nor in a directory it has no write permission on.
func writable(dir string) bool { return unix.Access(dir, unix.W_OK) == nil }
