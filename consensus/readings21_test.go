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

// TestCentsOfOtherCurrencies: cents are the hundredth of the currency the
// other side names, euros as dollars: "30 cents a kilometre" is "0.30 EUR
// per kilometre", and "40 cents" or "30 euros" is not.
func TestCentsOfOtherCurrencies(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Staff who carpool are reimbursed 0.30 EUR per kilometre, paid to the driver.", "The driver gets 30 cents a kilometre.", Agree},
		{"Each bottle carries a deposit of 25 cents.", "Each bottle carries a deposit of €0.25.", Agree},
		{"A text message costs 0.10 AUD.", "A text message costs 10 cents.", Agree},
		{"Staff who carpool are reimbursed 0.30 EUR per kilometre, paid to the driver.", "The driver gets 40 cents a kilometre.", Disagree},
		{"Each bottle carries a deposit of 25 cents.", "Each bottle carries a deposit of 25 euros.", Disagree},
		{"Each bottle carries a deposit of 25 cents.", "Each bottle carries a deposit of €2.50.", Disagree},
		// Pence are a pound's, not a euro's.
		{"Each bottle carries a deposit of 20 pence.", "Each bottle carries a deposit of €0.20.", Disagree},
	})
}

// TestPreviousDay: "the previous day" and "the preceding working day"
// are one day before, as "the day before" is; "a rolling day" is one
// day, as "a rolling 24 hours" is. A month named ("the 25th of the
// preceding month") is no length.
func TestPreviousDay(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Remote speakers do their sound check by video call the day before.", "Speakers joining remotely do their sound check over a video call the previous day.", Agree},
		{"Parcels must be booked by 3 pm on the working day before collection.", "Parcels are booked no later than 3 pm on the previous working day.", Agree},
		{"Parcels must be booked by 3 pm on the working day before collection.", "Parcels are booked no later than 3 pm two working days before.", Disagree},
		{"Parcels must be booked by 3 pm on the preceding working day.", "Parcels are booked by 3 pm two working days ahead.", Disagree},
		{"The office phones vulnerable tenants the previous day.", "The office phones vulnerable tenants two days before.", Disagree},
		{"The office phones vulnerable tenants the previous day.", "The office phones vulnerable tenants a week before.", Disagree},
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

// TestWholeStretches: "all day", "all year (round)" and "throughout the
// session" are the whole of one stretch of time, as "the whole day" and
// "the entire day" say it; "all rooms" are every room. Another stretch,
// or a part of it, is a change.
func TestWholeStretches(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Members with a medical certificate may use buggies all year.", "Members with a medical certificate can use buggies the whole year.", Agree},
		{"Members with a medical certificate may use buggies all year.", "Members with a medical certificate can use buggies all year round.", Agree},
		{"The side gate stays open all day on Saturdays.", "On Saturdays the side gate stays open for the entire day.", Agree},
		{"A game master watches each group on camera for the whole session.", "A game master watches each group on camera throughout the session.", Agree},
		{"Phones stay switched off throughout the exam.", "Phones stay switched off for the whole exam.", Agree},
		{"Dogs on a lead are welcome in all rooms of the pub.", "Dogs on a lead are welcome in every room of the pub.", Agree},
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
	})
}
