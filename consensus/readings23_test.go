package consensus

import (
	"slices"
	"testing"
)

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

// TestExceptionsOwnRuleAfterWhereOrWhen: an exception's own rule in a
// clause opened by "where" or "when" ("except during a shutdown, when they
// are inspected daily") said again as a rule of its own is no exception
// dropped, when every word of it is said; so is an own rule whose words
// the main rule says too, said in full ("which may run with 1 nurse and 1
// assistant"). Another person given the exception's part is not that.
func TestExceptionsOwnRuleAfterWhereOrWhen(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Scaffold towers are inspected every 7 days, except during a shutdown, when they are inspected daily.",
			"Scaffold towers: inspection every 7 days. During a shutdown they are inspected daily.", Agree},
		{"Scaffold towers are inspected every 7 days, except during a shutdown, when they are inspected daily.",
			"Scaffold towers: inspection every 7 days; during a shutdown they are inspected every 3 days.", Disagree},
		{"Lorries are weighed at the gate, except at the night depot, where a ticket from the driver is enough.",
			"Lorries get weighed at the gate. At the night depot a ticket from the driver is enough.", Agree},
		{"Lorries are weighed at the gate, except at the night depot, where a ticket from the driver is enough.",
			"Lorries get weighed at the gate, the night depot included.", Disagree},
		{"Each ward is staffed with 2 nurses and 1 assistant for every 10 patients, except night shifts, which may run with 1 nurse and 1 assistant.",
			"Ward staffing per 10 patients: 2 nurses + 1 assistant. Night shifts can run on 1 nurse and 1 assistant.", Agree},
		{"Each ward is staffed with 2 nurses and 1 assistant for every 10 patients, except night shifts, which may run with 1 nurse and 1 assistant.",
			"Ward staffing per 10 patients: 2 nurses + 1 assistant. Night shifts can run on 2 nurses and 1 assistant.", Disagree},
		{"Grants are paid within 30 days, except research grants, where the trustee may extend the deadline.",
			"Grants are paid within 30 days; for research grants the treasurer may extend the deadline.", Disagree},
	})
}

// TestWhereOpensACondition: "where" opening a sentence or a clause after a
// semicolon, before a thing, sets a condition as "if" does in formal
// rules; "Where possible", "Where is …" and the clause after a comma do
// not. "runs past four hours" is more than four hours; "the past 12
// months" is no bound.
func TestWhereOpensACondition(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want int
	}{
		{"Where a handover is between two courier companies, the receiving courier signs the form.", 1},
		{"Couriers sign the form; where the box is opened, the coordinator signs too.", 1},
		{"Where possible, the receiving courier signs the form.", 0},
		{"Where is the form? The receiving courier signs it.", 0},
		{"Couriers sign at the depot, where the form is kept.", 0},
	} {
		if got := len(analyze(c.text).conds); got != c.want {
			t.Errorf("%q: %d conditions, want %d", c.text, got, c.want)
		}
	}
	checkAgreements(t, []agreementCase{
		{"At every handover the receiving courier signs the chain-of-custody form.",
			"Where a handover is between two different courier companies, the receiving courier shall sign the chain-of-custody form.", Disagree},
		{"Residents get two weeks' written notice of any planned closure of the lift lasting more than 6 hours.",
			"Where a planned lift closure will run past six hours, residents are told in writing two weeks ahead.", Agree},
		{"Residents get two weeks' written notice of any planned closure of the lift lasting more than 6 hours.",
			"Where a planned lift closure will run past two hours, residents are told in writing two weeks ahead.", Disagree},
		{"A planned outage lasting more than 4 hours needs 48 hours' written notice.",
			"A planned outage lasting past four hours needs 48 hours' written notice.", Agree},
		// An exception's own measure said again in other words.
		{"Each tenant may claim one repair grant of up to £400 a year, except tenants over 75, who may claim up to £600.",
			"A tenant can claim a single repair grant a year, capped at four hundred pounds; where the tenant is over 75 the cap rises to six hundred pounds.", Agree},
	})
	for _, c := range []struct {
		text  string
		bound bool
	}{
		{"The meeting runs past two hours.", true},
		{"Refunds cover the past 12 months.", false},
		{"In the past 4 hours nobody called.", false},
	} {
		toks := numberWordsToNumbers(lex(c.text))
		i := slices.IndexFunc(toks, func(t rawTok) bool { return t.low == "past" })
		if got := pastBound(toks, i); got != c.bound {
			t.Errorf("%q: past a bound %v, want %v", c.text, got, c.bound)
		}
	}
}

// TestAsidesAndBoundsNotTooWide: what the asides, the bounded "any" and
// the bar lifted before its event must not take in: a hedge that names a
// case ("if I've got cover"), a rule in the clause beside an aside, an
// offer of another option ("if you'd like to pay in cash"), a bound on
// another thing than the rule's, another actor allowed before the event.
func TestAsidesAndBoundsNotTooWide(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Dogs are allowed in the orchard.",
			"Dogs are not allowed in the orchard, ask the warden if you're unsure.", Disagree},
		{"Trainees may not drive the forklift until they pass the test.",
			"Supervisors may drive the forklift before the trainees pass the test.", Agree},
		{"Only team leads can sign off expenses over £100.",
			"Anyone above grade 5 can sign off expenses over £100.", Disagree},
	})
	for _, p := range [][2]string{
		{"Staff may leave early on Fridays.", "I can leave early on Fridays if I've got cover."},
		{"We accept card payments only.", "We take cards. Give us a ring if you'd like to pay in cash."},
	} {
		if c := ComparePositions(p[0], p[1]); c.Agreement == Agree {
			t.Errorf("%q against %q: %v, want no agreement", p[1], p[0], c.Agreement)
		}
	}
}

// TestBarredUnlessDoneOnlyThen: a thing barred "unless" a case holds, or never
// done "without" something, is done only in that case or only with it:
// "No port-out goes through unless the request quotes the PIN" is "every
// port-out request must carry the PIN". "except" sets a thing aside, not a
// case ("dogs may not go upstairs, except assistance dogs"), and another
// case, or the bar dropped, is still a change.
func TestBarredUnlessDoneOnlyThen(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Every port-out request must carry the port-out PIN issued to the account holder.",
			"No port-out goes through unless the request quotes the PIN we issued to the account holder.", Agree},
		{"Medicine is given to a pupil only with a signed consent form.",
			"No medicine is given to a pupil unless there is a signed consent form.", Agree},
		{"Staff never relabel a product without the shift lead.",
			"Staff relabel products only when the shift lead is there.", Agree},
		{"Staff are prevented from relabelling a product without the shift lead.",
			"Staff can't relabel anything unless the shift lead is there.", Agree},
		{"Staff never relabel a product without the shift lead.",
			"Staff can relabel anything unless the shift lead is there.", Disagree},
		{"Medicine is given to a pupil only with a signed consent form.",
			"Medicine is not given to a pupil unless a teacher agrees.", Disagree},
		{"Dogs must not go upstairs, except assistance dogs, which may go anywhere.",
			"Dogs can't go upstairs. Assistance dogs are the exception, they can go anywhere.", Agree},
	})
}

// TestOwnRuleSaidWithItsPolarityAndCounts: an exception's own rule is said
// again only with its negation ("when no visitors are allowed" is not "on
// open days, visitors are allowed") and with each number counting what it
// counted; a ban lifted under the exception's case says the exception; a
// heading or a subject opened by "Where" is no condition.
func TestOwnRuleSaidWithItsPolarityAndCounts(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Residents may have 3 visitors, except during an outbreak, when no visitors are allowed.",
			"Residents can have three visitors. During an outbreak, visitors are allowed.", Disagree},
		{"Each lab group has 2 demonstrators and 1 technician, except first-year groups, which have 1 demonstrator and 2 technicians.",
			"Lab groups: 2 demonstrators and 1 technician. First-year groups have 2 demonstrators and 1 technician.", Disagree},
		{"Each lab group has 2 demonstrators and 1 technician, except first-year groups, which have 1 demonstrator and 2 technicians.",
			"Lab groups: 2 demonstrators and 1 technician. First-year groups have 1 demonstrator and 2 technicians.", Agree},
		{"Bicycles are not allowed in the atrium, except folding bikes, which are always allowed.",
			"No bicycles in the atrium. Where a bike is a folding bike, it is allowed.", Agree},
		{"Half of all donations go to the hospice.",
			"Where the money goes: half of all donations go to the hospice.", Agree},
		{"Committee meetings are minuted by the clerk.",
			"Where the meeting is held is up to the chair; the clerk minutes committee meetings.", Agree},
	})
}

// TestBarredUnlessOnlyWhenTheCaseIsSaid: "not … unless" and "never …
// without" read as "only then" only where the other side names the same
// case; another case, a bar lifted outright, or a case's own negation
// ("unless the guard is closed") stay what they are.
func TestBarredUnlessOnlyWhenTheCaseIsSaid(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Never open the cash office without the duty manager.",
			"The cash office is opened only with a security guard present.", Disagree},
		{"Parcels are not released without photo ID.",
			"Parcels are released before ID is checked.", Disagree},
		{"The press must not run unless the guard is closed.",
			"The press runs only with the guard closed.", Agree},
	})
	if c := ComparePositions("No drones are flown over the site unless the safety officer approves.",
		"Drones are flown over the site whenever the pilots like."); c.Agreement == Agree {
		t.Errorf("the case dropped: %v, want no agreement", c.Agreement)
	}
}

// TestWeeksSaidForMonths: "8 weeks" is said for "two months" and "13
// weeks" for "three months"; "2 weeks" against "a month", "8 weeks"
// against "8 months" and "every 4 weeks" against "monthly" are changes.
func TestWeeksSaidForMonths(t *testing.T) {
	t.Parallel()
	const filed = "Tools may be borrowed from the library for up to 8 weeks."
	checkAgreements(t, []agreementCase{
		{filed, "Tools can be borrowed from the library for two months at most.", Agree},
		{"Tools may be borrowed from the library for up to 13 weeks.", "Tools can be borrowed from the library for three months at most.", Agree},
		{filed, "Tools can be borrowed from the library for 8 months at most.", Disagree},
		{"Tools may be borrowed from the library for up to 2 weeks.", "Tools can be borrowed from the library for a month at most.", Disagree},
		{"Tools may be borrowed from the library for up to 6 weeks.", "Tools can be borrowed from the library for two months at most.", Disagree},
		{"Gutters are cleared every 4 weeks.", "Gutters are cleared monthly.", Disagree},
		// Only the weeks said for the months: not 9 for two, nor 24 for six.
		{"Tools may be borrowed from the library for up to 9 weeks.", "Tools can be borrowed from the library for two months at most.", Disagree},
		{"The trial period lasts 24 weeks.", "The trial period lasts six months.", Disagree},
	})
}

// TestIncludesWhatTheRuleHolds: "includes" said of what a thing holds
// ("the first fitting includes up to 3 adjustments") states the rule; a
// thing the filed rule keeps apart said to be included is still a change.
func TestIncludesWhatTheRuleHolds(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Every new client gets one free fitting with up to 3 adjustments, booked at least a week ahead.",
			"Your first fitting is free and includes up to 3 adjustments. Book it at least a week in advance.", Agree},
		{"The day rate covers lunch; drinks are charged separately.",
			"The day rate includes lunch and drinks.", Disagree},
		{"Membership covers the gym and the pool, except the sauna.",
			"Membership includes the gym, the pool and the sauna.", Disagree},
		// Kept out in the rule's own clause: "charged separately".
		{"Parking is charged separately from the room rate.",
			"The room rate includes parking.", Disagree},
		{"Batteries are sold separately from the starter kit.",
			"The starter kit includes batteries.", Disagree},
	})
}

// TestCentsOfTheOtherCurrency: "30 cents" is cents of the currency the
// other side says, when it has cents ("0.30 EUR", "A$0.30"); another
// amount is a change.
func TestCentsOfTheOtherCurrency(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Volunteers who drive are paid 0.35 EUR per kilometre, paid to the driver only.",
			"Volunteers who drive are paid 35 cents per kilometre, paid to the driver only.", Agree},
		{"Volunteers who drive are paid 0.35 EUR per kilometre, paid to the driver only.",
			"Volunteers who drive are paid 45 cents per kilometre, paid to the driver only.", Disagree},
	})
}
