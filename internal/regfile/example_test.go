package regfile_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/parleyhq/parley/internal/regfile"
)

// A named pipe where a state file should be is refused at once instead of
// blocking the reader.
func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "regfile")
	defer os.RemoveAll(dir)
	_ = syscall.Mkfifo(filepath.Join(dir, "config.json"), 0o600)
	root, _ := os.OpenRoot(dir)
	defer root.Close()

	_, _, err := regfile.Open(root.OpenFile, "config.json")
	fmt.Println(errors.Is(err, regfile.ErrNotRegular))
	fmt.Println(err)
	// Output:
	// true
	// config.json is a named pipe, not a regular file
}
