package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/transcripts"
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
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := a.debateID(args)
			if err != nil {
				return err
			}
			v, err := a.service().VerifyTranscript(cmd.Context(), id)
			if app.IsNoDebate(err) {
				return notFoundf("no debate %s under %s (%s lists them)", id, a.rootDir(), a.cmdLine("debate", "list"))
			}
			if err != nil {
				return err
			}
			in := v.Integrity
			if a.json {
				if err := a.emit(v); err != nil {
					return err
				}
			} else {
				printAudit(a, id, in)
			}
			if v.Tampered {
				return blockedError{msg: fmt.Sprintf("debate %s does not verify: %s", id, in.Trouble())}
			}
			return nil
		},
	}
}

// printAudit prints the chain and every checked file, one line each.
func printAudit(a *factory, id string, in transcripts.Integrity) {
	switch {
	case !in.Intact:
		a.printf("%s: TAMPERED at line %d: %s\n", id, in.BadLine, termClean(in.Problem))
	case in.Tampered():
		a.printf("%s: TAMPERED: %s\n", id, termClean(in.Trouble()))
	case in.Sealed:
		a.printf("%s: intact, %d events, head %s, sealed by verdict.json\n", id, in.Events, in.Head)
	default:
		a.printf("%s: intact so far, %d events, head %s, not sealed yet (no verdict.json)\n", id, in.Events, in.Head)
	}
	for _, f := range in.Files {
		line := fmt.Sprintf("  %-9s %s", f.Status, f.File)
		if f.Problem != "" {
			line += ": " + f.Problem
		}
		a.printf("%s\n", termClean(line))
		if f.Status.Bad() && f.Want != "" {
			a.printf("            an intact one: %s\n", termClean(f.Want))
		}
	}
	switch in.Signature {
	case transcripts.SigValid:
		a.printf("  signature valid (seal.publicKey)\n")
	case transcripts.SigInvalid:
		a.printf("  signature INVALID: the seal was not signed by seal.publicKey\n")
	case transcripts.SigMissing:
		a.printf("  signature MISSING although seal.publicKey is set\n")
	case transcripts.SigUnchecked:
		a.printf("  signed; set seal.publicKey in config.json to check the signature\n")
	}
}
