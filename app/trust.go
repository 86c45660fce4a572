package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/internal/rootdir"
	"github.com/parleyhq/parley/internal/trust"
)

// TrustRoot refuses a root or a vault that is not a directory (wrapping
// config.ErrNotDirectory), a root that someone else could have written
// (writable by group or others, or owned by another user), and a default vault
// (<root>/vault) that is a symbolic link out of the root: a vault
// elsewhere is used only when it is named, by the front end (vaultNamed:
// --vault) or by $PARLEY_VAULT.
func (a *App) TrustRoot(vaultNamed bool) error {
	// A root or a vault that is a file is said so, before any call
	// reports the failing open under it (or runs a debate it cannot file).
	if err := config.CheckRoot(a.root); err != nil {
		return err
	}
	if rootdir.NotADirectory(a.vault) {
		if !a.vaultNamed {
			// The root's own vault: no --vault to correct, and init
			// stops on it too.
			return fmt.Errorf("the vault %s is %w: move it away, then %s makes the vault there (or give --vault a directory)", a.vault, config.ErrNotDirectory, a.CommandLine("init"))
		}
		return fmt.Errorf("the vault %s is %w; give --vault a directory (parley init creates one)", a.vault, config.ErrNotDirectory)
	}
	if err := trust.Path("the parley root", a.root); err != nil {
		return err
	}
	if vaultNamed || os.Getenv("PARLEY_VAULT") != "" {
		return nil
	}
	// The default vault is an entry of the root: unless that entry is a
	// symbolic link, it is in the root (one lstat, not two paths resolved
	// component by component).
	if fi, err := os.Lstat(a.vault); errors.Is(err, fs.ErrNotExist) || err == nil && fi.Mode()&fs.ModeSymlink == 0 && filepath.Dir(a.vault) == filepath.Clean(a.root) {
		return nil
	}
	inside, real, err := inside(a.root, a.vault)
	if err == nil && !inside {
		return fmt.Errorf("the vault %s is a symbolic link to %s, out of the root; give --vault %s to use it", a.vault, real, real)
	}
	return nil
}

// inside reports whether path, with every symbolic link resolved, is dir
// or under it (dir's own links resolved too). A path that does not exist
// is inside (nothing to follow).
func inside(dir, path string) (bool, string, error) {
	real, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true, path, nil
	}
	if err != nil {
		return false, "", err
	}
	base, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false, "", err
	}
	rel, err := filepath.Rel(base, real)
	if err != nil {
		return false, real, nil
	}
	return rel == "." || filepath.IsLocal(rel), real, nil
}
