package main

import (
	"errors"
	"io/fs"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/internal/textview"
	"github.com/parleyhq/parley/transcripts"
)

// newTranscriptsListCmd is "parley transcripts list [--layer L] [--verdict V]
// [--since DATE|AGE]": the debates under the root, newest first.
func newTranscriptsListCmd(a *factory) *cobra.Command {
	var q app.TranscriptQuery
	cmd := &cobra.Command{
		Use:   "list [--layer L] [--verdict V] [--since DATE|AGE]",
		Short: "List the debates' transcripts, newest first (id, date, layer, topic, verdict, rounds, tokens)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := q.Filter(); err != nil {
				return a.Fail(err, cmdutil.Wording{})
			}
			list, err := a.Service().ListTranscripts(cmd.Context(), q)
			if errors.Is(err, fs.ErrNotExist) {
				return a.NoRootNote("no debates: ")
			}
			if err != nil {
				return err
			}
			if a.JSON {
				return cmdutil.EmitEach(a.Factory, list)
			}
			return textview.Transcripts(a.Stdout, list, a.RootDir(), a.StdoutTTY())
		},
	}
	cmd.Flags().StringVar(&q.Layer, "layer", "", "only this layer: spec, plan or verify")
	cmd.Flags().StringVar(&q.Verdict, "verdict", "", "only this verdict: CONSENSUS_REACHED, DEADLOCK, BUDGET_EXHAUSTED or TIMEOUT")
	cmd.Flags().StringVar(&q.Since, "since", "", "only debates created since a date (2026-01-31), an RFC 3339 time, or an age (36h, 7d)")
	return cmd
}

// listStore opens the debates of the root to list them. Without a root
// there is nothing to list: it says so (except under --json, where the
// list is empty) and returns no store and no error. With no store, the
// error is what failed.
func (a *factory) listStore() (*transcripts.Store, error) {
	st, err := a.Service().OpenDebates()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, a.NoRootNote("no debates: ")
	}
	return st, err
}
