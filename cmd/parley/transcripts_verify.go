package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/transcripts"
)

// newTranscriptsVerifyCmd is "parley transcripts verify ID": exit 0 when the
// hash chain is intact, 3 when it is not, naming the first bad line.
func newTranscriptsVerifyCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "verify ID",
		Short: "Recompute a transcript's hash chain (exit 3 and the first bad line if it was tampered with)",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := a.debateID(args)
			if err != nil {
				return err
			}
			st, err := a.storeFor(id)
			if err != nil {
				return err
			}
			defer st.Close()
			rep, err := st.Verify(id)
			if errors.Is(err, transcripts.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
				return notFoundf("no debate %s under %s (%s lists them)", id, a.rootDir(), a.cmdLine("debate", "list"))
			}
			if err != nil {
				return err
			}
			if a.json {
				if err := a.emit(rep); err != nil {
					return err
				}
			} else if rep.Intact {
				sealed := "not sealed yet (no verdict.json)"
				if rep.Sealed {
					sealed = "sealed by verdict.json"
				}
				a.printf("%s: intact, %d events, head %s, %s\n", id, rep.Events, rep.Head, sealed)
			} else {
				a.printf("%s: TAMPERED at line %d: %s\n", id, rep.BadLine, rep.Problem)
			}
			if !rep.Intact {
				return blockedError{msg: fmt.Sprintf("transcript %s does not verify: line %d %s", id, rep.BadLine, rep.Problem)}
			}
			return nil
		},
	}
}
