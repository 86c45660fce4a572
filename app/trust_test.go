package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A root others may write is refused; a default vault that leads out of
// the root is refused unless the vault is named (by the front end or by
// $PARLEY_VAULT); a vault inside the root is used.
func TestTrustRoot(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(filepath.Join(root, "vault"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PARLEY_VAULT", "")
	a := New(Options{Root: root})
	if err := a.TrustRoot(false); err != nil {
		t.Fatalf("a private root with its vault inside: %v", err)
	}
	if err := os.Chmod(root, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := a.TrustRoot(true); err == nil || !strings.Contains(err.Error(), "chmod go-w") {
		t.Errorf("a 0777 root: %v", err)
	}
	if err := os.Chmod(root, 0o700); err != nil {
		t.Fatal(err)
	}

	elsewhere := filepath.Join(dir, "elsewhere")
	if err := os.Rename(filepath.Join(root, "vault"), elsewhere); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(root, "vault")); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(elsewhere)
	err := a.TrustRoot(false)
	if err == nil || !strings.Contains(err.Error(), "is a symbolic link to "+real+", out of the root; give --vault "+real) {
		t.Errorf("a vault that leads out of the root: %v", err)
	}
	if err := a.TrustRoot(true); err != nil {
		t.Errorf("the same vault named by the front end: %v", err)
	}
	t.Setenv("PARLEY_VAULT", real)
	if err := a.TrustRoot(false); err != nil {
		t.Errorf("the same vault named by PARLEY_VAULT: %v", err)
	}
}
