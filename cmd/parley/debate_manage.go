package main

import (
	"context"
	"errors"
	"io"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/textview"
	"github.com/parleyhq/parley/transcripts"
)

func newDebateResumeCmd(a *factory) *cobra.Command {
	return a.debateCmd(&cobra.Command{
		Use:   "resume ID",
		Short: "Continue an interrupted debate from its transcript (and file a verdict not yet filed)",
		Long: "Continues a debate whose coordinator stopped (crash, kill -9, Ctrl-C): requests are\n" +
			"sent again under the same request ids, replies that arrived meanwhile are taken\n" +
			"from the inbox, nothing recorded is counted twice, and time spent stopped does\n" +
			"not count against the wall clock. A closed debate prints its verdict. A debate\n" +
			"whose files disagree with its seal (see parley transcripts verify) is refused.",
	}, func(ctx context.Context, id string) error {
		return a.runDebate(ctx, &debate.DebateSession{ID: id}, true)
	})
}

func newDebateStartCmd(a *factory) *cobra.Command {
	var f debateFlags
	cmd := &cobra.Command{
		Use:   "start --layer L --topic T --agent ROLE=SPEC... [budget flags]",
		Short: "Start a debate in the background and print its id",
		Long: "Like \"debate run\", but the debate runs in a detached process (its output in\n" +
			"<root>/debates/<id>/logs/coordinator.log). Follow it with \"parley debate watch ID\".",
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := f.session(cmd, a)
			if err != nil {
				return err
			}
			pid, err := a.Service().StartDebate(cmd.Context(), s)
			if err != nil {
				return a.debateError(err, s.ID)
			}
			if a.JSON {
				return a.Emit(map[string]any{"event": "started", "debate_id": s.ID, "pid": pid})
			}
			_ = textview.DebateStarted(a.Stdout, a.Stderr, s.ID, pid, a.CmdLine("debate", "watch", s.ID))
			return nil
		},
	}
	f.add(cmd)
	return cmd
}

// debateCmd is cmd, a subcommand "USE ID" on one debate of the root: run
// is given the checked id.
func (a *factory) debateCmd(cmd *cobra.Command, run func(ctx context.Context, id string) error) *cobra.Command {
	cmd.Args = cmdutil.ExactArgs(1)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		id, err := a.ResolveDebateID(args[0])
		if err != nil {
			return err
		}
		return run(cmd.Context(), id)
	}
	return cmd
}

func newDebateStatusCmd(a *factory) *cobra.Command {
	return a.debateCmd(&cobra.Command{Use: "status ID", Short: "Where a debate stands: running, closed or interrupted; round, tokens, time"},
		func(_ context.Context, id string) error {
			line, err := a.Service().DebateStatus(id)
			if err != nil {
				return a.debateError(err, id)
			}
			return a.show(line, func(w io.Writer) error { return textview.DebateStatus(w, line, a.CmdLine("debate", "resume", id)) })
		})
}

func newDebateListCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the debates under the root, newest first",
		RunE: func(cmd *cobra.Command, _ []string) error {
			store, err := a.listStore() // no root: it says so
			if store == nil {
				return err
			}
			store.Close()
			if a.JSON {
				lines, err := a.Service().DebateStatuses(cmd.Context())
				return errors.Join(cmdutil.EmitEach(a.Factory, lines), err)
			}
			list, err := a.Service().ListDebates(cmd.Context())
			if err != nil {
				return err
			}
			if len(list) == 0 {
				a.Printf("no debates yet under %s (start one with %s)\n", a.RootDir(), a.CmdLine("debate", "run"))
				return nil
			}
			return textview.DebateList(a.Stdout, list, a.StdoutTTY())
		},
	}
}

func newDebateWatchCmd(a *factory) *cobra.Command {
	return a.debateCmd(&cobra.Command{Use: "watch ID",
		Short: "Follow a running or finished debate until its verdict (exit 0 on CONSENSUS_REACHED, 4 on UNAVAILABLE, 3 otherwise)"}, a.watchDebate)
}

// watchDebate prints a debate's events as its transcript grows, until its
// verdict is filed (then prints it), the debate is found interrupted, or
// ctx ends.
func (a *factory) watchDebate(ctx context.Context, id string) error {
	view := a.newProgress()
	o, err := a.Service().WatchDebate(ctx, id, view.Event)
	view.Close()
	switch {
	case err != nil && ctx.Err() != nil:
		return nil
	case err != nil:
		return a.debateError(err, id)
	}
	return a.printVerdict(o)
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
