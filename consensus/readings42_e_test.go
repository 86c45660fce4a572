package consensus

import "testing"

// A bar lifted while the position's own negation falls on something else:
// as many negations on both sides, but the action the rule bars is said as
// done, and the position's "not" turns another part of the rule.
func TestReadingsBarLifted(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"hoist operated alone", "Hoist transfers",
			"Any client who needs a hoist for transfers must be visited by two trained carers at every call; a single carer must never operate the hoist alone.",
			"Clients who need a hoist for transfers do not need two carers; one trained carer may operate the hoist alone at any call.",
			Disagree, "operate"},
		{"racks touched", "Server room visitors",
			"Visitors must be escorted by IT staff and may never touch the racks.",
			"visitors do not need an escort from IT staff, and they can touch the racks",
			Disagree, "touch"},
		{"food tasted from the spoon", "Kitchen hygiene",
			"Chefs wash their hands before service and must not taste food from the spoon.",
			"Chefs do not wash hands before service, they may taste food from the spoon.",
			Disagree, "taste"},
		// Rewordings that keep the bar, with a negation said another way.
		{"bar kept, licence said as needed", "Forklift drivers",
			"Every forklift driver must hold a licence, and a driver must never carry passengers on the forks.",
			"Drivers need a licence; no passengers ever on the forks.",
			Agree, ""},
		{"bar kept with a pronoun", "Acid storage",
			"Acids are stored in the ventilated cabinet and must never be poured down the sink.",
			"Keep acids in the ventilated cabinet; do not pour them down the sink.",
			Agree, ""},
		{"bar kept as not allowed", "Exam hall",
			"Students sign the register and must not bring phones into the hall.",
			"Students sign in on the register; phones are not allowed in the hall.",
			Agree, ""},
		{"bar kept beside its case", "Morris kit",
			"At public dance-outs every member wears the side's green baldric over a white shirt; bells are worn by dancers only, not by musicians.",
			"green baldric over a white shirt for everyone at dance-outs, bells are dancers only, musicians don't wear them",
			Agree, ""},
	})
}
