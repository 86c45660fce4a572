package consensus

import "testing"

// A duty kept only as far as its doer's means allow ("where crews
// allow", "as the rota allows", "if time permits"), left to the doer's
// own judgement, or said to hold "normally" or "generally" binds no
// more: against a rule that binds it is loosened. What the law allows
// is a case, not a duty loosened, and a duty said again plainly agrees.
func TestReadings37DutyLeftToMeans(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"where crews allow", "Gritting",
			"Main roads are gritted before 6 am on frosty mornings.",
			"Main roads get gritted before 6 am on frosty mornings where crews allow.", Disagree, "where crews allow"},
		{"as the rota allows", "Gritting",
			"Main roads are gritted before 6 am on frosty mornings.",
			"gritters do the main roads by 6am on frosty mornings, as the rota allows", Disagree, "as the rota allows"},
		{"if time permits", "Backups",
			"Backups are tested every month.",
			"We test backups monthly if time permits.", Disagree, "if time permits"},
		{"the doer's own judgement", "Balloon launches",
			"Do not launch a passenger balloon flight when surface wind exceeds 8 knots.",
			"Pilots may use their own judgement to launch with surface wind above 8 knots.", Disagree, "own judgement"},
		{"should generally", "Leave",
			"Staff must book leave 4 weeks ahead.",
			"Leave should generally be booked 4 weeks ahead.", Disagree, "should generally"},
		{"should normally", "Planning comments",
			"Neighbours must be given 21 days to comment on an application.",
			"Neighbours should normally get about 21 days to comment.", Disagree, "should normally"},
		{"wherever possible", "Helmets",
			"Visitors must wear a helmet on site.",
			"Visitors should wear a helmet wherever possible.", Disagree, "wherever possible"},
		{"what the law permits is a case", "Account data",
			"Personal data is deleted 30 days after the account closes.",
			"Personal data is erased 30 days after closure, where the law permits.", Agree, ""},
		{"a ban on delay, not a loosening", "Gritting",
			"Main roads are gritted before 6 am on frosty mornings.",
			"On frosty mornings the main roads are gritted by 6 am; the council permits no delay.", Agree, ""},
		{"normally said by the filed rule too", "Invoices",
			"Invoices are normally settled within 30 days.",
			"We should normally pay invoices inside 30 days.", Agree, ""},
		{"normally against a plain rule", "Invoices",
			"Invoices are settled within 30 days.",
			"We should normally pay invoices inside 30 days.", Disagree, "should normally"},
		{"the rule said again", "Backups",
			"Backups are tested every month.",
			"We test the backups once a month, no exceptions.", Agree, ""},
	})
}

// A bare number followed by the plural of what it counts ("5 students",
// "2 samples") is a number of things: a percentage of the same figure is
// another rule. A configuration value with no noun after it, or a verb
// with its object after the number ("above 30 triggers it"), is still
// read against the percentage.
func TestReadings37CountedAgainstPercent(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"samples against a share", "Batch testing",
			"Test 2 samples from every batch.",
			"Test 2% of every batch.", Disagree, "2 %"},
		{"a share against pupils", "Advanced group",
			"At most 25% of pupils may be in the advanced group.",
			"no more than 25 pupils in the advanced group", Disagree, "25"},
		{"requests against a share", "Error alerts",
			"Alert when more than 5% of requests fail in a minute.",
			"Alert if over 5 requests fail within a minute.", Disagree, "5"},
		{"students against a share", "Tutor changes",
			"At most 12% of students may change tutor each term.",
			"Up to 12 students can switch tutor per term.", Disagree, "12"},
		{"the share said in words", "Tutor changes",
			"At most 12% of students may change tutor each term.",
			"no more than twelve percent of students change tutor a term", Agree, ""},
		{"the count said again", "Tutors",
			"Each tutor has at most 12 students.",
			"no tutor gets more than twelve students", Agree, ""},
		{"a count and a share side by side", "Group discount",
			"Groups of 10 people or more get a 10% discount.",
			"10 percent off for any group of ten or more people.", Agree, ""},
		{"a key's value", "Error alerts",
			"Alert when more than 5 errors occur in a minute.",
			"alert: errors_per_minute > 5", Agree, ""},
		{"a verb with its object", "Similarity referrals",
			"An essay with a similarity score above 30% is referred to the integrity officer.",
			"referral_threshold_pct = 30 # above 30 triggers it; refer to the integrity officer", Agree, ""},
	})
}

// "7 consecutive days" is a length of 7 days, as "7 days in a row" is:
// another unit after the same word changes it. "3 consecutive working
// days" keeps its kind of day.
func TestReadings37ConsecutiveUnit(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"days to hours", "Billboard slots",
			"Billboard slots are booked for at least 7 consecutive days.",
			"We can book the board for 7 consecutive hours on launch day.", Disagree, "7 consecutive hours"},
		{"days to weeks", "Leave",
			"Staff may take at most 10 consecutive days of leave.",
			"Max 10 consecutive weeks of leave for staff.", Disagree, "10 consecutive weeks"},
		{"hours to days", "Fasting",
			"Patients fast for 8 consecutive hours before surgery.",
			"Patients fast for 8 successive days before surgery.", Disagree, "8 successive days"},
		{"in a row", "Leave",
			"Staff may take at most 10 consecutive days of leave.",
			"No one takes more than 10 days of leave in a row.", Agree, ""},
		{"in hours", "Pitch closures",
			"The pitch closes after 3 consecutive days of rain.",
			"The pitch closes after 72 hours of rain without a break.", Agree, ""},
	})
}
