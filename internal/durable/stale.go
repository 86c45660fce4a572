package durable

import (
	"errors"
	"io/fs"
	"os"
	"time"

	"github.com/parleyhq/parley/internal/lean"
)

// StaleStaging is how old a staging file must be before RemoveStale takes
// it: a write stages its file for well under a second, so an older one was
// left by a writer that crashed (kill -9 between create and rename).
const StaleStaging = 10 * time.Minute

// IsStagingName reports whether name is one StagingName makes,
// .<name>.<12 lowercase hex>.tmp: what a crashed writer leaves behind.
func IsStagingName(name string) bool {
	rest, ok := lean.CutSuffix(name, ".tmp")
	if !ok || !lean.HasPrefix(rest, ".") {
		return false
	}
	i := lean.LastIndexByte(rest, '.')
	if i <= 0 || len(rest)-i-1 != 12 {
		return false
	}
	for _, c := range []byte(rest[i+1:]) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// IsLegacyStagingName reports whether name is a temporary file that
// github.com/google/renameio (which parley used before internal/durable)
// made beside a file called base: "." + base + a decimal random number,
// such as .model.json3870123456 for model.json. A writer killed mid-write
// (or mid-way through renameio's probe of the folder) left it behind.
func IsLegacyStagingName(name, base string) bool {
	digits, ok := lean.CutPrefix(name, "."+base)
	if !ok || base == "" || digits == "" || len(digits) > 20 {
		return false
	}
	for _, c := range []byte(digits) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// RemoveStale removes from the folder dir of r the staging files (by
// IsStagingName) last modified before cutoff, and returns how many it
// removed (RemoveStaleMatching with IsStagingName). Only regular files are taken: a symbolic link, a folder or
// anything else with a staging name stays, and nothing is followed. A
// missing folder is nothing to remove. A file it cannot remove does not
// stop it: the rest are removed and every failure is returned, joined.
func RemoveStale(r *os.Root, dir string, cutoff time.Time) (int, error) {
	return RemoveStaleMatching(r, dir, cutoff, IsStagingName)
}

// RemoveStaleMatching is RemoveStale for the names that staging says are
// a writer's leftovers (a folder where another writer, renameio, staged
// its files under other names).
func RemoveStaleMatching(r *os.Root, dir string, cutoff time.Time, staging func(name string) bool) (int, error) {
	fi, err := r.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if !fi.IsDir() {
		return 0, nil
	}
	d, err := r.Open(dir)
	if err != nil {
		return 0, err
	}
	des, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, de := range des {
		if !staging(de.Name()) {
			continue
		}
		p := dir + "/" + de.Name()
		fi, err := r.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() || !fi.ModTime().Before(cutoff) {
			continue
		}
		if err := r.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, Wrap("remove "+p, err))
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}
