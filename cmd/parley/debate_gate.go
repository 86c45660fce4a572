package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/parleyhq/parley/app"
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
	sc, err := a.readCritique(ctx, source)
	if err != nil {
		return false, fmt.Errorf("--gate: %w", err)
	}
	entry, err := a.service().GateDebate(s, g, sc, source)
	var ie *app.InputError
	if errors.As(err, &ie) {
		return false, usagef("--gate %s: %v", source, ie.Err)
	}
	if err != nil {
		return false, err
	}
	d := entry.Decision
	if a.json {
		return !d.Debate(), a.emit(app.GateLineOf(s.ID, entry))
	}
	a.printf("gate (%s, decision %s): ", source, entry.ID)
	textview.Decision(a.stdout, d)
	if !d.Debate() {
		a.printf("\nno debate: the gate skipped %q (recorded in %s/%s)\n", s.Topic, a.rootDir(), gating.LogName)
	} else {
		a.printf("\n")
	}
	return !d.Debate(), nil
}
