package main

import (
	"context"
	"fmt"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
)

// gateLine is the JSON line "debate run --gate" prints for the gate's
// decision, before the debate's own lines (or instead of them on a skip).
type gateLine struct {
	Event    string `json:"event"` // "gate"
	DebateID string `json:"debate_id"`
	ID       string `json:"id"` // the decision's id in gate.jsonl
	gating.Decision
}

// gateDebate runs the gate on the self-critique in source ("-" for
// standard input) before debate s, records the decision (with its cues and
// the debate id) in gate.jsonl, and reports whether the debate is skipped.
// The self-critique's layer defaults to the debate's.
func (a *factory) gateDebate(ctx context.Context, s *debate.DebateSession, source, mode string) (skip bool, err error) {
	g, err := a.gate(mode, "")
	if err != nil {
		return false, err
	}
	sc, err := a.readCritique(ctx, source)
	if err != nil {
		return false, fmt.Errorf("--gate: %w", err)
	}
	if sc.Layer == "" {
		sc.Layer = s.Layer
	}
	d, err := g.Decide(sc)
	if err != nil {
		return false, usagef("--gate %s: %v", source, err)
	}
	entry := gating.NewLogEntry(d, sc, source, time.Now())
	entry.DebateID = s.ID
	if entry.Question == "" {
		entry.Question = s.Topic
	}
	if err := a.logDecision(entry); err != nil {
		return false, err
	}
	if a.json {
		if err := a.emit(gateLine{Event: "gate", DebateID: s.ID, ID: entry.ID, Decision: d}); err != nil {
			return false, err
		}
	} else {
		a.printf("gate (%s, decision %s): ", source, entry.ID)
		printDecision(a.stdout, d)
		if !d.Debate() {
			a.printf("\nno debate: the gate skipped %q (recorded in %s/%s)\n", s.Topic, a.rootDir(), gating.LogName)
		} else {
			a.printf("\n")
		}
	}
	return !d.Debate(), nil
}
