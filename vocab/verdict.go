package vocab

import (
	"fmt"
	"strings"
)

// Verdict is how a debate ended.
type Verdict string

// The verdicts.
const (
	ConsensusReached Verdict = "CONSENSUS_REACHED"
	Deadlock         Verdict = "DEADLOCK"
	BudgetExhausted  Verdict = "BUDGET_EXHAUSTED"
	Timeout          Verdict = "TIMEOUT"
	// Unavailable: an agent never produced a valid turn because it, or its
	// model endpoint, could not be reached. Not filed (see Verdict.Filed).
	Unavailable Verdict = "UNAVAILABLE"
)

// Verdicts lists every verdict.
var Verdicts = []Verdict{ConsensusReached, Deadlock, BudgetExhausted, Timeout, Unavailable}

// ParseVerdict accepts a verdict name in any case; anything else wraps
// ErrUnknownVerdict.
func ParseVerdict(s string) (Verdict, error) {
	v := Verdict(strings.ToUpper(strings.TrimSpace(s)))
	for _, known := range Verdicts {
		if v == known {
			return v, nil
		}
	}
	return "", fmt.Errorf("%w: %q", ErrUnknownVerdict, s)
}

// Filed reports whether a debate that ends with v is filed as a consensus
// record; a verdict that is not keeps its transcript and verdict.json only.
// The verdicts never filed are those that are not debate outcomes:
// Unavailable (an agent could not be reached: a configuration mistake).
// Every other verdict is filed.
func (v Verdict) Filed() bool {
	return v != Unavailable
}

// Action is what the caller should do with a verdict.
type Action string

// The actions.
const (
	ActionProceed  Action = "proceed"
	ActionEscalate Action = "escalate"
)

// ActionFor maps a verdict to its action: proceed on CONSENSUS_REACHED, and
// on BUDGET_EXHAUSTED when a last agreed position exists (final is not
// empty); escalate otherwise.
func ActionFor(v Verdict, final string) Action {
	switch {
	case v == ConsensusReached:
		return ActionProceed
	case v == BudgetExhausted && strings.TrimSpace(final) != "":
		return ActionProceed
	}
	return ActionEscalate
}
