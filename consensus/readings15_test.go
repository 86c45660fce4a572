package consensus

import (
	"slices"
	"testing"
)

// TestOneWeekIsAWeek: "in one week" says what "in a week" and "per week"
// say of a count; another count or another period is another rule.
func TestOneWeekIsAWeek(t *testing.T) {
	t.Parallel()
	const shifts = "Nobody works more than 48 hours in a week on the packing line."
	const climb = "Trekkers gain at most 400 metres of altitude a day above 3,000 metres."
	checkAgreements(t, []agreementCase{
		{shifts, "Nobody works more than 48 hours in one week on the packing line.", Agree},
		{shifts, "Nobody works more than 48 hours per week on the packing line.", Agree},
		{shifts, "Nobody works more than 40 hours in one week on the packing line.", Disagree},
		{shifts, "Nobody works more than 48 hours in two weeks on the packing line.", Disagree},
		{climb, "Trekkers gain at most 400 metres of altitude in one day above 3,000 metres.", Agree},
		{climb, "Trekkers gain at most 400 metres of altitude in one week above 3,000 metres.", Disagree},
	})
}

// TestNumberedLabels: a label that numbers a note ("Minute 12:", "Build
// 3.1 notes:", "Changelog v2.0:") is no part of the rule, as "Week 6
// log:" is not; a clock time is no label.
func TestNumberedLabels(t *testing.T) {
	t.Parallel()
	const rota = "The warden checks the fire doors every Monday and logs each check in the red book."
	checkAgreements(t, []agreementCase{
		{rota, "Minute 12: the warden checks the fire doors every Monday and logs each check in the red book.", Agree},
		{rota, "Build 3.1 notes: the warden checks the fire doors every Monday and logs each check in the red book.", Agree},
		{rota, "Changelog v2.0: the warden checks the fire doors every Monday and logs each check in the red book.", Agree},
		{rota, "Minute 12: the warden checks the fire doors every Friday and logs each check in the red book.", Disagree},
	})
	for _, tc := range []struct {
		text, label string
	}{
		{"Minute 12: the warden checks the fire doors", "Minute 12"},
		{"Build 3.1 notes: the warden checks the fire doors", "Build 3.1 notes"},
		{"Changelog v2.0: the warden checks the fire doors", "Changelog v2.0"},
		{"Doors lock at 22:30 every night of the week", ""},
		{"Open 9: 30 minutes later on Sundays and holidays", ""},
		{"See 4.2.: the warden checks the fire doors", ""},
		{"Minute twelve and a half: the warden checks the fire doors", ""},
	} {
		if label, _, _ := openingLabel(tc.text); label != tc.label {
			t.Errorf("openingLabel(%q) = %q, want %q", tc.text, label, tc.label)
		}
	}
}

// TestNowSaysNoMore: "now" in a note of what changed ("the bins are now
// emptied") adds nothing to the rule it states.
func TestNowSaysNoMore(t *testing.T) {
	t.Parallel()
	const bins = "Food waste caddies are emptied every Wednesday before 8 am."
	checkAgreements(t, []agreementCase{
		{bins, "Food waste caddies are now emptied every Wednesday before 8 am.", Agree},
		{bins, "Food waste caddies are now emptied every Thursday before 8 am.", Disagree},
	})
}

// TestOtherwiseIsIfNot: "…; otherwise X" is "…; if not, X", but "unless
// otherwise agreed" keeps its own reading.
func TestOtherwiseIsIfNot(t *testing.T) {
	t.Parallel()
	const kiln = "Glaze firings run only when the kiln log is signed; otherwise the tech postpones the firing to the next day."
	checkAgreements(t, []agreementCase{
		{kiln, "Glaze firings run only when the kiln log is signed; if not, the tech postpones the firing to the next day.", Agree},
		{kiln, "Glaze firings run only when the kiln log is signed; if not, the tech cancels the firing.", Disagree},
	})
	for _, tc := range []struct {
		text string
		neg  bool // read with a negation
	}{
		{"Signed; otherwise the tech waits.", true},
		{"Signed, otherwise the tech waits.", true},
		{"Unless otherwise agreed in writing, the tech waits.", false},
		{"The tech waits, except where otherwise stated.", false},
	} {
		neg := false
		for _, tok := range surfaceTokens(tc.text) {
			neg = neg || tok.key == "@neg"
		}
		if neg != tc.neg {
			t.Errorf("%q: read with a negation %v, want %v", tc.text, neg, tc.neg)
		}
	}
}

// TestShareOfAnAmount: "plus 25%" is "x 1.25", "1.25 times" and "125%
// of" the amount; "20% off" is "80% of" it. Another share, the other
// direction, or a share of it alone is another rule, and a surcharge
// said either way round is still one surcharge.
func TestShareOfAnAmount(t *testing.T) {
	t.Parallel()
	const late = "Late returns of hired wetsuits are charged at the daily hire rate plus 25%."
	const staff = "Staff get 20% off the menu price for meals taken on shift."
	checkAgreements(t, []agreementCase{
		{late, "Late returns of hired wetsuits are charged at the daily hire rate x 1.25.", Agree},
		{late, "Late returns of hired wetsuits are charged at 1.25 times the daily hire rate.", Agree},
		{late, "Late returns of hired wetsuits are charged at 125% of the daily hire rate.", Agree},
		{late, "Late returns of hired wetsuits are charged at the daily hire rate x 1.5.", Disagree},
		{late, "Late returns of hired wetsuits are charged at 25% of the daily hire rate.", Disagree},
		{late, "Late returns of hired wetsuits are charged at the daily hire rate minus 25%.", Disagree},
		{staff, "Staff pay 80% of the menu price for meals taken on shift.", Agree},
		{staff, "Staff pay 0.8 times the menu price for meals taken on shift.", Agree},
		{staff, "Staff pay 70% of the menu price for meals taken on shift.", Disagree},
		{"A 10% surcharge applies to card payments under £5.", "A surcharge of 10% applies to card payments under £5.", Agree},
		{"The panel is cut to 48 x 48 cm.", "The panel is cut to 48 by 48 cm.", Agree},
	})
	checkRelations(t, []relationCase{
		{"the hire rate plus 25%", relOver},
		{"a 25% surcharge", relOver},
		{"20% off the menu price", relUnder},
		{"10% less than the list", 0},
		{"80% of the menu price", relOf},
		{"the hire rate x 1.25", relTimes},
		{"1.5 times the hourly rate", relTimes},
		{"3 times a week", 0},
		{"48 x 48 cm", 0},
	})
}

// relationCase is a text and the relation of its share or multiple to
// the amount it names (relOver, relUnder, relOf, relTimes), 0 for none.
type relationCase struct {
	text string
	rel  int8
}

// checkRelations reads each case's text and checks the relation of the
// first of its numbers that has one (or of its first number).
func checkRelations(t *testing.T, cases []relationCase) {
	t.Helper()
	for _, tc := range cases {
		a := analyze(tc.text)
		var got int8 = -1
		for _, q := range a.qty {
			if q.rel != 0 || got < 0 {
				got = q.rel
			}
		}
		if got != tc.rel {
			t.Errorf("%q: relation %d, want %d", tc.text, got, tc.rel)
		}
	}
}

// TestKeyRate: a configuration key that ends in a unit and a period
// ("min_duty_hours_per_month: 16") states a rate; a number after a unit
// another number already took ("2 hours per day 3 times") is a count.
func TestKeyRate(t *testing.T) {
	t.Parallel()
	const duty = "Volunteer wardens give at least 16 hours of duty a month."
	checkAgreements(t, []agreementCase{
		{duty, "wardens:\n  min_duty_hours_per_month: 16", Agree},
		{duty, "wardens:\n  min_duty_hours_per_month: 12", Disagree},
		{duty, "wardens:\n  min_duty_hours_per_week: 16", Disagree},
	})
	month, hour := units()["month"].scale, units()["hour"].scale
	for _, text := range []string{voicePosition("wardens:\n  min_duty_hours_per_month: 16"), voicePosition("wardens { min-duty-hours-per-month = 16 }"), duty} {
		a := analyze(text)
		if !slices.ContainsFunc(a.qty, func(q quantity) bool { return q.value == 16*hour && q.per == "time" && q.perVal == month }) || len(a.qty) != 1 {
			t.Errorf("%q: want one rate of 16 hours a month, got %+v", text, a.qty)
		}
	}
	checkAgreements(t, []agreementCase{
		{"A hive may be fed at most 2 kg of syrup a day.", "FEED_MAX_KG_PER_DAY=2", Agree},
		{"A hive may be fed at most 2 kg of syrup a day.", "FEED_MAX_KG_PER_WEEK=2", Disagree},
	})
	a := analyze("Practise 2 hours per day 3 times a week.")
	for _, q := range a.qty {
		if q.raw == 3 && q.dim != "" {
			t.Errorf("3 read as %v %s, want a count", q.value, q.dim)
		}
	}
}

// TestNegationSaidWithForce: "not … at all" and "no … whatsoever" say
// what "not" and "no" say, and "no dog may enter until …" is "a dog
// enters only after …": the permission goes with the negation.
func TestNegationSaidWithForce(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Ball games are not permitted on the bowling green.", "Ball games are not allowed on the bowling green at all.", Agree},
		{"Ball games are not permitted on the bowling green.", "No ball games whatsoever on the bowling green.", Agree},
		{"Ball games are not permitted on the bowling green.", "Ball games are allowed on the bowling green at all times.", Disagree},
		{"A dog enters the agility ring only after its vaccination card is checked.", "No dog may enter the agility ring until its vaccination card is checked.", Agree},
		{"A dog enters the agility ring only after its vaccination card is checked.", "A dog may enter the agility ring before its vaccination card is checked.", Disagree},
	})
}
