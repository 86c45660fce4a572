package consensus

import "testing"

// TestNonStrictSigns: "≥", "≤", ">=" and "<=" before a number say the
// bound a word would ("at least", "at most", "or more"), and where the
// other side says no bound at all they are the number a rule needs
// ("uptime ≥ 99.9%" against "uptime must be 99.9%"). Against the other
// bound, or another number, they change the rule.
func TestNonStrictSigns(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"A request is matched to a tutor with a subject rating of at least 4.5.", "Requests are matched to a tutor with a subject rating ≥ 4.5.", Agree},
		{"A request is matched to a tutor with a subject rating of at least 4.5.", "Requests are matched to a tutor with a subject rating ≥4.5.", Agree},
		{"Reviewers need a score of 4.5 or higher to approve.", "reviewers: approve only with score >= 4.5", Agree},
		{"Each upload is at most 25 MB.", "each upload is ≤ 25 MB", Agree},
		{"Each upload is at most 25 MB.", "Each upload is <= 25MB.", Agree},
		{"Each upload is 25 MB at most.", "each upload ≤ 25 MB", Agree},
		{"The service must keep 99.9% uptime each month.", "The service keeps ≥ 99.9% uptime each month.", Agree},
		// The other bound, or another number.
		{"A request is matched to a tutor with a subject rating of at least 4.5.", "Requests are matched to a tutor with a subject rating ≤ 4.5.", Disagree},
		{"Each upload is at most 25 MB.", "each upload is ≥ 25 MB", Disagree},
		{"Each upload is at most 25 MB.", "each upload is ≤ 50 MB", Disagree},
		{"A request is matched to a tutor with a subject rating of at least 4.5.", "Requests are matched to a tutor with a subject rating >= 4.0.", Disagree},
		{"Loans above 5000 EUR need a second signature.", "Loans ≥ 5000 EUR need a second signature.", Disagree},
		// A currency sign or a minus between the sign and the number.
		{"Orders of at least €50 ship free.", "orders ≥ €50 ship free", Agree},
		{"Payouts of at most $200 need no second approval.", "payouts <= $200 need no second approval", Agree},
		{"Freezers are kept at -18 °C or colder.", "freezer temp <= -18 °C", Agree},
		{"Orders of at least €50 ship free.", "orders ≤ €50 ship free", Disagree},
		{"Payouts of at most $200 need no second approval.", "payouts >= $200 need no second approval", Disagree},
	})
	for _, c := range []struct {
		text  string
		n     int
		upper bool
	}{
		{"≥ 4", len("≥"), false}, {"≤4", len("≤"), true}, {">= 4", 2, false}, {"<=4", 2, true},
		{"> 4", 0, false}, {"=> 4", 0, false}, {"4", 0, false}, {"", 0, false},
	} {
		if n, upper := nonStrictSign(c.text); n != c.n || upper != c.upper {
			t.Errorf("nonStrictSign(%q) = %d, %v; want %d, %v", c.text, n, upper, c.n, c.upper)
		}
	}
}

// TestPreviousDay: "the previous day" and "the preceding working day"
// are one day before, as "the day before" is; "a rolling day" is one
// day, as "a rolling 24 hours" is. A month named ("the 25th of the
// preceding month") is no length, nor a day that names a thing ("the
// previous day's invoice").
func TestPreviousDay(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Remote speakers do their sound check by video call the day before.", "Speakers joining remotely do their sound check over a video call the previous day.", Agree},
		{"Parcels must be booked by 3 pm on the working day before collection.", "Parcels are booked no later than 3 pm on the previous working day.", Agree},
		{"Parcels must be booked by 3 pm on the working day before collection.", "Parcels are booked no later than 3 pm two working days before.", Disagree},
		{"Parcels must be booked by 3 pm on the preceding working day.", "Parcels are booked by 3 pm two working days ahead.", Disagree},
		{"The office phones vulnerable tenants the previous day.", "The office phones vulnerable tenants two days before.", Disagree},
		{"The office phones vulnerable tenants the previous day.", "The office phones vulnerable tenants a week before.", Disagree},
		{"The previous month's invoice is sent on the 3rd.", "The previous day's invoice is sent on the 3rd.", Disagree},
		{"More than 3 failed logins in a rolling 24 hours lock the account.", "Over three failed logins within a rolling day lock the account.", Agree},
		{"More than 3 failed logins in a rolling 24 hours lock the account.", "Over three failed logins within a rolling week lock the account.", Disagree},
	})
	a := analyze("Subscribers skip a box before the billing cutoff on the 25th of the preceding month.")
	for _, q := range a.qty {
		if q.dim == "time" {
			t.Errorf("%q read as a length of time in %q", q.text, "the 25th of the preceding month")
		}
	}
}

// TestWholeStretches: "all day", "all year (round)", "year-round" and
// "throughout the session" are the whole of one stretch of time, as "the
// whole day" and "the entire day" say it; "all rooms" are every room, and
// "all season tickets" every season ticket. Another stretch, or a part of
// it, is a change.
func TestWholeStretches(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Members with a medical certificate may use buggies all year.", "Members with a medical certificate can use buggies the whole year.", Agree},
		{"Members with a medical certificate may use buggies all year.", "Members with a medical certificate can use buggies all year round.", Agree},
		{"The side gate stays open all day on Saturdays.", "On Saturdays the side gate stays open for the entire day.", Agree},
		{"A game master watches each group on camera for the whole session.", "A game master watches each group on camera throughout the session.", Agree},
		{"Phones stay switched off throughout the exam.", "Phones stay switched off for the whole exam.", Agree},
		{"Dogs on a lead are welcome in all rooms of the pub.", "Dogs on a lead are welcome in every room of the pub.", Agree},
		{"The outdoor pool is open all year round.", "The outdoor pool is open year-round.", Agree},
		{"The outdoor pool is open all year round.", "The outdoor pool is open year - round.", Agree},
		{"Staff stay at the desk throughout the first hour.", "Staff stay at the desk for the first 60 minutes.", Agree},
		// A stretch that names a kind of thing, or ends a sentence, is no
		// whole stretch: every one of them.
		{"All season tickets include parking.", "Every season ticket includes parking.", Agree},
		{"All summer interns get a laptop on day one.", "Each summer intern gets a laptop on day one.", Agree},
		{"Lock the doors and check them all. Day staff keep the keys.", "Lock the doors and check every one of them. Day staff keep the keys.", Agree},
		{"Refunds are available throughout the first week.", "Refunds are available during the first 14 days.", Disagree},
		{"Phones stay switched off throughout the exam.", "Phones stay switched off for the first hour of the exam.", Disagree},
		{"Members with a medical certificate may use buggies all year.", "Members with a medical certificate can use buggies in summer only.", Disagree},
		{"The side gate stays open all day on Saturdays.", "The side gate stays open all morning on Saturdays.", Disagree},
	})
}

// TestNumberWordPeriods: "three-monthly" and "two-weekly" are every 3
// months and every 2 weeks, as "3-monthly" is.
func TestNumberWordPeriods(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Fire doors are inspected every 3 months.", "Fire doors get a three-monthly inspection.", Agree},
		{"Filters are changed every two weeks.", "Filters are changed two-weekly.", Agree},
		{"Patients attend a retainer review every 6 months.", "Patients attend a retainer review at six-monthly intervals.", Agree},
		{"Fire doors are inspected every 3 months.", "Fire doors get a six-monthly inspection.", Disagree},
		{"Filters are changed every two weeks.", "Filters are changed four-weekly.", Disagree},
		{"Filters are changed two-weekly.", "Filters are changed monthly.", Disagree},
		{"Vaccine fridge temperatures are logged twice daily.", "Vaccine fridge temperatures are logged twice-daily.", Agree},
		{"Vaccine fridge temperatures are logged every two days.", "Vaccine fridge temperatures are logged twice-daily.", Disagree},
	})
}

// TestOnRequest: "on request" and "upon request" are "if asked" where
// they end their phrase: "if you ask", "when asked" and "if the family
// asks for it" say it again; to everyone, or on another condition, is a
// change. "on request forms" and "on request of the board" are no
// condition.
func TestOnRequest(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Donors who gave less than 250 USD get a statement only on request.", "Donors whose total was under $250 get a statement only if they ask for it.", Agree},
		{"Staff must show the full recipe sheet on request.", "Staff must show you the full recipe sheet if you ask.", Agree},
		{"Bus drivers must let any passenger off between stops on request.", "Bus drivers must let any passenger off between stops when asked.", Agree},
		{"Children aged 12 to 15 may use the escort service upon request.", "Twelve to fifteen year olds can have the escort service too if the family asks for it.", Agree},
		{"Statements are sent on request.", "Statements are sent upon request.", Agree},
		{"Staff must show the full recipe sheet on request.", "Staff must show the full recipe sheet to every customer.", Disagree},
		{"Staff must show the full recipe sheet on request.", "Staff must show the full recipe sheet if the manager agrees.", Disagree},
		{"Cul-de-sacs are cleared only on request.", "Cul-de-sacs are cleared every morning.", Disagree},
		{"Upon request, the hotel gives a late checkout.", "The hotel gives a late checkout if the guest asks.", Agree},
		// "on request" that names a thing, or whose request is someone's,
		// is no condition.
		{"Leave must be filed on request forms.", "Leave must be filed on the request forms.", Agree},
		{"The meeting is held on request of the board.", "The meeting is held at the request of the board.", Agree},
		{"You may ask for a refund on request day.", "You may ask for a refund on any day.", Disagree},
		{"The button on request page submits the form.", "The button on the request page deletes the form.", Disagree},
	})
}

// TestOnlyAfterRestricts: an "only after", "only once" or "only if" on
// one side against "any" on the other adds what must come first, even
// where the other side says "until" of something else or the "only"
// names a number (a reading that let them pass was reverted: it made
// "only after 2 approvals" against "any PR can be merged" consistent).
func TestOnlyAfterRestricts(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Any PR can be merged by its author.", "PRs can be merged only after 2 approvals.", Disagree},
		{"Any cashier may open the till at the start of a shift.", "Cashiers may open the till only after a supervisor has logged in.", Disagree},
		{"Any employee may work from home on Fridays.", "Employees may work from home on Fridays only after 6 months of service.", Disagree},
		{"Any guest can use the kitchen until 11 pm.", "Guests can use the kitchen only after they ask reception, till 11 pm.", Disagree},
		{"Anyone in the team can ask for a hint.", "Hints are given only after the captain asks.", Disagree},
	})
}
