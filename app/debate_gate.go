package app

import (
	"errors"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
)

// FieldGate names the self-critique of GateDebate in an *Error.
const FieldGate = "gate"

// GateDebate runs gate g on the self-critique sc (read from source, which
// the log names) before debate s, and records the decision, with its cues
// and the debate id, in <root>/gate.jsonl. The self-critique's layer and
// question default to the debate's. The entry says whether to debate
// (entry.Outcome); a self-critique the gate cannot decide on is a
// mistake in the request (an *Error of ProblemInvalid on FieldGate,
// "{gate} source: why").
func (a *App) GateDebate(s *debate.DebateSession, g *gating.Gate, sc gating.SelfCritique, source string) (gating.LogEntry, error) {
	if sc.Layer == "" {
		sc.Layer = s.Layer
	}
	e, err := decide(g, GateInput{Critique: sc, Source: source, DebateID: s.ID, Question: s.Topic}, a.LogDecision)
	var ce *Error
	if errors.As(err, &ce) && ce.Field == FieldCritique {
		out := newError(ProblemInvalid, FieldGate, ce.Err, "{"+FieldGate+"} %s: %v", source, ce.Err)
		out.Value = source
		return e, out
	}
	return e, err
}

// GateLine is the JSON line of the gate's decision on a debate, printed
// before the debate's own lines (or instead of them when it skips).
type GateLine struct {
	Event    string `json:"event"` // "gate"
	DebateID string `json:"debate_id"`
	ID       string `json:"id"` // the decision's id in gate.jsonl
	gating.Decision
}

// GateLineOf is the JSON line of entry, the gate's decision on debate id.
func GateLineOf(id string, entry gating.LogEntry) GateLine {
	return GateLine{Event: "gate", DebateID: id, ID: entry.ID, Decision: entry.Decision}
}
