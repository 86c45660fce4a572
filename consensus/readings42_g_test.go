package consensus

import "testing"

// TestReadingsDiscretion pins a step left to its doer's choice ("the
// clinic may choose to book a scan", "staff may decide whether to
// escalate", "the club may offer the place") as a loosening of a rule that
// says the step is taken, and as the same permission beside a rule that
// already allows it.
func TestReadingsDiscretion(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"a refund left to choice", "", "If the parcel arrives more than 5 days late, the customer is refunded the shipping fee.",
			"hey so if it's 5+ days late we may choose to refund the shipping fee", Disagree, "may choose to"},
		{"a handout left to the staff", "", "Every guest is given a wristband at the gate.",
			"At the gate, staff may decide to give guests a wristband.", Disagree, "may decide to"},
		{"a nightly backup left to ops", "", "The database is backed up every night at 02:00.",
			"ops may opt to back up the database nightly at 02:00", Disagree, "may opt to"},
		{"a retake left to the faculty", "", "A student who fails the exam is offered one retake within 4 weeks.",
			"Per section 4.2, the faculty may elect to offer a failing student one retake within 4 weeks.", Disagree, "may elect to"},
		{"an escalation left to the agent", "", "Tickets open for more than 48 hours are escalated to the team lead.",
			"Tickets open more than 48h: the agent may decide whether to escalate to the team lead.", Disagree, "may decide whether"},
		{"a duty made a visitor's choice", "", "All visitors must sign in at reception.",
			"Visitors at reception may choose to sign in.", Disagree, "must → may choose to"},
		{"a fee left to finance", "", "Payments received after the 10th carry a late fee of 15 USD.",
			"For payments after the 10th, finance may opt to charge a 15 USD late fee.", Disagree, "may opt to"},
		{"a jab only offered", "", "Every employee gets a free flu jab each autumn.",
			"Each autumn the company may offer employees a free flu jab.", Disagree, "may offer"},
		{"a choice the rule already gives", "", "Members may receive the newsletter by post or by email.",
			"Members may choose to get the newsletter by post or by email.", Agree, ""},
		{"a lot the rule already allows", "", "Staff can park in the north lot or the south lot.",
			"Staff may choose to park in either the north or the south lot.", Agree, ""},
		{"an early leave already allowed", "", "Employees may leave at 15:00 on Fridays in August.",
			"In August, employees may decide to leave at 3 pm on Fridays.", Agree, ""},
		{"an opt-out already allowed", "", "Employees may opt out of the pension scheme within 30 days of joining.",
			"Within 30 days of joining, employees may elect to opt out of the pension scheme.", Agree, ""},
		{"an offer already allowed", "", "The hotel can offer late checkout until 14:00 to loyalty members.",
			"Loyalty members: the hotel may offer late checkout until 14:00.", Agree, ""},
		{"photos already allowed", "", "Visitors may take photos in the gallery without flash.",
			"In the gallery, visitors may choose to take photos, but not with flash.", Agree, ""},
	})
}
