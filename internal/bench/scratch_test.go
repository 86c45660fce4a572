package bench

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A benchmark given a directory (--dir: the file system to measure) runs
// in a new directory inside it and removes that when it ends: the
// directory is left as it was found (its own files untouched; gone again
// when the run made it), and a second run starts as empty as the first.
func TestScratchInAGivenDirectoryLeavesNothingBehind(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		exists bool
	}{{"existing directory", true}, {"new directory", false}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			given := filepath.Join(t.TempDir(), "measure-here")
			var before []string
			if tc.exists {
				if err := os.MkdirAll(given, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(given, "mine.txt"), []byte("keep me"), 0o600); err != nil {
					t.Fatal(err)
				}
				before = []string{"mine.txt"}
			}
			for run := 1; run <= 2; run++ {
				dir, cleanup, err := scratch(given, "parley-bench-")
				if err != nil {
					t.Fatal(err)
				}
				if rel, err := filepath.Rel(given, dir); err != nil || !filepath.IsLocal(rel) || rel == "." {
					t.Fatalf("run %d: scratch %s is not a new directory inside %s", run, dir, given)
				}
				if left := names(t, dir); len(left) != 0 {
					t.Fatalf("run %d starts in a directory holding %v", run, left)
				}
				if err := os.MkdirAll(filepath.Join(dir, "throughput", "inbox", "cur"), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "throughput", "inbox", "cur", "1.json"), []byte("{}"), 0o600); err != nil {
					t.Fatal(err)
				}
				cleanup()
				if !tc.exists {
					if _, err := os.Stat(given); !errors.Is(err, fs.ErrNotExist) {
						t.Fatalf("after run %d, the directory the run made is still there: %v", run, err)
					}
					continue
				}
				if got := names(t, given); !slices.Equal(got, before) {
					t.Fatalf("after run %d, %s holds %v; want %v", run, given, got, before)
				}
			}
		})
	}
}

// names lists a directory's entries.
func names(t testing.TB, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n []string
	for _, de := range des {
		n = append(n, de.Name())
	}
	return n
}
