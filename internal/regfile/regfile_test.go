package regfile_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/regfile"
)

// Open reads a regular file, and refuses a named pipe, a folder and a
// missing name at once, whether it opens through os.OpenFile or an
// os.Root.
func TestOpen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file"), []byte("content"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "folder"), 0o700); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	openers := []struct {
		name string
		open regfile.OpenFunc
		path func(string) string
	}{
		{"os.OpenFile", os.OpenFile, func(n string) string { return filepath.Join(dir, n) }},
		{"os.Root", root.OpenFile, func(n string) string { return n }},
	}
	for _, o := range openers {
		t.Run(o.name, func(t *testing.T) {
			t.Parallel()
			f, fi, err := regfile.Open(o.open, o.path("file"))
			if err != nil {
				t.Fatalf("Open of a regular file: %v", err)
			}
			data, err := io.ReadAll(f)
			f.Close()
			if err != nil || string(data) != "content" || fi.Size() != int64(len("content")) || !fi.Mode().IsRegular() {
				t.Fatalf("read %q (size %d, mode %v), %v", data, fi.Size(), fi.Mode(), err)
			}
			for _, c := range []struct {
				name string
				mode fs.FileMode
			}{{"pipe", fs.ModeNamedPipe}, {"folder", fs.ModeDir}} {
				done := make(chan error, 1)
				go func() {
					f, _, err := regfile.Open(o.open, o.path(c.name))
					if f != nil {
						f.Close()
					}
					done <- err
				}()
				select {
				case err := <-done:
					var nr *regfile.NotRegularError
					if !errors.Is(err, regfile.ErrNotRegular) || !errors.As(err, &nr) || nr.Mode != c.mode || nr.Name != o.path(c.name) {
						t.Fatalf("Open of a %s = %v, want a NotRegularError of mode %v", c.name, err, c.mode)
					}
					if !strings.Contains(err.Error(), "not a regular file") || !strings.Contains(err.Error(), c.name) {
						t.Fatalf("error %q does not say what and where", err)
					}
				case <-time.After(20 * time.Second):
					t.Fatalf("Open blocked on a %s", c.name)
				}
			}
			if _, _, err := regfile.Open(o.open, o.path("missing")); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("Open of a missing file = %v, want fs.ErrNotExist", err)
			}
		})
	}
}

// A regular file is opened with O_NONBLOCK, which changes nothing for it:
// a read at the end returns io.EOF, not EAGAIN.
func TestOpenRegularReadsToEOF(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f, _, err := regfile.Open(os.OpenFile, p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if n, err := f.Read(make([]byte, 8)); n != 0 || err != io.EOF {
		t.Fatalf("Read of an empty file = %d, %v; want 0, io.EOF", n, err)
	}
}

// Opened for writing, a named pipe with no reader fails at once instead of
// blocking until something reads it; a directory is refused; a regular file
// is created and appended to.
func TestOpenFileForWriting(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	const flag = os.O_WRONLY | os.O_APPEND | os.O_CREATE
	done := make(chan error, 1)
	go func() {
		f, _, err := regfile.OpenFile(os.OpenFile, filepath.Join(dir, "pipe"), flag, 0o600)
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a named pipe was opened for writing")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("OpenFile blocked on a named pipe with no reader")
	}
	if _, _, err := regfile.OpenFile(os.OpenFile, dir, os.O_RDONLY, 0); !errors.Is(err, regfile.ErrNotRegular) {
		t.Fatalf("a directory: %v, want ErrNotRegular", err)
	}
	p := filepath.Join(dir, "log")
	for range 2 {
		f, fi, err := regfile.OpenFile(os.OpenFile, p, flag, 0o600)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("a new log: %v (mode %v)", err, fi)
		}
		if _, err := f.WriteString("x\n"); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	if b, _ := os.ReadFile(p); string(b) != "x\nx\n" {
		t.Fatalf("log = %q, want two appended lines", b)
	}
}
