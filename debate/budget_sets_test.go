package debate

import (
	"errors"
	"testing"
)

// TestBudgetOverrideSetsTheLimitRefused: for each limit, an override that
// gives it a refused value is refused under a name (BudgetError.Limit) that
// Sets says the override set, and no other override sets that name: the
// front ends name the refused limit by their own argument from this.
func TestBudgetOverrideSetsTheLimitRefused(t *testing.T) {
	t.Parallel()
	zero, zero64 := 0, int64(0)
	overrides := map[string]BudgetOverride{
		"MaxRounds":         {MaxRounds: &zero},
		"MaxTokens":         {MaxTokens: &zero},
		"MaxTokensPerRound": {MaxTokensPerRound: &zero},
		"MaxWallClockMs":    {MaxWallClockMs: &zero64},
		"ConvergenceRounds": {ConvergenceRounds: &zero},
	}
	names := map[string]bool{}
	for field, o := range overrides {
		err := DefaultBudget(LayerSpec).Apply(o).Validate()
		var be *BudgetError
		if !errors.As(err, &be) {
			t.Fatalf("%s 0: %v, want a *BudgetError", field, err)
		}
		if !o.Sets(be.Limit) {
			t.Errorf("%s 0 is refused as %q, which the override does not set", field, be.Limit)
		}
		for other, p := range overrides {
			if other != field && p.Sets(be.Limit) {
				t.Errorf("an override of %s sets %q too", other, be.Limit)
			}
		}
		names[be.Limit] = true
	}
	if len(names) != len(overrides) {
		t.Errorf("limits refused under %d names for %d fields: %v", len(names), len(overrides), names)
	}
	if (BudgetOverride{}).Sets("maxRounds") || overrides["MaxRounds"].Sets("rounds") {
		t.Error("an empty override, or an unknown name, is set")
	}
}
