package consensus

import "testing"

// TestCaseSaidCoveredLikeTheRest: a case the filed rule keeps apart in a
// part of its own ("…; students are exempt from the fee") that the
// position says the rule covers like the rest, in so many words ("no
// different", "included", "too", "as well", "no exemption"), drops the
// exception. The case said apart in other words, or covered with an
// outcome of its own ("exempt too"), stays the rule.
func TestCaseSaidCoveredLikeTheRest(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"no different, in chat", "Gym locker rental", "Lockers are rented by the month for 15 EUR; students are exempt from the fee.",
			"hey so lockers are 15 EUR a month and students are no different, they pay it too", Disagree, "exception dropped"},
		{"treated like everyone else", "Parking permits for staff", "Staff park free in the east lot; contractors must buy a day ticket.",
			"All staff park free in the east lot, and contractors are treated like everyone else, no ticket needed.", Disagree, "exception dropped"},
		{"included, terse", "Late library returns", "Late books are fined 20 cents a day, except children's books, which are never fined.",
			"Late books: 20 cents a day, children's books included.", Disagree, "exception dropped"},
		{"agency staff included", "Night shift allowance", "Night shifts are paid a 25% allowance; agency staff do not get the allowance.",
			"Per the agreement, the 25% night allowance applies to all staff, agency staff included.", Disagree, "exception dropped"},
		{"no different rule for them", "Visitor badges", "Visitors sign in at reception and wear a badge; delivery drivers only sign in.",
			"visitors sign in at reception + wear badge. delivery drivers also wear the badge, there is no different rule for them.", Disagree, "exception dropped"},
		{"the boardroom as well", "Meeting room booking", "Rooms are booked through the calendar; the boardroom is not, it goes through the CEO's assistant.",
			"Rooms, the boardroom as well, are booked through the calendar.", Disagree, "exception dropped"},
		{"emergency leave no different", "Leave notice", "Leave requests need 2 weeks' notice; emergency leave needs no notice.",
			"Leave requests need 2 weeks notice, emergency leave is no different.", Disagree, "exception dropped"},
		{"fenced field no different", "Dog walking area", "Dogs must be on a lead in the park; in the fenced field they may run free.",
			"Dogs must be on a lead in the park, the fenced field is no different.", Disagree, "exception dropped"},
		{"incl. abbreviated", "Fasting before blood tests", "Patients fast for 10 hours before the test, except patients taking insulin, who follow their diabetes team's advice.",
			"Fast 10 h before the test. Applies to all pts incl. those taking insulin.", Disagree, "exception dropped"},
		{"exempt said apart", "Gym locker rental", "Lockers are rented by the month for 15 EUR; students are exempt from the fee.",
			"Lockers: 15 EUR per month. Students are exempt.", Agree, ""},
		{"exempt too", "Gym locker rental", "Lockers are rented by the month for 15 EUR; students are exempt from the fee.",
			"Lockers are 15 EUR a month; students are exempt too, like staff.", Agree, ""},
		{"fenced field is different", "Dog walking area", "Dogs must be on a lead in the park; in the fenced field they may run free.",
			"Lead required in the park. Fenced field is different: dogs can run free there.", Agree, ""},
		{"exception put first", "Late library returns", "Late books are fined 20 cents a day, except children's books, which are never fined.",
			"20 cents per day for late books; children's books are never fined.", Agree, ""},
		{"named in the rule's first part", "Parking for staff and contractors", "Staff and contractors park free in the east lot; visitors must buy a day ticket.",
			"Free parking in the east lot for staff, contractors too. Visitors buy a day ticket.", Agree, ""},
		{"also, more of the rule", "Kitchen hygiene", "Staff wash hands before handling food; gloves are worn for raw meat.",
			"Wash hands before handling food, and also wear gloves for raw meat.", Agree, ""},
		{"said apart, no notice", "Leave notice", "Leave requests need 2 weeks' notice; emergency leave needs no notice.",
			"2 weeks notice for leave requests. Emergency leave: no notice needed.", Agree, ""},
		{"too late is no cue", "Parcel returns", "Parcels are returned within 14 days; opened software is not returned.",
			"Returns within 14 days. Opened software: no return, it is too late once opened.", Agree, ""},
	})
}
