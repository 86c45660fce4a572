package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
)

// newInitCmd is "parley init": create the root and vault layout (SPEC §3).
func newInitCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Create the messenger root and the vault layout",
		Long: "Create the messenger root (--root, default .parley) with registry/, inbox/ and\n" +
			"debates/, and the vault (--vault, default <root>/vault) with wiki/consensus/ and\n" +
			"wiki/debates/. Directories are 0700. Running it again changes nothing.",
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, err := a.openMessenger() // creates root, inbox/ and registry/
			if err != nil {
				return err
			}
			m.Close()
			root, vault := a.rootDir(), a.vaultDir()
			dirs := []string{filepath.Join(root, inbox.InboxDir), filepath.Join(root, registry.Dir), filepath.Join(root, "debates"),
				filepath.Join(vault, "wiki", "consensus"), filepath.Join(vault, "wiki", "debates")}
			for _, d := range dirs {
				if err := os.MkdirAll(d, 0o700); err != nil {
					return err
				}
				if fi, err := os.Lstat(d); err != nil || !fi.IsDir() {
					if err == nil {
						err = &fs.PathError{Op: "init", Path: d, Err: errors.New("not a directory")}
					}
					return err
				}
			}
			if a.json {
				return a.emit(map[string]any{"root": root, "vault": vault, "created": dirs})
			}
			a.printf("parley root:  %s\nparley vault: %s\n", root, vault)
			return nil
		},
	}
}
