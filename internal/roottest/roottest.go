// Package roottest gives tests a directory opened as an os.Root: what
// every package that writes through a root sets up first.
package roottest

import (
	"os"
	"testing"
)

// Temp opens a new temporary directory as a root, closed when the test
// ends, and returns it with the directory's path.
func Temp(t testing.TB) (*os.Root, string) {
	t.Helper()
	dir := t.TempDir()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, dir
}
