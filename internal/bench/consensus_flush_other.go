//go:build !linux

package bench

// flushFS is a no-op where syncfs is not available: the steps after the
// generator may share the disk with its writeback.
func flushFS(string) error { return nil }
