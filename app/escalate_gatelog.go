package app

import (
	"errors"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/escalation"
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

// rootGate is escalate's gate in the model mode: the root's gate
// (RootGate), loaded again for each record as "parley gate" loads it, so
// that a model "gate learn" installs (or --reset removes) while an
// escalation follows its telemetry decides the records that come after.
// A model that no longer loads is told to warn (an *Error, worded as the
// failure RootGate returns) and the record goes to a debate: the
// cascade's answer when the gate cannot decide.
type rootGate struct {
	a    *App
	warn func(error)
}

var _ escalation.Gate = rootGate{}

func (g rootGate) Decide(sc gating.SelfCritique) (gating.Decision, error) {
	gate, err := g.a.RootGate()
	if err != nil {
		if g.warn != nil {
			g.warn(gateCannotDecide(err))
		}
		return gating.Decision{}, err
	}
	return gate.Decide(sc)
}

// gateCannotDecide is err, the failure to load the gate, said as why a
// record goes to a debate; an *Error stays one, for each front end to
// word.
func gateCannotDecide(err error) error {
	const why = "the gate cannot decide, so the record goes to a debate: "
	var e *Error
	if errors.As(err, &e) {
		out := *e
		out.tmpl = why + e.tmpl
		return &out
	}
	return fmt.Errorf(why+"%w", err)
}
