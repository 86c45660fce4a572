package main

import (
	"fmt"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/internal/termsafe"
	"github.com/parleyhq/parley/internal/textview"
)

// newTranscriptsShowCmd is "parley transcripts show ID [--format
// text|md|html|json]": a debate as a reader follows it, with the integrity
// of its transcript (and of its vault page) checked on the way.
func newTranscriptsShowCmd(a *factory) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "show ID [--format text|md|html|json]",
		Short: "Print a debate: rounds, turns, evidence checks, rejections, forfeits and the verdict (exit 3 if tampered)",
		Long: "Reads the debate's transcript, verifies its hash chain, and compares the chain's\n" +
			"head with the one its vault page (wiki/debates/<id>.md) recorded at filing.\n" +
			"A transcript that does not verify, or whose vault page differs, is printed with\n" +
			"a banner naming the first bad line, and the command exits 3.",
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := a.ResolveDebateID(args[0])
			if err != nil {
				return err
			}
			if a.JSON {
				format = "json"
			}
			switch format {
			case "text", "md", "html", "json":
			default:
				return cmdutil.Usagef("--format %q: use text, md, html or json", format)
			}
			view, err := a.Service().ReadTranscript(cmd.Context(), id)
			if app.IsNoDebate(err) {
				return cmdutil.NotFoundf("no debate %s under %s (%s lists them)", id, a.RootDir(), a.CmdLine("transcripts", "list"))
			}
			if err != nil {
				return err
			}
			view.VerifyCommand = a.CmdLine("transcripts", "verify", id)
			if format == "json" {
				err = a.Emit(view)
			} else {
				err = textview.Transcript(a.Stdout, view, format)
			}
			if err != nil {
				return err
			}
			if in := view.Integrity; in.Tampered() {
				return cmdutil.BlockedError{Msg: fmt.Sprintf("debate %s does not verify: %s", id, termsafe.Clean(in.Trouble(), ""))}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text, md (the vault page's Markdown), html (a whole page) or json")
	return cmd
}
