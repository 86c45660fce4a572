package consensus

import "testing"

// TestReadingsNumberSaidOnce reads a number one side states twice and the
// other once ("to 19:00 … from 19:00" → "to 7 pm, then …") as the same
// number kept, not dropped; a second thing said as free or not done
// instead ("vans park free") stays a number dropped.
func TestReadingsNumberSaidOnce(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"a range end said again as its next start", "Gym opening hours",
			"The gym opens at 06:00 and closes at 22:00 on weekdays; on weekends it opens at 08:00 and closes at 22:00.",
			"gym hrs: weekdays 6am-10pm, weekends 8am till 10pm", Agree, ""},
		{"one price for two things, said once", "Parking charges",
			"Cars pay £5 per day and vans pay £5 per day.",
			"Dear resident, cars and vans both pay £5 a day.", Agree, ""},
		{"one allowance for two groups, said once", "Annual leave",
			"Staff get 25 days of annual leave and contractors get 25 days of annual leave.",
			"staff + contractors: 25 days annual leave each", Agree, ""},
		{"a window said again as the month", "Opt-out refund",
			"An employee who opts out within 1 month of being enrolled gets a full refund of their own contributions; after 1 month the contributions stay invested.",
			"If the employee opt out inside one month after enrolment he gets his contributions back. After the month, the money stays invested.", Agree, ""},
		{"the second price said as free", "Parking charges",
			"Cars pay £5 per day and vans pay £5 per day.",
			"Cars pay £5 per day; vans park free.", Disagree, "5 £ per day"},
		{"the second allowance said as none", "Annual leave",
			"Staff get 25 days of annual leave and contractors get 25 days of annual leave.",
			"Staff get 25 days of annual leave; contractors get no paid leave.", Disagree, ""},
		{"a second fee said as not charged", "Late fees",
			"A late payment costs €10 in the first month and €10 again in the second month.",
			"A late payment costs €10 in the first month; no further fee is charged.", Disagree, ""},
		{"a length said again changed", "Meeting room booking",
			"Rooms can be booked for up to 2 hours; a booking not used within 15 minutes is released, and a released room can be rebooked after 15 minutes.",
			"Rooms can be booked for up to 2 hours; a booking not used within 15 minutes is released and can be rebooked at once.", Disagree, "15 minutes"},
	})
}
