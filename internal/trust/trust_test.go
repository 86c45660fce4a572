package trust

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
