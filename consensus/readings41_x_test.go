package consensus

import "testing"

// TestReadingBarExceptAsOnly reads a bar with an exception ("master keys
// are not lent out except to the duty manager") as the thing done only in
// that case, when the other side says the case beside its "only" ("lent
// only to the duty manager"): the same rule, no negation dropped. A side
// that does the thing in every case, or sets the case apart beside its
// "only" ("the only exception being …"), still turns the rule.
func TestReadingBarExceptAsOnly(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"keys lent only to", "Keys", "Master keys are not lent out except to the duty manager.", "master keys are lent only to the duty manager", Agree, ""},
		{"keys chat", "Keys", "Master keys are not lent out except to the duty manager.", "hi, keys r lent only to duty manager, nobody else", Agree, ""},
		{"only the keepers", "Young animals", "Lambs under 3 months are never handled, except by keepers.", "Only the keepers handle the lambs under three months.", Agree, ""},
		{"only the engineer", "Server room", "Nobody enters the server room except the on-call engineer.", "Only the on-call engineer may enter the server room.", Agree, ""},
		{"window only, terse", "Deploys", "Do not deploy to production except during the Tuesday release window.", "prod deploys: tuesday release window only", Agree, ""},
		{"pushed only in the window", "Firmware", "Firmware updates are never pushed to devices except during the maintenance window.", "Firmware is pushed to devices only in the maintenance window.", Agree, ""},
		{"only with a member", "Guests", "Guests may not use the pool unless a member is with them.", "guests can use pool only with member present", Agree, ""},
		{"only at visiting hours", "Visitors", "No visitor goes onto the ward except at visiting hours.", "Visitors go onto the ward only at visiting hours.", Agree, ""},
		{"day room only", "Ward phones", "Phones may not be used on the ward except in the day room.", "Phone use on the ward: day room only.", Agree, ""},

		{"lent to anyone", "Keys", "Master keys are not lent out except to the duty manager.", "Master keys are lent to any staff member.", Disagree, "lent"},
		{"the only exception being", "Keys", "Master keys are not lent out except to the duty manager.", "Master keys are lent to everyone, the only exception being the duty manager.", Disagree, ""},
		{"only outside the hours", "Lone work", "Staff may not work alone in the lab except during office hours.", "Staff work alone in the lab only outside office hours.", Disagree, ""},
		{"anyone enters", "Server room", "Nobody enters the server room except the on-call engineer.", "Everyone may enter the server room.", Disagree, ""},
		{"not only the window", "Deploys", "Do not deploy to production except during the Tuesday release window.", "Deploy to production any day, not only in the Tuesday release window.", Disagree, ""},
		{"pushed at any time", "Firmware", "Firmware updates are never pushed to devices except during the maintenance window.", "Firmware updates are pushed to devices at any time.", Disagree, ""},
		{"pool on their own", "Guests", "Guests may not use the pool unless a member is with them.", "Guests can use the pool on their own.", Disagree, ""},
		{"visitors any hour", "Visitors", "No visitor goes onto the ward except at visiting hours.", "Visitors go onto the ward at any hour.", Disagree, ""},
		{"others handle", "Young animals", "Lambs under 3 months are never handled, except by keepers.", "Visitors handle the lambs under three months.", Disagree, ""},
	})
}
