package consensus

import "testing"

// TestReadings44PeriodAdded pins a unit of time that only one side says
// as one of it ("in a day", "carry_over monthly") while the other side
// names the unit itself ("on a given day", "a court day", "month to
// month"): the one is the unit's, no length added. A plural names some
// days of the unit, not the unit, so a rule widened to every day still
// reads as changed.
func TestReadings44PeriodAdded(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"in a day against on a given day", "Lift closures", "If snow closes the lifts for more than 3 hours on a given day, ticket holders get a voucher.",
			"snow shuts the lifts over three hours in a day -> ticket holders get a voucher", Agree, ""},
		{"a day the court sits against a court day", "E-filing", "A document uploaded before 17:00 on a court day is filed that day.",
			"Upload before 5 pm on a day the court sits and it is filed that day.", Agree, ""},
		{"monthly against month to month", "Unused leave", "Unused leave carries over from month to month until the end of the leave year.",
			"unused_leave: carry_over monthly, expires at leave-year end", Agree, ""},
		{"every day against competition days", "Tee time spacing", "Tee times are 10 minutes apart, widened to 12 minutes on competition days.",
			"Use 12-minute spacing every day.", Disagree, "every day"},
		{"every day against Sundays", "Kitchen deep clean", "The kitchen is deep-cleaned on Sundays after closing.",
			"The kitchen gets a deep clean every day after closing.", Disagree, "every day"},
		{"every day against weekly", "Weekly report", "The weekly report is due by Friday noon.",
			"The report is due every day by noon.", Disagree, "every day"},
	})
}
