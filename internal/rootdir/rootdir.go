// Package rootdir finds a parley root and tells whether a directory is
// one. It imports nothing of parley's but trust, so that the plainest
// commands can find their root before the rest of parley is initialised
// (see internal/quicksend); app uses it for every command.
package rootdir

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"syscall"

	"github.com/parleyhq/parley/internal/lean"
	"github.com/parleyhq/parley/internal/trust"
)

// Default is the root's name in the directory it belongs to.
const Default = ".parley"

// Entries are the names in a root, any of which makes a directory one:
// the messenger's and the debates', the settings (these four first), the
// default vault, the lookup index, the gate's log and labels, and the
// escalations' ledger. They are the constants of the packages that own
// them (inbox.InboxDir, registry.Dir, transcripts.Dir, config.FileName,
// gating.LogName, gating.LabelDir, escalation.LedgerName), written out
// here so that finding a root imports none of them; app's tests hold the
// two lists equal.
var Entries = []string{"inbox", "registry", "debates", "config.json", "vault", "cache",
	"gate.jsonl", "gate", "escalations.jsonl"}

// Find is the default root for the working directory wd: Default
// (relative, as the user would type it) when wd has one or when no
// directory above wd has one, else the absolute path of the nearest
// directory's above wd. A .parley above counts only when it is a directory
// owned by the user running parley: any other would be refused
// (app.TrustRoot), and a stranger's /tmp/.parley must not stand in the way
// of a root of one's own.
func Find(wd string) string {
	if _, err := os.Lstat(path.Join(wd, Default)); err == nil {
		return Default
	}
	for dir := path.Dir(wd); ; dir = path.Dir(dir) {
		p := path.Join(dir, Default)
		if fi, err := os.Stat(p); err == nil && fi.IsDir() && trust.Mine(fi) {
			return p
		}
		if dir == path.Dir(dir) {
			return Default
		}
	}
}

// Within is the root a named directory stands for: the directory itself,
// or, when it holds a .parley directory and none of a root's messenger,
// debates and settings (config.json: an example's copy, which a command
// run there without --root gave a .parley of its own, is still the root),
// that .parley. "--root ." in a project whose root is ./.parley (where a
// bare "parley" finds it) is that root, not a second, empty one beside it.
func Within(dir string) string {
	inner := path.Join(dir, Default)
	if fi, err := os.Stat(inner); err != nil || !fi.IsDir() {
		return dir
	}
	for _, name := range Entries[:4] {
		if _, err := os.Lstat(path.Join(dir, name)); !errors.Is(err, fs.ErrNotExist) {
			return dir
		}
	}
	return inner
}

// Have reports whether root exists as one: a directory that holds any of
// Entries, or an empty one (made for it). A directory of other files (a
// project's, named with --root) is no root, and calls that only read make
// none in it. Anything else at the path (a file, a directory that cannot
// be read) is for what opens it to refuse.
func Have(root string) bool {
	if _, err := os.Lstat(root); errors.Is(err, fs.ErrNotExist) {
		return false
	}
	for _, name := range Entries {
		if _, err := os.Lstat(path.Join(root, name)); !errors.Is(err, fs.ErrNotExist) {
			return true // the one stat of a root in use: its inbox
		}
	}
	f, err := os.Open(root)
	if err != nil {
		return true
	}
	defer f.Close()
	names, err := f.Readdirnames(1)
	return len(names) == 0 && errors.Is(err, io.EOF)
}

// NotADirectory reports whether path is there but no directory: a file
// (or anything else but a directory, a link to one followed), or a path
// through a file (ENOTDIR). It is the one test of a root or a vault that
// parley refuses as "not a directory" (config.CheckRoot,
// app.TrustRoot), and that the plainest send leaves to the command
// (internal/quicksend). A path that is not there, or that cannot be
// looked at (a directory above it that cannot be searched), is not one:
// what opens it says why.
func NotADirectory(path string) bool {
	fi, err := os.Stat(path)
	return errors.Is(err, syscall.ENOTDIR) || err == nil && !fi.IsDir()
}

// ExpandHome replaces a leading "~" or "~/" with the user's home
// directory, as a shell would; any other path is returned as it is.
func ExpandHome(p string) string {
	if p != "~" && !lean.HasPrefix(p, "~/") {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return p
	}
	return path.Join(home, p[1:])
}

// Named is the root of a command line: named (--root) or else env
// ($PARLEY_ROOT), with "~" expanded and a project directory read as the
// .parley it holds (Within), and made absolute when it has a ".." element
// (throughDotDot); with neither, the nearest .parley (Find from
// the working directory), or Default when here is set (a command that
// makes its root where it runs: init, demo). fromEnv says the environment
// chose it.
func Named(named, env string, here bool) (root string, fromEnv bool) {
	root = named
	if root == "" {
		root, fromEnv = env, env != ""
	}
	if root == "" {
		root = Default
		if !here {
			if wd, err := os.Getwd(); err == nil {
				root = Find(wd)
			}
		}
		return ExpandHome(root), false
	}
	return Within(throughDotDot(ExpandHome(root))), fromEnv
}

// throughDotDot is root made absolute, as the shell's "cd" reads it, when
// it has a ".." element; root itself otherwise. The kernel reads ".."
// after a symbolic link (or in a working directory entered by one) as the
// link target's parent, the shell and filepath.Abs as the link's; every
// part of parley (settings, registry, inboxes, the fast path) must open
// the same directory, and the user means the one their prompt shows.
func throughDotDot(root string) string {
	for rest := root; rest != ""; {
		var elem string
		elem, rest, _ = lean.Cut(rest, "/")
		if elem == ".." {
			if abs, err := lean.Abs(root); err == nil {
				return abs
			}
			break
		}
	}
	return root
}
