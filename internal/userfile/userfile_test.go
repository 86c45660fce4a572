//go:build unix

package userfile_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/internal/userfile"
)

func readAll(t testing.TB, ctx context.Context, name string) (string, error) {
	t.Helper()
	r, err := userfile.Open(ctx, name)
	if err != nil {
		return "", err
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	return string(b), err
}

func fifo(t testing.TB) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	return p
}

// TestOpenRefusesWhatIsNoFile: a directory or a socket is one line that
// names it and says to name a file.
func TestOpenRefusesWhatIsNoFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer l.Close()
	for name, want := range map[string]string{
		dir:  dir + " is a directory: name a file",
		sock: sock + " is a socket: name a file",
	} {
		_, err := readAll(t, context.Background(), name)
		if !errors.Is(err, userfile.ErrNotFile) || err.Error() != want {
			t.Errorf("Open(%s) = %v, want %q", name, err, want)
		}
		if _, _, err := userfile.OpenRegular(name); !errors.Is(err, userfile.ErrNotFile) || err.Error() != want {
			t.Errorf("OpenRegular(%s) = %v, want %q", name, err, want)
		}
	}
	if _, err := readAll(t, context.Background(), filepath.Join(dir, "none")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}

func TestOpenReadsAFile(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := readAll(t, context.Background(), p); err != nil || got != "hello" {
		t.Fatalf("got %q, %v", got, err)
	}
}

// TestOpenReadsAPipe: a named pipe opened before anyone writes to it is
// read once a writer comes, to the writer's end (not read as empty).
func TestOpenReadsAPipe(t *testing.T) {
	t.Parallel()
	p := fifo(t)
	r, err := userfile.Open(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	done := make(chan error, 1)
	go func() {
		w, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err == nil {
			_, err = fmt.Fprint(w, "from the pipe")
			w.Close()
		}
		done <- err
	}()
	b, err := io.ReadAll(r)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err != nil || string(b) != "from the pipe" {
		t.Fatalf("got %q, %v", b, err)
	}
}

// TestOpenReadsProcessSubstitution: /dev/fd/N of a pipe whose writer has
// written and gone, as a shell's <(...) gives.
func TestOpenReadsProcessSubstitution(t *testing.T) {
	t.Parallel()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	fmt.Fprint(pw, "substituted")
	pw.Close()
	name := fmt.Sprintf("/proc/self/fd/%d", pr.Fd())
	if _, err := os.Stat(name); err != nil {
		t.Skip("no /proc/self/fd")
	}
	if got, err := readAll(t, context.Background(), name); err != nil || got != "substituted" {
		t.Fatalf("got %q, %v", got, err)
	}
}

// TestPipeNobodyWritesEndsWithTheContext: Ctrl-C (the context's end)
// ends the wait for a writer that never comes, before and during the read.
func TestPipeNobodyWritesEndsWithTheContext(t *testing.T) {
	t.Parallel()
	t.Run("cancelled before", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := readAll(t, ctx, fifo(t)); !errors.Is(err, interrupt.ErrInterrupted) {
			t.Fatalf("err = %v, want interrupted", err)
		}
	})
	t.Run("cancelled while waiting", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		r, err := userfile.Open(ctx, fifo(t))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		done := make(chan error, 1)
		go func() { _, err := io.ReadAll(r); done <- err }()
		cancel()
		if err := <-done; !errors.Is(err, interrupt.ErrInterrupted) {
			t.Fatalf("err = %v, want interrupted", err)
		}
	})
}

// TestOpenRegularRefusesAPipe at once: what is read more than once cannot
// be a pipe, and nobody writing to it must not hold the open.
func TestOpenRegularRefusesAPipe(t *testing.T) {
	t.Parallel()
	p := fifo(t)
	_, _, err := userfile.OpenRegular(p)
	if want := p + " is a named pipe, which can be read only once: name a regular file"; !errors.Is(err, userfile.ErrNotFile) || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
}
