package consensus

import "testing"

// TestChannelAndClassAsOptions: the way a thing is sent (a portal, a fax,
// WhatsApp, the post) and the class of a seat are options of one choice,
// so one put in place of another changes the rule; the same one said in
// other words ("by post" and "by letter", "e-mail") does not.
func TestChannelAndClassAsOptions(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"a portal for email", "", "Exam results are published on the student portal on the last Friday of term.",
			"Results will be emailed to each student on the last Friday of term.", Disagree, "portal"},
		{"the post for email", "", "The reading is emailed to the council within 3 days.",
			"Contractor shall send the reading to the council by post within 3 days.", Disagree, "by post"},
		{"the post for a fax", "", "Signed consent forms are returned by fax within 3 days.",
			"Consent forms, once signed, go back by post within 3 days.", Disagree, "fax"},
		{"whatsapp for email", "", "Payslips are sent by email each month.",
			"hi all - payslips now come by WhatsApp, monthly as before", Disagree, "whatsapp"},
		{"first class for business class", "", "Staff fly economy; business class is allowed only on flights over 8 hours.",
			"travel policy tl;dr - economy by default, you can book first class when the flight is longer than 8 hrs", Disagree, "first class"},
		{"the post is a letter", "", "Families are told about each day trip 7 days ahead by letter or email.",
			"We relatives hear of every day out a week beforehand, either by post or by email.", Agree, ""},
		{"by post, reworded", "", "Payslips are posted to staff by letter each month.",
			"Each month your payslip is sent to you by post.", Agree, ""},
		{"the portal, reworded", "", "Exam results are published on the student portal on the last Friday of term.",
			"On the final Friday of term, look on the student portal for your results.", Agree, ""},
		{"business class, reworded", "", "Staff fly economy; business class is allowed only on flights over 8 hours.",
			"Economy for everyone, except flights longer than 8 hours, where you may book business class.", Agree, ""},
	})
}

// TestOnlyNarrowsABarePlural: a rule said of a bare plural that opens its
// clause ("Boats may stay") is said of every one of them, so "only
// visiting boats" narrows it; a kind said in a word of the rule's own
// ("inducted" of "the induction") does not.
func TestOnlyNarrowsABarePlural(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"only a kind of the boats", "", "Boats may stay on the fuel berth only while refuelling, for up to 20 minutes.",
			"Only visiting boats are limited on the fuel berth: 20 minutes max, while they refuel.", Disagree, "visiting"},
		{"only a kind of the dogs", "", "Dogs must be kept on a lead anywhere in the park.",
			"Park bye-law 4: only dangerous dogs shall be restrained by a lead within the park.", Disagree, "dangerous"},
		{"every dog, reworded", "", "Dogs must be kept on a lead in the park.",
			"In the park, every dog stays on a lead.", Agree, ""},
		{"the rule's own bound in another word", "", "Students may use the lab only after the safety induction.",
			"Inducted students only in the lab.", Agree, ""},
		{"a sign of the rule's own bound", "", "Members may fire the kiln only after the kiln induction.",
			"Kiln room: inducted members only.", Agree, ""},
	})
}

// TestMovedAcrossButNot: a thing a rule sets aside after "but not" that
// the other side covers before its own "but not" changes the rule's
// reach; the same lists said again do not.
func TestMovedAcrossButNot(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"a thing set aside now covered", "", "Vouchers cover food and soft drinks, but not alcohol or tips.",
			"Vouchers cover food, soft drinks and alcohol, but not tips.", Disagree, "alcohol"},
		{"a thing covered now set aside", "", "Members may use the pool and the sauna, but not the climbing wall.",
			"The member shall have access to the pool, but not the sauna or the climbing wall.", Disagree, "sauna"},
		{"a private screening now paid by gift card", "", "Gift cards can pay for tickets and concessions, but not for private screenings or the 3D glasses deposit.",
			"Gift cards can pay for tickets, concessions and private screenings, but not for the 3D glasses deposit.", Disagree, "private"},
		{"the lists said again", "", "Vouchers cover food and soft drinks, but not alcohol or tips.",
			"The voucher pays for food and soft drinks; alcohol and tips are on you.", Agree, ""},
	})
	textFindsNothing(t, onTexts(compareButNot), [][2]string{
		// The same two lists, reworded.
		{"Members may use the pool and the sauna, but not the climbing wall.", "Members get the pool and sauna but not the climbing wall."},
		// Two rules that share no covered thing.
		{"Guests may bring food, but not glass.", "Staff may park on site, but not overnight."},
	})
}

// TestOpenedToAnyOther: a thing the rule names that the other side names
// with "or any other" ("or anyone else") beside it widens the rule; a
// rule that says "any other" itself, or that is said again with "nobody
// else", does not.
func TestOpenedToAnyOther(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"anyone else beside the caretaker", "", "Only the caretaker may unlock the hall.",
			"The caretaker or anyone else on the committee may unlock the hall.", Disagree, "caretaker"},
		{"anywhere else beside the desk", "", "Parcels are left at the front desk.",
			"Parcels get left at the front desk or anywhere else safe.", Disagree, "desk"},
		{"any other time beside the harvest", "", "Harvest gifts must be tinned or dried food, brought to church by the Sunday service.",
			"All food donations to the church, at harvest or at any other time of year, must be tinned or dried food, brought by a Sunday service.", Disagree, "harvest"},
		{"nobody else", "", "Only the caretaker may unlock the hall.",
			"The hall is unlocked by the caretaker and nobody else.", Agree, ""},
		{"the rule says any other itself", "", "Parcels are left at the front desk, or any other safe place the courier chooses.",
			"Parcels are left at the front desk, or any other safe place the courier picks.", Agree, ""},
	})
}
