// Package trust refuses, as ssh does with its configuration, the files and
// directories parley acts on that someone else could have written: a root,
// a config.json or an agent script that is writable by group or others, or
// owned by another user than the one running parley (root, too, trusts
// only what root owns). Each refusal is one line that says how to fix it.
package trust

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"strconv"

	"github.com/parleyhq/parley/internal/lean"
	"github.com/parleyhq/parley/internal/regfile"
)

// ErrUntrusted is what every refusal wraps.
var ErrUntrusted = errors.New("refused")

// Error is a refusal: what was found and the command that fixes it.
type Error struct {
	What, Path string
	Problem    string
	Fix        string
}

func (e *Error) Error() string {
	return e.What + " " + e.Path + " " + e.Problem + ": " + e.Fix
}

// Unwrap makes errors.Is(err, ErrUntrusted) true.
func (e *Error) Unwrap() error { return ErrUntrusted }

// euid is the user parley runs as; a test replaces it.
var euid = os.Geteuid

// Check refuses fi (the stat of path, following a symbolic link the user
// named) when it is writable by group or others or owned by another user.
// what names it in the message ("the parley root", "config.json").
func Check(what, path string, fi fs.FileInfo) error {
	if uid, ok := owner(fi); ok && uid != euid() {
		me := strconv.Itoa(euid())
		return &Error{What: what, Path: path, Problem: "is owned by uid " + strconv.Itoa(uid) + ", not by you (uid " + me + ")",
			Fix: "use one of your own, or if you trust it, run: chown " + me + " " + shellQuote(path)}
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		who := "group and others"
		switch {
		case perm&0o020 == 0:
			who = "others"
		case perm&0o002 == 0:
			who = "its group"
		}
		mode := strconv.FormatUint(uint64(perm), 8)
		mode = lean.Repeat("0", max(0, 4-len(mode))) + mode
		return &Error{What: what, Path: path, Problem: "is writable by " + who + " (mode " + mode + ")",
			Fix: "run: chmod go-w " + shellQuote(path)}
	}
	return nil
}

// Open opens name inside r as parley opens a file that says what it runs
// (config.json): a regular file (a named pipe planted there must not block
// in open(2): regfile refuses it), followed only inside the root, and
// refused by Check (what names it; its path is name under r.Name()). The
// error is regfile's or os.Root's for a file it cannot open, an *Error
// for one it does not trust.
func Open(what string, r *os.Root, name string) (*os.File, error) {
	f, fi, err := regfile.Open(r.OpenFile, name)
	if err != nil {
		return nil, err
	}
	if err := Check(what, path.Join(r.Name(), name), fi); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Mine reports whether fi (a stat) is owned by the user running parley;
// where the system has no owners, everything is.
func Mine(fi fs.FileInfo) bool {
	uid, ok := owner(fi)
	return !ok || uid == euid()
}

// Path stats path (following symbolic links) and Checks it; a path that
// does not exist is no refusal (nothing to trust yet).
func Path(what, path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return Check(what, path, fi)
}

func shellQuote(s string) string {
	if s != "" && lean.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'))
	}) < 0 {
		return s
	}
	return "'" + lean.ReplaceAll(s, "'", `'\''`) + "'"
}
