package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/textview"
)

// newGCCmd is "parley gc [--older-than DUR]" (app.Collect).
func newGCCmd(a *factory) *cobra.Command {
	var olderThan string
	cmd := &cobra.Command{
		Use:   "gc [--older-than DUR]",
		Short: "Prune acknowledged messages, stale staging files and dead registrations",
		Long: "Remove acknowledged messages (cur/) acknowledged more than --older-than ago\n" +
			"(default 7d; units d, h, m, s: counted from the acknowledgement, not from the\n" +
			"sending, so a message read late keeps its audit copy as long as any), staging\n" +
			"files left by crashed writers (older than 10m: in the inboxes, registry/,\n" +
			"debates/<id>/ and the vault's wiki/consensus/ and wiki/debates/), and the\n" +
			"registrations of dead agents. Waiting messages, quarantined files (bad/) and mail\n" +
			"moved aside are never removed.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := app.ParseAge(olderThan)
			if err != nil {
				return cmdutil.Usagef("--older-than %q: %v", olderThan, err)
			}
			st, err := a.Service().Collect(cmd.Context(), d)
			if err != nil {
				return a.Fail(err, cmdutil.Wording{NoRoot: "nothing to collect: "})
			}
			if err := a.Warn(st.Warnings...); err != nil {
				return err
			}
			return a.Show(st, func(w io.Writer) error { return textview.Collected(w, st, olderThan) })
		},
	}
	cmd.Flags().StringVar(&olderThan, "older-than", "7d", "remove messages acknowledged longer ago than this (e.g. 7d, 12h)")
	return cmd
}
