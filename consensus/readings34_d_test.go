package consensus

import "testing"

// TestAnotherInTheSameSlot: a place, a doer or a means of the rule named
// by words that share nothing with the filed ones, in the same slot of
// the sentence, is another one put in its place: "printed by the
// security guard" → "printed by the host employee", "the crop walker
// orders them" → "the head grower orders them", "at the depot duty
// office" → "at the city-centre control room". The same one said in
// other words, a shorter form or words moved about stays the rule.
func TestAnotherInTheSameSlot(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"another doer after by", "", "Visitor badges are printed by the security guard at the front gate.",
			"At the front gate, visitor badges get printed by the host employee.", Disagree, ""},
		{"another place after at", "", "In a fire alarm everyone gathers at the assembly point in the north car park and waits for the roll call.",
			"In a fire alarm everyone gathers at the bus shelter across the road and waits for the roll call.", Disagree, ""},
		{"another doer before the verb", "", "Seedlings are potted on weekly, and the crop walker orders compost from the supplier on Fridays.",
			"Potting on happens every week; the head grower orders compost from the supplier on Fridays.", Disagree, ""},
		{"the doer said the other way", "", "Science berths are allocated by the principal scientist before sailing.",
			"The chief officer allocates science berths before sailing.", Disagree, ""},
		{"another place at length", "", "Tram drivers sign on in person at the depot duty office 15 minutes before their first departure.",
			"Tram drivers sign on in person at the city-centre control room 15 minutes before their first departure.", Disagree, ""},
		{"another thing at length", "", "Original wills drafted by the firm are kept free of charge in the fireproof strongroom; the client receives a scanned copy.",
			"Original wills drafted by the firm are kept free of charge in a safe deposit box at the bank; the client receives a scanned copy.", Disagree, ""},
		{"another person described at length", "", "Spare keys are held by the caretaker and signed out in the key book.",
			"Spare keys are held by the neighbour who cleans the hall every Monday morning and signed out in the key book.", Unsure, ""},
		{"another stock rotation", "", "Issue medicines first-expiry-first-out from the pharmacy store.",
			"pharmacy store gives out medicines first-in-first-out", Disagree, ""},
		{"the same rotation spelled out", "", "Stock is rotated FEFO.", "We rotate stock first-expiry-first-out.", Agree, ""},
		{"a shorter name", "", "Every dog must be seen by a veterinarian before the show.", "Every dog must be seen by a vet before the show.", Agree, ""},
		{"words moved", "", "Applications are reviewed by the admissions committee of the faculty within 4 weeks.",
			"The faculty's admissions committee reviews each application within 4 weeks.", Agree, ""},
		{"the doer kept", "", "The kitchen coffee machine is descaled every Friday by the office manager.",
			"Office manager descales the coffee machine in the kitchen each Friday.", Agree, ""},
		{"one word for another", "", "Report broken windows to the caretaker within 24 hours.",
			"Report broken windows to the person employed to look after the building within 24 hours.", Agree, ""},
		{"a word shared", "", "Outages after 6 pm are handled by the on-call engineer.",
			"Outages after 6 pm are handled by whichever engineer is on call that week.", Agree, ""},
	})
}
