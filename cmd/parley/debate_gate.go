package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/textview"
)

// gateDebate runs the gate on the self-critique in source ("-" for
// standard input) before debate s, prints the decision (recorded in
// gate.jsonl by the service layer) and reports whether the debate is
// skipped.
func (a *factory) gateDebate(ctx context.Context, s *debate.DebateSession, source, mode string) (skip bool, err error) {
	g, err := a.gate(mode, "")
	if err != nil {
		return false, err
	}
	sc, err := a.readCritique(ctx, "--gate", source)
	var named *cmdutil.Error
	switch {
	case errors.As(err, &named):
		return false, err // named --gate already
	case err != nil:
		return false, fmt.Errorf("--gate: %w", err)
	}
	entry, err := a.Service().GateDebate(s, g, sc, source)
	if err != nil {
		return false, a.Fail(err, cmdutil.Wording{})
	}
	skip = !entry.Decision.Debate()
	if a.JSON {
		return skip, a.Emit(app.GateLineOf(s.ID, entry))
	}
	_ = textview.GateBeforeDebate(a.Stdout, source, entry, s.Topic, a.RootDir()+"/"+gating.LogName)
	return skip, nil
}
