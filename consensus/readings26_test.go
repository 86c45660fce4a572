package consensus

import "testing"

// TestNoneBoundedBySubject: "no dog over 25 kg is allowed in the cabin",
// "nobody under 16 may use the lathe": the bound says which dogs or which
// people, and the "no" is said of what they do, as "dogs over 25 kg are
// not allowed" says it. Another number, the other bound or the rule
// turned is still a change; a bound said of a thing alone ("no parcel
// over 30 kg") keeps its reading as a limit, and the same words read as a
// limit ("fees charged are at most 50 dollars") agree too.
func TestNoneBoundedBySubject(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Dogs over 25 kg are not allowed in the cabin.", "No dog over 25 kg is allowed in the cabin.", Agree},
		{"Dogs over 25 kg are not allowed in the cabin.", "No dog over 25 kg may travel in the cabin.", Agree},
		{"Members under 16 must not use the lathe.", "Nobody under 16 may use the lathe.", Agree},
		{"Members under 16 must not use the lathe.", "No member under 16 is to use the lathe.", Agree},
		{"Loans above 5000 euros are not approved by branch staff.", "No loan above 5000 euros is approved by branch staff.", Agree},
		{"Boats longer than 12 metres are not admitted to the inner harbour.", "No boat longer than 12 metres is admitted to the inner harbour.", Agree},
		{"Parcels under the weight limit are not charged a surcharge.", "No parcel under the weight limit is charged a surcharge.", Agree},

		{"Dogs over 25 kg are not allowed in the cabin.", "No dog over 30 kg is allowed in the cabin.", Disagree},
		{"Dogs over 25 kg are not allowed in the cabin.", "No dog under 25 kg is allowed in the cabin.", Disagree},
		{"Dogs over 25 kg are not allowed in the cabin.", "Dogs over 25 kg are allowed in the cabin.", Disagree},
		{"Members under 16 must not use the lathe.", "Nobody under 18 may use the lathe.", Disagree},
		{"Members under 16 must not use the lathe.", "Nobody over 16 may use the lathe.", Disagree},
		// A bound said of a thing alone is a limit: every loaf at least 400 g.
		{"Every loaf must weigh at least 400 g.", "No loaf under 400 g.", Agree},
		// The same words say the limit too: "no fee above 50 dollars may
		// be charged" is "fees charged are at most 50 dollars".
		{"Fees charged must be at most 50 dollars.", "No fee above 50 dollars may be charged.", Agree},
		{"Loans are capped at 5000 euros.", "No loan above 5000 euros is approved.", Agree},
		{"Bookings are limited to 12 people.", "No booking over 12 people is taken.", Agree},
		{"Loans are capped at 5000 euros.", "No loan above 8000 euros is approved.", Disagree},
		{"Fees charged must be at most 50 dollars.", "No fee below 50 dollars may be charged.", Disagree},
	})
}

// TestInAdvanceIsBefore: "in advance", "beforehand" and "ahead" say what
// "before" says of a length of time, and "afterwards" what "after" says;
// "after" for "before" or another length still changes the rule.
func TestInAdvanceIsBefore(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Groups must book the museum tour at least 10 days ahead.", "Groups must book the museum tour at least 10 days in advance.", Agree},
		{"Kayak hire must be paid 24 hours before the session.", "Kayak hire must be paid 24 hours in advance of the session.", Agree},
		{"The venue must be told about dietary needs 3 days before the event.", "Tell the venue about dietary needs three days beforehand.", Agree},
		{"Deposits are paid in advance.", "The deposit is paid beforehand.", Agree},

		{"Groups must book the museum tour at least 10 days ahead.", "Groups must book the museum tour at least 7 days in advance.", Disagree},
		{"Kayak hire must be paid 24 hours before the session.", "Kayak hire must be paid 24 hours after the session.", Disagree},
		{"Deposits are paid in advance.", "Deposits are paid on arrival.", Disagree},
		// "afterwards" says "after", and so is no "beforehand".
		{"Exam results are posted a week after the exam.", "Exam results are posted one week afterward.", Agree},
		{"Changes to the menu must be agreed 48 hours beforehand.", "Changes to the menu can be agreed up to 48 hours afterwards.", Disagree},
	})
}

// TestWindowCountedBack: "during the previous 12 months", "during the past
// 90 days" name the window a rule counts in, as "in the last 12 months"
// does, not a case of the rule; another length is still a change, and a
// window ahead ("during the first 2 weeks of July") stays a condition.
func TestWindowCountedBack(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"A driver with more than 2 late returns in the last 12 months loses priority booking.",
			"A driver with more than 2 late returns during the previous 12 months loses priority booking.", Agree},
		{"Refund claims are checked against purchases in the last 90 days.",
			"During the past 90 days' purchases, refund claims are checked.", Agree},
		{"A driver with more than 2 late returns in the last 12 months loses priority booking.",
			"A driver with more than 2 late returns during the previous 6 months loses priority booking.", Disagree},
	})
	for _, text := range []string{"Vans are checked during the previous 3 days.", "During the last 2 weeks, no leave is booked."} {
		if a := analyze(text); len(a.conds) != 0 {
			t.Errorf("%q: conditions %v, want none", text, a.conds)
		}
	}
	for _, text := range []string{"During the first 2 weeks of July the pool is closed.", "The shop is closed during the last 3 days of the month."} {
		if a := analyze(text); len(a.conds) != 1 {
			t.Errorf("%q, a window of a named time: conditions %v, want one", text, a.conds)
		}
	}
}

// TestTheRulesMoment: a condition that only says the thing reaches the
// rule ("when it comes in", "once the form reaches the office") is no case
// of the rule's own; a condition with a word of its own ("when it comes in
// damaged") still is.
func TestTheRulesMoment(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Every returned book is checked for damage at the desk on return.",
			"Desk staff look over each returned book for damage when it comes in.", Agree},
		{"Each application form is date-stamped by the office on receipt.",
			"Once an application form reaches the office, the office date-stamps it.", Agree},
		// A case of its own said beside the moment: read, and weighed as
		// a condition added (unclear, not consistent).
		{"Every returned book is checked for damage at the desk on return.",
			"Desk staff look over each returned book for damage when it comes in late.", Unsure},
		// A case that comes round again is one of its own.
		{"Members who miss a booked class pay a late fee.",
			"If it happens again, a late fee is charged to the member.", Disagree},
	})
}
