package vault

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A folder of the vault that is a symbolic link out of it (the records
// folder linked to another disk) is never followed, and the error says
// so, naming the link and where it leads, instead of os.Root's "path
// escapes from parent". A link that stays in the vault is followed.
func TestOpenDirNamesALinkOutOfTheVault(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dir, elsewhere := filepath.Join(base, "vault"), filepath.Join(base, "elsewhere", "consensus")
	for _, d := range []string{filepath.Join(dir, "wiki"), filepath.Join(dir, "records"), elsewhere} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(elsewhere, filepath.Join(dir, "wiki", "consensus")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "records"), filepath.Join(dir, "wiki", "kept")); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(elsewhere)
	if err != nil {
		t.Fatal(err)
	}
	v, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for _, create := range []bool{false, true} {
		d, err := v.OpenDir("wiki/consensus", create)
		if err == nil {
			d.Close()
		}
		if !errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), "wiki/consensus is a link to "+real) {
			t.Errorf("OpenDir(create %v) of a link out of the vault: %v, want ErrOutside naming the link and its target", create, err)
		}
	}
	d, err := v.OpenDir("wiki/kept", true)
	if err != nil {
		t.Fatalf("OpenDir of a link within the vault: %v", err)
	}
	d.Close()
}

// A file where a folder of the vault must be (wiki/consensus written as a
// file) is named as such, not as mkdir's "file exists".
func TestOpenDirNamesAFileInTheWay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "wiki"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wiki", "consensus"), []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for _, create := range []bool{false, true} {
		d, err := v.OpenDir("wiki/consensus", create)
		if err == nil {
			d.Close()
		}
		if !errors.Is(err, ErrNotFolder) || !strings.Contains(err.Error(), "wiki/consensus in the vault "+dir+" is a file") {
			t.Errorf("OpenDir(create %v) with a file in the way: %v, want ErrNotFolder naming it", create, err)
		}
	}
}
