package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/textview"
)

// newVaultCmd is "parley vault": checks of the vault as a whole.
func newVaultCmd(a *factory) *cobra.Command {
	return cmdutil.Group(&cobra.Command{
		Use:   "vault",
		Short: "Check the vault: contradicting records, unmarked supersessions, skipped records, broken links, orphans, stale evidence",
	}, newVaultLintCmd(a))
}

func newVaultLintCmd(a *factory) *cobra.Command {
	var workspace string
	cmd := &cobra.Command{
		Use:   "lint",
		Short: "Report contradicting active records, unmarked supersessions, skipped records, broken wikilinks, orphan pages and stale records (exit 3 if any)",
		Long: "Reads the whole vault and reports:\n" +
			"  contradiction  two active records of the same question (by meaning, in one\n" +
			"                 layer) whose positions conflict, compared as consensus check does\n" +
			"  unsuperseded   a record a newer one supersedes whose page still says active\n" +
			"                 (the next filing marks it, or, if parley cannot edit it, you do)\n" +
			"  skipped        a file of the records folder that lookups skip (frontmatter\n" +
			"                 that does not parse, a symbolic link), with the reason\n" +
			"  broken_link    a wikilink to no page, or to a name several pages share\n" +
			"  orphan         a page no other page links to (index pages excepted)\n" +
			"  stale          an active record whose cited lines (path:from-to) changed or\n" +
			"                 are gone since it was filed (the record keeps their hash), read\n" +
			"                 in the workspace its debate ran in unless --workspace is given\n" +
			"Exit 3 when anything is found, 0 when the vault is clean.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.OpenConsensus()
			if err != nil {
				return err
			}
			defer c.Close()
			found, err := c.Lint(cmd.Context(), workspace)
			if err != nil {
				return err
			}
			vault := c.Store().Vault().Path()
			if a.JSON {
				err = cmdutil.EmitEach(a.Factory, found)
			} else {
				err = textview.LintFindings(a.Stdout, found, vault)
			}
			if err == nil && len(found) > 0 {
				return cmdutil.BlockedError{Msg: fmt.Sprintf("vault lint: %d finding(s) in %s", len(found), vault)}
			}
			return err
		},
	}
	cmd.Flags().StringVar(&workspace, "workspace", "", "the directory every record's evidence paths are relative to (default: each record's debate's workspace, else the current directory)")
	return cmd
}
