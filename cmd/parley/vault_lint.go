package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
)

// newVaultCmd is "parley vault": checks of the vault as a whole.
func newVaultCmd(a *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "vault",
		Short: "Check the vault: contradicting records, broken links, orphans, stale evidence",
		Args:  exactArgs(0),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newVaultLintCmd(a))
	return cmd
}

// lintFinding is one line of "vault lint --json".
type lintFinding struct {
	Kind        string   `json:"kind"` // contradiction, broken_link, orphan, stale
	Page        string   `json:"page"`
	Other       string   `json:"other,omitempty"` // the contradicting record
	Link        string   `json:"link,omitempty"`
	Ref         string   `json:"ref,omitempty"`
	Problem     string   `json:"problem"`
	Differences []string `json:"differences,omitempty"`
}

func newVaultLintCmd(a *factory) *cobra.Command {
	var workspace string
	cmd := &cobra.Command{
		Use:   "lint",
		Short: "Report contradicting active records, broken wikilinks, orphan pages and stale records (exit 3 if any)",
		Long: "Reads the whole vault and reports:\n" +
			"  contradiction  two active records of the same question (by meaning, in one\n" +
			"                 layer) whose positions conflict, compared as consensus check does\n" +
			"  broken_link    a wikilink to no page, or to a name several pages share\n" +
			"  orphan         a page no other page links to (index pages excepted)\n" +
			"  stale          an active record whose cited lines (path:from-to) changed or\n" +
			"                 are gone since it was filed (the record keeps their hash)\n" +
			"Exit 3 when anything is found, 0 when the vault is clean.",
		Example: "  parley vault lint\n  parley vault lint --workspace ~/src/app --json",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if workspace == "" {
				wd, err := os.Getwd()
				if err != nil {
					return err
				}
				workspace = wd
			}
			s, closeFn, err := a.readConsensusStore()
			if err != nil {
				return err
			}
			defer closeFn()
			var found []lintFinding
			contra, err := s.Contradictions(ctx)
			if err != nil {
				return err
			}
			for _, c := range contra {
				found = append(found, lintFinding{Kind: "contradiction", Page: c.A.Path, Other: c.B.Path, Differences: c.Differences,
					Problem: fmt.Sprintf("%q and %q answer the same question (topic score %.2f) with conflicting positions", c.A.Topic, c.B.Topic, c.TopicScore)})
			}
			links, err := s.Vault().LintLinks(ctx)
			if err != nil {
				return err
			}
			for _, b := range links.Broken {
				found = append(found, lintFinding{Kind: "broken_link", Page: b.Page, Link: b.Link, Problem: b.Reason})
			}
			for _, o := range links.Orphans {
				found = append(found, lintFinding{Kind: "orphan", Page: o, Problem: "no other page links to it"})
			}
			stale, err := s.Stale(ctx, workspace)
			if err != nil {
				return err
			}
			for _, st := range stale {
				found = append(found, lintFinding{Kind: "stale", Page: st.Record.Path, Ref: st.Ref, Problem: st.Problem})
			}
			for _, f := range found {
				if a.json {
					if err := a.emit(f); err != nil {
						return err
					}
					continue
				}
				line := fmt.Sprintf("%-13s  %s", f.Kind, f.Page)
				switch {
				case f.Other != "":
					line += "  ↔  " + f.Other + ": " + strings.Join(f.Differences, "; ")
				case f.Link != "":
					line += "  " + f.Link + ": " + f.Problem
				case f.Ref != "":
					line += "  " + f.Ref + ": " + f.Problem
				default:
					line += ": " + f.Problem
				}
				a.termf("%s\n", oneLine(line, 0))
			}
			if len(found) > 0 {
				return blockedError{fmt.Sprintf("vault lint: %d finding(s) in %s", len(found), s.Vault().Path())}
			}
			if !a.json {
				a.printf("vault lint: nothing found in %s\n", filepath.Clean(s.Vault().Path()))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&workspace, "workspace", "", "the directory evidence paths are relative to (default: the current directory)")
	return cmd
}
