package debatecmd

import (
	"context"
	"errors"
	"io"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/textview"
)

// IDOptions are what a command on one debate of the root (status, watch,
// resume) was asked for.
type IDOptions struct {
	f *cmdutil.Factory
	// ID is the debate as typed: a whole id or a unique prefix.
	ID string
}

// newIDCmd is cmd, a subcommand "USE ID" on one debate of the root: run
// is given the id as typed, and resolves it (resolve).
func newIDCmd(f *cmdutil.Factory, cmd *cobra.Command, runF func(*IDOptions) error, run func(context.Context, *IDOptions) error) *cobra.Command {
	return cmdutil.OneArg(cmd, &IDOptions{f: f}, func(o *IDOptions, id string) { o.ID = id }, runF, run)
}

// resolve is the one debate opts.ID names (cmdutil.ResolveDebateID).
func (opts *IDOptions) resolve() (string, error) { return opts.f.ResolveDebateID(opts.ID) }

// NewCmdResume is "parley debate resume ID".
func NewCmdResume(f *cmdutil.Factory, runF func(*IDOptions) error) *cobra.Command {
	return newIDCmd(f, &cobra.Command{
		Use:   "resume ID",
		Short: "Continue an interrupted debate from its transcript (and file a verdict not yet filed)",
		Long: "Continues a debate whose coordinator stopped (crash, kill -9, Ctrl-C): requests are\n" +
			"sent again under the same request ids, replies that arrived meanwhile are taken\n" +
			"from the inbox, nothing recorded is counted twice, and time spent stopped does\n" +
			"not count against the wall clock. A closed debate prints its verdict. A debate\n" +
			"whose files disagree with its seal (see parley transcripts verify) is refused.",
	}, runF, func(ctx context.Context, opts *IDOptions) error {
		id, err := opts.resolve()
		if err != nil {
			return err
		}
		return runDebate(ctx, opts.f, &debate.DebateSession{ID: id}, true)
	})
}

// NewCmdStatus is "parley debate status ID".
func NewCmdStatus(f *cmdutil.Factory, runF func(*IDOptions) error) *cobra.Command {
	return newIDCmd(f, &cobra.Command{Use: "status ID", Short: "Where a debate stands: running, closed or interrupted; round, tokens, time"},
		runF, func(ctx context.Context, opts *IDOptions) error {
			id, err := opts.resolve()
			if err != nil {
				return err
			}
			line, err := f.Service().DebateStatus(ctx, id)
			if err != nil {
				return debateError(f, err, id)
			}
			return f.Show(line, func(w io.Writer) error {
				return textview.DebateStatus(w, line, f.CmdLine("debate", "resume", id), f.CmdLine("transcripts", "verify", id))
			})
		})
}

// NewCmdWatch is "parley debate watch ID": a debate's events as its
// transcript grows, until its verdict is filed (then the verdict), the
// debate is found interrupted, or Ctrl-C.
func NewCmdWatch(f *cmdutil.Factory, runF func(*IDOptions) error) *cobra.Command {
	return newIDCmd(f, &cobra.Command{Use: "watch ID",
		Short: "Follow a running or finished debate until its verdict " + verdictExits()},
		runF, func(ctx context.Context, opts *IDOptions) error {
			id, err := opts.resolve()
			if err != nil {
				return err
			}
			view := newProgress(f)
			o, err := f.Service().WatchDebate(ctx, id, view.Event)
			view.Close()
			switch {
			case err != nil && ctx.Err() != nil:
				return nil
			case err != nil:
				return debateError(f, err, id)
			}
			return PrintVerdict(f, o)
		})
}

// ListOptions are what "parley debate list" was asked for: nothing but
// the root.
type ListOptions struct{ f *cmdutil.Factory }

// NewCmdList is "parley debate list".
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{f: f}
	run := cmdutil.Runner(opts, runF, listRun)
	return &cobra.Command{
		Use:   "list",
		Short: "List the debates under the root, newest first",
		RunE:  func(cmd *cobra.Command, _ []string) error { return run(cmd) },
	}
}

func listRun(ctx context.Context, opts *ListOptions) error {
	f := opts.f
	store, err := f.Service().OpenDebates()
	if errors.Is(err, fs.ErrNotExist) {
		return f.NoRootNote("no debates: ") // no root: nothing to list
	}
	if err != nil {
		return err
	}
	store.Close()
	if f.JSON {
		lines, err := f.Service().DebateStatuses(ctx)
		return errors.Join(cmdutil.EmitEach(f, lines), err)
	}
	list, err := f.Service().ListDebates(ctx)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		f.Printf("no debates yet under %s (start one with %s)\n", f.RootDir(), f.CmdLine("debate", "run"))
		return nil
	}
	return textview.DebateList(f.Stdout, list, f.StdoutTTY())
}
