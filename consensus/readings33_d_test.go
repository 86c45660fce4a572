package consensus

import "testing"

// TestReachWidenedByNotOnly: "not only" or "not just" before a kind the
// filed rule is said of widens the rule past that kind; the same words
// beside a kind the filed rule names too ("the storeroom as well, not
// only the kitchen") say it again.
func TestReachWidenedByNotOnly(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Carp over 2 kg must not be put in keepnets.", "No fish over 2 kg in a keepnet, not only carp.", Disagree},
		{"The tenant shall not sublet the garage.", "Tenant shall not sublet any part of the premises, not only the garage.", Disagree},
		{"Smoking is banned in the kitchen.", "no smoking anywhere inside the building not only kitchen ok", Disagree},
		{"Visitors park in bay C.", "hey so visitors AND contractors park in bay C now, not only visitors", Disagree},

		{"Smoking is banned in the kitchen and in the storeroom.", "No smoking in the storeroom as well, not only the kitchen.", Agree},
		{"Nurses wear gloves when handling blood samples.", "Gloves on for blood samples - nurses, not just lab techs.", Agree},
	})
}

// TestPutOutsideTheRule: a thing the filed rule covers that the position
// says "is not part of" the rule, "isn't in this rule", "is not covered"
// or "is out of scope" narrows the rule; a thing the filed rule sets aside itself ("servers
// are excluded", "oak is exempt", "out of scope") said outside it again
// does not.
func TestPutOutsideTheRule(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Expense claims over 500 EUR need a receipt and the manager's sign-off.", "Expense claims over 500 EUR need the manager's sign-off; receipts are not part of the check anymore.", Disagree},
		{"New starters get a laptop, a badge and a parking permit on day one.", "day one for new starters = laptop + badge. parking permit is out of scope for IT.", Disagree},
		{"A release needs green unit tests and a signed changelog.", "release gate: unit tests green. changelog is not part of the gate", Disagree},
		{"Applicants submit a passport copy, bank statements and an invitation letter.", "Applicant submit passport copy and bank statements, invitation letter is not in scope of the application.", Disagree},

		{"Each parcel is scanned at intake, at sorting and before loading.", "Scan parcels before loading only; intake and sorting scans aren't part of the rule.", Disagree},
		{"Inspect every signal on running lines every 4 weeks.", "Signals inspected every 4 weeks, only on main lines; the branch lines are not in this rule.", Disagree},

		{"Adults pay the entry fee; children under 5 are exempt.", "Entry fee for adults. Children under 5 aren't covered by the fee.", Agree},
		{"Timber leaves the kiln at 18% moisture or less; oak is exempt and air-dried.", "Kiln timber max 18% moisture. Oak is not covered, it is air-dried.", Agree},
		{"The warranty covers parts and labour for 2 years; accidental damage is not covered.", "2-year warranty on parts and labour. Accidental damage is not covered.", Agree},
		{"Every new hire attends the safety induction in week one.", "Safety induction is part of week one for every new hire.", Agree},
		{"Marketing and sales attend the Monday meeting.", "The Monday meeting is for marketing and sales; engineering is not part of it.", Agree},
	})
}
