package debate

import "fmt"

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

// BudgetError is a budget limit that is not positive; it is
// ErrInvalidBudget.
type BudgetError struct {
	Limit string // its name in config.json: maxRounds, maxTokens, …
	Value int64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("%v: %s must be positive, got %d", ErrInvalidBudget, e.Limit, e.Value)
}

func (e *BudgetError) Unwrap() error { return ErrInvalidBudget }

// Validate reports a budget with a non-positive limit (a *BudgetError).
func (b ConsensusBudget) Validate() error {
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"maxRounds", int64(b.MaxRounds)}, {"maxTokens", int64(b.MaxTokens)},
		{"maxTokensPerRound", int64(b.MaxTokensPerRound)}, {"maxWallClockMs", b.MaxWallClockMs},
		{"convergenceRounds", int64(b.ConvergenceRounds)},
	} {
		if f.v <= 0 {
			return &BudgetError{Limit: f.name, Value: f.v}
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
