package consensus

import (
	"strings"
	"testing"
)

// TestSpanOfOpposites: "at opening and at closing" names a span by both
// its ends; the word that says the other end ("closing") negates nothing
// else its clause says, so a duty of that clause dropped is still found.
func TestSpanOfOpposites(t *testing.T) {
	t.Parallel()
	const till = "The shift lead counts the float and records it in the cash book at opening and at closing."
	checkAgreements(t, []agreementCase{
		{till, "At opening and at closing the shift lead counts the float and writes it in the cash book.", Agree},
		{till, "The shift lead counts the float at opening and at closing, but it does not need to be recorded in the cash book.", Disagree},
	})
}

// TestEveryNarrowedToOnly: a rule for every member of a kind narrowed to
// some of them with "only" ("every van" → "only the refrigerated vans")
// changes its reach; "each" one at a time and "at all" are no reach.
func TestEveryNarrowedToOnly(t *testing.T) {
	t.Parallel()
	const vans = "Every delivery van gets a brake test at the depot every 6 weeks."
	checkAgreements(t, []agreementCase{
		{vans, "Only the refrigerated delivery vans get a brake test at the depot every 6 weeks.", Disagree},
		{vans, "All delivery vans are brake tested at the depot every six weeks.", Agree},
		{"Only the head chef may change the menu prices.", "Every chef may change the menu prices.", Disagree},
		{"The kiln may only be fired with the vent fan running.", "The vent fan has to be running for the kiln to be fired at all.", Agree},
	})
}

// TestFullIsWhole: "a full refund" is a 100% refund, as "all of it" is.
func TestFullIsWhole(t *testing.T) {
	t.Parallel()
	const class = "If the instructor cancels the class, members get a full refund of the class fee."
	checkAgreements(t, []agreementCase{
		{class, "Instructor cancels the class = 100% of the class fee back to members.", Agree},
		{"A cancelled tour is refunded in full.", "A cancelled tour gets a 100% refund.", Agree},
	})
}

// TestOpeningLabel: a label before a position ("Handoff:", "Week 3
// update:") is no part of the rule unless the rule uses its words.
func TestOpeningLabel(t *testing.T) {
	t.Parallel()
	const yard = "Drivers must wear hi-vis in the yard at all times."
	checkAgreements(t, []agreementCase{
		{yard, "Handoff: drivers have to wear hi-vis in the yard, at all times.", Agree},
		{yard, "Week 3 update: drivers have to wear hi-vis in the yard at all times.", Agree},
		{yard, "Week 3 update: drivers have to wear hi-vis in the yard at night.", Disagree},
	})
	if got := dropLabel("Drivers: hi-vis in the yard at all times", analyze(yard), analyze("hi-vis in the yard")); got != "Drivers: hi-vis in the yard at all times" {
		t.Errorf("a label the rule uses was dropped: %q", got)
	}
	if got := dropLabel("Weekends: closed", analyze("The shop is closed on Saturdays."), analyze("shop hours")); got != "Weekends: closed" {
		t.Errorf("a label before two words was dropped: %q", got)
	}
}

// TestNotUnlessIsOnlyIf: "not paid unless the receipt is attached" is
// "paid only when the receipt is attached"; "paid unless" is not.
func TestNotUnlessIsOnlyIf(t *testing.T) {
	t.Parallel()
	const claim = "A mileage claim is paid only when the fuel receipt is attached."
	checkAgreements(t, []agreementCase{
		{claim, "A mileage claim is not paid unless the fuel receipt is attached.", Agree},
		{claim, "No mileage claim is paid unless the fuel receipt is attached.", Agree},
		{claim, "A mileage claim is paid unless the fuel receipt is attached.", Disagree},
		{"The hall is never opened unless a keyholder is present.", "The hall is opened only when a keyholder is present.", Agree},
	})
}

// TestEverySecondDay: "every second Sunday" is every other Sunday.
func TestEverySecondDay(t *testing.T) {
	t.Parallel()
	const choir = "The choir rehearses every second Thursday evening."
	checkAgreements(t, []agreementCase{
		{choir, "The choir rehearses every other Thursday evening.", Agree},
		{choir, "Every other Thursday, in the evening, the choir rehearses.", Agree},
		{choir, "The choir rehearses every Thursday evening.", Disagree},
	})
}

// TestOnlyBeforeUpperBound: "only up to 15 minutes" is "up to 15
// minutes": the bound says all that "only" says.
func TestOnlyBeforeUpperBound(t *testing.T) {
	t.Parallel()
	const ladder = "Stepladders may be used for up to 15 minutes at one position."
	checkAgreements(t, []agreementCase{
		{ladder, "Stepladders may be used only up to 15 minutes in one position.", Agree},
		{ladder, "Stepladders may be used only for 15 minutes in one position.", Disagree},
		{"Guests under 12 swim only with an adult.", "Guests only under 12 swim with an adult.", Disagree},
	})
}

// TestFallingRising: "falling" and "dropping", "rising" and "climbing"
// say the same; "3 degrees" alone is 3 °C.
func TestFallingRising(t *testing.T) {
	t.Parallel()
	const cold = "Concreting stops when the air is 2 °C and falling, and resumes at 4 °C and rising."
	checkAgreements(t, []agreementCase{
		{cold, "Concreting stops when the air is 2 degrees and dropping, and resumes at 4 degrees and climbing.", Agree},
		{cold, "Concreting stops when the air is 2 degrees and rising, and resumes at 4 degrees and climbing.", Disagree},
	})
}

// TestLabelHostile: what the label reader makes of text that is all
// colons, marks or one long word, or opens with a colon.
func TestLabelHostile(t *testing.T) {
	t.Parallel()
	filed := analyze("Drivers must wear hi-vis in the yard.")
	for _, s := range []string{"", ":", "::::", ": a b c d e", "a:", "a: b", "Ünïcödé labél: drivers wear hi-vis in the yard",
		"🙂: drivers wear hi-vis in the yard", strings.Repeat("x", 1<<16) + ": a b c d", "label:" + strings.Repeat(" word", 1<<14),
		"one two three four: a b c d", "12:30: a b c d", "Note - 3: a b c d", "\n\n  Handoff:\tdrivers wear hi-vis in the yard"} {
		got := dropLabel(s, filed, analyze("hi-vis"))
		if !strings.HasSuffix(s, got) {
			t.Errorf("dropLabel(%.40q) = %.40q: not a tail of the text", s, got)
		}
	}
	if got := dropLabel("\n\n  Handoff:\tdrivers wear hi-vis in the yard", filed, nil); got != "drivers wear hi-vis in the yard" {
		t.Errorf("a label after blank lines: got %q", got)
	}
}

// TestFourDigitTimes: "0700", "1435 hrs" and a "2200" a few words after
// such a time are times of day on a 24-hour clock; "every 1000 hrs" and
// "1000 hrs of running" are lengths of time, and a year stays a number.
func TestFourDigitTimes(t *testing.T) {
	t.Parallel()
	const doors = "The polling hall opens at 7 am and closes at 10 pm."
	checkAgreements(t, []agreementCase{
		{doors, "Polling hall: doors open 0700, close 2200.", Agree},
		{doors, "Polling hall doors open 0700 hrs and close 2200 hrs.", Agree},
		{doors, "Polling hall doors open 0800 hrs and close 2200 hrs.", Disagree},
		{"The night patrol starts at 8 pm.", "Night patrol commences 2000 hrs.", Agree},
		{"The pump is overhauled every 1000 hours of running.", "Pump overhaul every 1000 hrs of running.", Agree},
		{"The pump is overhauled every 1000 hours of running.", "Pump overhaul every 500 hrs of running.", Disagree},
		// A time of the note itself is no number of the rule: "in one
		// shift" is no "1435".
		{"Searchers may search for at most 6 hours in one shift.", "1435 hrs, briefed: max 6 hrs searching per shift.", Agree},
	})
	for _, q := range analyze("The hall was built in 1935 and holds 1200 people.").qty {
		if q.dim == "clock" {
			t.Errorf("%q read as a time of day", q.text)
		}
	}
}

// TestCostsNothing: "costs nothing" and "pay nothing" say "free".
func TestCostsNothing(t *testing.T) {
	t.Parallel()
	const swim = "Toddler swim sessions are free, while adult lanes cost extra."
	checkAgreements(t, []agreementCase{
		{swim, "A toddler swim session costs nothing; adult lanes are charged on top.", Agree},
		{"Members park free at the depot.", "Members pay nothing to park at the depot.", Agree},
	})
}

// TestLiftedDuty: "does not need to confirm any minimum number … before"
// lifts a duty; it neither sets a bound below nor reads as "confirms
// after" ("not reopened before the check" does).
func TestLiftedDuty(t *testing.T) {
	t.Parallel()
	const witness = "The duty nurse must confirm at least 2 witnesses before signing the register; for an emergency admission the register is signed by whoever is available."
	checkAgreements(t, []agreementCase{
		{witness, "Register signing: the duty nurse does not need to confirm any minimum number of witnesses before she signs.", Disagree},
		{witness, "The nurse on duty need not confirm a minimum of two witnesses before she signs the register.", Disagree},
		{"The weir gate is reopened only after the bailiff has inspected it.", "The weir gate is not reopened before the bailiff has inspected it.", Agree},
	})
}

// TestNotBeforeIsOnlyAfter: "…, but not before the warden has checked"
// is "only after the warden has checked".
func TestNotBeforeIsOnlyAfter(t *testing.T) {
	t.Parallel()
	const hall = "Hirers may lock up the hall only after the warden has checked the fire doors."
	checkAgreements(t, []agreementCase{
		{hall, "Hirers lock up the hall, but not before the warden has checked the fire doors.", Agree},
	})
}

// TestComparativesAsBounds: "heavier than 20 kg" and "cheaper than £5"
// bound a number as "over" and "under" do.
func TestComparativesAsBounds(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Loose tiles are stored in the yard; pallets over 20 kg go on the lower rack, bolted down.", "Any pallet heavier than 20 kg is bolted down on the lower rack, and loose tiles are kept in the yard.", Agree},
		{"Staff may claim taxis cheaper than £15 without a receipt, once a week.", "Once a week a taxi under £15 may be claimed with no receipt.", Agree},
		{"Pallets over 20 kg go on the lower rack and are bolted down.", "Any pallet heavier than 20 kg gets bolted down on the bottom rack.", Agree},
		{"Pallets over 20 kg go on the lower rack and are bolted down.", "Any pallet lighter than 20 kg gets bolted down on the bottom rack.", Disagree},
	})
}

// TestLeftOut: "left out" says what "omit" and "never include" say.
func TestLeftOut(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Newsletters never include the home addresses of members.", "Members' home addresses are left out of newsletters, always.", Agree},
		{"Newsletters include the home addresses of members.", "Members' home addresses are left out of newsletters.", Disagree},
	})
}
