package main

import (
	"fmt"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/internal/textview"
)

// newTranscriptsVerifyCmd is "parley transcripts verify ID": every file the
// debate produced checked against its seal (the transcript's hash chain,
// session.json, verdict.json, the vault page, the consensus record); exit
// 0 when all agree, 3 naming each file that differs or is missing and what
// an intact one would say.
func newTranscriptsVerifyCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "verify ID",
		Short: "Check a debate's transcript, session, verdict, vault page and record against its seal (exit 3 naming the file if tampered)",
		Args:  cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := a.ResolveDebateID(args[0])
			if err != nil {
				return err
			}
			v, err := a.Service().VerifyTranscript(cmd.Context(), id)
			if app.IsNoDebate(err) {
				return cmdutil.NotFoundf("no debate %s under %s (%s lists them)", id, a.RootDir(), a.CmdLine("debate", "list"))
			}
			if err != nil {
				return err
			}
			if err := cmdutil.View(a.Factory, v, textview.Audit); err != nil {
				return err
			}
			if v.Tampered {
				return cmdutil.BlockedError{Msg: fmt.Sprintf("debate %s does not verify: %s", id, v.Integrity.Trouble())}
			}
			return nil
		},
	}
}
