package app

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
)

// Initialized is what Init found and made; its JSON form is what
// "parley --json init" prints.
type Initialized struct {
	Root  string `json:"root"`
	Vault string `json:"vault"`
	// Created lists the directories this call made, Existing those that
	// were there before.
	Created  []string `json:"created"`
	Existing []string `json:"existing"`
}

// Init creates the root (registry/, inbox/, debates/) and the vault
// (wiki/consensus/, wiki/debates/), each directory 0700. Running it again
// changes nothing. The root and the vault may be symbolic links; nothing
// inside them may be: a planted link or file is refused, and nothing is
// created through it.
func (a *App) Init(ctx context.Context) (*Initialized, error) {
	layout := []struct {
		dir  string
		subs []string
	}{
		{a.root, []string{inbox.InboxDir, registry.Dir, "debates"}},
		{a.vault, []string{"wiki", "wiki/consensus", "wiki/debates"}},
	}
	// What is there before is looked at first, so that the result names
	// only the directories this call made.
	var dirs []string
	for _, b := range layout {
		dirs = append(dirs, b.dir)
		for _, sub := range b.subs {
			dirs = append(dirs, filepath.Join(b.dir, filepath.FromSlash(sub)))
		}
	}
	existed := map[string]bool{}
	for _, d := range dirs {
		if _, err := os.Lstat(d); err == nil {
			existed[d] = true
		}
	}
	b, err := a.Messenger(ctx) // creates the root, inbox/ and registry/
	if err != nil {
		return nil, err
	}
	b.Close()
	for _, l := range layout {
		if err := os.MkdirAll(l.dir, 0o700); err != nil {
			return nil, Explain(err)
		}
		for _, sub := range l.subs {
			if err := mkdirUnder(l.dir, sub); err != nil {
				return nil, Explain(err)
			}
		}
	}
	out := &Initialized{Root: a.root, Vault: a.vault, Created: []string{}, Existing: []string{}}
	for _, d := range dirs {
		if existed[d] {
			out.Existing = append(out.Existing, d)
		} else {
			out.Created = append(out.Created, d)
		}
	}
	return out, nil
}

// ErrNotADirectory is the cause of Init's refusal of a planted symbolic
// link or file where a directory belongs.
var ErrNotADirectory = errors.New("not a directory")

// mkdirUnder creates the slash-separated directory sub under base (0700),
// one component at a time through an *os.Root of base, and refuses any
// component that is not a real directory (a planted symbolic link, a
// file): nothing is created through it.
func mkdirUnder(base, sub string) error {
	rt, err := os.OpenRoot(base)
	if err != nil {
		return err
	}
	defer rt.Close()
	parts := strings.Split(sub, "/")
	for i := range parts {
		p := path.Join(parts[:i+1]...)
		if err := rt.Mkdir(p, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		fi, err := rt.Lstat(p)
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			what := "a file"
			if fi.Mode()&fs.ModeSymlink != 0 {
				what = "a symbolic link"
			}
			full := filepath.Join(base, filepath.FromSlash(p))
			return newError(ProblemMessenger, "", ErrNotADirectory, "%s is %s, not a directory; parley never follows it: remove it and run {parley init} again", full, what)
		}
	}
	return nil
}

// ConfigSource is the effective configuration and where it came from.
type ConfigSource struct {
	// Effective is config.json with every default filled in: itself a
	// valid config.json.
	Effective *config.Config
	// Path is the file it is read from.
	Path string
	// Found says the file exists; without it, every value is a default.
	Found bool
}

// ShowConfig is the configuration in force and its file.
func (a *App) ShowConfig() (*ConfigSource, error) {
	cfg, err := a.Config()
	if err != nil {
		return nil, err
	}
	p := filepath.Join(a.root, config.FileName)
	_, err = os.Stat(p)
	return &ConfigSource{Effective: cfg.Effective(), Path: p, Found: !errors.Is(err, fs.ErrNotExist)}, nil
}
