package main

import (
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/suggest"
	"github.com/parleyhq/parley/internal/textview"
)

// newInitCmd is "parley init": create the root and vault layout
// (app.Init).
func newInitCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Annotations: map[string]string{cmdutil.RootHere: "yes"},
		Use:         "init",
		Short:       "Create the messenger root and the vault layout",
		Long: "Create the messenger root (--root, default .parley in this directory, even\n" +
			"below a directory that has one) with registry/, inbox/ and debates/, and the\n" +
			"vault (--vault, default <root>/vault) with wiki/consensus/ and wiki/debates/.\n" +
			"Directories are 0700. Running it again changes nothing. The root and the vault\n" +
			"may be symbolic links; nothing inside them may be. The root does not record a\n" +
			"--vault: give it to every command on the root (or set PARLEY_VAULT). The other\n" +
			"commands, run here or in a directory below, use this root.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := a.Service().Init(cmd.Context())
			if err != nil {
				return a.Fail(err, cmdutil.Wording{})
			}
			if err := cmdutil.View(a.Factory, r, textview.Initialized); err != nil {
				return err
			}
			if a.VaultFlag != "" {
				// Nothing under the root records the vault: a command
				// without --vault files into <root>/vault, made then.
				a.Warnf("the root does not record its vault: give every command on it --vault %s, as in %s (or set PARLEY_VAULT); without it, records go to %s",
					suggest.Quote(a.VaultFlag), a.CmdLine("consensus", "list"), filepath.Join(a.RootDir(), "vault"))
			}
			return nil
		},
	}
}
