package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/cmd/internal/debatecmd"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/demo"
)

// newDemoCmd is "parley demo" (demo.Run): the flow on a temporary root, in
// seconds, printed as it happens.
func newDemoCmd(a *factory) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "demo [--dir DIR]",
		Short: "Run the whole flow on a temporary root, in seconds",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dir == "" && (a.RootFlag != "" || a.VaultFlag != "") {
				// Not silently elsewhere: the user would look for the
				// demo's debates under the root they named.
				return cmdutil.Usagef("--root and --vault do not apply to demo, which makes a root of its own: choose its directory with %s", "parley demo --dir DIR")
			}
			root, err := demo.Root(dir)
			if errors.Is(err, demo.ErrDir) {
				return cmdutil.Usagef("--dir %s: %v", dir, err)
			}
			if err != nil {
				return fmt.Errorf("--dir: %w", err)
			}
			// Everything of the demo lives under its root.
			a.RootFlag, a.VaultFlag = root, filepath.Join(root, "vault")
			svc := demo.Services{
				Debate: func(ctx context.Context, s *debate.DebateSession) (*debate.Outcome, error) {
					return debatecmd.Exec(ctx, a.Factory, s, false)
				},
				Escalate: demo.AppEscalate(a.Service()),
				Logger:   a.Logger(),
			}
			res, err := demo.Run(cmd.Context(), root, svc, a.demoEvent)
			if err != nil {
				return err
			}
			if a.JSON {
				return a.Emit(res.JSON())
			}
			return res.WriteText(a.Stdout, a.CmdLine)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "directory for the demo's root: used if new or empty, else a new demo-* directory is made in it (default: a new temporary directory, kept)")
	return cmd
}

// demoEvent prints one step: a JSON line under --json, else a timed line;
// the verdict as "debate run" prints it.
func (a *factory) demoEvent(e demo.Event) error {
	switch {
	case e.Kind == demo.EventVerdict:
		if err := debatecmd.PrintVerdict(a.Factory, e.Outcome); err != nil && e.Outcome.Verdict == debate.ConsensusReached {
			return err
		}
		return nil
	case a.JSON:
		return a.Emit(e.JSON())
	}
	a.Printf("%s\n", e.Line())
	return nil
}
