package debate

import (
	"fmt"
	"time"
)

// ConsensusBudget bounds a debate (SPEC §5.2).
type ConsensusBudget struct {
	MaxRounds int `json:"maxRounds"`
	MaxTokens int `json:"maxTokens"`
	// MaxTokensPerRound is each agent's allowance per round; a turn over it
	// is kept, flagged over_budget, and counts in full.
	MaxTokensPerRound int   `json:"maxTokensPerRound"`
	MaxWallClockMs    int64 `json:"maxWallClockMs"`
	// ConvergenceRounds is how many consecutive rounds a pattern must hold
	// for the survived and deadlock rules.
	ConvergenceRounds int `json:"convergenceRounds"`
}

// DefaultBudget returns the per-layer defaults of SPEC §5.2 (from ADR-011).
func DefaultBudget(l Layer) ConsensusBudget {
	b := ConsensusBudget{MaxWallClockMs: 120000, ConvergenceRounds: 1, MaxTokensPerRound: 2000}
	switch l {
	case LayerSpec:
		b.MaxRounds, b.MaxTokens = 3, 6000
	case LayerPlan:
		b.MaxRounds, b.MaxTokens, b.MaxTokensPerRound = 3, 10000, 3000
	default: // verify
		b.MaxRounds, b.MaxTokens = 4, 8000
	}
	return b
}

// MaxWallClock bounds a budget's wall clock (maxWallClockMs): a week. A
// debate waits on agents for its wall clock; a longer one is a slip of
// units rather than a wish, and past ~292 years its milliseconds would
// overflow a time.Duration.
const MaxWallClock = 7 * 24 * time.Hour

// CheckpointEvery is how long a coordinator waiting on a turn goes
// without recording an event before it records its active time (a clock
// checkpoint): at least 5 s, and a hundredth of the wall clock. It bounds
// what a kill -9, which leaves no chance to record anything, takes off the
// wall clock (the time since the latest event), and how many checkpoints
// a debate records (at most 100, however long its wall clock).
func CheckpointEvery(b ConsensusBudget) time.Duration {
	return max(5*time.Second, time.Duration(b.MaxWallClockMs)*time.Millisecond/100)
}

// BudgetError is a budget limit that is not positive, or a wall clock
// over MaxWallClock; it is ErrInvalidBudget.
type BudgetError struct {
	Limit string // its name in config.json: maxRounds, maxTokens, …
	Value int64
	// Max is the limit's upper bound (MaxWallClock for maxWallClockMs);
	// 0 when it has none. Value is over it when Value is positive.
	Max int64
}

func (e *BudgetError) Error() string {
	if e.Value > 0 {
		return fmt.Sprintf("%v: %s %d: at most %d", ErrInvalidBudget, e.Limit, e.Value, e.Max)
	}
	return fmt.Sprintf("%v: %s must be positive, got %d", ErrInvalidBudget, e.Limit, e.Value)
}

func (e *BudgetError) Unwrap() error { return ErrInvalidBudget }

// Validate reports a budget with a non-positive limit, or a wall clock
// over MaxWallClock (a *BudgetError).
func (b ConsensusBudget) Validate() error {
	for _, f := range []struct {
		name   string
		v, max int64 // max 0: no upper bound
	}{
		{"maxRounds", int64(b.MaxRounds), 0}, {"maxTokens", int64(b.MaxTokens), 0},
		{"maxTokensPerRound", int64(b.MaxTokensPerRound), 0}, {"maxWallClockMs", b.MaxWallClockMs, MaxWallClock.Milliseconds()},
		{"convergenceRounds", int64(b.ConvergenceRounds), 0},
	} {
		if f.v <= 0 || (f.max > 0 && f.v > f.max) {
			return &BudgetError{Limit: f.name, Value: f.v, Max: f.max}
		}
	}
	return nil
}

// BudgetOverride changes some limits of a budget; nil fields keep theirs.
// It is what config.json ("debate": {"budgets": {LAYER: {...}}}) and the
// budget flags decode into.
type BudgetOverride struct {
	MaxRounds         *int   `json:"maxRounds,omitempty"`
	MaxTokens         *int   `json:"maxTokens,omitempty"`
	MaxTokensPerRound *int   `json:"maxTokensPerRound,omitempty"`
	MaxWallClockMs    *int64 `json:"maxWallClockMs,omitempty"`
	ConvergenceRounds *int   `json:"convergenceRounds,omitempty"`
}

// Sets reports whether o sets the limit that config.json (and
// BudgetError.Limit) names limit: maxRounds, maxTokens,
// maxTokensPerRound, maxWallClockMs or convergenceRounds. A front end
// names a refused limit by its own argument only when the caller gave it;
// otherwise the layer's default from config.json is at fault.
func (o BudgetOverride) Sets(limit string) bool {
	switch limit {
	case "maxRounds":
		return o.MaxRounds != nil
	case "maxTokens":
		return o.MaxTokens != nil
	case "maxTokensPerRound":
		return o.MaxTokensPerRound != nil
	case "maxWallClockMs":
		return o.MaxWallClockMs != nil
	case "convergenceRounds":
		return o.ConvergenceRounds != nil
	}
	return false
}

// Apply returns b with o's set fields in place of its own.
func (b ConsensusBudget) Apply(o BudgetOverride) ConsensusBudget {
	if o.MaxRounds != nil {
		b.MaxRounds = *o.MaxRounds
	}
	if o.MaxTokens != nil {
		b.MaxTokens = *o.MaxTokens
	}
	if o.MaxTokensPerRound != nil {
		b.MaxTokensPerRound = *o.MaxTokensPerRound
	}
	if o.MaxWallClockMs != nil {
		b.MaxWallClockMs = *o.MaxWallClockMs
	}
	if o.ConvergenceRounds != nil {
		b.ConvergenceRounds = *o.ConvergenceRounds
	}
	return b
}

// EstimateTokens is parley's estimate for a text whose agent reported no
// usage: ceil(characters / 4).
func EstimateTokens(text string) int {
	n := len([]rune(text))
	return (n + 3) / 4
}
