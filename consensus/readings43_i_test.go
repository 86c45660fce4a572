package consensus

import "testing"

// TestComparePositionsCaseSaidAsNotDone reads a position that says the
// filed rule's exception as a negation falling on no word of its own
// ("anyone who joined after 1 October doesn't get it", "Tenant who opted
// in to paperless letters, he does not get it"): the case the rule is not
// done for, as "unless they joined after 1 October" names it. A way out
// denied ("doesn't get you out of it") and a case put back into the rule
// stay a change.
func TestComparePositionsCaseSaidAsNotDone(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"late joiners do not get it", "Wellbeing allowance",
			"Every employee gets a £200 wellbeing allowance each year, unless they joined after 1 October.",
			"hey so everyone gets the £200 wellbeing money yearly; anyone who joined after 1 October doesn't get it", Agree, ""},
		{"volunteers nearby will not get it", "Season parking permits",
			"Volunteers receive a parking permit for the season, except volunteers who live within 1 km of the ground.",
			"Dear all, everyone volunteering gets a season parking permit. Volunteers living within 1 km of the ground will not get it. Kind regards, Pat", Agree, ""},
		{"the subject taken up by a pronoun", "Printed handbook",
			"Each new tenant is given a printed handbook at key handover, unless the tenant has opted into paperless letters.",
			"At key handover every new tenant gets the printed handbook. Tenant who opted in to paperless letters, he does not get it.", Agree, ""},
		{"an exempt case said as not getting that", "Welcome call",
			"The account manager phones every new client within 3 working days of signing, except clients on the self-serve tier.",
			"Account manager calls each new client within three working days after signing; self-serve tier clients don't get that.", Agree, ""},
		{"an exception said as not doing this", "Kit deposit",
			"Every player pays a £20 kit deposit at the start of the season, unless the player is under 12.",
			"£20 kit deposit from each player at season start; players under 12 don't do this.", Agree, ""},
		{"a statement by email said as not getting this", "Monthly statement",
			"The clinic posts a monthly statement to every patient with an open balance, unless the patient has chosen email statements.",
			"Every patient with an open balance gets a statement by post each month; patients who chose email statements do not get this.", Agree, ""},

		{"late joiners put back into the rule", "Wellbeing allowance",
			"Every employee gets a £200 wellbeing allowance each year, unless they joined after 1 October.",
			"Everyone gets the £200 wellbeing money each year, and people who joined after 1 October get it too.", Disagree, "exception dropped"},
		{"a statement posted even so", "Monthly statement",
			"The clinic posts a monthly statement to every patient with an open balance, unless the patient has chosen email statements.",
			"The clinic posts a monthly statement to every patient with an open balance, even when the patient has chosen email statements.", Disagree, ""},
		{"a way out denied, not a case set aside", "Garden plot inspections",
			"Plots less than 75 percent cultivated get a warning letter after a failed inspection, except tenants with a recorded medical exemption.",
			"under 75% cultivated = warning letter. and no, a medical exemption doesn't get you out of it", Disagree, "exemption"},
		{"the case itself barred, not excepted", "Kit deposit",
			"Players under 12 do not pay the kit deposit.",
			"Players under 12 pay the £20 kit deposit too.", Disagree, "pay"},
	})
}
