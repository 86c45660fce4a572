package trust

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/parleyhq/parley/internal/regfile"
	"github.com/parleyhq/parley/internal/roottest"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	own := filepath.Join(dir, "own")
	os.WriteFile(own, nil, 0o600)
	if err := Path("config.json", own); err != nil {
		t.Errorf("a file of one's own, 0600: %v", err)
	}
	if err := Path("config.json", filepath.Join(dir, "none")); err != nil {
		t.Errorf("a file that does not exist: %v", err)
	}
	for _, c := range []struct {
		mode os.FileMode
		want string
	}{
		{0o620, "is writable by its group (mode 0620): run: chmod go-w "},
		{0o602, "is writable by others (mode 0602): run: chmod go-w "},
		{0o666, "is writable by group and others (mode 0666): run: chmod go-w "},
	} {
		p := filepath.Join(dir, c.mode.String())
		os.WriteFile(p, nil, 0o600)
		os.Chmod(p, c.mode)
		err := Path("config.json", p)
		if !errors.Is(err, ErrUntrusted) || !strings.Contains(err.Error(), c.want+p) {
			t.Errorf("mode %v: %v", c.mode, err)
		}
	}
	if os.Geteuid() == 0 {
		foreign := filepath.Join(dir, "foreign")
		os.WriteFile(foreign, nil, 0o600)
		if err := os.Chown(foreign, 4242, 4242); err != nil {
			t.Fatal(err)
		}
		if err := Path("the parley root", foreign); !errors.Is(err, ErrUntrusted) || !strings.Contains(err.Error(), "is owned by uid 4242, not by you (uid 0)") {
			t.Errorf("a foreign owner: %v", err)
		}
	}
	// A path with a space is quoted in the fix.
	spaced := filepath.Join(dir, "my root")
	os.Mkdir(spaced, 0o777)
	os.Chmod(spaced, 0o777)
	if err := Path("the parley root", spaced); err == nil || !strings.HasSuffix(err.Error(), "chmod go-w '"+spaced+"'") {
		t.Errorf("quoting: %v", err)
	}
}

// Open opens a regular, trusted file inside the root, and nothing else: a
// named pipe (which would block open(2)), a file others may write (an
// *Error naming its path under the root), a link out of the root.
func TestOpen(t *testing.T) {
	t.Parallel()
	r, dir := roottest.Temp(t)
	write := func(name string, mode os.FileMode) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("{}"), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	write("ok.json", 0o600)
	f, err := Open("config.json", r, "ok.json")
	if err != nil {
		t.Fatalf("a trusted file: %v", err)
	}
	f.Close()

	write("open.json", 0o666)
	_, err = Open("config.json", r, "open.json")
	var te *Error
	if !errors.As(err, &te) || !errors.Is(err, ErrUntrusted) || te.Path != filepath.Join(dir, "open.json") || te.What != "config.json" {
		t.Errorf("a file others may write: %v", err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.json"), 0o600); err == nil {
		if _, err := Open("config.json", r, "pipe.json"); !errors.Is(err, regfile.ErrNotRegular) {
			t.Errorf("a named pipe: %v", err)
		}
	}
	out := filepath.Join(t.TempDir(), "out.json")
	if err := os.WriteFile(out, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(dir, "link.json")); err != nil {
		t.Fatal(err)
	}
	if f, err := Open("config.json", r, "link.json"); err == nil {
		f.Close()
		t.Error("a link out of the root was opened")
	}
	if _, err := Open("config.json", r, "missing.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}
