package main

import (
	"github.com/spf13/cobra"
)

// newInitCmd is "parley init": create the root and vault layout
// (app.Init).
func newInitCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Create the messenger root and the vault layout",
		Long: "Create the messenger root (--root, default .parley) with registry/, inbox/ and\n" +
			"debates/, and the vault (--vault, default <root>/vault) with wiki/consensus/ and\n" +
			"wiki/debates/. Directories are 0700. Running it again changes nothing. The root\n" +
			"and the vault may be symbolic links; nothing inside them may be.",
		Example: "  parley init\n  parley --root ~/.parley --vault ~/notes/parley init",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := a.service().Init(cmd.Context())
			if err != nil {
				return a.fail(err, "", nil)
			}
			if a.json {
				return a.emit(r)
			}
			a.printf("parley root:  %s\nparley vault: %s\n", r.Root, r.Vault)
			if len(r.Created) == 0 {
				a.printf("already set up: nothing created\n")
				return nil
			}
			a.printf("created %d director%s:\n", len(r.Created), plural(len(r.Created), "y", "ies"))
			for _, d := range r.Created {
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
