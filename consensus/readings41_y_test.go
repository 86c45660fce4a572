package consensus

import "testing"

// TestRuleNotMetSaidByThePosition reads a position that adds the rule's
// other side in a negation: what follows when the rule is not met ("…
// or he's not eligible", "…, else it's not valid", "if not, it is not
// promoted"), "before the off" and "kick off" for the start, and a fee
// or a wait "waived" said as "no fee", "no wait". The same words turned
// in the rule itself stay a conflict.
func TestRuleNotMetSaidByThePosition(t *testing.T) {
	const (
		league  = "A new player must be registered at least 48 hours before kick-off to be eligible."
		valid   = "The contract is valid only if both parties sign it."
		refund  = "Tickets are refunded only if cancelled at least 7 days before the show."
		promote = "A model is promoted only if it scores at least 95% on the test set."
		card    = "A lost ID card is replaced for a 15 GBP fee; the fee is waived for stolen cards with a police report."
		wait    = "First-time clients must wait 48 hours after consultation before treatment; the wait is waived for repeat treatments."
		marshal = "All marshals must attend the briefing at the start area 45 minutes before the start."
	)
	checkComparisons(t, []comparisonCase{
		{"or he's not eligible", "League registration", league, "lad needs registering 48 hrs before kick off or he's not eligible", Agree, ""},
		{"registered and not eligible", "League registration", league, "A new player registered at least 48 hours before kick-off is not eligible.", Disagree, "eligible"},
		{"else it is not valid", "Contract validity", valid, "Both parties have to sign the contract, else it is not valid.", Agree, ""},
		{"not valid even when signed", "Contract validity", valid, "The contract is not valid even when both parties sign it.", Disagree, "valid"},
		{"or you don't get a refund", "Ticket refunds", refund, "Cancel 7 days or more before the show or you don't get a refund.", Agree, ""},
		{"cancelled early and not refunded", "Ticket refunds", refund, "Tickets cancelled at least 7 days before the show are not refunded.", Disagree, "refund"},
		{"if not, not promoted", "Model promotion", promote, "The model needs 95% or more on the test set; if not, it is not promoted.", Agree, ""},
		{"scores and is not promoted", "Model promotion", promote, "A model scoring at least 95% on the test set is not promoted.", Disagree, "promoted"},
		{"no fee for a stolen card", "Replacement card fee", card, "Lost ID card costs 15 GBP to replace; stolen card with police report, no fee.", Agree, ""},
		{"no wait for repeats", "Waiting period", wait, "first timers wait 48 hrs after consult before treatment, repeat treatments no wait needed", Agree, ""},
		{"no wait at all", "Waiting period", wait, "First-time clients do not wait after consultation before treatment.", Disagree, "wait"},
		{"before the off", "Marshal briefing", marshal, "Briefing's at the start area 45 mins before the off, all marshals have to be there.", Agree, ""},
	})
}
