package main

import (
	"io"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/debateview"
	"github.com/parleyhq/parley/internal/textview"
)

// progress shows a running debate: under --json one JSON line per event
// (the verdict's line comes after filing); otherwise a line per turn and,
// on a terminal, a status line redrawn in place (debateview).
type progress interface {
	Event(debate.Progress)
	Close()
}

func (a *factory) newProgress() progress {
	if a.JSON {
		return jsonProgress{a}
	}
	return debateview.New(a.Stdout, a.TTY, textview.ProgressLine, true)
}

// jsonProgress prints each event but the verdict as an app.ProgressLine.
type jsonProgress struct{ a *factory }

func (jsonProgress) Close() {}

func (j jsonProgress) Event(p debate.Progress) {
	if line, ok := app.ProgressJSON(p); ok {
		_ = j.a.Emit(line)
	}
}

// show prints v as a JSON line under --json, else its text view.
func (a *factory) show(v any, text func(w io.Writer) error) error {
	if a.JSON {
		return a.Emit(v)
	}
	return text(a.Stdout)
}

// printVerdict prints how a debate closed and returns the command's
// result: nil for CONSENSUS_REACHED, unavailableExit (exit 3) for
// UNAVAILABLE, a blockedError (exit 3) otherwise.
func (a *factory) printVerdict(o *debate.Outcome) error {
	v := a.Service().Verdict(o)
	if a.JSON {
		if err := a.Emit(v); err != nil {
			return err
		}
	} else {
		_ = textview.Verdict(a.Stdout, o, v.Transcript, v.Record, a.CmdLine("transcripts", "verify", o.DebateID))
	}
	switch o.Verdict {
	case debate.ConsensusReached:
		return nil
	case debate.Unavailable:
		return cmdutil.UnavailableExit{}
	}
	return cmdutil.BlockedError{}
}
