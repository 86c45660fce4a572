package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
)

// newInitCmd is "parley init": create the root and vault layout.
func newInitCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Create the messenger root and the vault layout",
		Long: "Create the messenger root (--root, default .parley) with registry/, inbox/ and\n" +
			"debates/, and the vault (--vault, default <root>/vault) with wiki/consensus/ and\n" +
			"wiki/debates/. Directories are 0700. Running it again changes nothing. The root\n" +
			"and the vault may be symbolic links; nothing inside them may be.",
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, vault := a.rootDir(), a.vaultDir()
			layout := []struct {
				dir  string
				subs []string
			}{
				{root, []string{inbox.InboxDir, registry.Dir, "debates"}},
				{vault, []string{"wiki", "wiki/consensus", "wiki/debates"}},
			}
			// What is there before is looked at first, so that the report
			// names only the directories this run made.
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
			m, err := a.openMessenger() // creates root, inbox/ and registry/
			if err != nil {
				return err
			}
			m.Close()
			for _, b := range layout {
				if err := os.MkdirAll(b.dir, 0o700); err != nil {
					return err
				}
				for _, sub := range b.subs {
					if err := mkdirUnder(b.dir, sub, a.cmdLine("init")); err != nil {
						return err
					}
				}
			}
			created, kept := []string{}, []string{}
			for _, d := range dirs {
				if existed[d] {
					kept = append(kept, d)
				} else {
					created = append(created, d)
				}
			}
			if a.json {
				return a.emit(map[string]any{"root": root, "vault": vault, "created": created, "existing": kept})
			}
			a.printf("parley root:  %s\nparley vault: %s\n", root, vault)
			if len(created) == 0 {
				a.printf("already set up: nothing created\n")
				return nil
			}
			a.printf("created %d director%s:\n", len(created), plural(len(created), "y", "ies"))
			for _, d := range created {
				a.printf("  %s\n", d)
			}
			return nil
		},
	}
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// mkdirUnder creates the slash-separated directory sub under base (0700),
// one component at a time through an *os.Root of base, and refuses any
// component that is not a real directory (a planted symbolic link, a file):
// nothing is created through it. again is the init command to run once
// it is removed.
func mkdirUnder(base, sub, again string) error {
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
			return &cliError{msg: fmt.Sprintf("%s is %s, not a directory; parley never follows it: remove it and run %s again", full, what, again)}
		}
	}
	return nil
}
