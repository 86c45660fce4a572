package debatecmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/debateview"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/internal/textview"
)

// progress shows a running debate: under --json one JSON line per event
// (the verdict's line comes after filing); otherwise a line per turn and,
// on a terminal, a status line redrawn in place (debateview).
type progress interface {
	Event(debate.Progress)
	Close()
}

func newProgress(f *cmdutil.Factory) progress {
	if f.JSON {
		return jsonProgress{f}
	}
	return debateview.New(f.Stdout, f.TTY, textview.ProgressLine, true)
}

// jsonProgress prints each event but the verdict as an app.ProgressLine.
type jsonProgress struct{ f *cmdutil.Factory }

func (jsonProgress) Close() {}

func (j jsonProgress) Event(p debate.Progress) {
	if line, ok := app.ProgressJSON(p); ok {
		_ = j.f.Emit(line)
	}
}

// PrintVerdict prints how a debate closed and returns the command's
// result: nil for CONSENSUS_REACHED, cmdutil.UnavailableExit (exit 3) for
// UNAVAILABLE, a cmdutil.BlockedError (exit 3) otherwise.
func PrintVerdict(f *cmdutil.Factory, o *debate.Outcome) error {
	v := f.Service().Verdict(o)
	if f.JSON {
		if err := f.Emit(v); err != nil {
			return err
		}
	} else {
		_ = textview.Verdict(f.Stdout, o, v.Transcript, v.Record, f.CmdLine("transcripts", "verify", o.DebateID))
	}
	switch o.Verdict {
	case debate.ConsensusReached:
		return nil
	case debate.Unavailable:
		return cmdutil.UnavailableExit{}
	}
	return cmdutil.BlockedError{}
}

// runDebate runs (or resumes: only s.ID counts) a debate in this process
// and prints its verdict.
func runDebate(ctx context.Context, f *cmdutil.Factory, s *debate.DebateSession, resume bool) error {
	o, err := Exec(ctx, f, s, resume)
	if err != nil {
		return err
	}
	return PrintVerdict(f, o)
}

// Exec runs or resumes a debate through the service layer with a progress
// view; Ctrl-C stops it (resume continues it).
func Exec(ctx context.Context, f *cmdutil.Factory, s *debate.DebateSession, resume bool) (*debate.Outcome, error) {
	ctx, stop := interrupt.On(ctx)
	defer stop()
	view := newProgress(f)
	opts := app.RunOptions{Progress: view.Event, Warn: func(err error) { f.Warnf("%v", err) }}
	var (
		o   *debate.Outcome
		err error
	)
	if resume {
		o, err = f.Service().ResumeDebate(ctx, s.ID, opts)
	} else {
		o, err = f.Service().RunDebate(ctx, s, opts)
	}
	view.Close()
	return o, debateError(f, err, s.ID)
}

// gateDebate runs the gate on the self-critique in source ("-" for
// standard input) before debate s, prints the decision (recorded in
// gate.jsonl by the service layer) and reports whether the debate is
// skipped.
func gateDebate(ctx context.Context, f *cmdutil.Factory, s *debate.DebateSession, source, mode string) (skip bool, err error) {
	g, err := f.LoadGate(ctx, mode, "", "--gate-mode")
	if err != nil {
		return false, err
	}
	sc, err := f.ReadCritique(ctx, "--gate", source)
	var named *cmdutil.Error
	switch {
	case errors.As(err, &named):
		return false, err // named --gate already
	case err != nil:
		return false, fmt.Errorf("--gate: %w", err)
	}
	entry, err := f.Service().GateDebate(s, g, sc, source)
	if err != nil {
		return false, f.Fail(err, cmdutil.Wording{})
	}
	skip = !entry.Decision.Debate()
	if f.JSON {
		return skip, f.Emit(app.GateLineOf(s.ID, entry))
	}
	_ = textview.GateBeforeDebate(f.Stdout, source, entry, s.Topic, f.RootDir()+"/"+gating.LogName)
	return skip, nil
}
