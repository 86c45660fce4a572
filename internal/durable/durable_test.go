package durable_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/parleyhq/parley/internal/durable"
)

func openRoot(t testing.TB) (*os.Root, string) {
	t.Helper()
	dir := t.TempDir()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, dir
}

func entries(t testing.TB, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

func TestWriteFileReplacesAtomically(t *testing.T) {
	t.Parallel()
	r, dir := openRoot(t)
	fsys := durable.Root(r)
	if err := durable.WriteFile(fsys, "a.json", []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := durable.WriteFile(fsys, "a.json", []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "a.json"))
	if string(got) != "two" {
		t.Fatalf("content = %q, want two", got)
	}
	fi, _ := os.Stat(filepath.Join(dir, "a.json"))
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("perm = %v, want 0600", fi.Mode().Perm())
	}
	if n := entries(t, dir); len(n) != 1 {
		t.Fatalf("left behind: %v", n)
	}
}

func TestCreateFileExactlyOneWinner(t *testing.T) {
	t.Parallel()
	r, dir := openRoot(t)
	fsys := durable.Root(r)
	var wins, exists atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			err := durable.CreateFile(fsys, "name.json", []byte{byte('a' + i)}, 0o600)
			switch {
			case err == nil:
				wins.Add(1)
			case durable.IsExist(err):
				exists.Add(1)
			default:
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	if wins.Load() != 1 || exists.Load() != 15 {
		t.Fatalf("wins=%d exists=%d, want 1 and 15", wins.Load(), exists.Load())
	}
	if n := entries(t, dir); len(n) != 1 {
		t.Fatalf("left behind: %v", n)
	}
}

func TestFaultsLeaveNothingBehind(t *testing.T) {
	t.Parallel()
	for _, op := range []string{"open", "write", "sync", "rename"} {
		for _, errno := range []error{syscall.ENOSPC, syscall.EACCES} {
			t.Run(op+"/"+errno.Error(), func(t *testing.T) {
				t.Parallel()
				r, dir := openRoot(t)
				ffs := &durable.FaultFS{FS: durable.Root(r)}
				if err := durable.WriteFile(ffs, "a.json", []byte("old"), 0o600); err != nil {
					t.Fatal(err)
				}
				ffs.Fail(op, "", errno, 0)
				err := durable.WriteFile(ffs, "a.json", []byte("new content"), 0o600)
				if !errors.Is(err, errno) {
					t.Fatalf("err = %v, want %v", err, errno)
				}
				var pe *durable.PathError
				if !errors.As(err, &pe) {
					t.Fatalf("err %T is not a *PathError", err)
				}
				got, _ := os.ReadFile(filepath.Join(dir, "a.json"))
				if string(got) != "old" {
					t.Fatalf("content = %q, want old (nothing half-written)", got)
				}
				if n := entries(t, dir); len(n) != 1 {
					t.Fatalf("left behind: %v", n)
				}
			})
		}
	}
}

func TestRootRefusesEscape(t *testing.T) {
	t.Parallel()
	r, dir := openRoot(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	fsys := durable.Root(r)
	for _, name := range []string{"../x.json", "link/x.json"} {
		if err := durable.WriteFile(fsys, name, []byte("x"), 0o600); err == nil {
			t.Errorf("WriteFile(%q) escaped the root", name)
		}
	}
	if n := entries(t, outside); len(n) != 0 {
		t.Fatalf("wrote outside the root: %v", n)
	}
	_ = fs.ErrExist
}
