package durable_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/roottest"
)

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
	r, dir := roottest.Temp(t)
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
	r, dir := roottest.Temp(t)
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
				r, dir := roottest.Temp(t)
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
	r, dir := roottest.Temp(t)
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

// opLog is a durable.FS that records every step of a write, in order:
// "create NAME" (an exclusive create), "open NAME" (a read-only open, a
// directory), "write NAME", "sync NAME", "close NAME", "rename OLD NEW",
// "link OLD NEW", "remove NAME".
type opLog struct {
	durable.FS
	ops []string
}

func (l *opLog) OpenFile(name string, flag int, perm fs.FileMode) (durable.File, error) {
	f, err := l.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	if flag&os.O_CREATE != 0 {
		l.ops = append(l.ops, "create "+name)
	} else {
		l.ops = append(l.ops, "open "+name)
	}
	return &loggedFile{File: f, name: name, log: l}, nil
}

func (l *opLog) Rename(oldname, newname string) error {
	l.ops = append(l.ops, "rename "+oldname+" "+newname)
	return l.FS.Rename(oldname, newname)
}

func (l *opLog) Link(oldname, newname string) error {
	l.ops = append(l.ops, "link "+oldname+" "+newname)
	return l.FS.Link(oldname, newname)
}

func (l *opLog) Remove(name string) error {
	l.ops = append(l.ops, "remove "+name)
	return l.FS.Remove(name)
}

type loggedFile struct {
	durable.File
	name string
	log  *opLog
}

func (f *loggedFile) Write(p []byte) (int, error) {
	f.log.ops = append(f.log.ops, "write "+f.name)
	return f.File.Write(p)
}

func (f *loggedFile) Sync() error {
	f.log.ops = append(f.log.ops, "sync "+f.name)
	return f.File.Sync()
}

func (f *loggedFile) Close() error {
	f.log.ops = append(f.log.ops, "close "+f.name)
	return f.File.Close()
}

// The helper's contract, step by step: a staging dot-file in the same
// directory, written, fsynced and closed, then renamed (WriteFile) or
// linked (CreateFile) into place, then the directory fsynced, so that a
// crash after the call returns cannot lose the new name.
func TestWriteStepsInOrder(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		write func(durable.FS, string, []byte, fs.FileMode) error
		place string // the step that puts the staging file at its name
	}{
		{"WriteFile", durable.WriteFile, "rename"},
		{"CreateFile", durable.CreateFile, "link"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, dir := roottest.Temp(t)
			if err := r.Mkdir("sub", 0o700); err != nil {
				t.Fatal(err)
			}
			log := &opLog{FS: durable.Root(r)}
			if err := tc.write(log, "sub/a.json", []byte("data"), 0o600); err != nil {
				t.Fatal(err)
			}
			if len(log.ops) == 0 || !strings.HasPrefix(log.ops[0], "create sub/.a.json.") {
				t.Fatalf("first step %q, want a staging dot-file beside the target; steps: %q", log.ops, log.ops)
			}
			tmp := strings.TrimPrefix(log.ops[0], "create ")
			if !strings.HasSuffix(tmp, ".tmp") {
				t.Fatalf("staging name %q ends in .json's reach; want .tmp", tmp)
			}
			want := []string{
				"create " + tmp, "write " + tmp, "sync " + tmp, "close " + tmp,
				tc.place + " " + tmp + " sub/a.json",
			}
			if tc.place == "link" {
				want = append(want, "remove "+tmp)
			}
			want = append(want, "open sub", "sync sub", "close sub")
			if !slices.Equal(log.ops, want) {
				t.Fatalf("steps:\n got %q\nwant %q", log.ops, want)
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "sub", "a.json")); string(got) != "data" {
				t.Fatalf("content %q", got)
			}
		})
	}
}

// CreateFile under injected faults: the error says which step failed,
// no file appears under the name and no staging file is left.
func TestCreateFileFaultsLeaveNothingBehind(t *testing.T) {
	t.Parallel()
	for _, op := range []string{"open", "write", "sync", "link"} {
		for _, errno := range []error{syscall.ENOSPC, syscall.EACCES} {
			t.Run(op+"/"+errno.Error(), func(t *testing.T) {
				t.Parallel()
				r, dir := roottest.Temp(t)
				ffs := &durable.FaultFS{FS: durable.Root(r)}
				ffs.Fail(op, ".tmp", errno, 0)
				if op == "link" {
					ffs.Reset()
					ffs.Fail(op, "a.json", errno, 0)
				}
				err := durable.CreateFile(ffs, "a.json", []byte("new content"), 0o600)
				var pe *durable.PathError
				if !errors.Is(err, errno) || !errors.As(err, &pe) {
					t.Fatalf("err = %v, want a *PathError wrapping %v", err, errno)
				}
				if n := entries(t, dir); len(n) != 0 {
					t.Fatalf("left behind: %v", n)
				}
			})
		}
	}
}

// A failed fsync of the directory is reported: the caller must not take
// the write as durable.
func TestDirectorySyncFailureIsReported(t *testing.T) {
	t.Parallel()
	r, _ := roottest.Temp(t)
	if err := r.Mkdir("sub", 0o700); err != nil {
		t.Fatal(err)
	}
	ffs := &durable.FaultFS{FS: durable.Root(r)}
	ffs.Fail("sync", ".tmp", nil, 0) // the staging file's fsync passes (the first rule that matches decides)
	ffs.Fail("sync", "sub", syscall.EIO, 0)
	for _, write := range []func(durable.FS, string, []byte, fs.FileMode) error{durable.WriteFile, durable.CreateFile} {
		err := write(ffs, "sub/b.json", []byte("x"), 0o600)
		var pe *durable.PathError
		if !errors.Is(err, syscall.EIO) || !errors.As(err, &pe) || pe.Path != "sub" {
			t.Fatalf("err = %v, want the directory's fsync error", err)
		}
		if err := r.Remove("sub/b.json"); err != nil {
			t.Fatal(err)
		}
	}
}

// failDirSync is a file system whose directories do not sync (EIO), as a
// failing disk or a network file system may answer.
type failDirSync struct{ durable.FS }

func (f failDirSync) OpenFile(name string, flag int, perm fs.FileMode) (durable.File, error) {
	file, err := f.FS.OpenFile(name, flag, perm)
	if err != nil || flag != os.O_RDONLY {
		return file, err
	}
	return eioSync{file}, nil
}

type eioSync struct{ durable.File }

func (eioSync) Sync() error { return syscall.EIO }

// A write whose last step (the directory's sync) fails has put the file
// in place already: its error says so (Placed), so that a caller does not
// say "nothing was written" or write it again. An error before the file
// is in place is not Placed, and leaves nothing.
func TestAFailedDirectorySyncIsPlaced(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		write func(durable.FS, string, []byte, fs.FileMode) error
	}{
		{"WriteFile", durable.WriteFile},
		{"CreateFile", durable.CreateFile},
	} {
		r, dir := roottest.Temp(t)
		err := tc.write(failDirSync{durable.Root(r)}, "m.json", []byte("whole"), 0o600)
		var pe *durable.PathError
		if !errors.As(err, &pe) || !pe.Placed || !errors.Is(err, syscall.EIO) {
			t.Errorf("%s: %v (%#v), want a Placed sync error", tc.name, err, pe)
		}
		if b, err := os.ReadFile(filepath.Join(dir, "m.json")); err != nil || string(b) != "whole" {
			t.Errorf("%s: the file holds %q (%v), want it in place", tc.name, b, err)
		}
		// Before the file is in place: nothing left, not Placed.
		err = tc.write(durable.Root(r), "sub/m.json", []byte("x"), 0o600)
		if !errors.As(err, &pe) || pe.Placed {
			t.Errorf("%s into a missing directory: %v, want an error that is not Placed", tc.name, err)
		}
	}
}
