package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/clip"
	"golang.org/x/text/unicode/norm"
)

// nameIndex maps link keys to the paths of the vault's files. A key is the
// lower-cased file name, without ".md" for Markdown pages (Obsidian links
// are case-insensitive and omit the extension).
type nameIndex struct {
	byName map[string][]string
	// dirs are the folders walked, with their modification times then:
	// a file created, renamed or removed in a folder changes its time.
	dirs  map[string]time.Time
	built time.Time // when the walk started
}

// racyDir is how close to a walk a folder's modification time may be
// before it no longer proves the folder unchanged since: two changes
// within the file system's timestamp granularity (a clock tick) can leave
// the same time.
const racyDir = 100 * time.Millisecond

// stale reports whether a folder of the vault may have changed since ix
// was built: its time differs, it is gone, or it was modified so close to
// the walk that a later change could have kept its time. It costs one
// lstat per folder and reads no folder.
func (ix *nameIndex) stale(root *os.Root) bool {
	for dir, mod := range ix.dirs {
		fi, err := root.Lstat(dir)
		if err != nil || !fi.ModTime().Equal(mod) || ix.built.Sub(mod) < racyDir {
			return true
		}
	}
	return false
}

func linkKey(p string) string {
	return FoldName(strings.TrimSuffix(path.Base(p), ".md"))
}

// FoldName is a name or path as links match it: in lower case and in
// Unicode's composed form (NFC), so that "é" written as one code point
// and as "e" with a combining accent (as macOS's HFS+ stored names, and a
// vault synced from a Mac keeps them) are one name, as they are to the
// Mac's file system and to Obsidian on it. Whatever matches a name the
// user typed against the vault's names folds both with it.
func FoldName(s string) string { return norm.NFC.String(strings.ToLower(s)) }

func (ix *nameIndex) add(p string) {
	k := linkKey(p)
	for _, q := range ix.byName[k] {
		if q == p {
			return
		}
	}
	ix.byName[k] = append(ix.byName[k], p)
}

// buildNames walks the vault for file names (no file is read). Callers
// hold v.mu.
func (v *Vault) buildNames() *nameIndex {
	v.builds++
	ix := &nameIndex{byName: map[string][]string{}, dirs: map[string]time.Time{}, built: time.Now()}
	_ = fs.WalkDir(v.root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if p != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if fi, err := d.Info(); err == nil {
				ix.dirs[p] = fi.ModTime()
			}
			return nil
		}
		ix.add(p)
		return nil
	})
	return ix
}

// Resolve finds the file a wikilink names and returns its slash path
// relative to the vault. link may be written with or without brackets, with
// a heading or alias ("[[spec-x#Rationale|why]]"), as a file name
// ("spec-x", matched case-insensitively against every file in the vault,
// Markdown pages without their ".md") or path-qualified ("debates/<id>",
// matched against the end of the paths). A name that matches several files
// fails with ErrAmbiguous unless exactly one matches with the same case;
// none fails with ErrNotFound. The index of names is built on first use and
// rebuilt when a link is not found or its file has gone, if a folder of the
// vault changed since (see nameIndex.stale): a page full of broken links
// costs one lstat per folder for each, not a walk of the vault.
func (v *Vault) Resolve(link string) (string, error) {
	l, err := ParseLink(link)
	if err != nil {
		return "", err
	}
	if l.Target == "" {
		return "", fmt.Errorf("%w: %q names no page", ErrInvalidLink, clip.Runes(link, 81))
	}
	for attempt := 0; ; attempt++ {
		v.mu.Lock()
		if v.names == nil || attempt == 1 && v.names.stale(v.root) {
			v.names = v.buildNames()
		}
		p, err := v.names.lookup(l.Target)
		v.mu.Unlock()
		if err == nil {
			if _, serr := v.root.Lstat(p); serr == nil {
				return p, nil
			}
			err = &PageError{Op: "resolve", Path: l.Target, Err: ErrNotFound}
		}
		if attempt == 1 || !errors.Is(err, ErrNotFound) {
			return "", err
		}
	}
}

func (ix *nameIndex) lookup(target string) (string, error) {
	t := norm.NFC.String(strings.TrimSuffix(strings.TrimPrefix(path.Clean("/"+target), "/"), ".md"))
	cands := ix.byName[FoldName(path.Base(t))]
	if strings.Contains(t, "/") {
		lt := FoldName(t)
		var keep []string
		for _, c := range cands {
			lc := FoldName(strings.TrimSuffix(c, ".md"))
			if lc == lt || strings.HasSuffix(lc, "/"+lt) {
				keep = append(keep, c)
			}
		}
		cands = keep
	}
	switch len(cands) {
	case 0:
		return "", &PageError{Op: "resolve", Path: target, Err: ErrNotFound}
	case 1:
		return cands[0], nil
	}
	// Prefer the one whose case matches exactly, then a whole-path match.
	var exact []string
	for _, c := range cands {
		cc := norm.NFC.String(strings.TrimSuffix(c, ".md"))
		if cc == t || strings.HasSuffix(cc, "/"+t) {
			exact = append(exact, c)
		}
	}
	if len(exact) == 1 {
		return exact[0], nil
	}
	for _, c := range exact {
		if norm.NFC.String(strings.TrimSuffix(c, ".md")) == t {
			return c, nil
		}
	}
	return "", &PageError{Op: "resolve", Path: target, Err: fmt.Errorf("%w: %d pages are named %q (%s, …)", ErrAmbiguous, len(cands), target, cands[0])}
}

// Resolver returns a LinkResolver for Render that finds each link's page
// in this vault and asks url for its address; the heading is passed on
// ("" if none). Links to pages that do not exist render as broken.
func (v *Vault) Resolver(url func(pagePath, heading string) string) LinkResolver {
	return func(l Link) (string, bool) {
		if l.Target == "" {
			return url("", l.Heading), true
		}
		p, err := v.Resolve(l.Target)
		if err != nil {
			return "", false
		}
		return url(p, l.Heading), true
	}
}
