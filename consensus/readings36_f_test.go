package consensus

import "testing"

// TestReadings36NeedLifted reads a duty said not to be needed ("do not
// need to", "nobody needs to", "no longer required") against a rule
// that binds, and keeps apart the ones a position sets aside with a bare
// "don't need to" or whom the rule itself lets off ("free for").
func TestReadings36NeedLifted(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"no longer required", "Expense receipts", "Receipts are required for every expense over 25 euros.",
			"Receipts no longer required for expenses over EUR 25.", Disagree, "no longer required"},
		{"does not need to, terse", "Overtime approval", "Overtime over 5 hours a week must be approved by the team lead.",
			"Overtime above 5 h/week does not need to be approved by the team lead.", Disagree, "must → does not need to"},
		{"nobody needs to, chat", "Badge at the door", "Staff must show their badge at the front desk.",
			"Nobody needs to show a badge at the front desk any more.", Disagree, "must → nobody needs to"},
		{"don't need to, email", "Code review", "Every pull request must be reviewed by one other engineer before merge.",
			"Small PRs don't need to be reviewed before merge.", Disagree, "must → don't need to"},
		{"others set apart by a bare don't need to", "ID check", "Customers buying alcohol must show ID if they look under 25.",
			"If a customer looks under 25 they have to show ID to buy alcohol; older-looking ones don't need to.", Agree, ""},
		{"a charge the rule lets off", "Late check-out", "Late check-out until 2 pm is free for gold members; others pay 20 euros.",
			"Gold members don't need to pay for late check-out until 14:00; everyone else pays EUR 20.", Agree, ""},
		{"a need the rule lifts too", "Parking permit", "Residents need a permit to park on the street; visitors parking under 1 hour do not need one.",
			"Visitors parking for less than an hour do not need a permit, residents do.", Agree, ""},
	})
}
