package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/interrupt"
)

// debateFlags are what "debate run" and "debate start" share.
type debateFlags struct {
	req    app.DebateRequest
	budget budgetFlags
}

func (f *debateFlags) add(cmd *cobra.Command) {
	fl, r := cmd.Flags(), &f.req
	fl.StringVar(&r.Layer, "layer", "", "spec, plan or verify (sets the default budget)")
	fl.StringVar(&r.Topic, "topic", "", "the question debated")
	fl.StringArrayVar(&r.Agents, "agent", nil, "ROLE=SPEC, once per participant in speaking order; SPEC is script:FILE, exec:COMMAND, openai:MODEL or @NAME")
	fl.StringVar(&r.Position, "position", "", "the defender's opening position (default: the topic)")
	fl.StringVar(&r.Scope, "scope", "", "what the debate covers, in a line")
	fl.StringArrayVar(&r.Context, "context", nil, "a file handed to every turn (repeatable)")
	fl.StringVar(&r.Workspace, "workspace", ".", "the directory evidence paths are checked under")
	f.budget.add(cmd)
}

// session is the session the flags describe, built by the service layer.
func (f *debateFlags) session(cmd *cobra.Command, a *factory) (*debate.DebateSession, error) {
	f.req.Budget = f.budget.override(cmd)
	s, err := a.Service().NewSession(f.req)
	return s, a.Fail(err, cmdutil.Wording{Help: "parley debate run"})
}

func newDebateRunCmd(a *factory) *cobra.Command {
	var (
		f                  debateFlags
		gateFile, gateMode string
	)
	cmd := &cobra.Command{
		Use:   "run --layer L --topic T --agent ROLE=SPEC... [budget flags]",
		Short: "Run a debate to its verdict (exit 0 on CONSENSUS_REACHED, 4 on UNAVAILABLE, 3 otherwise)",
		Long: "Starts the agents it needs as separate processes (script:FILE, exec:COMMAND)\n" +
			"or uses running ones (@NAME), runs the debate, files the verdict in the vault\n" +
			"and prints it. Attackers speak in the order given, then the defender.\n" +
			"With --json: one JSON line per event, then a closing \"verdict\" line.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := f.session(cmd, a)
			if err != nil {
				return err
			}
			if gateFile != "" {
				skip, err := a.gateDebate(cmd.Context(), s, gateFile, gateMode)
				if err != nil || skip {
					return err
				}
			}
			return a.runDebate(cmd.Context(), s, false)
		},
	}
	f.add(cmd)
	cmd.Flags().StringVar(&gateFile, "gate", "", "a self-critique (FILE or -): run the gate first and debate only when it says so")
	cmd.Flags().StringVar(&gateMode, "gate-mode", "model", "the gate's mode with --gate: model or rules")
	return cmd
}

// runDebate runs (or resumes: only s.ID counts) a debate in this process
// and prints its verdict.
func (a *factory) runDebate(ctx context.Context, s *debate.DebateSession, resume bool) error {
	o, err := a.execDebate(ctx, s, resume)
	if err != nil {
		return err
	}
	return a.printVerdict(o)
}

// execDebate runs or resumes a debate through the service layer with a
// progress view; Ctrl-C stops it (resume continues it).
func (a *factory) execDebate(ctx context.Context, s *debate.DebateSession, resume bool) (*debate.Outcome, error) {
	ctx, stop := interrupt.On(ctx)
	defer stop()
	view := a.newProgress()
	opts := app.RunOptions{Progress: view.Event, Warn: func(err error) { a.Warnf("%v", err) }}
	var (
		o   *debate.Outcome
		err error
	)
	if resume {
		o, err = a.Service().ResumeDebate(ctx, s.ID, opts)
	} else {
		o, err = a.Service().RunDebate(ctx, s, opts)
	}
	view.Close()
	return o, a.debateError(err, s.ID)
}

// debateError turns the service layer's errors about debate id into one
// line that says what to do (app.ExplainDebate), with the commands it
// suggests as this one was run.
func (a *factory) debateError(err error, id string) error {
	return a.Fail(a.Service().ExplainDebate(err, id), cmdutil.Wording{})
}
