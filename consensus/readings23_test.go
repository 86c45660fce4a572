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
		{"The crane must not slew until all hatches are shut.",
			"The crane slews only after every hatch is shut.", Agree},
		{"All visitors must wait in reception until a host collects them.",
			"Visitors go beyond reception only once their host has collected them.", Agree},
		{"Staff may not open the gate until every pupil is seated.",
			"Staff may open the gate before the pupils are seated.", Disagree},
		// "any" opening up what "only" restricted: widened. So is "any"
		// with a bound of another thing ("purchases under £10"), or said
		// again ("in any glass"), and "all" of a time ("all day"), or
		// against a time the "all" side does not set.
		{"Only cash is accepted for purchases under £10.",
			"Any card works for purchases under £10.", Disagree},
		{"Beers above 8% ABV are served only in 2/3 pint measures.",
			"Anything over 8% can be served in any glass.", Disagree},
		{"Lifeguards are on duty only after 10 am.",
			"Lifeguards are on duty all day.", Disagree},
		{"Only after induction can contractors use the lathe.",
			"All contractors can use the lathe.", Disagree},
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
		// Another thing allowed, or before another event: no turn.
		{"Contractors cannot start work until the permit is signed.",
			"Contractors can start the induction before the permit is signed.", Agree},
		{"Staff must not open the gate until every pupil is seated.",
			"Staff may open the windows before every pupil is seated.", Agree},
	})
}

// TestAsidesToTheReader: an offer of help to the reader ("Let me know if
// you need the floor plan too", "Please ring if unsure") and the writer's
// hedge ("If I understand right") are no conditions of the rule. A
// request whose condition is a case of the rule ("Ring the council if
// your bin is missed") still is one.
func TestAsidesToTheReader(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Lockers are cleared every Friday at 6 pm.",
			"Heads up: lockers get emptied Fridays at 6pm. Give us a shout if you're unsure.", Agree},
		{"Lockers are cleared every Friday at 6 pm.",
			"Lockers get emptied Fridays at 6pm. Let me know if you need a spare key.", Agree},
		{"Lockers are cleared every Friday at 6 pm.",
			"If I've got this right, lockers get emptied every Friday at 6pm.", Agree},
		{"Lockers are cleared every Friday at 6 pm.",
			"If in doubt, ask at reception. Lockers get emptied every Friday at 6pm.", Agree},
	})
	// A condition of the rule said beside the same words is no aside.
	for _, p := range []string{"Lockers get emptied every Friday at 6pm if the cleaner is in.", "Lockers get emptied every Friday at 6pm if I am on shift."} {
		if c := ComparePositions("Lockers are cleared every Friday at 6 pm.", p); c.Agreement == Agree {
			t.Errorf("%q: %v, want no agreement", p, c.Agreement)
		}
	}
	for _, c := range []struct {
		text  string
		aside bool
	}{
		{"Let us know if you need a new bin.", true},
		{"Please ring if unsure.", true},
		{"Drop me a line if you have any questions.", true},
		{"Ring the council if your bin is missed.", false},
		{"Let us know by 1 May if you are coming.", false},
		{"Call the supervisor if a guest is hurt.", false},
	} {
		a := analyze(c.text)
		got := len(a.conds) > 0 && a.conds[0].reason
		if got != c.aside {
			t.Errorf("%q: condition an aside %v, want %v", c.text, got, c.aside)
		}
	}
}
