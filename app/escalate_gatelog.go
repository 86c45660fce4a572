package app

import (
	"strings"

	"github.com/parleyhq/parley/gating"
)

// gateLogOnce returns escalate's gate log: it appends a decision to
// gate.jsonl unless the decision on the same telemetry record (the same
// debate id, which a record determines) is already there. The escalator
// logs a gate decision only once the record is decided, just before its
// ledger line; should that line fail to be written (the disk filled), the
// run that decides the record later must not count the gate's decision a
// second time in gate stats.
func (a *App) gateLogOnce() (func(gating.LogEntry) error, error) {
	logged, err := a.escalationGateDecisions()
	if err != nil {
		return nil, err
	}
	return func(e gating.LogEntry) error {
		if e.DebateID != "" && logged[e.DebateID] {
			return nil
		}
		if err := a.LogDecision(e); err != nil {
			return err
		}
		if e.DebateID != "" {
			logged[e.DebateID] = true
		}
		return nil
	}, nil
}

// escalationGateDecisions reads the debate ids of the escalations' gate
// decisions already in gate.jsonl (those whose source is "task:…").
func (a *App) escalationGateDecisions() (map[string]bool, error) {
	logged := map[string]bool{}
	entries, _, err := a.GateLog()
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Source, "task:") && e.DebateID != "" {
			logged[e.DebateID] = true
		}
	}
	return logged, nil
}
