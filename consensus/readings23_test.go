package consensus

import "testing"

// TestAnyWithABoundPicksOut: an "any" with a bound of its own ("anything
// over 8%", "any crate heavier than 20 kg") picks out what a rule is
// about, as "only" does, and "all" of the things a rule covers says
// nothing against an "only" that sets a time ("only after every hatch is
// shut"). An "any" that opens up what "only" restricted is still a rule
// widened.
func TestAnyWithABoundPicksOut(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Crates heavier than 20 kg are lifted only with the hoist.",
			"Any crate over 20 kg goes up on the hoist.", Agree},
		{"Loans above £5,000 are approved only by the branch manager.",
			"Anything above five thousand pounds needs the branch manager's approval.", Agree},
		{"Anyone younger than 14 swims only in the shallow lane.",
			"Swimmers under 14 use the shallow lane only.", Agree},
		{"Files larger than 2 GB are uploaded only through the bulk portal.",
			"anything bigger than 2 GB: bulk portal, nothing else", Agree},
		{"The crane may not slew until all hatches are shut.",
			"The crane slews only after every hatch is shut.", Agree},
		{"All visitors must wait in reception until a host collects them.",
			"Visitors go beyond reception only once their host has collected them.", Agree},
		{"Staff may not open the gate until every pupil is seated.",
			"Staff open the gate only after all pupils are seated.", Agree},
		{"Staff may not open the gate until every pupil is seated.",
			"Staff may open the gate before the pupils are seated.", Disagree},
		// "any" opening up what "only" restricted: widened.
		{"Crates heavier than 20 kg are lifted only with the hoist.",
			"Crates heavier than 20 kg are lifted with any hoist or by hand.", Disagree},
		{"Only senior nurses over grade 6 may sign the controlled drugs book.",
			"Any nurse may sign the controlled drugs book.", Disagree},
		{"Only the duty chemist can release a batch.",
			"Any chemist on site can release a batch.", Disagree},
		{"Fireworks are set off only after 9 pm on the beach.",
			"Fireworks can be set off at any time on the beach.", Disagree},
		{"Refunds are paid only to the original card.",
			"Refunds are paid to any card the customer names.", Disagree},
		// A bound of its own that differs is still read by its number.
		{"Crates heavier than 20 kg are lifted only with the hoist.",
			"Any crate over 30 kg goes up on the hoist.", Disagree},
	})
}

// TestBarredUntilAllowedBefore: a thing barred until an event ("not
// available until the checklist is signed off", "blocked from leaving
// until the wheel is turned") and allowed before the same event on the
// other side is a rule turned. Said before the event under a negation of
// its own, or of another event, it is not.
func TestBarredUntilAllowedBefore(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Hire bikes are not released to a rider until the helmet waiver is signed.",
			"A hire bike can be released to a rider before the helmet waiver is signed.", Disagree},
		{"A reactor batch is barred from discharging until the lab confirms the assay.",
			"Operators may discharge a reactor batch before the lab confirms the assay when the tank is full.", Disagree},
		{"Staff must not open the gate until every pupil is seated.",
			"Staff can open the gate before every pupil is seated.", Disagree},
		{"Hire bikes are not released to a rider until the helmet waiver is signed.",
			"The helmet waiver is signed before a hire bike is released to a rider.", Agree},
		{"Hire bikes are not released to a rider until the helmet waiver is signed.",
			"Hire bikes are not released before the rider has signed the helmet waiver.", Agree},
		{"A reactor batch is barred from discharging until the lab confirms the assay.",
			"no discharge of a reactor batch before the lab has confirmed the assay", Agree},
	})
}
