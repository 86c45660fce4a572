package consensus

import "testing"

// TestExceptionWithAnOutcome: an exception followed by an outcome of its
// own ("unless X, in which case …", "unless X, then …") is the case of
// that outcome, said either way; a rule said not to be needed, or not to
// apply, under a case is the rule excepted there; and "the only way out
// (round it) is if X" is "unless X". A number of the outcome changed, an
// exception dropped or made part of the rule, or a case the rule never
// set aside, is still a change.
func TestExceptionWithAnOutcome(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Parcels are held for 7 days, unless the customer has paid for extended storage, in which case we keep them for 30 days.",
			"Parcels are held for 7 days unless the customer paid for extended storage, then we keep them 30 days.", Agree},
		{"Parcels are held for 7 days, unless the customer has paid for extended storage, in which case we keep them for 30 days.",
			"Parcels are held for 7 days; if the customer paid for extended storage, we keep them 30 days.", Agree},
		{"Books are due back in 21 days unless someone has reserved them, in which case they are due in 7 days.",
			"Loans run 21 days; if another reader reserved the book, 7 days.", Agree},
		{"Vans pay 12 pounds at the gate unless they carry a resident permit, in which case entry is free.",
			"vans: £12 at the gate unless they've a resident permit, then it's free", Agree},
		{"Samples go in the fridge within 1 hour of collection, except when the lab collects them directly.",
			"Samples go in the fridge within 1 hour of collection; this is not needed when the lab collects them directly.", Agree},
		{"Samples go in the fridge within 1 hour of collection, except when the lab collects them directly.",
			"Samples go in the fridge within 1 hour of collection. If the lab collects them directly, none of this applies.", Agree},
		{"Hard hats are required on the scaffold except while the crane is parked.",
			"Hard hats on the scaffold; not needed when the crane is parked.", Agree},
		{"Members pay a 5 euro late fee for returns after the due date, unless they have a medical certificate.",
			"Members pay a 5 euro late fee for returns after the due date. The only way out is if they have a medical certificate.", Agree},
		{"Overtime must be approved by a line manager in advance unless it is an emergency call-out.",
			"Line manager approves overtime beforehand. Only way round it is if it's an emergency call-out.", Agree},
		// An outcome that only negates keeps the exception one: "then no
		// inspection is needed" is "unless".
		{"Every mast is inspected within 48 hours of a storm, unless it is already fenced off for repair.",
			"Masts get inspected within 48 h of a storm. unless it's already fenced off for repair, then no inspection needed.", Agree},

		{"Parcels are held for 7 days, unless the customer has paid for extended storage, in which case we keep them for 30 days.",
			"Parcels are held for 7 days unless the customer paid for extended storage, then we keep them 14 days.", Disagree},
		{"Books are due back in 21 days unless someone has reserved them, in which case they are due in 7 days.",
			"Loans run 21 days unless another reader reserved the book, and then it's 10 days.", Disagree},
		{"Vans pay 12 pounds at the gate unless they carry a resident permit, in which case entry is free.",
			"Vans pay £12 at the gate, resident permit or not.", Disagree},
		{"Samples go in the fridge within 1 hour of collection, except when the lab collects them directly.",
			"Samples go in the fridge within 1 hour of collection, even when the lab collects them directly.", Disagree},
		{"Samples go in the fridge within 1 hour of collection, except when the lab collects them directly.",
			"Samples go in the fridge within 1 hour of collection, and also when the lab collects them directly.", Disagree},
		{"Hard hats are required on the scaffold at all times.",
			"Hard hats are required on the scaffold, but not needed when the crane is parked.", Disagree},
		{"Hard hats are required on the scaffold except while the crane is parked.",
			"Hard hats on the scaffold at all times, including when the crane is parked.", Disagree},
		{"Hard hats are required on the scaffold except while the crane is parked.",
			"Hard hats on the scaffold. If the crane is parked, the rule applies all the same.", Disagree},
		{"Members pay a 5 euro late fee for returns after the due date, unless they have a medical certificate.",
			"Members pay a 5 euro late fee for returns after the due date, only if they have a medical certificate.", Disagree},
		{"Members pay a 5 euro late fee for returns after the due date, unless they have a medical certificate.",
			"Members pay a 5 euro late fee for returns after the due date; members with a medical certificate pay it too.", Disagree},
		{"Overtime must be approved by a line manager in advance unless it is an emergency call-out.",
			"Line manager approves overtime beforehand, emergency call-outs included.", Disagree},
		// An exception with an outcome covered "even" so; a rule of its
		// own said not to be needed in the other case.
		{"Servers are patched every Tuesday night unless a release freeze is on, then patching moves to the Friday after the freeze.",
			"Servers are patched every Tuesday night, even during a release freeze.", Disagree},
		{"Approval from finance is required when an expense exceeds 500 dollars.",
			"Finance approval not needed when an expense is under 500 dollars.", Agree},
		{"Staff in patient-facing roles must have a flu vaccination each year unless they have a medical exemption.",
			"Patient-facing staff get a yearly flu jab unless a doctor has exempted them on medical grounds.", Agree},
		{"Members pay a 2 dollar fine per day for late DVDs unless they have a hardship card.",
			"Late DVDs cost members $2 a day unless they hold a hardship card.", Agree},
	})
}

// TestNotUnlessWithoutAVerb: "Kayaks don't go out unless the wind is
// below 15 knots" negates a verb that is no term of its own ("go out"):
// the negation is the rule's, not the condition's, and the rule is
// "kayaks go out only if the wind is below 15 knots"; so is a condition
// that opens its sentence before a rule said with "no" ("Unless the wind
// is under 15 knots, no kayak goes out"). Another bound, or the exception
// with the rule not negated, is still a change.
func TestNotUnlessWithoutAVerb(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Kayaks go out only if the wind is below 15 knots.",
			"Kayaks don't go out unless the wind is below 15 knots.", Agree},
		{"Kayaks go out only if the wind is below 15 knots.",
			"Unless the wind is under 15 knots, no kayak goes out.", Agree},
		{"The launch proceeds only when reviewer agreement is at least 0.8 Cohen's kappa.",
			"Unless the reviewers' agreement reaches a Cohen's kappa of at least 0.8, the launch does not go ahead.", Agree},
		{"Pupils leave the site at lunch only if a parent has signed the permission slip.",
			"pupils don't go off site at lunch unless a parent signed the slip", Agree},
		// "only after" the event, as "never … unless" it has happened.
		{"Trains depart only after the doors close.",
			"Trains never depart unless the doors are closed.", Agree},
		{"Cars board the ferry only after the ramp is lowered.",
			"Cars don't board the ferry unless the ramp is lowered.", Agree},
		{"Cars board the ferry only after the ramp is lowered.",
			"Cars don't board the ferry unless the captain says so.", Disagree},
		{"Articles go live only after the editor approves them.",
			"Articles do not go live unless the legal team approves.", Disagree},

		{"Kayaks go out only if the wind is below 15 knots.",
			"Kayaks don't go out unless the wind is below 20 knots.", Disagree},
		{"Kayaks go out only if the wind is below 15 knots.",
			"Kayaks go out unless the wind is below 15 knots.", Disagree},
		{"Production deploys happen only if two reviewers approve.",
			"We don't ship to prod unless one reviewer approves.", Disagree},
		{"Pupils leave the site at lunch only if a parent has signed the permission slip.",
			"pupils don't go off site at lunch, even if a parent signed the slip", Disagree},
		{"The kiln is opened only when it is below 50 °C.",
			"Unless it's under 80 degrees, the kiln stays shut.", Disagree},
	})
}

// TestExceptionsOwnRuleAfterWhen: "except on public holidays, when the
// limit is 8 hours" gives the exception's own rule after "when", as
// "where" does: no condition of the rule, so a position that says the
// holidays' 8 hours in words of its own keeps it. The exception dropped,
// its own number changed or left out while the exception is named, or
// the two numbers traded, is still a change.
func TestExceptionsOwnRuleAfterWhen(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"A technician must arrive within 4 hours of the booking, except on public holidays, when the limit is 8 hours.",
			"Technician on site within 4 hours of booking (8 on public holidays).", Agree},
		{"A technician must arrive within 4 hours of the booking, except on public holidays, when the limit is 8 hours.",
			"On public holidays the tech has 8 hours; any other day 4 hours from booking.", Agree},
		{"Sound at the nearest house must not exceed 65 dB between 23:00 and 07:00, except on New Year's Eve, when the limit applies from 01:00.",
			"No more than 65 dB at the closest house from 11pm to 7am; on New Year's Eve the quiet window starts at 1am.", Agree},
		{"Grazing stays between 4 and 8 sheep per hectare, except during lambing, when up to 12 sheep per hectare are accepted.",
			"4 to 8 sheep a hectare; during lambing up to 12.", Agree},

		{"A technician must arrive within 4 hours of the booking, except on public holidays, when the limit is 8 hours.",
			"Technician on site within 4 hours of booking.", Disagree},
		{"A technician must arrive within 4 hours of the booking, except on public holidays, when the limit is 8 hours.",
			"Technician on site within 4 hours of booking, public holidays too, no extra time.", Disagree},
		{"Sound at the nearest house must not exceed 65 dB between 23:00 and 07:00, except on New Year's Eve, when the limit applies from 01:00.",
			"No more than 65 dB at the closest house from 11pm to 7am; on New Year's Eve the quiet window starts at 2am.", Disagree},
		{"Grazing stays between 4 and 8 sheep per hectare, except during lambing, when up to 12 sheep per hectare are accepted.",
			"4 to 12 sheep per hectare normally, and up to 8 per hectare during lambing.", Disagree},
		{"The shop opens at 9 am, except on Sundays, when it opens at 11 am.",
			"Opens 9am, Sundays 10am.", Disagree},
		// The two numbers traded between the rule and the exception; an
		// own rule that negates, dropped with the exception.
		{"Technicians arrive within 4 hours, except on weekends, when the limit is 8 hours.",
			"Tech on site in 8 hours; 4 hours on weekends.", Disagree},
		{"Technicians arrive within 4 hours, except on weekends, when the limit is 8 hours.",
			"Tech on site in 4 hours; 8 hours on weekends.", Agree},
		{"Members may bring a guest, except on weekends, when guests are not allowed.",
			"Members may bring a guest any day including weekends.", Disagree},
	})
}

// TestNegationsWithoutApostrophe: "dont", "cant", "doesnt" written
// without the apostrophe negate as "don't" does; words that hold the
// letters ("parent", "significant", "wonton") are left as they are.
func TestNegationsWithoutApostrophe(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"kayaks dont go out":                  "kayaks do not go out",
		"staff cant approve; it isnt allowed": "staff can not approve; it is not allowed",
		"a parent or applicant":               "a parent or applicant",
		"significant wonton cantilever":       "significant wonton cantilever",
		"dont.":                               "do not.",
		"as is the editor's wont":             "as is the editor's wont",
		"she is wont to ask; i wont ask":      "she is wont to ask; i will not ask",
	} {
		if got := bareContractions(in); got != want {
			t.Errorf("bareContractions(%q) = %q, want %q", in, got, want)
		}
	}
	checkAgreements(t, []agreementCase{
		{"Kayaks go out only if the wind is below 15 knots.",
			"kayaks dont go out unless wind is under 15 knots", Agree},
		{"Never commit secrets to the repository.",
			"dont commit secrets to the repo", Agree},
		{"Staff are not allowed to approve their own expenses.",
			"Staff cant approve their own expenses.", Agree},
		{"Staff are not allowed to approve their own expenses.",
			"Staff can approve their own expenses.", Disagree},
		{"Kayaks go out only if the wind is below 15 knots.",
			"kayaks go out unless wind is under 15 knots", Disagree},
	})
}

// TestMidnightIs2400: "midnight" is 00:00 and 24:00 alike.
func TestMidnightIs2400(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"The bar closes at midnight.", "Bar closes 24:00.", Agree},
		{"The bar closes at midnight.", "Bar closes 00:00.", Agree},
		{"The bar closes at midnight.", "Bar closes 23:00.", Disagree},
		{"The bar closes at midnight.", "Bar closes at noon.", Disagree},
	})
}

// TestAfterOrWithin: the same length of time said "after" on one side
// and "within" on the other bounds the rule from either side of it ("paid
// after 30 days" waits them out, "within 30 days" pays before they end);
// under a negation the two say the same ("not paid within 60 days" is
// "still unpaid after 60 days").
func TestAfterOrWithin(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Refunds are paid after 30 days.", "Refunds are paid within 30 days.", Disagree},
		{"The deposit is returned within 14 days.", "The deposit is returned after 14 days.", Disagree},
		{"Claims must be filed within 90 days.", "Claims must be filed after 90 days.", Disagree},
		{"Leavers lose portal access after 30 days.", "Leavers lose portal access within 30 days.", Disagree},
		{"Unpaid invoices are sent to collections after 60 days.", "Invoices not paid within 60 days go to collections.", Agree},
		{"Drafts are deleted after 7 days without edits.", "Drafts with no edits within 7 days are deleted.", Agree},
		{"Tickets are answered within 2 hours.", "Every ticket gets a reply inside 2 hours.", Agree},
	})
}

// TestLengthsWithQualifiers: "200 operating hours" is 200 hours, "a stay
// of 2 nights" two days (not "2 nights a week", a count), and "£10 extra
// a week" a rate, as "£10 a week" is.
func TestLengthsWithQualifiers(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"The blade is replaced every 200 operating hours.", "The blade is replaced every 200 calendar days.", Disagree},
		{"The blade is replaced every 200 operating hours.", "Blade swapped every 200 hours of operation.", Agree},
		{"A single daily visit is allowed only for stays of 2 nights or fewer.", "1 visit a day only ok if the stay is 2 weeks or less", Disagree},
		{"The en-suite tenant pays an extra £10 a month towards water.", "en-suite person pays £10 extra a week for water", Disagree},
		{"The en-suite tenant pays an extra £10 a month towards water.", "en-suite person pays £10 extra a month for water", Agree},
		{"Residents may host an overnight guest for at most 3 nights in any 14-day period.", "Residents may host an overnight guest for no more than 3 nights in any 14-day period.", Agree},
		{"The lodger may have an overnight guest on at most 2 nights a week.", "The lodger may have an overnight guest on at most 2 nights per week.", Agree},
		{"The lodger may have an overnight guest on at most 2 nights a week.", "The lodger may have an overnight guest on at most 3 nights per week.", Disagree},
	})
}
