package consensus

import (
	"slices"
	"testing"
)

// TestNumbersSaidOtherwise compares rules whose numbers are written in
// other ways: digits grouped by spaces, fractions and shares in words,
// "every other month", "once a year" and a range of times whose first
// time takes the half of the day its second one says. Each is the same
// rule said again, and a changed number in the same form still changes
// it.
func TestNumbersSaidOtherwise(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		// A rate whose unit stands a few words from its number.
		{"Volunteers give at least 3 hours per week to the food bank.", "Every volunteer puts in three or more unpaid hours at the food bank every week.", Agree},
		{"Volunteers give at least 3 hours per week to the food bank.", "Every volunteer puts in four or more unpaid hours at the food bank every week.", Disagree},
		// Money in millions ("£5m"), cents of a dollar, a mixed fraction,
		// a period joined to its number ("12-monthly"), half-yearly, and
		// a version number that is no number of the rule.
		{"Contractors carry public liability cover of at least GBP 5 million.", "Contractors need public liability cover of £5m or more.", Agree},
		{"Contractors carry public liability cover of at least GBP 5 million.", "Contractors need public liability cover of £5k or more.", Disagree},
		{"The fund may commit at most 2 billion EUR a year.", "The fund commits no more than €2bn a year.", Agree},
		{"Waiting at pickup is billed at 0.40 USD per minute.", "Waiting at pickup costs 40 cents a minute.", Agree},
		{"Waiting at pickup is billed at 0.40 USD per minute.", "Waiting at pickup costs 4 cents a minute.", Disagree},
		{"The junior camp takes children aged 7 and a half to 10.", "The junior camp takes children aged 7 1/2 to 10.", Agree},
		{"The junior camp takes children aged 7 and a half to 10.", "The junior camp takes children aged 7 to 10.", Disagree},
		{"Every booth is recalibrated every 12 months.", "Every booth gets a 12-monthly recalibration.", Agree},
		{"Every booth is recalibrated every 12 months.", "Every booth gets a 6-monthly recalibration.", Disagree},
		{"Air handling filters are replaced every 6 months.", "Air handling filters are swapped half-yearly.", Agree},
		{"Air handling filters are replaced every 6 months.", "Air handling filters are swapped yearly.", Disagree},
		{"Smart meters report a reading every 30 minutes.", "Smart meters report a reading half-hourly.", Agree},
		{"Smart meters report a reading every 30 minutes.", "Smart meters report a reading hourly.", Disagree},
		{"Fire doors are inspected every 6 months.", "Fire doors are inspected semi-annually.", Agree},
		{"Feeding sessions run twice a day, at 11:00 and 15:00.", "Update 5.1: feeding sessions now run twice a day, at 11:00 and 15:00.", Agree},
		// Yards are a length of their own.
		{"Boats within 100 m of the landing count as waiting.", "Boats count as waiting when they are within 100 yards of the landing.", Disagree},
		{"Keep spectators 100 yards from the firing point.", "Spectators stay at least 300 feet back from where the fireworks are fired.", Agree},
		// Digits grouped in threes by a space, a no-break space or a
		// narrow one.
		{"Batches of more than 10,000 rows are split before loading.", "Batches of more than 10 000 rows are split before loading.", Agree},
		{"Batches of more than 10,000 rows are split before loading.", "Batches of more than 10\u00a0000 rows are split before loading.", Agree},
		{"A grant above 1,500,000 EUR needs board sign-off.", "A grant above 1\u202f500\u202f000 EUR needs board sign-off.", Agree},
		{"Batches of more than 10,000 rows are split before loading.", "Batches of more than 12 000 rows are split before loading.", Disagree},
		// Fractions in words.
		{"At least two thirds of the members present must vote yes.", "At least 2/3 of the members present must vote yes.", Agree},
		{"Three quarters of the seats are sold before the waitlist opens.", "75% of the seats are sold before the waitlist opens.", Agree},
		{"At least two thirds of the members present must vote yes.", "At least three quarters of the members present must vote yes.", Disagree},
		// Shares as counts out of counts.
		{"Auditors sample 5% of the invoices each quarter.", "Auditors sample 1 out of every 20 invoices each quarter.", Agree},
		{"Auditors sample 5% of the invoices each quarter.", "Auditors sample one in twenty invoices each quarter.", Agree},
		{"Auditors sample 5% of the invoices each quarter.", "Auditors sample 1 in 10 invoices each quarter.", Disagree},
		// Every second or other one of a period.
		{"Rotate the signing keys every 2 months.", "Rotate the signing keys every other month.", Agree},
		{"Rotate the signing keys every 2 months.", "Rotate the signing keys every second month.", Agree},
		{"Rotate the signing keys every second month.", "Rotate the signing keys every third month.", Disagree},
		// Once a year is one a year, beside a distance that is no rate.
		{"Each member may take one sabbatical week per year.", "Each member may take a sabbatical week once a year.", Agree},
		{"Each member may take one sabbatical week per year.", "Each member may take a sabbatical week twice a year.", Disagree},
		{"The forklifts are serviced every 20,000 km or every 12 months, whichever comes first.", "Forklift service: every 20000 km or once a year, whichever is first.", Agree},
		// A range of times whose first time says no half of the day.
		{"The help desk is staffed from 17:30 to 21:00 on weekdays.", "The help desk is staffed from 5:30 to 9 pm on weekdays.", Agree},
		{"The help desk is staffed from 17:30 to 21:00 on weekdays.", "The help desk is staffed from 5:30 am to 9 pm on weekdays.", Disagree},
		// "A fifth" is a share after "by" or before "of", and otherwise
		// the next one of what the sentence counts.
		{"Each walking tour has 4 guides, including one first-aider; tours of more than 30 people get a fifth guide.",
			"Four guides per walking tour, one of them a first-aider. When the group is over 30 people, add a fifth.", Agree},
		{"Cut the heating budget by a fifth.", "Cut the heating budget by 20%.", Agree},
		{"Cut the heating budget by a fifth.", "Cut the heating budget by a quarter.", Disagree},
		{"A fifth of the seats are held for members.", "20% of the seats are held for members.", Agree},
		// A bound said with "exceeds", an area with "sq".
		{"Lifts are stood down when the wind exceeds 40 knots.", "Lifts are stood down when the wind is over 40 knots.", Agree},
		{"Lifts are stood down when the wind exceeds 40 knots.", "Lifts are stood down when the wind is under 40 knots.", Disagree},
		{"Floor sanding is priced at 12 GBP per square metre.", "Floor sanding is priced at 12 GBP per sq metre.", Agree},
		// Every night is nightly.
		{"The ticket kiosks restart every night at 03:00.", "The ticket kiosks restart nightly at 03:00.", Agree},
		{"The ticket kiosks restart every night at 03:00.", "The ticket kiosks restart weekly at 03:00.", Disagree},
	})
}

// TestItemsTheTopicNames: a position may leave the things its question
// is about to the record's topic ("In before 10:00 …" under "Turnaround
// for coats and jackets"); an item the topic does not name, left out,
// still narrows the rule.
func TestItemsTheTopicNames(t *testing.T) {
	t.Parallel()
	const filed = "Coats and jackets handed in before 10:00 are ready by 17:00 the next working day; items with fur trim take 5 working days."
	checkAgreementsOn(t, "Turnaround for coats and jackets", []agreementCase{
		{filed, "Handed in before 10:00, ready by 17:00 the next working day; items with fur trim take 5 working days.", Agree},
	})
	checkAgreementsOn(t, "Turnaround for outerwear", []agreementCase{
		{filed, "Coats handed in before 10:00 are ready by 17:00 the next working day; items with fur trim take 5 working days.", Disagree},
	})
}

// agreementCase is a filed rule, a position about it and the agreement
// the comparison should find.
type agreementCase struct {
	filed, position string
	want            Agreement
}

// checkAgreements compares each position with its filed rule as a check
// reads it (voicePosition first) and reports the answers that differ.
func checkAgreements(t *testing.T, cases []agreementCase) {
	t.Helper()
	checkAgreementsOn(t, "", cases)
}

// checkAgreementsOn is checkAgreements for positions asked about a
// record whose topic is topic.
func checkAgreementsOn(t *testing.T, topic string, cases []agreementCase) {
	t.Helper()
	for _, tc := range cases {
		c := ComparePositionsOn(topic, tc.filed, voicePosition(tc.position))
		if c.Agreement != tc.want {
			t.Errorf("%q against %q (topic %q): %v %v, want %v", tc.position, tc.filed, topic, c.Agreement, c.Differences, tc.want)
		}
	}
}

// TestNumbersNotMisread keeps what only looks like those forms: numbers
// side by side that are not one grouped in threes, "third party", a
// count "in" a length of time, and a time that says its half of the day.
func TestNumbersNotMisread(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want []float64 // the values of its quantities, in order
	}{
		{"The top 3 100k accounts", []float64{3, 100000}},
		{"Rooms 2024 100 and up", []float64{2024, 100}},
		// Number words of more than one group.
		{"Kept one hundred and eighty days", []float64{180 * 86400}},
		{"One hundred twenty five", []float64{125}},
		{"One thousand two hundred and fifty", []float64{1250}},
		{"Two thousand and twenty", []float64{2020}},
		{"Ten, five", []float64{10, 5}},
		{"Keys of 12 0000 bits", []float64{12, 0}},
		{"Use one third party vendor", []float64{1}},
		{"3 in 5 days", []float64{3, 5 * 86400}},
		{"from 7 am to 9 pm", []float64{7, 21}},
		{"from 10 to 9 pm", []float64{10, 21}},
		// A singular share, said with "a" or with "one" alike.
		{"Add a fifth.", nil},
		{"Add one fifth.", []float64{1}},
		{"Cut it by one fifth.", []float64{0.2}},
		{"One fifth of the seats", []float64{0.2}},
		{"One quarter.", []float64{0.25}},
		// Letters after a number scale money only; a dotted number after
		// "update" is a version, a plain one a count.
		{"A 5m pole", []float64{5 * 60}},
		{"Update 5 records", []float64{5}},
		{"Update 5.1 ships today", nil},
		{"Pages 3 1/2", []float64{3.5}},
		{"12 monthly payments", []float64{12}},
		// Tens and ones joined by a hyphen, a thousands comma before a
		// currency, and a decimal one (two digits after it).
		{"twenty-five rows", []float64{25}},
		{"a fee of 1,250 EUR", []float64{1250}},
		{"€3,50 a month", []float64{3.5}},
		// Below zero: the number right before "below zero" (its unit
		// between), not a count two words before it.
		{"Stored at 20 below zero", []float64{-20}},
		{"Keep 2 rooms below zero", []float64{2, 0}},
	} {
		var got []float64
		for _, q := range analyze(tc.text).qty {
			got = append(got, q.value)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: quantities %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestBoundsSaidOtherwise edits a filed rule by its bound alone, said in
// other words ("no longer than" for "at most", "no lower than" for "at
// least", "non-" for "not", "cannot … more than" for "at most"), or by a
// plural for "every": the same rule. The other bound, or the first of
// them for every one, changes it.
func TestBoundsSaidOtherwise(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"A new domain may run p=none for at most 30 days while its reports are reviewed.", "A new domain may run p=none for no longer than 30 days while its reports are reviewed.", Agree},
		{"Keep the cold room at or below 4 °C.", "Keep the cold room no higher than 4 °C.", Agree},
		{"Keep the freezer at or above -25 °C.", "Keep the freezer no lower than -25 °C.", Agree},
		{"Deposits are non-refundable after the booking is confirmed.", "Deposits are not refundable after the booking is confirmed.", Agree},
		{"Sign every release tag with the team key before publishing.", "Release tags are signed with the team key before publishing.", Agree},
		{"A new domain may run p=none for at most 30 days while its reports are reviewed.", "A new domain may run p=none for at least 30 days while its reports are reviewed.", Disagree},
		{"Deposits are non-refundable after the booking is confirmed.", "Deposits are refundable after the booking is confirmed.", Disagree},
		{"Record a dip reading of each receiving tank before the drop.", "Record a dip reading of the first receiving tank before the drop.", Disagree},
		// A negation that turns the bound after its verb: "cannot spend
		// more than" is "spends at most".
		{"Junior accounts cannot spend more than 30 USD a month.", "Monthly spend on junior accounts is capped at 30 USD.", Agree},
		{"Junior accounts cannot spend more than 30 USD a month.", "Junior accounts spend at most 30 USD a month.", Agree},
		{"Drivers must not work more than 10 hours a day.", "Drivers work at most 10 hours a day.", Agree},
		{"Junior accounts cannot spend more than 30 USD a month.", "Monthly spend on junior accounts is capped at 50 USD.", Disagree},
		{"Junior accounts cannot spend more than 30 USD a month.", "Junior accounts can spend more than 30 USD a month.", Disagree},
		{"Drivers must not work more than 10 hours a day.", "Drivers must work at least 10 hours a day.", Disagree},
	})
}

// TestMoneyAmounts reads an amount with its currency however it is
// written (a sign, a code, a word, before or after, with a scale), so
// that the same amount agrees and another currency, or a share for an
// amount, changes the rule.
func TestMoneyAmounts(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Late returns cost $50 per item.", "Late returns cost 50 USD per item.", Agree},
		{"Late returns cost $50 per item.", "Late returns cost USD 50 per item.", Agree},
		{"Late returns cost $50 per item.", "Late returns cost 50 dollars per item.", Agree},
		{"A locker costs €12.50 a week.", "A locker costs 12.50 euros a week.", Agree},
		{"Grants above $1.5 million need board approval.", "Grants above 1,500,000 USD need board approval.", Agree},
		{"Orders above $10k are reviewed by hand.", "Orders above 10,000 dollars are reviewed by hand.", Agree},
		{"Refunds between $10 and $20 are paid automatically.", "Refunds from 10 to 20 USD are paid automatically.", Agree},
		{"Export to the grid only when the price is above 0.25 EUR per kWh.", `{"export": {"min_price_eur_per_kwh": 0.25}}`, Agree},
		{"Late returns cost €50 per item.", "Late returns cost $50 per item.", Disagree},
		{"A 15 USD processing fee is added to the replacement charge.", "A 15% processing fee is added to the replacement charge.", Disagree},
		{"Tenants more than 5 days late pay a fee of 5% of the monthly rent.", "Tenants more than 5 days late pay a flat fee of 50 dollars.", Disagree},
		{"A locker costs €12.50 a week.", "A locker costs €15 a week.", Disagree},
	})
}

// TestNumbersTradedPlaces: two numbers of one kind that traded what they
// are said of, in a position worded apart, change the rule; the same
// numbers with their own words, in another order or other words, do not.
func TestNumbersTradedPlaces(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Cranes stop lifting when the mean wind at the jib exceeds 13 m/s or gusts exceed 18 m/s.",
			"No lifts once the jib-level mean wind is above 18 m/s, or if a gust tops 13 m/s.", Disagree},
		{"Cranes stop lifting when the mean wind at the jib exceeds 13 m/s or gusts exceed 18 m/s.",
			"No lifts if a gust tops 18 m/s, or once the jib-level mean wind is above 13 m/s.", Agree},
		{"The beginners' pool session takes at most 10 swimmers with 2 instructors; the advanced lane session takes at most 20 swimmers with 1 instructor.",
			"Beginners' session: 10 swimmers max, with 1 instructor. Advanced lane session: 20 swimmers max, with 2 instructors.", Disagree},
		{"The beginners' pool session takes at most 10 swimmers with 2 instructors; the advanced lane session takes at most 20 swimmers with 1 instructor.",
			"Advanced lane session: 20 swimmers max, with 1 instructor. Beginners' session: 10 swimmers max, with 2 instructors.", Agree},
		{"Reminder letters go out 30 days before the renewal date and a final notice 7 days after it lapses.",
			"We post the reminder 30 days ahead of renewal and the final notice a week after the lapse.", Agree},
		{"Reminder letters go out 30 days before the renewal date and a final notice 7 days after it lapses.",
			"We post the reminder 7 days ahead of renewal and the final notice 30 days after the lapse.", Disagree},
	})
}

// TestCapitalNamesAreNoUnits: "HR" in capitals is a department, not
// hours, unless a number stands before it; "IT" is one too, not "it".
func TestCapitalNamesAreNoUnits(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Escalate a grievance to the line manager within 2 days.", "Escalate a grievance to HR within 2 days.", Disagree},
		{"Escalate a grievance to HR within 2 days.", "Grievances go to HR inside two days.", Agree},
		{"The help desk answers within 24 hours.", "The help desk answers within 24 HR.", Agree},
		{"Laptops are wiped by the facilities team before reuse.", "Laptops are wiped by IT before reuse.", Disagree},
	})
}

// TestBoundOnHowOften: "at least every 30 days" bounds the interval from
// above, as a configuration's "max_interval_days: 30" does.
func TestBoundOnHowOften(t *testing.T) {
	t.Parallel()
	const filed = "Each fire door is checked at least every 30 days by the caretaker."
	checkAgreements(t, []agreementCase{
		{filed, `fire_doors: {check_by: caretaker, max_interval_days: 30}`, Agree},
		{filed, "The caretaker checks every fire door at least once every 30 days.", Agree},
		{filed, `fire_doors: {check_by: caretaker, min_interval_days: 30}`, Disagree},
		{filed, "Each fire door is checked at least every 60 days by the caretaker.", Disagree},
	})
}
